"""The dashboard's pace (issue 19 §1): the level's clock, each table's estimated finish,
the level's end, the tournament's, and the tables behind the pace sorted with those that
need a look. Hand times are set by hand (a fake clock); figures are worked out by hand
from the rules in tournament/rules/decisions.py ("Pace and estimated times")."""

import re
from datetime import datetime
from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournament.conftest import play
from tournament.models import Draw, Hand, Level, Table
from tournament.selectors.dashboard import dashboard
from tournament.services import calls, draws

pytestmark = pytest.mark.django_db


def at(clock):
    """Today at hh:mm[:ss], in the venue's time zone (the page shows local times)."""
    parts = [int(p) for p in clock.split(":")]
    day = timezone.localdate()
    return timezone.make_aware(datetime(day.year, day.month, day.day, *parts))


def tables_of(tournament, level=1):
    return {
        t.number: t
        for t in Table.objects.current().filter(level__tournament=tournament, level__number=level)
    }


def play_at(table, clocks):
    """Play a hand (no Fantasyland, no tie) for every time given, and date it then."""
    for clock in clocks:
        play(table, *([2, -1, -1][: table.seats.count()] if table.seats.count() == 3 else [2, -2]))
        table.refresh_from_db()
        Hand.objects.filter(table=table, number=table.hands_played).update(created_at=at(clock))


# Three tables of level 1 (min 20 hands), drawn at 12:00, looked at 12:40:
#   1: 12:10 12:12 12:14 12:17 12:35 12:38 -> 120 120 180 (pause 18 min left out) 180:
#      median 150 s (24/h), quartiles 120/180; 14 left: 12:38 + 14x2 min = 13:06,
#      12:38 + 14x3 min = 13:20.
#   2: 12:32 12:34 12:36 12:38 -> 120 x3 (30/h); 16 left: 12:38 + 32 min = 13:10 both.
#   3: 12:21 12:25 12:30 12:36 -> 240 300 360: median 300 s (12/h), quartiles 270/330;
#      16 left: earliest max(12:36 + 16x270 s = 13:48, 12:40 + 15x270 s = 13:47:30) = 13:48,
#      latest max(12:36 + 16x330 s = 14:04, 12:40 + 15x330 s = 14:02:30) = 14:04.
#      Behind the pace: 300 > 1.5 x median(150, 120) = 202.5. (1: 150 < 1.5 x 210; 2: no.)
#   The level ends with table 3: about 13:48-14:04. No table is silent (last hands 2-4 min).
HANDS = {
    1: ("12:10", "12:12", "12:14", "12:17", "12:35", "12:38"),
    2: ("12:32", "12:34", "12:36", "12:38"),
    3: ("12:21", "12:25", "12:30", "12:36"),
}


@pytest.fixture
def room(make_tournament, td_user):
    tournament = make_tournament(9)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="pace")
    Draw.objects.filter(level__tournament=tournament).update(
        created_at=at("12:00"), released_at=at("12:00")
    )
    tables = tables_of(tournament)
    for number, clocks in HANDS.items():
        play_at(tables[number], clocks)
    return tournament


def test_each_tables_pace_and_estimate(room):
    board = dashboard(room, now=at("12:40"))
    by_number = {row.table.number: row for row in board.tables}
    rates = {n: row.estimate.pace.hands_per_hour for n, row in by_number.items()}
    assert rates == {1: 24, 2: 30, 3: 12}
    finish = {n: (row.estimate.earliest, row.estimate.latest) for n, row in by_number.items()}
    assert finish == {
        1: (at("13:06"), at("13:20")),
        2: (at("13:10"), at("13:10")),
        3: (at("13:48"), at("14:04")),
    }
    assert [n for n, row in by_number.items() if row.lagging] == [3]
    assert not any(row.silent for row in board.tables)
    assert (board.level_end.earliest, board.level_end.latest) == (at("13:48"), at("14:04"))
    assert board.drawn_at == at("12:00") and board.level_minutes == 40
    assert board.tournament_end is None  # only from the second level on
    assert board.lagging == 1


def test_no_estimate_before_a_table_has_enough_hands(room, td_user):
    tournament = room
    table = tables_of(tournament)[2]
    Hand.objects.filter(table=table, number=1).update(created_at=at("12:00"))  # a pause now
    board = dashboard(tournament, now=at("12:40"))
    row = next(r for r in board.tables if r.table.number == 2)
    assert row.estimate is None and not row.lagging
    assert board.level_end is None


def page(client, tournament, clock, query=""):
    with mock.patch("django.utils.timezone.now", return_value=at(clock)):
        response = client.get(reverse("td:tournament", args=[tournament.pk]) + query)
    assert response.status_code == 200
    return response.content.decode()


