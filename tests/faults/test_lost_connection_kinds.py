"""What counts as a lost connection to the database (tournament/web/faults/kinds.py): real
errors, as Django raises them. A lost one is answered again (a read) or said (a change);
any other database error stays the server's."""

import sqlite3

import pytest
from django.db import IntegrityError, OperationalError, connection, transaction

from tournament.models import FormSubmission
from tournament.web.faults import lost_connection

pytestmark = pytest.mark.django_db(transaction=True)
ONLY_POSTGRES = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs PostgreSQL (DATABASE_URL)"
)


def wrapped(error):
    """`error` of the driver as Django raises it: its own error, with the driver's as cause."""
    django_error = OperationalError(*error.args)
    django_error.__cause__ = error
    return django_error


@ONLY_POSTGRES
def test_a_connection_the_server_ends_is_lost_and_the_next_query_opens_a_fresh_one():
    with pytest.raises(OperationalError) as ended, connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")
    assert "terminating connection due to administrator command" in str(ended.value)
    assert lost_connection(ended.value)
    connection.close()
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


@ONLY_POSTGRES
def test_a_connection_ended_inside_a_transaction_is_lost_though_django_opened_another():
    # Django replaces a connection whose rollback failed when the block ends: the error
    # tells, not the connection.
    with (
        pytest.raises(OperationalError) as ended,
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")
    assert connection.is_usable()
    assert lost_connection(ended.value)


@ONLY_POSTGRES
def test_a_refused_connection_is_lost():
    import psycopg

    with pytest.raises(psycopg.OperationalError) as refused:
        psycopg.connect("postgresql://postgres@127.0.0.1:1/none", connect_timeout=2)
    assert lost_connection(wrapped(refused.value))


@ONLY_POSTGRES
def test_a_cancelled_query_and_a_lock_timeout_are_the_servers_errors():
    with pytest.raises(OperationalError) as cancelled, connection.cursor() as cursor:
        cursor.execute("SET statement_timeout = '10ms'")
        try:
            cursor.execute("SELECT pg_sleep(1)")
        finally:
            cursor.execute("RESET statement_timeout")
    assert "canceling statement due to statement timeout" in str(cancelled.value)
    assert not lost_connection(cancelled.value)
    with pytest.raises(OperationalError) as timed_out, connection.cursor() as cursor:
        cursor.execute(
            "DO $$ BEGIN RAISE EXCEPTION 'busy' USING ERRCODE = 'lock_not_available'; END $$"
        )
    assert not lost_connection(timed_out.value)


def test_sqlites_errors_and_other_errors_are_never_a_lost_connection(tmp_path):
    # SQLite's connection is a file: "database is locked" is a busy database, not a lost one.
    first = sqlite3.connect(tmp_path / "busy.sqlite3", timeout=0)
    first.execute("CREATE TABLE t (x int)")
    first.execute("BEGIN EXCLUSIVE")
    second = sqlite3.connect(tmp_path / "busy.sqlite3", timeout=0)
    with pytest.raises(sqlite3.OperationalError) as locked:
        second.execute("SELECT * FROM t")
    first.close()
    second.close()
    assert "database is locked" in str(locked.value)
    assert not lost_connection(wrapped(locked.value))
    with pytest.raises(IntegrityError) as duplicate:
        FormSubmission.objects.create(key="0b0f5b38-5f7e-4fc5-9d16-cb2c1a3c5d1a")
        FormSubmission.objects.create(key="0b0f5b38-5f7e-4fc5-9d16-cb2c1a3c5d1a")
    assert not lost_connection(duplicate.value)
    assert not lost_connection(ValueError("server closed the connection unexpectedly"))
