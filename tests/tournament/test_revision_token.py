"""The polling token moves with every change a page shows, and costs one query."""

import uuid

import pytest
from django.db import DataError, connection, transaction

from tests.tournament.conftest import single_table
from tournament.selectors import revision_token
from tournament.services import calls, hands, penalties

pytestmark = pytest.mark.django_db


def test_token_moves_with_hands_penalties_and_calls(make_tournament, td_user):
    tournament = make_tournament(3)
    before_draw = revision_token(tournament.pk)
    table = single_table(tournament, td_user)
    drawn = revision_token(tournament.pk)
    hands.record_hand(
        table=table, hand_number=1, idempotency_key=uuid.uuid4(), points={0: 1, 1: 0, 2: -1}
    )
    after_hand = revision_token(tournament.pk)
    player = table.seats.first().player
    penalties.give_penalty(tournament=tournament, player=player, kind="slow", actor=td_user)
    after_penalty = revision_token(tournament.pk)
    calls.call_td(table=table, kind="dispute")
    after_call = revision_token(tournament.pk)
    tokens = [before_draw, drawn, after_hand, after_penalty, after_call]
    assert len(set(tokens)) == 5
    assert revision_token(tournament.pk) == after_call  # nothing changed: the same token


def test_unknown_tournament_has_no_token_and_one_query(django_assert_num_queries):
    with django_assert_num_queries(1):
        assert revision_token(999_999) is None


postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="prepared statements are PostgreSQL's"
)


@postgres_only
def test_the_token_query_is_prepared_once_per_connection(make_tournament):
    tournament = make_tournament(3)
    for _ in range(6):  # psycopg prepares a statement on its 5th run
        token = revision_token(tournament.pk)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert len([s for s in prepared if "SUM(tb" in s]) == 1
    tournament.refresh_from_db()
    assert token == f"{tournament.revision}.0"  # no table drawn: the sum is 0


@postgres_only
def test_the_token_query_runs_through_djangos_wrappers_and_errors(make_tournament):
    tournament = make_tournament(3)
    seen = []

    def wrapper(execute, sql, params, many, context):
        seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        revision_token(tournament.pk)
    assert len(seen) == 1 and "SUM(tb" in seen[0]
    # A database error is Django's, as from any other query.
    with pytest.raises(DataError), transaction.atomic():
        revision_token("not a number")
    assert revision_token(tournament.pk) is not None  # the connection is usable after it


def prepared_statements():
    with connection.cursor() as cursor:
        cursor.execute("SELECT name, statement FROM pg_prepared_statements ORDER BY name")
        return cursor.fetchall()


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_the_token_runs_on_a_statement_of_its_own(make_tournament, td_user):
    """As every poll runs it: no transaction, no query logged. One libpq call on a statement
    prepared once per connection (named ofc_…; a psycopg cursor's would be _pg3_…)."""
    tournament = make_tournament(3)
    table = single_table(tournament, td_user)
    hands.record_hand(
        table=table, hand_number=1, idempotency_key=uuid.uuid4(), points={0: 2, 1: -1, 2: -1}
    )
    tournament.refresh_from_db()
    table.refresh_from_db()
    expected = f"{tournament.revision}.{table.revision}"
    assert table.revision > 0
    assert [revision_token(tournament.pk) for _ in range(3)] == [expected] * 3
    ((name, statement),) = prepared_statements()
    assert name == "ofc_prepared_0" and "SUM(tb" in statement
    assert revision_token(999_999) is None

    # Deallocated behind its back (DEALLOCATE ALL, DISCARD ALL): prepared again.
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")
    assert revision_token(tournament.pk) == expected
    assert [name for name, _ in prepared_statements()] == ["ofc_prepared_0"]

    # A new connection (closed, or broken and replaced) prepares it afresh.
    connection.close()
    assert revision_token(tournament.pk) == expected
    assert [name for name, _ in prepared_statements()] == ["ofc_prepared_0"]


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_a_database_error_is_djangos(make_tournament):
    tournament = make_tournament(3)
    token = revision_token(tournament.pk)
    with pytest.raises(DataError):
        revision_token("not a number")
    with pytest.raises(DataError):
        revision_token(2**70)  # beyond a bigint
    assert revision_token(tournament.pk) == token  # the connection is usable after it
