"""The seating for the room (projector) and on paper (print): by name, Swedish order."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.tournament.conftest import play
from tournament.models import Table
from tournament.services import draws
from tournament.views.td.draws import _list_size

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[3]

# Worked out by hand: a-z first (É as E, case ignored), then Å, Ä, Ö; "Öberg" before "Örjan".
NAMES = ["Örjan", "Åsa", "Zlatan", "ärla", "Adam", "Émile", "Eva", "Öberg", "Bo", "Åke"]
SWEDISH_ORDER = ["Adam", "Bo", "Émile", "Eva", "Zlatan", "Åke", "Åsa", "ärla", "Öberg", "Örjan"]


def url(name, tournament, *args):
    return reverse(name, args=[tournament.pk, *args])


def finder(html):
    """(name, table, seat) in the order the projector lists them."""
    return [
        (name, int(table), int(seat))
        for name, table, seat in re.findall(
            r'<span class="sf-name">([^<]+)</span>\s*'
            r'<span class="sf-place">Table (\d+) · Seat (\d+)',
            html,
        )
    ]


@pytest.fixture
def room(make_tournament, td_user):
    tournament = make_tournament(NAMES, name="Malmö Open")
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="room")
    return tournament


def seat_map(tournament):
    return {
        s.player.name: (s.table.number, s.position + 1)
        for table in Table.objects.current().filter(level__tournament=tournament)
        for s in table.seats.select_related("player", "table")
    }


def test_the_projector_lists_every_player_by_name_with_table_and_seat(td_client, room):
    response = td_client.get(url("td:level_projector", room, 1))
    html = response.content.decode()
    assert response.status_code == 200
    listed = finder(html)
    assert [name for name, _, _ in listed] == SWEDISH_ORDER
    seats = seat_map(room)
    assert {name: (table, seat) for name, table, seat in listed} == seats
    assert "Level 1: find your seat" in html and "10 players at 4 tables" in html
    # No navigation, nothing to click; large type from the projector layout.
    assert 'class="projector"' in html
    assert "<nav" not in html and "<form" not in html and "<a " not in html
    assert "css/projector.css" in html and "css/td-draws.css" in html
    assert 'class="seat-finder size-l"' in html


def test_the_projector_polls_by_the_tournaments_revision(td_client, td_user, room):
    page = td_client.get(url("td:level_projector", room, 1))
    html = page.content.decode()
    rev = re.search(r'data-poll-rev="([^"]+)"', html).group(1)
    assert f'data-poll-url="{url("td:level_projector", room, 1)}"' in html
    assert "data-poll-stop" not in html
    # Nothing changed: 204 after one query (the revision token).
    poll = td_client.get(
        url("td:level_projector", room, 1), {"rev": rev}, headers={"HX-Request": "true"}
    )
    assert poll.status_code == 204 and "HX-Request" in poll["Vary"]
    # A redraw: the poll brings the new seating alone, without the page around it.
    draws.redraw_level(level=room.levels.get(), actor=td_user, reason="Wrong", seed="again")
    fresh = td_client.get(
        url("td:level_projector", room, 1), {"rev": rev}, headers={"HX-Request": "true"}
    )
    body = fresh.content.decode()
    assert fresh.status_code == 200 and "HX-Request" in fresh["Vary"]
    assert body.lstrip().startswith('<div id="seating"') and "<html" not in body
    assert {n: (t, s) for n, t, s in finder(body)} == seat_map(room)
    # The first hand locks the draw and changes nothing the projector shows: its poll is
    # still answered 204, and it polls on (the TD's announcements, issue 34 §2).
    rev = re.search(r'data-poll-rev="([^"]+)"', body).group(1)
    play(Table.objects.current().get(level__tournament=room, number=1), 2, -2, 0, actor=td_user)
    after_hand = td_client.get(
        url("td:level_projector", room, 1), {"rev": rev}, headers={"HX-Request": "true"}
    )
    assert after_hand.status_code == 204
    locked = td_client.get(url("td:level_projector", room, 1), headers={"HX-Request": "true"})
    assert "data-poll-stop" not in locked.content.decode()


def test_a_long_list_gets_smaller_type_in_more_columns(td_client, make_tournament, td_user):
    tournament = make_tournament([f"Spelare {n:03d}" for n in range(1, 61)])
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="big")
    html = td_client.get(url("td:level_projector", tournament, 1)).content.decode()
    assert 'class="seat-finder size-m"' in html and len(finder(html)) == 60
    assert [_list_size(n) for n in (2, 24, 25, 60, 61, 150, 151, 300)] == [
        "l",
        "l",
        "m",
        "m",
        "s",
        "s",
        "xs",
        "xs",
    ]
    css = (ROOT / "static/css/td-draws.css").read_text()
    # Never smaller than the big screen's smallest type: 2 columns, paging (h4, issue 17).
    assert ".seat-finder.size-s, .seat-finder.size-xs { column-count: 2; font-size: .7em; }" in css


def test_the_print_view_has_name_level_seed_and_the_list(td_client, room):
    response = td_client.get(url("td:level_print", room, 1))
    html = response.content.decode()
    assert response.status_code == 200
    assert "<h1>Malmö Open</h1>" in html and "Level 1: seating" in html
    assert '<code class="seed">room</code>' in html
    by_name = html[html.index('class="print-by-name"') : html.index('class="print-by-table"')]
    assert [name for name, _, _ in finder(by_name)] == SWEDISH_ORDER
    assert {n: (t, s) for n, t, s in finder(by_name)} == seat_map(room)
    assert html.count('<div class="table-seats">') == 4
    assert 'class="td seating-print"' in html and "js/td-draws.js" in html
    assert '<button type="button" data-print hidden>Print this page</button>' in html
    css = (ROOT / "static/css/td-draws.css").read_text()
    assert "@media print" in css and "size: A4" in css


def test_the_print_view_of_a_redone_draw_shows_the_current_one(td_client, td_user, room):
    draws.redraw_level(level=room.levels.get(), actor=td_user, reason="Wrong", seed="again")
    html = td_client.get(url("td:level_print", room, 1)).content.decode()
    assert '<code class="seed">again</code>' in html and "Draw 2" in html
    by_name = html[html.index('class="print-by-name"') : html.index('class="print-by-table"')]
    assert {n: (t, s) for n, t, s in finder(by_name)} == seat_map(room)
