"""Two services at the same instant, on PostgreSQL's real row locks: no deadlock, no lost hand.

Each race runs many rounds. Every outcome must be a result or a ServiceError
with a message (never a database error), and the table's caches must equal its
history walked again afterwards.
"""

import threading
import uuid

import pytest
from django.db import OperationalError, connection, connections, transaction

from tests.tournament.conftest import positions, walked
from tests.tournament.services.test_concurrency import run_together
from tournament.errors import DrawLocked, HandConflict, NotAllowed, ServiceError
from tournament.models import Hand, Level, Penalty, Player, Seat, Table
from tournament.services import draws, hands, penalties, registration
from tournament.services.hands import Recorded

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locking needs PostgreSQL (DATABASE_URL)"
    ),
]
ROUNDS = 8


def hand_call(table, number, points_by_position):
    return lambda: hands.record_hand(
        table=table,
        hand_number=number,
        idempotency_key=uuid.uuid4(),
        points=points_by_position,
    )


def even(table):
    """Points for every seat still playing: +2 to the first, the rest pay it."""
    seats = [s for s in table.seats.order_by("position") if s.left_after_hand is None]
    points = {s.position: -1 for s in seats}
    points[seats[0].position] = len(seats) - 1
    return points


def no_database_errors(outcomes):
    for outcome in outcomes:
        assert not isinstance(outcome, Exception) or isinstance(outcome, ServiceError), repr(
            outcome
        )


def caches_match_history(table):
    table = Table.objects.get(pk=table.pk)
    state, seats = walked(table)
    assert {s.id: s.total for s in seats} == state.totals
    assert (table.hands_played, table.required_hands, table.is_over) == (
        state.hands_played,
        state.required_hands,
        state.is_over,
    )
    assert table.next_dealer_position == state.next_dealer_position
    assert {s.id: s.in_fantasyland for s in seats} == state.in_fantasyland


@pytest.fixture
def level(make_tournament, td_user):
    names = [f"Player {n:02d}" for n in range(3 * ROUNDS)]
    return draws.draw_first_level(tournament=make_tournament(names), actor=td_user, seed="races")


def tables_of(level):
    return list(Table.objects.current().filter(level=level).order_by("number"))


def test_penalty_and_hand_at_the_same_table_both_land(level, td_user):
    for table in tables_of(level):
        hands.record_hand(
            table=table, hand_number=1, idempotency_key=uuid.uuid4(), points=even(table)
        )
        player = Seat.objects.filter(table=table).order_by("position").last().player
        outcomes = run_together(
            hand_call(table, 2, even(table)),
            lambda player=player: penalties.give_penalty(
                tournament=level.tournament, player=player, kind="timeout", actor=td_user
            ),
        )
        no_database_errors(outcomes)
        assert isinstance(outcomes[0], Recorded) and isinstance(outcomes[1], Penalty), outcomes
        assert outcomes[1].after_hand in (1, 2)
        table.refresh_from_db()
        assert table.hands_played == 2
        seat = Seat.objects.get(table=table, player=player)
        assert seat.total == -2 - 10
        caches_match_history(table)


def test_rescind_and_hand_at_the_same_table_both_land(level, td_user):
    for table in tables_of(level):
        player = Seat.objects.filter(table=table).order_by("position").last().player
        penalty = penalties.give_penalty(
            tournament=level.tournament, player=player, kind="timeout", actor=td_user
        )
        outcomes = run_together(
            hand_call(table, 1, even(table)),
            lambda penalty=penalty: penalties.rescind_penalty(
                penalty=penalty, actor=td_user, reason="Timed by mistake"
            ),
        )
        no_database_errors(outcomes)
        assert all(not isinstance(o, Exception) for o in outcomes), outcomes
        assert Seat.objects.get(table=table, player=player).total == -1
        caches_match_history(table)


def test_correction_and_next_hand_at_the_same_table_both_land(level, td_user):
    for table in tables_of(level):
        hands.record_hand(
            table=table, hand_number=1, idempotency_key=uuid.uuid4(), points=even(table)
        )
        first = Hand.objects.get(table=table, number=1)
        pos = sorted(positions(table).values())
        corrected = {pos[0]: 5, pos[1]: -5, pos[2]: 0}
        outcomes = run_together(
            hand_call(table, 2, even(table)),
            lambda first=first, corrected=corrected: hands.correct_hand(
                hand=first,
                actor=td_user,
                reason="Wrong sign",
                based_on_version=1,
                points=corrected,
            ),
        )
        no_database_errors(outcomes)
        assert all(isinstance(o, Recorded) for o in outcomes), outcomes
        table.refresh_from_db()
        assert table.hands_played == 2
        # Hand 1 corrected to +5/-5/0, hand 2 +2/-1/-1, by seat position.
        assert [s.total for s in table.seats.order_by("position")] == [7, -6, -1]
        caches_match_history(table)