def row_order(html):
    return [int(n) for n in re.findall(r'<tr class="dash-row [^"]*" id="table-(\d+)"', html)]


def test_the_page_shows_the_clock_the_estimates_and_sorts_the_laggard_first(td_client, room):
    html = page(td_client, room, "12:40")
    assert "40 min since the draw at 12:00" in html
    assert "Level ends" in html and "about 13:48–14:04" in html
    assert "24 hands/h" in html and "done about 13:06–13:20" in html
    assert "done about 13:10<" in html and "13:10–13:10" not in html  # table 2: one time
    assert "1 table behind the pace" in html and "Behind the pace" in html
    assert "Tournament ends" not in html
    assert row_order(html) == [3, 1, 2]  # needs a look first, the default
    assert row_order(page(td_client, room, "12:40", "?order=attention")) == [3, 1, 2]
    by_number = page(td_client, room, "12:40", "?order=number")
    assert row_order(by_number) == [1, 2, 3]
    assert '?order=number"' in by_number  # the poll keeps the order chosen
    assert row_order(page(td_client, room, "12:40", "?order=junk")) == [3, 1, 2]


def test_the_page_in_swedish(td_client, room):
    td_client.cookies["django_language"] = "sv"
    html = page(td_client, room, "12:40")
    assert "40 min sedan lottningen kl. 12:00" in html
    assert "Nivån slutar" in html and "omkring 13:48–14:04" in html
    assert "24 händer/h" in html and "klart omkring 13:06–13:20" in html
    assert "Efter i tempot" in html
    assert "Bord som behöver dig först" in html and "Efter bordsnummer" in html


def test_before_enough_hands_the_page_says_not_yet(td_client, room):
    Hand.objects.filter(table=tables_of(room)[2], number=1).update(created_at=at("12:00"))
    html = page(td_client, room, "12:40")
    assert "not yet: every table needs a few hands first" in html
    assert "no estimate yet" in html


def test_tournament_end_from_the_second_level(td_client, make_tournament, td_user):
    """27 players, min 5 hands: level 1's nine tables play out, level 1 closes at 12:50,
    level 2 (three tables) is drawn at 12:55: a changeover of 5 min. Level 2 at 13:10:
      a, b: 13:00 13:02 13:04 13:06 (120 s x3), 1 hand left: max(13:08, 13:10) = 13:10.
      c: 13:00 13:02 13:05 13:09 (120 180 240: quartiles 150/210), 1 left:
         earliest 13:09 + 150 s = 13:11:30, latest 13:09 + 210 s = 13:12:30.
    Level end 13:11:30-13:12:30. One level to come (3 tables -> 1): the room's 9 intervals
    (120 x7, 180, 240) have quartiles 120/120; 5 min + 5 hands x 2 min = 15 min:
    the tournament ends about 13:26:30-13:27:30."""
    tournament = make_tournament([f"Player {n}" for n in range(27)], min_hands=5)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="two levels")
    for table in tables_of(tournament).values():
        for _ in range(5):
            play(table, 3, -1, -2)
    draws.advance(tournament=tournament, actor=td_user, seed="level two")
    Level.objects.filter(tournament=tournament, number=1).update(closed_at=at("12:50"))
    Level.objects.filter(tournament=tournament, number=2).update(created_at=at("12:55"))
    Draw.objects.filter(level__tournament=tournament, level__number=2).update(
        created_at=at("12:55"), released_at=at("12:55")
    )
    level_two = tables_of(tournament, 2)
    play_at(level_two[1], ("13:00", "13:02", "13:04", "13:06"))
    play_at(level_two[2], ("13:00", "13:02", "13:04", "13:06"))
    play_at(level_two[3], ("13:00", "13:02", "13:05", "13:09"))
    board = dashboard(tournament, now=at("13:10"))
    assert (board.level_end.earliest, board.level_end.latest) == (at("13:11:30"), at("13:12:30"))
    end = board.tournament_end
    assert (end.earliest, end.latest) == (at("13:26:30"), at("13:27:30"))
    assert board.level_minutes == 15  # the level's clock runs from its own draw
    html = page(td_client, tournament, "13:10")
    assert "Tournament ends" in html and "about 13:26–13:27" in html
    assert "15 min since the draw at 12:55" in html


