"""A held draw on the players' phones (issue 34 §2), at 360 px, in English and Swedish: a
table's winner follows himself on his phone; the TD closes the level and holds the next
draw; across the polls of the hold his page still says he won his table and waits for the
draw, nothing vibrates, and a warning the TD gives him then names no table; at the release
the banner gives his new seat and the warning its table, at the next poll. The tournament
page left open through the hold shows the new level at the release, without a reload.
navigator.vibrate and AudioContext are stubs that record their calls (test_my_table_browser)."""

import re

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from tests.browser.test_my_table_browser import RECORDER
from tests.tournament.conftest import play
from tournament.models import Seat, Table
from tournament.services import draws, penalties, registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Karl-Erik Lindqvist-Söderström",
    "Björk Ek",
    "Åsa-Märta Östergren",
    "Dan Berg",
    "Eva Holm",
    "Filip Nyström",
    "Gun Åkesson",
    "Hugo Lind",
    "Ida Persson-Karlsson",
    "Jon Öberg",
    "Kim Sjöholm",
    "Lo Wallenberg",
]
POLL = 0.5  # seconds between a phone's polls here (5 in the room)
ONE_POLL = 4_000  # ms: a poll, its answer and the page's swap, with room to spare

WORDS = {
    "en": {
        "follow": "Follow me on this phone",
        "stop": "Stop following",
        "won": "Won table {table} at level 1.",
        "next": (
            "Next: the draw of level 2, which the TD makes once every table of this level is over."
        ),
        "out": "You are out of the tournament.",
        "held warning": "level 2, before the first hand",
        "warning": "level 2, table {table}, before the first hand",
        "seat": "New seat: level 2, table {table}, seat {seat}.",
        "level 2": "Level 2",
    },
    "sv": {
        "follow": "Följ mig på den här telefonen",
        "stop": "Sluta följa",
        "won": "Vann bord {table} på nivå 1.",
        "next": (
            "Härnäst: lottningen till nivå 2, som TL gör när alla bord på den här nivån är klara."
        ),
        "out": "Du är ute ur turneringen.",
        "held warning": "nivå 2, före första handen",
        "warning": "nivå 2, bord {table}, före första handen",
        "seat": "Ny plats: nivå 2, bord {table}, plats {seat}.",
        "level 2": "Nivå 2",
    },
}


@pytest.fixture
def quick(settings):
    settings.PUBLIC_POLL_SECONDS = POLL
    cache.clear()
    yield
    cache.clear()


def level_one_over(td_user):
    """12 players, level 1 (released) played out: seat 0 of each of its 4 tables won.
    Returns (tournament, level 1, the winner of table 2)."""
    tournament = registration.create_tournament(
        actor=td_user, name="Malmö Open", min_hands=1, release_draws_at_once=False
    )
    for name in NAMES:
        registration.register_player(tournament=tournament, actor=td_user, name=name)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="held-phone")
    draws.release_draw(level=level, actor=td_user)
    tables = list(Table.objects.current().filter(level=level).order_by("number"))
    for table in tables:
        play(table, 6, -3, -3)
    return tournament, level, tables[1].seats.get(position=0).player


def in_language(page, live_server, language):
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )


def polls_of(page, path):
    """The polls the page sends to `path`, counted as they are answered."""
    answered = []
    page.on("response", lambda r: answered.append(r) if path in r.url and "rev=" in r.url else None)
    return answered


@pytest.mark.parametrize("language", ["en", "sv"])
def test_a_followed_winner_hears_nothing_until_the_release(
    quick, phone_page, live_server, td_user, language
):
    words = WORDS[language]
    tournament, _level, me = level_one_over(td_user)
    phone = phone_page
    phone.add_init_script(RECORDER)
    in_language(phone, live_server, language)
    path = f"/t/{tournament.pk}/player/{me.pk}/"
    phone.goto(live_server.url + path)
    phone.get_by_role("button", name=words["follow"]).click()  # the tap that allows sound
    expect(phone.get_by_role("button", name=words["stop"])).to_be_visible()
    page = phone.locator("#live")
    expect(page).to_contain_text(words["won"].format(table=2))
    expect(page).to_contain_text(words["next"])
    phone.evaluate("window.notReloaded = true")

    # The TD closes level 1: level 2 is drawn and held. He also warns me meanwhile.
    polls = polls_of(phone, path)
    draws.advance(tournament=tournament, actor=td_user)
    penalties.give_penalty(tournament=tournament, player=me, kind="slow", actor=td_user)
    expect(page).to_contain_text(words["held warning"], timeout=ONE_POLL)
    answered = len(polls)
    phone.wait_for_timeout(4 * POLL * 1000)  # several polls of the hold
    assert len(polls) >= answered + 2
    expect(page).to_contain_text(words["won"].format(table=2))
    expect(page).to_contain_text(words["next"])
    expect(page).not_to_contain_text(words["out"])
    assert not re.search(r"(level|nivå) 2, (table|bord)", page.inner_text())
    expect(phone.get_by_role("alert")).to_be_hidden()
    assert phone.evaluate("window.calls.vibrate.length") == 0
    assert phone.evaluate("window.calls.beeps") == 0

    # The release: at the next poll the banner says where I sit, the phone vibrates once.
    draws.release_draw(level=tournament.levels.get(number=2), actor=td_user)
    seat = Seat.objects.current().select_related("table").get(player=me, table__level__number=2)
    banner = phone.get_by_role("alert")
    expect(banner).to_contain_text(
        words["seat"].format(table=seat.table.number, seat=seat.position + 1), timeout=ONE_POLL
    )
    expect(page).to_contain_text(words["warning"].format(table=seat.table.number))
    assert phone.evaluate("window.calls.vibrate.length") == 1
    assert phone.evaluate("window.notReloaded") is True
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360


@pytest.mark.parametrize("language", ["en", "sv"])
def test_the_tournament_page_left_open_shows_the_released_level(
    quick, phone_page, live_server, td_user, language
):
    words = WORDS[language]
    tournament, _level, _me = level_one_over(td_user)
    draws.advance(tournament=tournament, actor=td_user)
    phone = phone_page
    in_language(phone, live_server, language)
    phone.goto(f"{live_server.url}/t/{tournament.pk}/")
    expect(phone.get_by_role("heading", name=words["level 2"])).to_have_count(0)
    phone.evaluate("window.notReloaded = true")
    phone.wait_for_timeout(3 * POLL * 1000)  # a page of the hold: it polls on
    assert phone.locator("[data-poll-stop]").count() == 0
    draws.release_draw(level=tournament.levels.get(number=2), actor=td_user)
    heading = phone.get_by_role("heading", name=words["level 2"], exact=True)
    expect(heading).to_be_visible(timeout=ONE_POLL)
    expect(phone.locator(".ptable")).to_have_count(2)
    assert phone.evaluate("window.notReloaded") is True
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
