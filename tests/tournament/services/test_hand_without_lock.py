"""A hand takes no lock before its write: a change that lands between its read and its write
makes it start again from the table as that change left it (PostgreSQL, real connections).

Each test puts the other service exactly in that gap: it runs, in its own thread and
connection, right after the hand's first read, and commits before the hand goes on.
"""

import threading
import uuid

import pytest
from django.db import connection

from tests.tournament.services.test_concurrency import run_together
from tournament.errors import Conflict, NotAllowed
from tournament.models import Hand, Penalty, Seat, Table
from tournament.services import draws, hands, penalties, revisor_access
from tournament.tables.locking import read_table_and_seats

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="two connections need PostgreSQL (DATABASE_URL)"
    ),
]


def in_other_connection(call):
    """Run `call` in a thread and connection of its own (`run_together`) and wait for it."""
    (outcome,) = run_together(call)
    # Every change here returns something: None means it was still waiting for the hand.
    assert outcome is not None, "the other service waited for the hand: the hand held a lock"
    return outcome


@pytest.fixture
def drawn(make_tournament, td_user):
    """Anna, Bo and Cia drawn at one table: (tournament, level, table)."""
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="gap")
    return tournament, level, level.tables.get()


def hand_one_from_another_tablet(table, key, points):
    """Hand 1 as another tablet sends it (its own read of the table)."""
    return lambda: hands.record_hand(
        table=Table.objects.get(pk=table.pk), hand_number=1, idempotency_key=key, points=points
    )


@pytest.fixture
def between_read_and_write(monkeypatch):
    """Make `change` run once, right after this thread's first read of a hand; return the
    list of what happened in this thread: each read's revision, and the change's outcome
    after the first."""
    happened = []
    here = threading.get_ident()

    def arrange(change, *, every_read=False):
        def read(table):
            result = read_table_and_seats(table)
            if threading.get_ident() == here:  # the change may record a hand of its own
                happened.append(result[0].revision)
                if len(happened) == 1 or every_read:
                    happened.append(in_other_connection(change))
            return result

        monkeypatch.setattr(hands, "read_table_and_seats", read)
        return happened

    return arrange


def test_a_penalty_given_meanwhile_is_counted_in_the_hand_s_standings(
    drawn, td_user, between_read_and_write
):
    tournament, _level, table = drawn
    hands.record_hand(table=table, hand_number=1, idempotency_key=uuid.uuid4(), points=even())
    cia = Seat.objects.get(table=table, position=2).player
    reads = between_read_and_write(
        lambda: penalties.give_penalty(
            tournament=tournament, player=cia, kind="timeout", actor=td_user
        )
    )

    recorded = hands.record_hand(
        table=table, hand_number=2, idempotency_key=uuid.uuid4(), points=even()
    )

    first_revision, penalty, second_revision = reads
    assert isinstance(penalty, Penalty) and penalty.after_hand == 1
    assert second_revision > first_revision  # read again after the penalty moved the table
    assert recorded.created and recorded.hand.number == 2
    numbers = Hand.objects.filter(table=table).order_by("number").values_list("number", flat=True)
    assert list(numbers) == [1, 2]
    table.refresh_from_db()
    # Two hands of +2 / -1 / -1; Cia's timeout costs her 10.
    assert [table.seat_cache(p)["total"] for p in (0, 1, 2)] == [4, -2, -12]
    assert table.revision > second_revision


def test_a_redraw_done_meanwhile_refuses_the_hand_and_keeps_nothing(
    drawn, td_user, between_read_and_write
):
    _tournament, level, table = drawn
    reads = between_read_and_write(
        lambda: draws.redraw_level(level=level, actor=td_user, reason="Seated wrongly")
    )

    with pytest.raises(NotAllowed, match="redrawn"):
        hands.record_hand(table=table, hand_number=1, idempotency_key=uuid.uuid4(), points=even())

    assert len(reads) == 3  # read, the redraw, read again
    assert not Hand.objects.filter(table=table).exists()
    assert not Hand.objects.filter(table__level=level).exists()
    assert Table.objects.current().filter(level=level).get().pk != table.pk


def test_the_same_hand_sent_from_another_tablet_meanwhile_lands_once(drawn, between_read_and_write):
    table = drawn[2]
    other_key = uuid.uuid4()
    reads = between_read_and_write(
        hand_one_from_another_tablet(table, other_key, {0: -1, 1: 2, 2: -1})
    )

    with pytest.raises(hands.HandConflict, match="already recorded"):
        hands.record_hand(table=table, hand_number=1, idempotency_key=uuid.uuid4(), points=even())

    assert reads[1].created
    assert Hand.objects.filter(table=table).count() == 1
    table.refresh_from_db()
    assert [table.seat_cache(p)["total"] for p in (0, 1, 2)] == [-1, 2, -1]


def test_a_double_tap_that_lands_meanwhile_answers_the_recorded_hand(drawn, between_read_and_write):
    table = drawn[2]
    key = uuid.uuid4()
    reads = between_read_and_write(hand_one_from_another_tablet(table, key, even()))

    again = hands.record_hand(table=table, hand_number=1, idempotency_key=key, points=even())

    assert reads[1].created and not again.created
    assert again.hand.pk == reads[1].hand.pk
    assert Hand.objects.filter(table=table).count() == 1


def test_a_table_that_never_stops_moving_refuses_the_hand_with_a_message(
    drawn, td_user, between_read_and_write
):
    table = drawn[2]
    happened = between_read_and_write(
        lambda: revisor_access.regenerate_revisor_access(
            table=Table.objects.get(pk=table.pk), actor=td_user
        ),
        every_read=True,
    )

    with pytest.raises(Conflict, match="kept changing while hand 1 was recorded") as refused:
        hands.record_hand(table=table, hand_number=1, idempotency_key=uuid.uuid4(), points=even())

    assert not isinstance(refused.value, hands.HandConflict)  # nobody recorded it
    assert len(happened) == 2 * hands.ATTEMPTS  # each attempt: a read, then the change
    assert not Hand.objects.filter(table=table).exists()
    assert Table.objects.get(pk=table.pk).hands_played == 0


def even():
    """Seat 0 wins 2, the others pay 1 each."""
    return {0: 2, 1: -1, 2: -1}
