"""The database refuses changes (made read-only, or its disk full): a clear page, in the
person's language, with nothing half-written, and the same entry sent again afterwards is
recorded once.

The app's own connection is made to refuse, as the database would:
- read-only: on PostgreSQL every transaction the connection begins is read-only (what
  `default_transaction_read_only` or a standby does: SQLSTATE 25006); on SQLite the
  connection is `query_only`, which answers as a read-only file does ("attempt to write a
  readonly database");
- disk full (PostgreSQL): the hand's results, its third insert, fail with SQLSTATE 53100
  as when the server cannot extend a file; a trigger raises it. The hand and its version,
  inserted before them in the same transaction, must not stay.
"""

import re
import sqlite3
import uuid
from contextlib import contextmanager

import pytest
from django.db import DatabaseError, IntegrityError, OperationalError, connection, transaction
from django.urls import reverse
from django.utils.functional import SimpleLazyObject

from tests.faults.servers import field_value, text
from tests.tournament.conftest import positions, row_counts
from tournament.models import FormSubmission, Hand, HandVersion
from tournament.services import revisor_access
from tournament.web import faults

pytestmark = pytest.mark.django_db(transaction=True)
POSTGRES = connection.vendor == "postgresql"
ONLY_POSTGRES = pytest.mark.skipif(not POSTGRES, reason="needs PostgreSQL (DATABASE_URL)")

REFUSED = (
    "The database cannot take changes right now: nothing was recorded. "
    "Tell the TD; try again in a minute."
)
REFUSED_SV = (
    "Databasen kan inte ta emot ändringar just nu: ingenting registrerades. "
    "Säg till TL; försök igen om en minut."
)
POINTS = {"Anna": 4, "Bo": -1, "Cia": -3}
CARD, HAND = reverse("revisor:card"), reverse("revisor:hand")


@contextmanager
def read_only_database():
    with connection.cursor() as cursor:
        if POSTGRES:
            cursor.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
        else:
            cursor.execute("PRAGMA query_only = ON")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            if POSTGRES:
                cursor.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE")
            else:
                cursor.execute("PRAGMA query_only = OFF")


@contextmanager
def full_disk():
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE FUNCTION ofc_test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ "
            "BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' "
            "USING ERRCODE = 'disk_full'; END $$"
        )
        cursor.execute(
            "CREATE TRIGGER ofc_test_disk_full BEFORE INSERT ON tournament_handresult "
            "FOR EACH STATEMENT EXECUTE FUNCTION ofc_test_disk_full()"
        )
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TRIGGER ofc_test_disk_full ON tournament_handresult")
            cursor.execute("DROP FUNCTION ofc_test_disk_full()")


def written():
    """Every row a change could write: the tournament's tables and the one-time keys."""
    return {**row_counts(), "FormSubmission": FormSubmission.objects.count()}


def hand_one(client, table, url=CARD):
    """Hand 1 as typed into the form of the page at `url` (its own submission key)."""
    page = client.get(url).content.decode()
    pos = positions(table)
    data = {f"points_{pos[name]}": str(points) for name, points in POINTS.items()}
    data.update(hand_number="1", idempotency_key=field_value(page, "idempotency_key"))
    return data


def assert_hand_one_recorded_once(table):
    assert Hand.objects.filter(table=table).count() == 1
    assert HandVersion.objects.filter(hand__table=table).count() == 1
    table.refresh_from_db()
    assert {s.player.name: s.total for s in table.seats.select_related("player")} == POINTS


def test_a_revisors_hand_refused_by_a_read_only_database_is_a_clear_page_and_the_retry_records_it(
    revisor, table
):
    data = hand_one(revisor, table)
    before = written()
    with read_only_database():
        refused = revisor.post(HAND, data)
    assert refused.status_code == 503
    assert refused["Retry-After"] == "60"
    assert REFUSED in text(refused.content.decode())
    assert "<h1" in refused.content.decode()  # a whole page, with the site around it
    assert "Go back to the page with your browser's Back button and send it again in a " in (
        text(refused.content.decode())
    )
    assert written() == before

    # The database takes changes again; the same entry, sent again, is recorded once.
    retried = revisor.post(HAND, data, follow=True)
    assert "Hand 1 recorded ✓" in text(retried.content.decode())
    assert_hand_one_recorded_once(table)
    again = revisor.post(HAND, data, follow=True)
    assert "Hand 1 was already recorded (the same entry arrived twice)." in text(
        again.content.decode()
    )
    assert_hand_one_recorded_once(table)


