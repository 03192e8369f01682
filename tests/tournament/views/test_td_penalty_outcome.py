"""The penalty's confirmation says when its points hand a finished table to another player
(the rules deduct them there until the next level is drawn): a reviewer's TD gave a timeout
at a finished table and saw its winner change only afterwards."""

import pytest

from tests.tournament.conftest import play_named, single_table
from tests.tournament.views.test_td_tables_penalties import confirm, review, text
from tournament.models import Penalty

pytestmark = pytest.mark.django_db


def finished(make_tournament, td_user, points):
    tournament = make_tournament(3, min_hands=1)
    table = single_table(tournament, td_user)
    play_named(table, points, actor=td_user)
    table.refresh_from_db()
    assert table.is_over
    return tournament, table


def test_a_timeout_that_hands_the_table_to_another_says_so(make_tournament, td_user, td_client):
    # Anna 4, Bo -1, Cia -3: Anna wins; a timeout (10) leaves her at -6, under Bo's -1.
    tournament, table = finished(make_tournament, td_user, {"Anna": 4, "Bo": -1, "Cia": -3})
    response = review(td_client, tournament, table, "Anna", "timeout")
    page = text(response)
    assert "10 points come off at table 1: Anna goes from 4 to -6." in page
    assert "This changes who wins table 1: Bo, no longer Anna." in page
    confirm(td_client, tournament, table, response)
    table.refresh_from_db()
    assert table.winner.name == "Bo" and Penalty.objects.count() == 1


def test_a_timeout_that_ties_the_lead_says_the_table_plays_on(make_tournament, td_user, td_client):
    # Anna 9, Bo -1, Cia -8: a timeout leaves Anna at -1, level with Bo.
    tournament, table = finished(make_tournament, td_user, {"Anna": 9, "Bo": -1, "Cia": -8})
    page = text(review(td_client, tournament, table, "Anna", "timeout"))
    assert "Table 1 is then won by no one: " in page
    tied = page.split("Table 1 is then won by no one: ")[1].split(" are tied")[0]
    assert sorted(tied.split(" and ")) == ["Anna", "Bo"]  # "Anna and Bo are tied", no comma
    assert "so it plays on (or the TD settles the tie); Anna no longer wins it." in page


def test_a_penalty_that_changes_no_winner_says_nothing_of_it(make_tournament, td_user, td_client):
    tournament, table = finished(make_tournament, td_user, {"Anna": 4, "Bo": -1, "Cia": -3})
    page = text(review(td_client, tournament, table, "Cia", "timeout"))
    assert "10 points come off at table 1: Cia goes from -3 to -13." in page
    assert "wins table" not in page and "won by no one" not in page


def test_at_a_table_in_play_there_is_no_winner_to_change(make_tournament, td_user, td_client):
    tournament = make_tournament(3, min_hands=3)
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 4, "Bo": -1, "Cia": -3}, actor=td_user)
    page = text(review(td_client, tournament, table, "Anna", "timeout"))
    assert "wins table" not in page and "won by no one" not in page


def test_in_swedish(make_tournament, td_user, td_client):
    tournament, table = finished(make_tournament, td_user, {"Anna": 4, "Bo": -1, "Cia": -3})
    td_client.cookies["django_language"] = "sv"
    page = text(review(td_client, tournament, table, "Anna", "timeout"))
    assert "Det ändrar vem som vinner bord 1: Bo, inte längre Anna." in page
