"""The CSV exports are separated as a spreadsheet of the reader's language expects:
commas in English, semicolons in Swedish (Excel in a Swedish locale splits at semicolons,
the comma being its decimal sign). Both keep the UTF-8 byte order mark."""

import csv
import io

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournament.conftest import play_named, positions, single_table
from tournament.models import HandVersion
from tournament.services import draws

pytestmark = pytest.mark.django_db

BOM = "\ufeff"


@pytest.fixture
def finished(make_tournament, td_user):
    """Åsa Öberg (no. 1), "Berg, Anna" (no. 2) and "Ek; Bo" (no. 3) at one table of one
    hand: Ek; Bo +7, Åsa Öberg -3, Berg, Anna -4. The level closes: Ek; Bo is the champion,
    Åsa Öberg second, Berg, Anna third."""
    tournament = make_tournament(
        players=["Åsa Öberg", "Berg, Anna", "Ek; Bo"], min_hands=1, name="Kalmar Kvällsspel"
    )
    table = single_table(tournament, td_user)
    play_named(table, {"Ek; Bo": 7, "Åsa Öberg": -3, "Berg, Anna": -4}, actor=td_user)
    draws.advance(tournament=tournament, actor=td_user)
    return tournament, table


def get(client, name, tournament, language):
    client.cookies["django_language"] = language
    response = client.get(reverse(f"td:{name}", args=[tournament.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response.content.startswith(b"\xef\xbb\xbf")  # the BOM, in UTF-8, in both
    return response.content.decode("utf-8")


def test_standings_in_english_are_comma_separated(td_client, finished):
    tournament, _table = finished
    assert get(td_client, "standings_csv", tournament, "en") == (
        BOM + "Rank,Start number,Name,Status,Level,Place,Points\r\n"
        "1,3,Ek; Bo,Champion,1,1,7\r\n"
        "2,1,Åsa Öberg,Out,1,2,-3\r\n"
        '3,2,"Berg, Anna",Out,1,3,-4\r\n'
    )


def test_standings_in_swedish_are_semicolon_separated(td_client, finished):
    tournament, _table = finished
    # The name holding the separator is quoted, the one holding a comma no longer is;
    # the numbers are plain whole numbers, as Excel in Swedish reads them.
    assert get(td_client, "standings_csv", tournament, "sv") == (
        BOM + "Placering;Startnummer;Namn;Status;Nivå;Placering vid bordet;Poäng\r\n"
        '1;3;"Ek; Bo";Mästare;1;1;7\r\n'
        "2;1;Åsa Öberg;Ute;1;2;-3\r\n"
        "3;2;Berg, Anna;Ute;1;3;-4\r\n"
    )


def hand_lines(finished):
    """Each player's line of the one hand, as its cells, whatever seats the draw gave."""
    tournament, table = finished
    seat = {name: position + 1 for name, position in positions(table).items()}
    dealer = next(name for name, position in positions(table).items() if position == 0)
    assert table.first_dealer_position == 0
    version = HandVersion.objects.current().get(hand__table=table)
    at = timezone.localtime(version.created_at).strftime("%Y-%m-%d %H:%M:%S")
    points = {"Ek; Bo": "7", "Åsa Öberg": "-3", "Berg, Anna": "-4"}
    return seat, {
        name: ["1", "1", "1", "1", None, dealer, name, str(seat[name]), points[name], None, None,
               "", "", "", "", "", "director", at, ""]
        for name in points
    }  # fmt: skip


def test_hands_in_both_languages(td_client, finished):
    tournament, _table = finished
    seat, lines = hand_lines(finished)
    english = get(td_client, "hands_csv", tournament, "en")
    assert english.splitlines()[0] == (
        BOM + "Level,Table,Hand,Version,Entry,Dealer,Player,Seat,Points,In Fantasyland,"
        "To Fantasyland next,Fouled,Royalties,Front,Middle,Back,Entered by,At,Correction reason"
    )
    swedish = get(td_client, "hands_csv", tournament, "sv")
    assert swedish.splitlines()[0] == (
        BOM + "Nivå;Bord;Hand;Version;Registrering;Dealer;Spelare;Plats;Poäng;I Fantasyland;"
        "Till Fantasyland nästa hand;Bust;Royalties;Toppen;Mitten;Botten;Registrerad av;Tid;"
        "Skäl till rättelse"
    )
    for text, delimiter, words in (
        (english, ",", ("Points", "no")),
        (swedish, ";", ("Poäng", "nej")),
    ):
        rows = list(csv.reader(io.StringIO(text[1:], newline=""), delimiter=delimiter))
        assert len(rows) == 4 and all(len(row) == 19 for row in rows)
        expected = {
            name: [words[0] if i == 4 else words[1] if i in (9, 10) else cell
                   for i, cell in enumerate(line)]
            for name, line in lines.items()
        }  # fmt: skip
        assert sorted(rows[1:], key=lambda row: row[7]) == sorted(
            expected.values(), key=lambda row: row[7]
        )
    # The Swedish file is split at semicolons only: "Berg, Anna" stays one cell, unquoted.
    assert f";Berg, Anna;{seat['Berg, Anna']};-4;" in swedish
    assert ';"Ek; Bo";' in swedish