def test_two_corrections_from_the_same_version_one_lands_the_other_is_refused(level, td_user):
    """Two tabs correct hand 1 from its version 1 at the same instant: the table's lock
    lets one in; the other then sees version 2 and is refused, never saved over it."""
    for table in tables_of(level):
        hands.record_hand(
            table=table, hand_number=1, idempotency_key=uuid.uuid4(), points=even(table)
        )
        first = Hand.objects.get(table=table, number=1)
        pos = sorted(positions(table).values())
        tabs = ({pos[0]: 5, pos[1]: -5, pos[2]: 0}, {pos[0]: 0, pos[1]: 4, pos[2]: -4})
        outcomes = run_together(
            *(
                lambda first=first, points=points: hands.correct_hand(
                    hand=first,
                    actor=td_user,
                    reason="Tab",
                    based_on_version=1,
                    points=points,
                )
                for points in tabs
            )
        )
        no_database_errors(outcomes)
        landed = [i for i, o in enumerate(outcomes) if isinstance(o, Recorded)]
        refused = [o for o in outcomes if isinstance(o, HandConflict)]
        assert len(landed) == 1 and len(refused) == 1, outcomes
        assert str(refused[0]).startswith("Hand 1 was changed at "), outcomes
        assert first.versions.count() == 2
        current = first.versions.get(superseded_at=None)
        points = {r.seat.position: r.points for r in current.results.select_related("seat")}
        assert current.version == 2 and points == tabs[landed[0]]
        caches_match_history(table)


@pytest.mark.parametrize(
    ("change", "refusal"),
    [("redraw", DrawLocked), ("late player", NotAllowed)],
)
def test_redoing_the_draw_and_first_hand_one_wins_the_other_is_refused(
    make_tournament, td_user, change, refusal
):
    """The TD redoes level 1's draw, or adds a late player (which redoes it too), as the
    first hand is recorded: the hand lands and the change is refused, or the draw is redone
    and the hand refused; never a hand lost, nor a player added with the old draw in play."""
    for round_number in range(ROUNDS):
        tournament = make_tournament(["Anna", "Bo", "Cia"], name=f"{change} race {round_number}")
        level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="r")
        table = level.tables.get()
        redo = {
            "redraw": lambda level=level: draws.redraw_level(
                level=level, actor=td_user, reason="Seated wrongly"
            ),
            "late player": lambda tournament=tournament: registration.register_player(
                tournament=tournament, actor=td_user, name="Late"
            ),
        }[change]
        outcomes = run_together(hand_call(table, 1, {0: 2, 1: -1, 2: -1}), redo)
        no_database_errors(outcomes)
        recorded, redone = outcomes
        if isinstance(recorded, Recorded):
            assert isinstance(redone, refusal), outcomes
            assert level.draws.count() == 1
            assert not Player.objects.filter(tournament=tournament, name="Late").exists()
        else:
            assert isinstance(recorded, NotAllowed) and "redrawn" in str(recorded), outcomes
            assert isinstance(redone, (Level, Player)), outcomes
            assert level.draws.count() == 2 and not Hand.objects.filter(table=table).exists()


def test_advance_and_last_hand_never_lose_the_hand(make_tournament, td_user):
    for round_number in range(ROUNDS):
        tournament = make_tournament(6, min_hands=1, name=f"Advance race {round_number}")
        level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="a")
        first, second = tables_of(level)
        hands.record_hand(
            table=first, hand_number=1, idempotency_key=uuid.uuid4(), points=even(first)
        )
        outcomes = run_together(
            hand_call(second, 1, even(second)),
            lambda tournament=tournament: draws.advance(tournament=tournament, actor=td_user),
        )
        no_database_errors(outcomes)
        assert isinstance(outcomes[0], Recorded), outcomes
        assert Hand.objects.filter(table=second).count() == 1
        if isinstance(outcomes[1], Level):
            assert Seat.objects.filter(table__level=outcomes[1]).count() == 2
        else:
            assert isinstance(outcomes[1], NotAllowed) and "still playing" in str(outcomes[1])
            assert draws.advance(tournament=tournament, actor=td_user).number == 2


def test_hands_at_two_tables_do_not_wait_for_each_other(level):
    first, second = tables_of(level)[:2]
    holding = threading.Event()
    release = threading.Event()
    errors = []

    def hold_first_table():
        try:
            with transaction.atomic():
                hands.record_hand(
                    table=first, hand_number=1, idempotency_key=uuid.uuid4(), points=even(first)
                )
                holding.set()
                release.wait(10)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=hold_first_table)
    thread.start()
    try:
        assert holding.wait(10)
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '2s'")
            try:
                recorded = hands.record_hand(
                    table=second, hand_number=1, idempotency_key=uuid.uuid4(), points=even(second)
                )
            except OperationalError as exc:  # pragma: no cover - the failure this test catches
                pytest.fail(f"Table {second.number} waited for table {first.number}: {exc}")
        assert recorded.created
    finally:
        release.set()
        thread.join(10)
    assert not errors, errors
    assert Hand.objects.filter(table__in=[first, second]).count() == 2


def test_give_penalty_to_a_player_racing_two_penalties_numbers_them_once(level, td_user):
    table = tables_of(level)[0]
    player = Seat.objects.filter(table=table).order_by("position").first().player
    outcomes = run_together(
        *(
            lambda: penalties.give_penalty(
                tournament=level.tournament, player=player, kind="slow", actor=td_user
            )
            for _ in range(2)
        )
    )
    no_database_errors(outcomes)
    assert sorted(p.warning_number for p in outcomes) == [1, 2]
    # The 2nd warning costs 25, whichever thread gave it.
    assert Seat.objects.get(table=table, player=player).total == -25
    assert not Player.objects.get(pk=player.pk).disqualified