def test_an_htmx_entry_gets_the_message_into_its_own_form_and_keeps_what_was_typed(revisor, table):
    data = hand_one(revisor, table)
    before = written()
    with read_only_database():
        refused = revisor.post(HAND, data, headers={"HX-Request": "true"})
    assert refused.status_code == 503
    # Put at the top of the form the entry was sent from: the form, and what was typed
    # into it, stay as they are (static/js/faults.js lets htmx swap this 503 in).
    assert refused["HX-Retarget"] == "closest form"
    assert refused["HX-Reswap"] == "afterbegin"
    assert refused["HX-Reselect"] == ".fault-alert"
    fragment = refused.content.decode()
    assert "<html" not in fragment and "<form" not in fragment
    assert re.search(r'<div class="fault-alert[^"]*" role="alert"', fragment)
    assert REFUSED in text(fragment)
    assert "What you typed is still in the form: send it again in a minute." in text(fragment)
    assert written() == before

    retried = revisor.post(HAND, data, headers={"HX-Request": "true"})
    assert retried.status_code == 200
    assert "Hand 1 recorded ✓" in text(retried.content.decode())
    assert_hand_one_recorded_once(table)


def test_the_page_speaks_swedish_to_a_swedish_revisor(revisor, table):
    data = hand_one(revisor, table)
    revisor.cookies["django_language"] = "sv"
    with read_only_database():
        page = revisor.post(HAND, data)
        fragment = revisor.post(HAND, data, headers={"HX-Request": "true"})
    assert page.status_code == fragment.status_code == 503
    assert REFUSED_SV in text(page.content.decode())
    assert REFUSED_SV in text(fragment.content.decode())
    assert "Det du skrev finns kvar i formuläret: skicka det igen om en minut." in text(
        fragment.content.decode()
    )
    assert REFUSED not in text(page.content.decode())
    assert not Hand.objects.exists()


def test_the_tds_hand_refused_by_a_read_only_database_is_a_clear_page_and_the_retry_records_it(
    td_client, table
):
    tournament = table.level.tournament
    page_url = reverse("td:table", args=[tournament.pk, table.pk])
    new_url = reverse("td:hand_new", args=[tournament.pk, table.pk])
    data = hand_one(td_client, table, page_url)
    before = written()
    with read_only_database():
        refused = td_client.post(new_url, data)
    assert refused.status_code == 503
    # The TD is told what to do about the database, not to tell the TD.
    page = text(refused.content.decode())
    assert "The database cannot take changes right now: nothing was recorded." in page
    assert "Tell the TD" not in page
    if POSTGRES:
        assert (
            "The database server is read-only (a standby after a failover, or set read-only): "
            "make it writable again, or point DATABASE_URL at the primary (docs/faults.md)."
        ) in page
    else:
        database = connection.settings_dict["NAME"]
        assert (
            f"The database file cannot be written: check that {database} and its folder can "
            "be written to."
        ) in page
    assert (
        "The app needs no restart. Then go back with your browser's Back button and send it "
        "again: it is recorded once."
    ) in page
    assert written() == before

    retried = td_client.post(new_url, data, follow=True)
    assert "Hand 1 recorded." in text(retried.content.decode())
    assert_hand_one_recorded_once(table)


