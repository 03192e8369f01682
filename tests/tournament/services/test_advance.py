import pytest

from tests.tournament.conftest import play
from tournament.errors import NotAllowed
from tournament.models import AuditEntry, Level
from tournament.selectors.standings import standings
from tournament.services import draws

pytestmark = pytest.mark.django_db


def finish_level(level, results):
    """Play one hand at every table: `results` maps table size -> points by seat position."""
    for table in level.tables.filter(draw__superseded_at__isnull=True).order_by("number"):
        play(table, *results[table.seats.count()])


def seat_names(level):
    return {
        t.number: [s.player.name for s in t.seats.order_by("position")]
        for t in level.tables.filter(draw__superseded_at__isnull=True)
    }


def test_shootout_from_seven_players_to_champion_and_standings(make_tournament, td_user):
    tournament = make_tournament(7, min_hands=1)
    level1 = draws.draw_first_level(tournament=tournament, actor=td_user, seed="lvl1")
    first = seat_names(level1)
    assert [len(first[n]) for n in (1, 2, 3)] == [3, 2, 2]
    with pytest.raises(NotAllowed, match="still playing: tables 1, 2, 3"):
        draws.advance(tournament=tournament, actor=td_user)

    # Table of 3: seat 0 +4, seat 1 -1, seat 2 -3. Heads-up: seat 0 +2, seat 1 -2.
    finish_level(level1, {3: (4, -1, -3), 2: (2, -2)})
    level2 = draws.advance(tournament=tournament, actor=td_user, seed="lvl2")
    level1.refresh_from_db()
    assert level1.closed_at is not None and level2.number == 2
    second = seat_names(level2)
    assert sorted(second[1]) == sorted([first[1][0], first[2][0], first[3][0]])

    finish_level(level2, {3: (6, -2, -4)})
    assert draws.advance(tournament=tournament, actor=td_user) is None
    tournament.refresh_from_db()
    assert tournament.champion.name == second[1][0] and tournament.finished_at is not None
    assert AuditEntry.objects.filter(action="tournament.finish").count() == 1

    rows = [
        (s.rank, s.player.name, s.level, s.place, s.points, s.status) for s in standings(tournament)
    ]
    heads_up_losers = sorted(
        [first[2][1], first[3][1]], key=lambda n: tournament.players.get(name=n).number
    )
    assert rows == [
        (1, second[1][0], 2, 1, 6, "champion"),
        (2, second[1][1], 2, 2, -2, "out"),
        (3, second[1][2], 2, 3, -4, "out"),
        (4, first[1][1], 1, 2, -1, "out"),
        (5, heads_up_losers[0], 1, 2, -2, "out"),
        (5, heads_up_losers[1], 1, 2, -2, "out"),
        (7, first[1][2], 1, 3, -3, "out"),
    ]
    with pytest.raises(NotAllowed, match="finished"):
        draws.advance(tournament=tournament, actor=td_user)


def test_disqualified_players_are_listed_last(make_tournament, td_user):
    from tournament.models import Player
    from tournament.services import penalties

    tournament = make_tournament(3, min_hands=1)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="dq")
    table = level.tables.get()
    names = [s.player.name for s in table.seats.order_by("position")]
    for _ in range(3):
        penalties.give_penalty(
            tournament=tournament,
            player=Player.objects.get(name=names[2]),
            kind="conduct",
            actor=td_user,
        )
    play(table, 3, -3)  # heads-up between the other two
    draws.advance(tournament=tournament, actor=td_user)
    rows = [(s.rank, s.player.name, s.status) for s in standings(tournament)]
    assert rows == [
        (1, names[0], "champion"),
        (2, names[1], "out"),
        (None, names[2], "disqualified"),
    ]


def test_standings_while_playing_put_players_still_in_first(make_tournament, td_user):
    tournament = make_tournament(5, min_hands=2)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="live")
    heads_up = level.tables.get(number=2)
    play(heads_up, 3, -3)
    play(heads_up, 1, -1)
    statuses = {s.player.name: s.status for s in standings(tournament)}
    loser = heads_up.seats.get(position=1).player.name
    assert statuses[loser] == "out"
    assert sorted(v for k, v in statuses.items() if k != loser) == ["in"] * 4
    assert Level.objects.count() == 1
