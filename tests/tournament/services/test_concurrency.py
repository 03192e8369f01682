"""Two tablets at once: real concurrent transactions on PostgreSQL."""

import threading
import uuid

import pytest
from django.db import connection, connections

from tests.tournament.conftest import positions
from tournament.errors import HandConflict
from tournament.models import Hand, HandVersion
from tournament.services import draws, hands

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locking needs PostgreSQL (DATABASE_URL)"
    ),
]


def run_together(*calls):
    """Start every call at the same instant, each in its own thread and connection."""
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def worker(index, call):
        try:
            barrier.wait()
            outcomes[index] = call()
        except Exception as exc:  # noqa: BLE001 - the outcome is what the test checks
            outcomes[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


@pytest.fixture
def tables(make_tournament, td_user):
    level = draws.draw_first_level(tournament=make_tournament(12), actor=td_user, seed="race")
    return list(level.tables.order_by("number"))


def submit(table, key, winner_points):
    pos = positions(table)
    names = sorted(pos)
    points = {pos[names[0]]: winner_points, pos[names[1]]: -winner_points, pos[names[2]]: 0}
    return lambda: hands.record_hand(table=table, hand_number=1, idempotency_key=key, points=points)


def test_two_tablets_same_hand_number_record_one_and_the_other_gets_a_conflict(tables):
    for table in tables:
        outcomes = run_together(submit(table, uuid.uuid4(), 5), submit(table, uuid.uuid4(), 7))
        recorded = [o for o in outcomes if isinstance(o, hands.Recorded)]
        conflicts = [o for o in outcomes if isinstance(o, HandConflict)]
        assert len(recorded) == 1 and len(conflicts) == 1, outcomes
        assert "already recorded" in str(conflicts[0])
        assert Hand.objects.filter(table=table).count() == 1
        table.refresh_from_db()
        assert table.hands_played == 1
        assert sorted(s.total for s in table.seats.all()) in ([-5, 0, 5], [-7, 0, 7])


def test_double_tap_at_the_same_instant_records_one_hand(tables):
    for table in tables:
        key = uuid.uuid4()
        outcomes = run_together(submit(table, key, 3), submit(table, key, 3))
        assert all(isinstance(o, hands.Recorded) for o in outcomes), outcomes
        assert sorted(o.created for o in outcomes) == [False, True]
        assert outcomes[0].hand.pk == outcomes[1].hand.pk
        assert HandVersion.objects.filter(idempotency_key=key).count() == 1
        table.refresh_from_db()
        assert sorted(s.total for s in table.seats.all()) == [-3, 0, 3]
