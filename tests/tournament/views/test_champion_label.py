"""The winner of the final table (the level's only table) is the champion, not "advances",
on every page that names a table's winner: public, projector, TD and the revisor's card."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournament.conftest import play_named, single_table
from tournament.models import Table
from tournament.services import draws

pytestmark = pytest.mark.django_db


def page(client, url, language="en"):
    client.cookies["django_language"] = language
    response = client.get(url)
    assert response.status_code == 200, url
    return re.sub(r"\s+", " ", response.content.decode())


@pytest.fixture
def final_table(make_tournament, td_user):
    """Three players, one table: Anna wins it after its one hand (the level is not closed)."""
    tournament = make_tournament(["Anna", "Bo", "Cia"], min_hands=1)
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 6, "Bo": -1, "Cia": -5})
    table.refresh_from_db()
    assert table.is_over and table.winner.name == "Anna"
    return tournament, table


@pytest.mark.parametrize(
    ("language", "champion", "list_label", "player_result"),
    [
        ("en", "Champion", "Champion:", "won the final table: champion"),
        ("sv", "Mästare", "Mästare:", "vann finalbordet: mästare"),
    ],
)
def test_the_public_pages_name_the_champion(
    final_table, language, champion, list_label, player_result
):
    tournament, table = final_table
    anna = tournament.players.get(name="Anna")
    badge = f'<span class="badge ok">{champion}</span>'
    html = page(Client(), reverse("public:tournament", args=[tournament.pk]), language)
    assert f"Anna</a> {badge}" in html
    assert f'<p class="advanced"> {list_label} <a' in html
    assert ">advances<" not in html and "går vidare" not in html
    html = page(Client(), reverse("public:table", args=[tournament.pk, table.pk]), language)
    assert badge in html and ">advances<" not in html and "går vidare" not in html
    html = page(Client(), reverse("public:tables_projector", args=[tournament.pk]), language)
    assert f"Anna</span> {badge}" in html
    html = page(Client(), reverse("public:player", args=[tournament.pk, anna.pk]), language)
    assert f'<span class="result">{player_result}</span>' in html


@pytest.mark.parametrize(
    ("language", "card", "dashboard", "revisor"),
    [
        (
            "en",
            "Anna wins the final table with 6 points and is the champion.",
            "Finished: Anna is the champion",
            "The table is over after 1 hand: Anna wins the final table and is the champion.",
        ),
        (
            "sv",
            "Anna vinner finalbordet med 6 poäng och är mästare.",
            "Klart: Anna är mästare",
            "Bordet är klart efter 1 hand: Anna vinner finalbordet och är mästare.",
        ),
    ],
)
def test_the_td_and_the_revisor_read_champion(
    final_table, td_client, language, card, dashboard, revisor
):
    tournament, table = final_table
    assert card in page(td_client, reverse("td:table", args=[tournament.pk, table.pk]), language)
    assert dashboard in page(td_client, reverse("td:tournament", args=[tournament.pk]), language)
    device = Client()
    device.get(reverse("revisor:link", args=[table.revisor_key]))
    html = page(device, reverse("revisor:card"), language)
    assert revisor in html
    assert "and advances" not in html and "går vidare" not in html


def test_after_the_level_closes_the_champion_stays_champion(final_table, td_user, td_client):
    tournament, table = final_table
    draws.advance(tournament=tournament, actor=td_user)
    tournament.refresh_from_db()
    assert tournament.champion.name == "Anna"
    html = page(Client(), reverse("public:tournament", args=[tournament.pk]))
    assert 'Anna</a> <span class="badge ok">Champion</span>' in html
    html = page(td_client, reverse("td:table", args=[tournament.pk, table.pk]))
    assert "Anna wins the final table with 6 points and is the champion." in html


def test_a_level_of_two_tables_still_advances(make_tournament, td_user, td_client):
    tournament = make_tournament(["Anna", "Bo", "Cia", "Dan", "Eva", "Fia"], min_hands=1)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="two")
    table = Table.objects.filter(level__tournament=tournament, number=1).get()
    names = [s.player.name for s in table.seats.select_related("player").order_by("position")]
    play_named(table, {names[0]: 6, names[1]: -1, names[2]: -5})
    html = page(Client(), reverse("public:tournament", args=[tournament.pk]))
    assert f'{names[0]}</a> <span class="badge ok">advances</span>' in html
    assert "Champion" not in html
    html = page(td_client, reverse("td:table", args=[tournament.pk, table.pk]))
    assert f"{names[0]} wins the table with 6 points." in html
    assert "champion" not in html.split("score-card-status", 1)[1][:400]
    device = Client()
    device.get(reverse("revisor:link", args=[table.revisor_key]))
    html = page(device, reverse("revisor:card"))
    assert f"The table is over after 1 hand: {names[0]} wins and advances." in html


def test_the_champions_own_page_search_and_standings_say_champion_before_the_level_closes(
    final_table,
):
    """His own page told him to wait for the draw of a level 2 that never comes."""
    tournament, table = final_table
    anna = tournament.players.get(name="Anna")
    html = page(Client(), reverse("public:player", args=[tournament.pk, anna.pk]))
    assert '<p class="where champion"><strong>Champion!</strong></p>' in html
    assert "the draw of level 2" not in html and "Won table" not in html
    html = page(Client(), reverse("public:find", args=[tournament.pk]) + "?q=Anna")
    assert "Champion!" in html and "the draw of level 2" not in html
    html = page(Client(), reverse("public:standings", args=[tournament.pk]))
    assert '<tr class="champion"><td class="num">1</td>' in html
    assert 'Anna</a> <span class="badge ok">champion</span>' in html
    tournament.refresh_from_db()
    assert tournament.champion is None  # the TD has not closed the level yet
