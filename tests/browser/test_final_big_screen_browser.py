"""The final as the room watches it (issue 34 §5): the public tables' big screen, the TD's
seating projector and the tournament page call it the final and give its one table the
screen, not a card a third as wide titled "Level 3"; the finished standings' big screen
shows a screenful of rows under the champion, not 2. At 1920 x 1080 (the tournament page
at 1366 x 768 and 360 px), in English and Swedish."""

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from tests.browser.helpers import log_in
from tests.tournament.conftest import play
from tournament.models import Table
from tournament.services import draws, registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIRST = ["Karl-Erik", "Anna-Karin", "Per-Olof", "Eva-Lotta", "Björn-Ulrik", "Ingrid-Maria"]
FIRST += ["Lars-Göran", "Sofia-Charlotte", "Maj-Britt"]
LAST = ["Lindqvist-Söderström", "Östergren-Wallenberg", "Fredriksson-Sjöholm"]
NAMES = [f"{first} {last}" for first in FIRST for last in LAST]  # 27 names of 19-36 letters
ONE_POLL = 4_000  # ms, at a poll every half second

WORDS = {
    "en": {
        "final": "Malmö Open · Final",
        "summary": "Level 2: 3 players, the winner is the champion.",
        "seating": "The final: find your seat",
        "heading": "Final",
    },
    "sv": {
        "final": "Malmö Open · Final",
        "summary": "Nivå 2: 3 spelare, vinnaren blir mästare.",
        "seating": "Finalen: hitta din plats",
        "heading": "Final",
    },
}


@pytest.fixture
def quick(settings):
    settings.PUBLIC_POLL_SECONDS = 0.5
    cache.clear()
    yield
    cache.clear()


def tournament_of(names, td_user):
    tournament = registration.create_tournament(actor=td_user, name="Malmö Open", min_hands=1)
    for name in names:
        registration.register_player(tournament=tournament, actor=td_user, name=name)
    return tournament, draws.draw_first_level(tournament=tournament, actor=td_user, seed="final")


def play_level(level):
    """Seat 0 of every table wins its one hand."""
    for table in Table.objects.current().filter(level=level).order_by("number"):
        play(table, *((6, -3, -3) if table.seats.count() == 3 else (3, -3)))


def screen(chromium_browser, live_server, language, width=1920, height=1080):
    context = chromium_browser.new_context(viewport={"width": width, "height": height})
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    return context


def font_px(locator):
    return locator.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")


@pytest.mark.parametrize("language", ["en", "sv"])
def test_the_tables_big_screen_left_open_becomes_the_final(
    quick, chromium_browser, live_server, td_user, language
):
    words = WORDS[language]
    tournament, level = tournament_of(NAMES[:9], td_user)  # 3 tables, then the final of 3
    context = screen(chromium_browser, live_server, language)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/t/{tournament.pk}/projector/tables/")
        expect(page.locator(".ptable")).to_have_count(3)
        with live_server.connections.held():  # the open page polls meanwhile
            play_level(level)
            draws.advance(tournament=tournament, actor=td_user)
        heading = page.get_by_role("heading", level=1)
        expect(heading).to_have_text(words["final"], timeout=ONE_POLL)
        expect(page.get_by_text(words["summary"])).to_be_visible()
        card = page.locator(".ptable")
        expect(card).to_have_count(1)
        grid = page.locator(".projector-grid").bounding_box()
        box = card.bounding_box()
        assert box["width"] >= 0.99 * grid["width"] and box["width"] >= 1600
        names = card.locator(".name")
        expect(names).to_have_count(3)
        for index in range(3):
            assert font_px(names.nth(index)) >= 60  # the board's is 40
            assert names.nth(index).bounding_box()["y"] + 80 <= 1080
        assert page.evaluate("document.documentElement.scrollWidth") <= 1920
    finally:
        context.close()