@ONLY_POSTGRES
def test_a_full_disk_leaves_no_half_written_hand_and_the_retry_records_it(revisor, table):
    data = hand_one(revisor, table)
    before = written()
    with full_disk():
        refused = revisor.post(HAND, data, headers={"HX-Request": "true"})
    assert refused.status_code == 503
    assert REFUSED in text(refused.content.decode())
    # The hand and its version were inserted before the results failed: both are gone.
    assert written() == before

    retried = revisor.post(HAND, data, headers={"HX-Request": "true"})
    assert "Hand 1 recorded ✓" in text(retried.content.decode())
    assert_hand_one_recorded_once(table)


def test_a_change_refused_after_the_view_answered_is_the_same_clear_page(revisor, table, td_user):
    # The TD gives the table a new code; this device is cut off. Told so on its next
    # request, it would be sent to the code page with the reason kept in its session,
    # which is saved after the view has answered: on a read-only database that fails.
    revisor_access.regenerate_revisor_access(table=table, actor=td_user)
    before = written()
    with read_only_database():
        refused = revisor.get(CARD)
    assert refused.status_code == 503
    assert REFUSED in text(refused.content.decode())
    assert written() == before
    cut_off = revisor.get(CARD, follow=True)
    assert "replaced by the TD" in text(cut_off.content.decode())


def test_other_database_errors_are_not_taken_for_a_refusal():
    with pytest.raises(IntegrityError) as duplicate:
        key = uuid.uuid4()
        FormSubmission.objects.create(key=key)
        FormSubmission.objects.create(key=key)
    with pytest.raises(DatabaseError) as nonsense, connection.cursor() as cursor:
        cursor.execute("SELECT * FROM no_such_table")
    assert faults.refusal(duplicate.value) is None
    assert faults.refusal(nonsense.value) is None
    assert faults.refusal(ValueError("attempt to write a readonly database")) is None


def test_a_full_disk_and_a_read_only_file_of_sqlite_are_refusals(tmp_path):
    """Real SQLite errors, as Django raises them (its error with SQLite's as the cause)."""
    database = sqlite3.connect(tmp_path / "small.sqlite3")
    database.execute("CREATE TABLE t (x BLOB)")
    database.execute("PRAGMA max_page_count = 3")
    with pytest.raises(sqlite3.OperationalError) as full:
        for _ in range(10):
            database.execute("INSERT INTO t VALUES (?)", [b"x" * 5000])
    database.execute("PRAGMA query_only = ON")
    with pytest.raises(sqlite3.OperationalError) as read_only:
        database.execute("INSERT INTO t VALUES (1)")
    database.close()
    for error, kind in [(full.value, faults.DISK_FULL), (read_only.value, faults.READ_ONLY)]:
        wrapped = OperationalError(*error.args)
        wrapped.__cause__ = error
        assert faults.refusal(wrapped) == kind


@ONLY_POSTGRES
def test_a_full_disk_and_a_read_only_transaction_of_postgresql_are_refusals():
    with pytest.raises(DatabaseError) as full, connection.cursor() as cursor:
        cursor.execute("DO $$ BEGIN RAISE EXCEPTION 'full' USING ERRCODE = 'disk_full'; END $$")
    with (
        pytest.raises(DatabaseError) as read_only,
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("SET TRANSACTION READ ONLY")
        cursor.execute("CREATE TABLE ofc_test_never (x int)")
    assert faults.refusal(full.value) == faults.DISK_FULL
    assert faults.refusal(read_only.value) == faults.READ_ONLY


def test_the_page_is_shown_even_when_reading_for_it_fails_too(rf):
    # A database file that cannot even be read (its folder read-only, say): the user for
    # the page's header cannot be read either. The page goes out without them.
    request = rf.post(HAND)

    def unreadable():
        raise OperationalError("unable to open database file")

    request.user = SimpleLazyObject(unreadable)
    response = faults.refused_response(request, faults.READ_ONLY)
    assert response.status_code == 503
    assert REFUSED in text(response.content.decode())


def test_any_other_error_of_a_view_is_left_to_the_server():
    middleware = faults.DatabaseFaultMiddleware(lambda request: None)
    request = None  # not looked at for an error it leaves alone
    assert middleware.process_exception(request, IntegrityError("duplicate key")) is None
    assert middleware.process_exception(request, ValueError("no")) is None
