"""The spreadsheets the TD downloads (selectors/exports.py): cells a spreadsheet reads
as meant, the standings' rows and every hand's lines, worked out by hand."""

import datetime

import pytest
from django.utils import timezone, translation

from tests.tournament.conftest import play_named, positions, single_table
from tournament.selectors.exports import (
    hands_sheet,
    local_time,
    number_cell,
    standings_sheet,
    text_cell,
    yes_no,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ("Anna", "Anna"),
        ("=SUM(A1)", "'=SUM(A1)"),
        ("+46 70", "'+46 70"),
        ("-Bo", "'-Bo"),
        ("@home", "'@home"),
        ("\tx", "'\tx"),
        ("a=b", "a=b"),
        (None, ""),
        (7, "7"),
    ],
)
def test_a_text_cell_is_never_a_formula(value, cell):
    assert text_cell(value) == cell


def test_number_and_yes_no_cells():
    assert (number_cell(-15), number_cell(0), number_cell(None)) == (-15, 0, "")
    assert (yes_no(True), yes_no(False), yes_no(None)) == ("yes", "no", "")
    with translation.override("sv"):
        assert (yes_no(True), yes_no(False)) == ("ja", "nej")


def test_local_time_is_the_venue_s_clock():
    at = datetime.datetime(2026, 3, 7, 18, 5, 9, tzinfo=datetime.UTC)
    expected = timezone.localtime(at).strftime("%Y-%m-%d %H:%M:%S")
    assert local_time(at) == expected and local_time(None) == ""


@pytest.fixture
def played(make_tournament, td_user):
    """Anna (no. 1), Bo (no. 2), Cia (no. 3) at one table; one hand in points: Anna +6,
    Bo -2, Cia -4 (typed by the TD)."""
    tournament = make_tournament(3, min_hands=2, name="Vår Cup")
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 6, "Bo": -2, "Cia": -4}, actor=td_user)
    return tournament, table


def test_the_standings_sheet_while_play_goes_on(played):
    tournament, _table = played
    sheet = standings_sheet(tournament)
    assert sheet.header == ["Rank", "Start number", "Name", "Status", "Level", "Place", "Points"]
    # One hand of two: everyone still playing, ranked by the table's places.
    assert sheet.rows == [
        [1, 1, "Anna", "Still playing", 1, 1, 6],
        [2, 2, "Bo", "Still playing", 1, 2, -2],
        [3, 3, "Cia", "Still playing", 1, 3, -4],
    ]


def test_the_hands_sheet_has_a_line_per_player_in_seat_order(played, td_user):
    tournament, table = played
    # The fixed seed seats Cia, Anna, Bo; Cia deals the first hand.
    assert positions(table) == {"Cia": 0, "Anna": 1, "Bo": 2}
    assert table.first_dealer_position == 0
    sheet = hands_sheet(tournament)
    assert sheet.header[:6] == ["Level", "Table", "Hand", "Version", "Entry", "Dealer"]
    assert len(sheet.header) == 19 and sheet.header[-1] == "Correction reason"
    at = sheet.rows[0][17]
    # A hand in points says nothing of fouls, royalties or rows.
    lines = [
        [1, 1, 1, 1, "Points", "Cia", "Cia", 1, -4, "no", "no", "", "", "", "", ""],
        [1, 1, 1, 1, "Points", "Cia", "Anna", 2, 6, "no", "no", "", "", "", "", ""],
        [1, 1, 1, 1, "Points", "Cia", "Bo", 3, -2, "no", "no", "", "", "", "", ""],
    ]
    assert sheet.rows == [[*line, td_user.get_username(), at, ""] for line in lines]
    assert len(at) == len("2026-03-07 18:05:09")