@pytest.mark.parametrize("language", ["en", "sv"])
def test_the_seating_projector_of_the_final(chromium_browser, live_server, td_user, language):
    words = WORDS[language]
    tournament, level = tournament_of(NAMES[:9], td_user)
    play_level(level)
    draws.advance(tournament=tournament, actor=td_user)
    context = chromium_browser.new_context(viewport={"width": 1920, "height": 1080})
    try:
        page = context.new_page()
        log_in(page, live_server)
        context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        page.goto(f"{live_server.url}/td/{tournament.pk}/levels/2/projector/")
        expect(page.get_by_role("heading", level=1)).to_have_text(words["seating"])
        seats = page.get_by_role("listitem")
        expect(seats).to_have_count(3)
        boxes = [seats.nth(index).bounding_box() for index in range(3)]
        assert len({round(box["x"]) for box in boxes}) == 1  # one column
        assert all(box["width"] >= 1600 for box in boxes)
        assert boxes[-1]["y"] + boxes[-1]["height"] <= 1080  # all on the screen
        assert font_px(seats.first.locator(".sf-name")) >= 60
    finally:
        context.close()


@pytest.mark.parametrize("language", ["en", "sv"])
@pytest.mark.parametrize(("width", "height"), [(1366, 768), (360, 740)])
def test_the_tournament_page_calls_it_the_final(
    chromium_browser, live_server, td_user, language, width, height
):
    words = WORDS[language]
    tournament, level = tournament_of(NAMES[:9], td_user)
    play_level(level)
    draws.advance(tournament=tournament, actor=td_user)
    context = screen(chromium_browser, live_server, language, width, height)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/t/{tournament.pk}/")
        expect(page.get_by_role("heading", level=2, name=words["heading"])).to_be_visible()
        expect(page.get_by_role("status").filter(has_text=words["summary"])).to_be_visible()
        card = page.locator(".ptable").bounding_box()
        main = page.locator("main").bounding_box()
        assert card["width"] >= min(0.6 * main["width"], 600)  # not a third of the page
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()


def first_page_rows(page, rows):
    """The rows the pager shows first, once it has measured them, and the room left below
    the last one."""
    expect(rows.first).to_be_visible()
    page.wait_for_timeout(300)  # the pager measures after the layout settles
    shown = [rows.nth(i) for i in range(rows.count()) if rows.nth(i).is_visible()]
    bottom = shown[-1].bounding_box()
    return shown, 1080 - (bottom["y"] + bottom["height"]), bottom["height"]


@pytest.mark.parametrize("language", ["en", "sv"])
def test_the_finished_standings_big_screen_shows_a_screenful(
    quick, chromium_browser, live_server, td_user, language
):
    """26 players of 28-36 letters, the champion of 36: the public big screen showed 2 rows
    under a champion's banner of 2 lines; the TD's is checked too."""
    tournament, level = tournament_of(NAMES[:26], td_user)
    for seed in ("final-1-5", "final-2-0", None):  # seeds that make the longest name win
        play_level(level)
        level = draws.advance(tournament=tournament, actor=td_user, seed=seed)
    assert level is None
    tournament.refresh_from_db()
    champion = tournament.champion.name
    assert champion == "Sofia-Charlotte Lindqvist-Söderström"  # 36 letters
    context = screen(chromium_browser, live_server, language)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/t/{tournament.pk}/projector/standings/")
        banner = page.locator(".projector-champion")
        expect(banner).to_contain_text(champion)
        line = banner.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)")
        assert banner.bounding_box()["height"] < 1.5 * line  # one line
        shown, left, row = first_page_rows(page, page.locator("tbody tr"))
        assert len(shown) >= 12
        assert left < 2 * row + 60  # no more room than a row (and the page's status line)
    finally:
        context.close()
    context = chromium_browser.new_context(viewport={"width": 1920, "height": 1080})
    try:
        page = context.new_page()
        log_in(page, live_server)
        page.goto(f"{live_server.url}/td/{tournament.pk}/standings/projector/")
        expect(page.locator(".champion-name")).to_have_text(champion)
        banner = page.locator(".projector .champion")
        line = banner.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)")
        assert banner.bounding_box()["height"] < 1.5 * line  # one line
        shown, left, row = first_page_rows(page, page.locator("tbody tr"))
        assert len(shown) >= 12
        assert left < 2 * row + 60
    finally:
        context.close()
