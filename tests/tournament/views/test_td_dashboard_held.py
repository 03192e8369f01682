"""A held draw and the dashboard's clocks (issue 19 §1, §3, §5): no table is silent while
its seating is held; after the release a table's quiet time counts from the later of its
last hand and the release, and the level's clock runs from the release. A fake clock:
nine players at three tables, drawn (held) at 12:00, released at 12:30."""

from datetime import datetime, timedelta
from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournament.conftest import play
from tournament.models import Draw, Hand, Level, Table
from tournament.selectors.dashboard import changeover, dashboard
from tournament.services import draws

pytestmark = pytest.mark.django_db


def at(clock):
    """Today at hh:mm, in the venue's time zone (the page shows local times)."""
    hours, minutes = (int(p) for p in clock.split(":"))
    day = timezone.localdate()
    return timezone.make_aware(datetime(day.year, day.month, day.day, hours, minutes))


def run_at(clock, action):
    with mock.patch("django.utils.timezone.now", return_value=at(clock)):
        return action()


@pytest.fixture
def held(make_tournament, td_user):
    tournament = make_tournament(
        [f"Player {n}" for n in range(9)], min_hands=20, release_draws_at_once=False
    )
    level = run_at(
        "12:00",
        lambda: draws.draw_first_level(tournament=tournament, actor=td_user, seed="held"),
    )
    return tournament, level


def release(level, td_user, clock="12:30"):
    run_at(clock, lambda: draws.release_draw(level=level, actor=td_user))


def page(client, tournament, clock, language="en"):
    client.cookies["django_language"] = language
    with mock.patch("django.utils.timezone.now", return_value=at(clock)):
        response = client.get(reverse("td:tournament", args=[tournament.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_no_table_is_silent_while_the_draw_is_held(held):
    tournament, _level = held
    board = dashboard(tournament, now=at("12:30"))
    assert board.held and len(board.tables) == 3
    assert board.silent == 0 and not any(row.silent for row in board.tables)
    assert board.alerts == ()
    assert board.released_at is None and board.level_minutes == 0  # the clock waits


def test_after_the_release_quiet_time_counts_from_it(held, td_user):
    """Released 12:30: at 12:31 one minute quiet, nothing silent; at 12:40 ten minutes,
    still not (more than ten); at 12:41 eleven, all three silent, keyed by the release."""
    tournament, level = held
    release(level, td_user)
    board = dashboard(tournament, now=at("12:31"))
    assert not board.held and board.silent == 0 and board.alerts == ()
    assert [row.minutes_quiet for row in board.tables] == [1, 1, 1]
    assert (board.drawn_at, board.released_at, board.level_minutes) == (at("12:00"), at("12:30"), 1)
    assert dashboard(tournament, now=at("12:40")).silent == 0
    board = dashboard(tournament, now=at("12:41"))
    assert board.silent == 3 and [row.minutes_quiet for row in board.tables] == [11, 11, 11]
    stamp = int(at("12:30").timestamp())
    assert [a.key for a in board.alerts] == [
        f"silent-{row.table.pk}-{stamp}"
        for row in sorted(board.tables, key=lambda r: r.table.number)
    ]


def test_a_hand_after_the_release_restarts_the_quiet_time(held, td_user):
    """Table 1's hand at 12:35: at 12:44 it is 9 minutes quiet (the others 14, silent)."""
    tournament, level = held
    release(level, td_user)
    (table,) = Table.objects.current().filter(level=level, number=1)
    play(table, 2, -1, -1)
    Hand.objects.filter(table=table).update(created_at=at("12:35"))
    board = dashboard(tournament, now=at("12:44"), order="number")
    assert [(row.minutes_quiet, row.silent) for row in board.tables] == [
        (9, False),
        (14, True),
        (14, True),
    ]


def test_the_page_says_held_then_runs_the_clock_from_the_release(td_client, held, td_user):
    tournament, level = held
    html = page(td_client, tournament, "12:30")
    assert "held: drawn at 12:00; the clock starts when you release the seating" in html
    assert "min since the draw" not in html and "Silent for" not in html
    assert "No hand yet (seating not released)" in html
    assert "silent table" not in html
    sv = page(td_client, tournament, "12:30", "sv")
    assert "väntar: lottad kl. 12:00; klockan startar när du släpper placeringen" in sv
    assert "Ingen hand än (placeringen inte släppt)" in sv
    release(level, td_user)
    html = page(td_client, tournament, "12:35")
    assert "5 min since the seating was released at 12:30 (drawn at 12:00)" in html
    assert "No hand yet (released 5 min ago)" in html and "Silent for" not in html
    sv = page(td_client, tournament, "12:35", "sv")
    assert "5 min sedan placeringen släpptes kl. 12:30 (lottad kl. 12:00)" in sv
    assert "Ingen hand än (släppt för 5 min sedan)" in sv
    html = page(td_client, tournament, "12:41")
    assert "Silent for 11 min" in html and "3 silent tables" in html


def test_released_at_once_the_clock_still_says_since_the_draw(td_client, make_tournament, td_user):
    tournament = make_tournament([f"Player {n}" for n in range(3)])
    with mock.patch("django.utils.timezone.now", return_value=at("12:00")):
        draws.draw_first_level(tournament=tournament, actor=td_user, seed="now")
    html = page(td_client, tournament, "12:07")
    assert "7 min since the draw at 12:00" in html
    assert "No hand yet (drawn 7 min ago)" in html


def test_the_changeover_runs_to_the_release_of_the_next_seating(held, td_user):
    """Level 1 closed at 13:00, level 2 drawn at 13:05 and released at 13:15: a changeover
    of 15 minutes, not 5; while level 2 is held it is not counted at all."""
    tournament, level = held
    release(level, td_user)
    Level.objects.filter(pk=level.pk).update(closed_at=at("13:00"))
    second = Level.objects.create(tournament=tournament, number=2)
    Level.objects.filter(pk=second.pk).update(created_at=at("13:05"))
    draw = Draw.objects.create(level=second, number=1, seed="two")
    Draw.objects.filter(pk=draw.pk).update(created_at=at("13:05"))
    board = dashboard(tournament)
    assert changeover(board.levels) == timedelta()
    Draw.objects.filter(pk=draw.pk).update(released_at=at("13:15"))
    board = dashboard(tournament)
    assert changeover(board.levels) == timedelta(minutes=15)