def test_the_final_table_the_tournament_ends_when_the_level_does(
    client, td_client, make_tournament, td_user
):
    """9 players, min 5 hands: level 1's three tables play out and close at 12:55; level 2
    is the final, one table, drawn and released at 13:00. Its hands at 13:02 13:04 13:06
    13:08 (120 s x3: quartiles 120/120), 1 hand left, looked at 13:09: it ends
    max(13:08 + 2 min, 13:09) = 13:10 at both ends. No level comes after one table, so the
    tournament ends when this level does: about 13:10, shown as one time, not 13:10–13:10,
    on the dashboard, the big screen and the table's page, in English and Swedish."""
    tournament = make_tournament([f"Player {n}" for n in range(9)], min_hands=5)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="final")
    for table in tables_of(tournament).values():
        for _ in range(5):
            play(table, 3, -1, -2)
    draws.advance(tournament=tournament, actor=td_user, seed="final two")
    Level.objects.filter(tournament=tournament, number=1).update(closed_at=at("12:55"))
    Draw.objects.filter(level__tournament=tournament, level__number=2).update(
        created_at=at("13:00"), released_at=at("13:00")
    )
    (final,) = tables_of(tournament, 2).values()
    play_at(final, ("13:02", "13:04", "13:06", "13:08"))
    board = dashboard(tournament, now=at("13:09"))
    assert (board.level_end.earliest, board.level_end.latest) == (at("13:10"), at("13:10"))
    assert board.tournament_end == board.level_end
    for language, words in (
        ("en", ("Level ends", "Tournament ends", "about 13:10<", "done about 13:10<")),
        ("sv", ("Nivån slutar", "Turneringen slutar", "omkring 13:10<", "klart omkring 13:10<")),
    ):
        td_client.cookies["django_language"] = language
        html = page(td_client, tournament, "13:09")
        assert all(word in html for word in words), language
        assert html.count("about 13:10<" if language == "en" else "omkring 13:10<") == 3
        assert "13:10–13:10" not in html
        client.cookies["django_language"] = language
        with mock.patch("django.utils.timezone.now", return_value=at("13:09")):
            screen = client.get(reverse("public:tables_projector", args=[tournament.pk]))
            card = client.get(reverse("public:table", args=[tournament.pk, final.pk]))
        ends = {
            "en": ("This level ends about 13:10<", "This table ends about 13:10<"),
            "sv": ("Nivån slutar omkring 13:10<", "Bordet slutar omkring 13:10<"),
        }[language]
        assert ends[0] in screen.content.decode() and ends[1] in card.content.decode()


# ---------------------------------------------------------------- on hold (issue 34 §4)


def clock_html(html):
    start = html.index('class="dash-clock"')
    return html[start : html.index("</dl>", start)]


def row_html(html, number):
    start = html.index(f'id="table-{number}"')
    return html[start : html.index("</tr>", start)]


def test_a_table_waiting_on_a_call_is_on_hold(td_client, room):
    """Table 2 calls the TD at 12:40: its 16 hands left can only start once the TD has
    answered, so at the earliest 12:40 + 16 x 2 min = 13:12 (played on it said 13:10),
    and no latest. The level ends with table 3 at the earliest, 13:48, with no latest."""
    calls.call_td(table=tables_of(room)[2], kind="dispute")
    board = dashboard(room, now=at("12:40"))
    row = next(r for r in board.tables if r.table.number == 2)
    assert row.estimate.on_hold
    assert (row.estimate.earliest, row.estimate.latest) == (at("13:12"), None)
    assert row.estimate.pace.hands_per_hour == 30  # its pace so far still shows
    assert (board.level_end.earliest, board.level_end.latest) == (at("13:48"), None)
    html = page(td_client, room, "12:40")
    assert "on hold: done 13:12 at the earliest" in row_html(html, 2)
    assert "done about" not in row_html(html, 2)
    assert "done about 13:06–13:20" in row_html(html, 1)  # the others play on
    assert "not before 13:48: a table is on hold" in clock_html(html)
    assert "about 13:48–14:04" not in clock_html(html)
    td_client.cookies["django_language"] = "sv"
    html = page(td_client, room, "12:40")
    assert "står still: klart tidigast 13:12" in row_html(html, 2)
    assert "inte före 13:48: ett bord står still" in clock_html(html)


def test_a_silent_table_is_on_hold(td_client, room):
    """At 12:47:30 table 3 has been quiet since 12:36 (11.5 min: silent), tables 1 and 2
    since 12:38 (9.5 min: not yet). Table 3's 16 hands at its quick 270 s from now: 12:47:30
    + 72 min = 13:59:30 at the earliest, no latest; the level's end the same."""
    board = dashboard(room, now=at("12:47:30"))
    rows = {r.table.number: r for r in board.tables}
    assert [n for n, r in rows.items() if r.silent] == [3]
    assert (rows[3].estimate.earliest, rows[3].estimate.latest) == (at("13:59:30"), None)
    assert not rows[1].estimate.on_hold and not rows[2].estimate.on_hold
    assert (board.level_end.earliest, board.level_end.latest) == (at("13:59:30"), None)
    html = page(td_client, room, "12:47:30")
    assert "on hold: done 13:59 at the earliest" in row_html(html, 3)
    assert "Silent for 11 min" in row_html(html, 3)
    assert "not before 13:59: a table is on hold" in clock_html(html)
