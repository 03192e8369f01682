"""A backup is read from one snapshot of the database, while the room goes on recording hands.

The export reads a tournament in a dozen queries (tournament/backups/export.py). A
hand recorded by another worker between two of them would give a file whose tables say one
number of hands and list another, which the import refuses: the backup would be worthless
exactly when it is needed. The export therefore runs in one transaction, on PostgreSQL at
REPEATABLE READ (one snapshot for all its queries); on SQLite the transaction takes the
write lock, so the hand waits for the export instead.
"""

import json
import threading
import uuid

import pytest
from django.core.management import call_command
from django.db import connection, connections

from tests.tournament.conftest import play
from tournament.backups import import_backup
from tournament.backups.export import export_tournament
from tournament.models import Hand, Table, Tournament
from tournament.services import draws, hands

pytestmark = pytest.mark.django_db(transaction=True)
postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    # The test's SQLite database is in memory, shared between threads by a shared cache,
    # where a writer meeting a lock fails at once ("database table is locked") instead of
    # waiting as it does on the file database the app uses.
    reason="another worker writing mid-export needs PostgreSQL (DATABASE_URL)",
)


def record_next_hand(table_id):
    """The next hand of a table, recorded by another worker: its own thread and connection."""
    outcome = {}

    def worker():
        try:
            table = Table.objects.get(pk=table_id)
            seats = list(table.seats.order_by("position"))
            points = dict(zip([s.position for s in seats], [2, -2, 0], strict=False))
            outcome["recorded"] = hands.record_hand(
                table=table,
                hand_number=table.hands_played + 1,
                idempotency_key=uuid.uuid4(),
                points=points,
            )
        except Exception as exc:  # noqa: BLE001 - the test reports it
            outcome["error"] = exc
        finally:
            connections.close_all()

    thread = threading.Thread(target=worker)
    thread.start()
    return thread, outcome


@postgresql_only
def test_a_hand_recorded_while_the_backup_is_read_is_in_it_whole_or_not_at_all(
    make_tournament, td_user
):
    tournament = make_tournament(players=6, name="Snapshot")
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="snap")
    tables = list(level.tables.order_by("number"))
    for table in tables:
        play(table, *([3, -3, 0][: table.seats.count()]), actor=td_user)
    table = tables[0]

    started = []

    def hand_between_the_tables_and_their_hands(execute, sql, params, many, context):
        # The export has read the tables (their hands_played) and is about to read their
        # hands: another worker records one now, and commits.
        if not started and 'FROM "tournament_hand"' in sql:
            started.append(record_next_hand(table.pk))
            thread, _ = started[0]
            thread.join(timeout=30)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(hand_between_the_tables_and_their_hands):
        data = export_tournament(tournament)
    assert started, "the export reads the hands"
    thread, outcome = started[0]
    thread.join(timeout=30)
    assert "error" not in outcome, outcome
    assert outcome["recorded"].created
    assert Hand.objects.filter(table=table).count() == 2  # the hand is in the database

    # The backup holds the tables as they stood before that hand, consistently.
    exported = data["levels"][0]["draws"][0]["tables"][0]
    assert exported["hands_played"] == len(exported["hands"]) == 1

    # And the import's verification (every total and count against the history) accepts it.
    call_command("flush", "--noinput")
    restored = import_backup(json.dumps(data).encode())
    assert Tournament.objects.get().pk == restored.pk
    assert Hand.objects.filter(table__level__tournament=restored).count() == len(tables)


def test_every_query_of_the_export_runs_in_one_transaction(make_tournament, td_user):
    """On any database: no query of the export runs outside its transaction (on SQLite the
    transaction is the snapshot: it holds the write lock, and a hand waits for it)."""
    tournament = make_tournament(players=3)
    table = draws.draw_first_level(tournament=tournament, actor=td_user, seed="s").tables.get()
    play(table, 3, -3, 0, actor=td_user)
    outside = []

    def watch(execute, sql, params, many, context):
        if not connection.in_atomic_block and not sql.startswith("BEGIN"):
            outside.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(watch):
        data = export_tournament(tournament)
    assert data["levels"][0]["draws"][0]["tables"][0]["hands_played"] == 1
    assert outside == []
