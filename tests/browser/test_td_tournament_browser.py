"""A whole small tournament run through the TD's pages alone, by their labels and roles.

Four players: level 1 is two heads-up tables (4 = 3·0 + 2·2), one hand each
(minimum hands 1); the two winners meet at level 2; its winner is the champion.
"""

import re

import pytest

from tests.browser.helpers import log_in
from tournament.models import Hand, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def play_every_table(page):
    """From the live dashboard: at each table still playing, the TD records a hand.

    The first seat wins 5 from the second; returns the winners' names, table by table.
    """
    winners = []
    table_links = page.get_by_role("link", name=re.compile(r"^Table \d+$"))
    table_links.first.wait_for()  # the dashboard loaded: the link clicked may still be loading it
    tables = table_links.all_inner_texts()
    for name in tables:
        page.get_by_role("link", name=name, exact=True).click()
        labels = page.locator("label", has_text="Points for").all_inner_texts()
        players = [label.removeprefix("Points for ") for label in labels]
        assert len(players) == 2, players
        page.get_by_label(f"Points for {players[0]}").fill("5")
        page.get_by_label(f"Points for {players[1]}").fill("-5")
        page.get_by_role("button", name="Record hand 1").click()
        page.get_by_text(re.compile(f"{players[0]} wins")).first.wait_for()
        winners.append(players[0])
        page.get_by_role("link", name="Live", exact=True).click()
    return winners


def test_a_td_runs_a_tournament_from_creation_to_champion(page_on_laptop, live_server, td_user):
    page = page_on_laptop
    log_in(page, live_server)

    page.get_by_role("link", name="New tournament").click()
    page.get_by_label("Name", exact=True).fill("Klubbmästerskap")
    page.get_by_label("Minimum hands per table").fill("1")
    page.get_by_role("button", name="Create tournament").click()
    page.wait_for_url("**/players/")

    page.get_by_label("Players, one name a line").fill("Anna\nBo\nCia\nDan\n")
    page.get_by_role("button", name="Register the list").click()
    page.get_by_role("link", name="Go to the draw").click()
    assert "4 players" in page.content()
    page.get_by_role("button", name="Draw level 1").click()

    page.get_by_role("link", name="Live", exact=True).click()
    first_winners = play_every_table(page)
    assert len(first_winners) == 2
    page.get_by_role("link", name="Close level and draw the next").click()
    page.get_by_role("button", name="Close level 1 and draw level 2").click()

    page.get_by_role("link", name="Live", exact=True).click()
    (champion,) = play_every_table(page)
    assert champion in first_winners
    page.get_by_role("link", name="Close level and name the champion").click()
    page.get_by_role("button", name="Close level 2 and name the champion").click()

    page.wait_for_url("**/standings/")
    assert re.search(f"Champion[^<]*{champion}|{champion}[^<]*champion", page.content(), re.I)
    tournament = Tournament.objects.get(name="Klubbmästerskap")
    assert tournament.champion.name == champion and tournament.finished_at is not None
    assert Hand.objects.filter(table__level__tournament=tournament).count() == 3


@pytest.fixture
def page_on_laptop(chromium_browser, live_server):
    context = chromium_browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    yield page
    context.close()
