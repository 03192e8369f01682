"""Reads for pages cost a fixed number of queries, however many tables and hands."""

import pytest

from tests.tournament.conftest import play
from tournament.selectors.standings import standings
from tournament.selectors.tables import level_tables, table_hands
from tournament.selectors.tournaments import tournament_levels
from tournament.services import draws

pytestmark = pytest.mark.django_db


def started_tournament(make_tournament, td_user, players, hands_per_table, name):
    tournament = make_tournament(players, name=name)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed=name)
    for table in level.tables.all():
        for _ in range(hands_per_table):
            size = table.seats.count()
            play(table, *([2, -1, -1][:size] if size == 3 else [1, -1]))
    return tournament, level


@pytest.mark.parametrize(("players", "hands"), [(3, 1), (11, 4)])
def test_level_tables_in_two_queries(
    make_tournament, td_user, django_assert_num_queries, players, hands
):
    _, level = started_tournament(make_tournament, td_user, players, hands, f"L{players}")
    with django_assert_num_queries(2):
        tables = level_tables(level)
        rows = [(t.number, [(s.player.name, s.total) for s in t.seats.all()]) for t in tables]
    assert len(rows) == {3: 1, 11: 4}[players]
    if players == 3:
        assert sorted(total for _, total in rows[0][1]) == [-1, -1, 2]


@pytest.mark.parametrize(("players", "hands"), [(3, 1), (9, 3)])
def test_tournament_levels_in_three_queries(
    make_tournament, td_user, django_assert_num_queries, players, hands
):
    tournament, _ = started_tournament(make_tournament, td_user, players, hands, f"T{players}")
    with django_assert_num_queries(3):
        levels = tournament_levels(tournament)
        seats = [s.player.name for lvl in levels for t in lvl.tables.all() for s in t.seats.all()]
    assert len(seats) == players


@pytest.mark.parametrize("hands", [1, 6])
def test_table_hands_in_three_queries(make_tournament, td_user, django_assert_num_queries, hands):
    _, level = started_tournament(make_tournament, td_user, 3, hands, f"H{hands}")
    table = level.tables.get()
    with django_assert_num_queries(3):
        rows = [
            [r.points for r in hand.current_versions[0].results.all()]
            for hand in table_hands(table)
        ]
    assert len(rows) == hands and all(sum(r) == 0 for r in rows)


@pytest.mark.parametrize("players", [3, 10])
def test_standings_in_three_queries(make_tournament, td_user, django_assert_num_queries, players):
    tournament, _ = started_tournament(make_tournament, td_user, players, 2, f"S{players}")
    with django_assert_num_queries(3):
        rows = standings(tournament)
        names = [row.player.name for row in rows]
    assert len(names) == players
