"""Recording a hand costs the same at hand 60 as at hand 1: a fixed number of queries.

The table keeps what the next hand needs (points so far, Fantasyland, streak,
dealer, hands added): recording folds in the new hand only, never re-reading or
re-scoring the ones before it.
"""

import uuid

import pytest
from django.db import connection
from django.db.models.signals import post_save
from django.test.utils import CaptureQueriesContext

from tests.tournament.conftest import play, single_table
from tests.tournament.services.test_hands import BOARDS, record_cards
from tournament.models import AuditEntry, Hand, HandResult, HandVersion
from tournament.services import hands

pytestmark = pytest.mark.django_db

# Read the table afresh with its level, draw and seats (one query, no lock: the table's
# write at the end is its lock); insert the hand, its version (which is the hand's line in
# the audit log: no audit entry is written) and results (one bulk_create); update the
# table, its seats' standings with it (they live in its row: no seat's row is written),
# only at the revision it was read at. The same on both databases. The submission key is
# looked up only when a submission is refused, and a tie settlement only while the
# leaders are tied.
QUERIES_PER_HAND = 5


def record_points_at(table, number):
    return hands.record_hand(
        table=table,
        hand_number=number,
        idempotency_key=uuid.uuid4(),
        points={0: 2, 1: -1, 2: -1},
    )


def count_queries(call):
    with CaptureQueriesContext(connection) as context:
        call()
    # Savepoints are the transaction's frame, not work: the test's own atomic adds them.
    return [q["sql"] for q in context.captured_queries if "SAVEPOINT" not in q["sql"]]


@pytest.mark.parametrize("earlier_hands", [1, 40])
def test_points_hand_costs_a_fixed_number_of_queries(make_tournament, td_user, earlier_hands):
    table = single_table(make_tournament(3, min_hands=60), td_user)
    for _ in range(earlier_hands):
        play(table, 2, -1, -1)
    table.refresh_from_db()
    queries = count_queries(lambda: record_points_at(table, earlier_hands + 1))
    assert len(queries) == QUERIES_PER_HAND, "\n".join(queries)
    assert not any("handversion" in q and "SELECT" in q and "hand_id" in q for q in queries[3:])
    assert [q for q in queries if q.startswith("UPDATE")] == [
        q for q in queries if q.startswith('UPDATE "tournament_table"')
    ]
    assert not [q for q in queries if "auditentry" in q]
    assert not [q for q in queries if "FOR NO KEY UPDATE" in q or "FOR UPDATE" in q]
    update = queries[-1]
    assert update.startswith('UPDATE "tournament_table"')
    assert f'"tournament_table"."revision" = {table.revision}' in update


@pytest.mark.parametrize("earlier_hands", [1, 30])
def test_cards_hand_costs_a_fixed_number_of_queries(make_tournament, td_user, earlier_hands):
    table = single_table(make_tournament(3, min_hands=60), td_user)
    for _ in range(earlier_hands):
        record_cards(table, BOARDS)
    table.refresh_from_db()
    queries = count_queries(lambda: record_cards(table, BOARDS))
    # record_cards refreshes the table and reads its seats (2 queries) before recording.
    assert len(queries) == 2 + QUERIES_PER_HAND, "\n".join(queries)


def test_recording_never_reads_earlier_results(make_tournament, td_user):
    """A hand's results are written once and not loaded again when the next hand comes."""
    table = single_table(make_tournament(3, min_hands=30), td_user)
    for _ in range(5):
        record_cards(table, BOARDS)
    queries = count_queries(lambda: record_cards(table, BOARDS))
    assert not [q for q in queries if q.lstrip().startswith("SELECT") and "handresult" in q]
    assert HandVersion.objects.filter(hand__table=table).count() == 6
    assert HandResult.objects.filter(version__hand__table=table).count() == 18


def test_a_hand_is_written_through_djangos_models(make_tournament, td_user):
    """The hand and its version are saved by their models (Django's signals see them), not
    by SQL written by hand (issue 18 §6); the version is the hand's audit line, and no
    audit entry is saved beside it."""
    table = single_table(make_tournament(3), td_user)
    saved = []

    def seen(sender, instance, created, **kwargs):
        saved.append((sender.__name__, created))

    for model in (Hand, HandVersion, AuditEntry):
        post_save.connect(seen, sender=model, weak=False)
    try:
        record_points_at(table, 1)
    finally:
        for model in (Hand, HandVersion, AuditEntry):
            post_save.disconnect(seen, sender=model)
    assert saved == [("Hand", True), ("HandVersion", True)]
    version = HandVersion.objects.get(hand__table=table, hand__number=1)
    assert sorted(version.results.values_list("seat__position", "points")) == [
        (0, 2),
        (1, -1),
        (2, -1),
    ]
