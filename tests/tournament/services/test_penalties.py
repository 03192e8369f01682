import pytest

from tests.tournament.conftest import play, play_named, single_table, totals, walked
from tournament.audit.sentences import sentence
from tournament.errors import InvalidEntry, NotAllowed
from tournament.models import AuditEntry, Penalty, Player
from tournament.services import draws, penalties

pytestmark = pytest.mark.django_db


def player(tournament, name):
    return Player.objects.get(tournament=tournament, name=name)


def give(tournament, name, kind, td_user):
    return penalties.give_penalty(
        tournament=tournament, player=player(tournament, name), kind=kind, actor=td_user
    )


def test_timeout_costs_ten_points_and_a_warning(make_tournament, td_user):
    tournament = make_tournament(3)
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 4, "Bo": -2, "Cia": -2})
    penalty = give(tournament, "Bo", "timeout", td_user)
    assert (penalty.warning_number, penalty.points, penalty.after_hand) == (1, 10, 1)
    table.refresh_from_db()
    assert totals(table) == {"Anna": 4, "Bo": -12, "Cia": -2}
    entry = AuditEntry.objects.get(action="penalty.give")
    assert entry.after == {
        "player": "Bo",
        "kind": "timeout",
        "warning_number": 1,
        "points": 10,
        "table": 1,
        "rescinded": False,
        "disqualified": False,
    }


def test_second_warning_costs_25_and_a_timeout_as_second_costs_35(make_tournament, td_user):
    tournament = make_tournament(3)
    table = single_table(tournament, td_user)
    give(tournament, "Anna", "conduct", td_user)  # 1st: warning only
    second = give(tournament, "Anna", "exposed_muck", td_user)  # 2nd: 25
    give(tournament, "Bo", "slow", td_user)
    timeout_second = give(tournament, "Bo", "timeout", td_user)  # 2nd and a timeout: 10 + 25
    assert (second.warning_number, second.points) == (2, 25)
    assert (timeout_second.warning_number, timeout_second.points) == (2, 35)
    table.refresh_from_db()
    assert totals(table) == {"Anna": -25, "Bo": -35, "Cia": 0}


def test_third_warning_disqualifies_and_table_plays_on_heads_up(make_tournament, td_user):
    tournament = make_tournament(3, min_hands=3)
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 10, "Bo": -5, "Cia": -5})
    for kind in ("conduct", "conduct", "digging_muck"):
        give(tournament, "Anna", kind, td_user)
    assert player(tournament, "Anna").disqualified
    table.refresh_from_db()
    # Anna keeps her hand on the card (10) less 25 for the 2nd warning.
    assert totals(table) == {"Anna": -15, "Bo": -5, "Cia": -5}
    state, seats = walked(table)
    assert sorted(s.player.name for s in seats if s.id in state.active_seat_ids) == ["Bo", "Cia"]
    play_named(table, {"Bo": 2, "Cia": -2})  # heads-up now
    play_named(table, {"Bo": 1, "Cia": -1})
    table.refresh_from_db()
    assert table.is_over and table.winner.name == "Bo"
    assert {s.player.name: s.place for s in table.seats.select_related("player")} == {
        "Bo": 1,
        "Cia": 2,
        "Anna": None,
    }
    with pytest.raises(NotAllowed, match="already disqualified"):
        give(tournament, "Anna", "conduct", td_user)


def test_a_disqualified_leader_never_wins(make_tournament, td_user):
    tournament = make_tournament(3, min_hands=1)
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 40, "Bo": -10, "Cia": -30})
    table.refresh_from_db()
    assert table.winner.name == "Anna"
    for _ in range(3):
        give(tournament, "Anna", "conduct", td_user)
    table.refresh_from_db()
    # Anna 40 - 25 = 15 still leads on points, but is disqualified: Bo wins.
    assert totals(table)["Anna"] == 15
    assert table.is_over and table.winner.name == "Bo"


