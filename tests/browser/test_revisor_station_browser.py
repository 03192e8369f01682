"""A tablet left on table 2 for the whole event (its station card printed once) follows
the table number from level to level without anyone touching it (issue 19 §7)."""

import re

import pytest

from tests.browser.axe import assert_no_serious_axe_violations
from tests.browser.helpers import tournament_with
from tests.tournament.conftest import play
from tournament.models import RevisorStation, Table
from tournament.services import draws
from tournament.services.revisor_stations import create_stations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Anna", "Bo", "Cia", "Dan", "Eva", "Filip", "Gun", "Hugo", "Ida", "Jon", "Kim", "Lo"]


def finish_level(tournament, skip=None):
    """One hand at every table still playing (min_hands=1): seat 0 wins."""
    points = {3: (4, -1, -3), 2: (2, -2)}
    level = draws.current_level(tournament)
    for table in Table.objects.current().filter(level=level, is_over=False).order_by("number"):
        if table.number != skip:
            play(table, *points[table.seats.count()])


WORDS = {
    "en": {
        "card": "Table {number} · level {level}",
        "points": "Points for {name}",
        "record": "Record hand 1",
        "recorded": "Hand 1 recorded",
        "keeps": "Level 2: this device now keeps table 2.",
        "idle": "Table 2 is not in use this level",
    },
    "sv": {
        "card": "Bord {number} · nivå {level}",
        "points": "Poäng för {name}",
        "record": "Registrera hand 1",
        "recorded": "Hand 1 registrerad",
        "keeps": "Nivå 2: den här enheten för nu protokoll för bord 2.",
        "idle": "Bord 2 används inte på den här nivån",
    },
}


def poll_now(page):
    # Coming back to the tab polls at once instead of in 5 seconds (static/js/poll.js).
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")


@pytest.mark.parametrize("language", ["en", "sv"])
def test_a_tablet_on_station_2_follows_its_table_across_levels(
    phone_page, live_server, td_user, language
):
    words = WORDS[language]
    # 12 players: level 1 is 4 tables of 3, level 2 is 2 tables of 2, level 3 one table.
    tournament, tables = tournament_with(NAMES, td_user, min_hands=1)
    assert [t.seats.count() for t in tables] == [3, 3, 3, 3]
    create_stations(tournament=tournament, actor=td_user)
    station = RevisorStation.objects.get(tournament=tournament, number=2)
    page = phone_page
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )

    page.goto(f"{live_server.url}/r/s/{station.key}/")
    page.wait_for_url(f"{live_server.url}/r/card/")
    page.get_by_role("heading", name=words["card"].format(number=2, level=1)).wait_for()

    # The revisor records table 2's one hand on the tablet; the other tables finish.
    seats = list(tables[1].seats.select_related("player").order_by("position"))
    for seat, points in zip(seats, (4, -1, -3), strict=True):
        page.get_by_label(words["points"].format(name=seat.player.name)).fill(str(points))
    page.get_by_role("button", name=words["record"]).click()
    page.get_by_text(words["recorded"]).first.wait_for()
    finish_level(tournament)
    level2 = draws.advance(tournament=tournament, actor=td_user, seed="two")
    assert Table.objects.current().filter(level=level2).count() == 2

    # The next poll opens level 2's table 2: no new link, no new code.
    poll_now(page)
    page.get_by_role("heading", name=words["card"].format(number=2, level=2)).wait_for()
    assert page.url == f"{live_server.url}/r/card/"
    assert words["keeps"] in page.get_by_role("status").first.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    # Level 3 has one table: the tablet says table 2 is not in use, and keeps waiting.
    finish_level(tournament)
    draws.advance(tournament=tournament, actor=td_user, seed="three")
    poll_now(page)
    page.get_by_role("heading", name=words["idle"]).wait_for()
    assert re.fullmatch(rf"{live_server.url}/r/station/", page.url)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert_no_serious_axe_violations(page)
