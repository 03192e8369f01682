"""Every projector and players' page shows the TD's announcement and drops it when he
withdraws it, at its next poll (issue 34 §2), also where what the page shows is settled:
the seating projector once the first hand is in, an earlier level, a closed level's score
card, "Where do I sit?" before a name is typed. The pages are opened first and left open;
the TD announces, then withdraws, from his laptop. Phones at 360 px, big screens at
1920 x 1080, in English and Swedish."""

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from tests.browser.helpers import log_in
from tests.tournament.conftest import play
from tournament.models import Player, Table
from tournament.services import draws, registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Karl-Erik Lindqvist-Söderström",
    "Björk Ek",
    "Åsa-Märta Östergren",
    "Dan Berg",
    "Eva Holm",
    "Filip Nyström",
]
PUBLIC_POLL = 0.5  # seconds, the players' pages here (5 in the room)
ONE_PUBLIC_POLL = 4_000  # ms: a poll, its answer and its swap, with room to spare
TD_POLL = 1  # seconds, the TD's projectors here (5 in the room)
ONE_TD_POLL = 9_000  # ms: the TD's projectors' poll, with room to spare
TEXT = "Prize-giving at 19:00 in the bar"

WORDS = {
    "en": ("Announce something to the room", "Message", "Announce", "Withdraw the announcement"),
    "sv": ("Meddela något till salen", "Meddelande", "Meddela", "Ta bort meddelandet"),
}


@pytest.fixture
def quick(settings):
    settings.PUBLIC_POLL_SECONDS = PUBLIC_POLL
    settings.TD_POLL_SECONDS = TD_POLL
    cache.clear()
    yield
    cache.clear()


def in_play(td_user):
    """Level 1 (2 tables of 3) played and closed; level 2, the final of 2, has its first
    hand. Returns (tournament, a table of level 1, a player)."""
    tournament = registration.create_tournament(actor=td_user, name="Malmö Open", min_hands=2)
    for name in NAMES:
        registration.register_player(tournament=tournament, actor=td_user, name=name)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="everywhere")
    tables = list(Table.objects.current().filter(level=level).order_by("number"))
    for table in tables:
        play(table, 6, -3, -3)
        play(table, 0, 0, 0)
    final_level = draws.advance(tournament=tournament, actor=td_user)
    (final,) = Table.objects.current().filter(level=final_level)
    play(final, 2, -2)
    return tournament, tables[0], Player.objects.get(tournament=tournament, name=NAMES[1])


@pytest.mark.parametrize("language", ["en", "sv"])
def test_every_projector_and_players_page_follows_the_announcement(
    quick, chromium_browser, live_server, td_user, language
):
    tournament, old_table, player = in_play(td_user)
    t = f"{live_server.url}/t/{tournament.pk}"
    td_base = f"{live_server.url}/td/{tournament.pk}"
    phone_paths = [
        f"{t}/",
        f"{t}/?level=1",  # an earlier level: nothing of it changes any more
        f"{t}/find/",  # nothing typed yet
        f"{t}/find/?q=ek",
        f"{t}/standings/",
        f"{t}/table/{old_table.pk}/",  # a closed level's card
        f"{t}/player/{player.pk}/",  # out at level 1
    ]
    screen_paths = [f"{t}/projector/tables/", f"{t}/projector/standings/"]
    td_screen_paths = [
        f"{td_base}/levels/2/projector/",  # its first hand is in
        f"{td_base}/levels/1/projector/",
        f"{td_base}/standings/projector/",
    ]
    cookie = [{"name": "django_language", "value": language, "url": live_server.url}]
    phones = chromium_browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    screens = chromium_browser.new_context(viewport={"width": 1920, "height": 1080})
    td = chromium_browser.new_context(viewport={"width": 1920, "height": 1080})
    laptop = chromium_browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        opened = []
        for context, paths, timeout in (
            (phones, phone_paths, ONE_PUBLIC_POLL),
            (screens, screen_paths, ONE_PUBLIC_POLL),
            (td, td_screen_paths, ONE_TD_POLL),
        ):
            if context is td:
                log_in(context.new_page(), live_server)  # the login page in English
            context.add_cookies(cookie)
            for path in paths:
                page = context.new_page()
                page.goto(path)
                expect(page.get_by_text(TEXT)).to_have_count(0)
                page.evaluate("window.notReloaded = true")
                opened.append((page, path, timeout))

        words = WORDS[language]
        office = laptop.new_page()
        log_in(office, live_server)
        laptop.add_cookies(cookie)
        office.goto(f"{td_base}/")
        office.get_by_role("link", name=words[0]).click()
        office.get_by_label(words[1], exact=True).fill(TEXT)
        office.get_by_role("button", name=words[2], exact=True).click()
        withdraw = office.get_by_role("button", name=words[3])
        expect(withdraw).to_be_visible()
        for page, path, timeout in opened:
            expect(page.get_by_role("status").filter(has_text=TEXT), path).to_be_visible(
                timeout=timeout
            )
            assert page.evaluate("window.notReloaded") is True, path

        withdraw.click()
        expect(office.get_by_role("button", name=words[3])).to_have_count(0)
        for page, path, timeout in opened:
            expect(page.get_by_text(TEXT), path).to_have_count(0, timeout=timeout)
            assert page.evaluate("window.notReloaded") is True, path
    finally:
        for context in (phones, screens, td, laptop):
            context.close()
