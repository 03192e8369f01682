"""`manage.py simulate_tournament` plays whole tournaments through the services."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.tournament.conftest import walked
from tournament.models import HandResult, HandVersion, Level, Penalty, Table, Tournament
from tournament.selectors.standings import standings

pytestmark = pytest.mark.django_db


def simulate(*args):
    out = io.StringIO()
    call_command("simulate_tournament", *args, stdout=out)
    return Tournament.objects.order_by("-id").first(), out.getvalue()


def current_tables(tournament):
    return Table.objects.filter(
        level__tournament=tournament, draw__superseded_at__isnull=True
    ).select_related("level__tournament", "winner")


def table_sizes(level):
    return sorted(t.seats.count() for t in current_tables(level.tournament).filter(level=level))


def check_played_by_the_rules(tournament, min_hands):
    for table in current_tables(tournament):
        state, seats = walked(table)
        # The caches agree with the history, and no table stopped short.
        assert {s.id: s.total for s in seats} == state.totals
        assert {s.id: s.in_fantasyland for s in seats} == state.in_fantasyland
        assert {s.id: s.fantasyland_streak for s in seats} == state.fantasyland_streak
        assert table.next_dealer_position == state.next_dealer_position
        assert (table.hands_played, table.required_hands) == (
            state.hands_played,
            state.required_hands,
        )
        assert table.required_hands >= min_hands
        if table.is_over and not any(s.player.disqualified for s in seats):
            assert table.hands_played >= table.required_hands
    for version in HandVersion.objects.filter(
        hand__table__level__tournament=tournament, superseded_at__isnull=True
    ).prefetch_related("results"):
        assert sum(r.points for r in version.results.all()) == 0
        assert len(version.results.all()) in (2, 3)


def check_finished(tournament):
    assert tournament.finished_at is not None
    last = Level.objects.filter(tournament=tournament).order_by("-number").first()
    (final,) = current_tables(tournament).filter(level=last)
    assert final.is_over
    assert final.winner == tournament.champion
    ranking = standings(tournament)
    assert ranking[0].player == tournament.champion
    assert [s.status for s in ranking].count("champion") == 1


def test_seven_players_play_two_levels_to_a_champion():
    tournament, out = simulate("--players", "7", "--seed", "seven", "--min-hands", "12")
    # 7 = 3 + 2 + 2: three table winners, then one final table of 3.
    first, second = Level.objects.filter(tournament=tournament).order_by("number")
    assert table_sizes(first) == [2, 2, 3]
    assert table_sizes(second) == [3]
    check_played_by_the_rules(tournament, 12)
    check_finished(tournament)
    assert f"1  {tournament.champion.name}" in out
    assert "finished" in out.splitlines()[0]


def test_the_same_seed_plays_the_same_tournament():
    one, out_one = simulate("--players", "9", "--seed", "42", "--name", "One")
    two, out_two = simulate("--players", "9", "--seed", "42", "--name", "Two")
    for tournament in (one, two):
        # 9 = 3 + 3 + 3: three table winners, then one final table of 3.
        assert [table_sizes(level) for level in tournament.levels.order_by("number")] == [
            [3, 3, 3],
            [3],
        ]
        check_played_by_the_rules(tournament, 20)
        check_finished(tournament)
    assert one.champion.name == two.champion.name
    assert out_one.splitlines()[1:] == out_two.splitlines()[1:]
    seeds = [list(level.draws.values_list("seed", flat=True)) for level in one.levels.all()]
    assert seeds == [["sim-42-level-1"], ["sim-42-level-2"]]


def test_stop_after_level_leaves_the_next_level_drawn_and_partly_played():
    tournament, out = simulate(
        "--players", "12", "--seed", "demo", "--stop-after-level", "1", "--min-hands", "12"
    )
    assert tournament.finished_at is None and tournament.champion is None
    first, second = Level.objects.filter(tournament=tournament).order_by("number")
    assert first.closed_at is not None and second.closed_at is None
    # 12 = 4 tables of 3; their 4 winners play 2 heads-up tables.
    assert table_sizes(first) == [3, 3, 3, 3]
    assert table_sizes(second) == [2, 2]
    table_one, table_two = current_tables(tournament).filter(level=second).order_by("number")
    assert table_one.is_over
    assert 1 <= table_two.hands_played < 12 and not table_two.is_over
    check_played_by_the_rules(tournament, 12)
    # From 12 players one collects three warnings; boards foul and reach Fantasyland.
    assert tournament.players.filter(disqualified=True).count() == 1
    assert Penalty.objects.filter(tournament=tournament).count() >= 3
    results = HandResult.objects.filter(version__hand__table__level__tournament=tournament)
    assert results.filter(fouled=True).exists()
    assert results.filter(fantasyland_next=True).exists()
    assert "in play after 1 levels" in out
    assert [s.status for s in standings(tournament)].count("in") >= 2


def test_too_few_players_is_refused():
    with pytest.raises(CommandError, match="at least 2 players"):
        simulate("--players", "1", "--seed", "x")