def test_disqualification_at_heads_up_table_ends_it(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo"])
    table = single_table(tournament, td_user)
    play(table, 3, -3)
    for _ in range(3):
        give(tournament, "Bo", "conduct", td_user)
    table.refresh_from_db()
    assert table.is_over and table.hands_played == 1
    assert table.winner.name == "Anna"


def test_warnings_count_across_levels(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia", "Dan"], min_hands=1)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="x")
    give(tournament, "Anna", "conduct", td_user)  # 1st warning, at level 1
    for table in level.tables.all():
        names = [s.player.name for s in table.seats.order_by("position")]
        winner = "Anna" if "Anna" in names else names[0]
        play_named(table, {name: 5 if name == winner else -5 for name in names})
    second_level = draws.advance(tournament=tournament, actor=td_user)
    second = give(tournament, "Anna", "conduct", td_user)
    assert (second.warning_number, second.points) == (2, 25)
    assert second.table.level == second_level
    table = second_level.tables.get()
    assert totals(table)["Anna"] == -25


def test_rescinding_renumbers_warnings_and_restores_points(make_tournament, td_user):
    tournament = make_tournament(3)
    table = single_table(tournament, td_user)
    first = give(tournament, "Cia", "timeout", td_user)
    give(tournament, "Cia", "conduct", td_user)
    table.refresh_from_db()
    assert totals(table)["Cia"] == -35  # 10 for the timeout, 25 for the 2nd warning
    penalties.rescind_penalty(penalty=first, actor=td_user, reason="Dealer counted too fast")
    table.refresh_from_db()
    # The conduct warning is now the 1st: no points at all.
    assert totals(table)["Cia"] == 0
    first.refresh_from_db()
    assert first.rescinded_at is not None and first.rescinded_by == td_user
    assert first.warning_number is None and first.points == 0
    assert Penalty.objects.get(kind="conduct").warning_number == 1
    assert Penalty.objects.count() == 2  # nothing deleted
    entry = AuditEntry.objects.get(action="penalty.rescind")
    assert entry.before["points"] == 10 and entry.after["rescinded"] is True


def test_rescinding_a_disqualification_brings_the_player_back(make_tournament, td_user):
    tournament = make_tournament(3, min_hands=5)
    table = single_table(tournament, td_user)
    warnings = [give(tournament, "Bo", "conduct", td_user) for _ in range(3)]
    assert player(tournament, "Bo").disqualified
    penalties.rescind_penalty(penalty=warnings[2], actor=td_user, reason="Wrong player")
    assert not player(tournament, "Bo").disqualified
    state, seats = walked(table)
    assert len(state.active_seat_ids) == 3


def test_rescind_needs_reason_and_only_once(make_tournament, td_user):
    tournament = make_tournament(3)
    single_table(tournament, td_user)
    penalty = give(tournament, "Anna", "conduct", td_user)
    with pytest.raises(InvalidEntry, match="needs a reason"):
        penalties.rescind_penalty(penalty=penalty, actor=td_user, reason="")
    penalties.rescind_penalty(penalty=penalty, actor=td_user, reason="Mistake")
    with pytest.raises(NotAllowed, match="already rescinded"):
        penalties.rescind_penalty(penalty=penalty, actor=td_user, reason="Again")


def test_unknown_kind_is_refused(make_tournament, td_user):
    tournament = make_tournament(3)
    single_table(tournament, td_user)
    with pytest.raises(InvalidEntry, match="kind of penalty must be one of"):
        give(tournament, "Anna", "rudeness", td_user)


def test_a_second_warning_between_tables_counts_but_deducts_nothing_and_says_so(
    make_tournament, td_user
):
    """rules/decisions.py: a warning at no table counts, costs no points, and the record says so."""
    tournament = make_tournament(["Anna", "Bo", "Cia", "Dan"], min_hands=1)
    give(tournament, "Bo", "conduct", td_user)  # before the first draw: no table
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="x")
    for table in level.tables.all():
        names = [s.player.name for s in table.seats.order_by("position")]
        loser = "Bo" if "Bo" in names else names[1]
        play_named(table, {name: -5 if name == loser else 5 for name in names})
    draws.advance(tournament=tournament, actor=td_user)  # Bo is out, level 1 closed
    second = give(tournament, "Bo", "slow", td_user)
    assert (second.warning_number, second.points, second.table) == (2, 0, None)
    entry = AuditEntry.objects.filter(action="penalty.give").latest("id")
    assert (entry.params["table"], entry.params["points"]) == (None, 0)
    assert "warning 2, 0 points (not at a table: the warning counts, no points are deducted)" in (
        sentence(entry)
    )
    with pytest.raises(NotAllowed, match="not at a table: a timeout needs one"):
        give(tournament, "Bo", "timeout", td_user)


def test_a_penalty_of_a_closed_level_cannot_be_rescinded(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia", "Dan"], min_hands=1)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="x")
    warning = give(tournament, "Anna", "timeout", td_user)
    for table in level.tables.all():
        names = [s.player.name for s in table.seats.order_by("position")]
        play_named(table, {name: 20 if i == 0 else -20 for i, name in enumerate(names)})
    draws.advance(tournament=tournament, actor=td_user)
    with pytest.raises(NotAllowed, match="level whose results are final"):
        penalties.rescind_penalty(penalty=warning, actor=td_user, reason="late appeal")
    warning.refresh_from_db()
    assert warning.rescinded_at is None and warning.points == 10
