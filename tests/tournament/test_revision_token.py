"""The polling token moves with every change a page shows, and costs one plain query.

One selector, `revision_token`, gives every live page its token: the tournament's (its
own revision and the sum of its open tables'), or a table's (the tournament's revision and
the table's). It is one query through Django's own cursor, so what Django guards and wraps
holds for it, and nothing is prepared on the server that a pooler could lose.
"""

import uuid

import pytest
from django.db import connection

from tests.tournament.conftest import play, single_table
from tournament.models import Table
from tournament.selectors.tokens import revision_token, room_tokens
from tournament.services import calls, draws, hands, penalties

pytestmark = pytest.mark.django_db

# What no row's id can be: 0 and below, beyond a bigint (2**63 - 1), or not a number.
IMPOSSIBLE_IDS = [0, -1, 2**63, 2**70, "1", 1.0, True]


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


@pytest.fixture
def two_tables(make_tournament, td_user):
    tournament = make_tournament(6, min_hands=3)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="token")
    first, second = Table.objects.current().filter(level=level).order_by("number")
    return tournament, first, second


def revisions(tournament, table):
    tournament.refresh_from_db()
    table.refresh_from_db()
    return tournament.revision, table.revision


def test_a_tables_token_is_the_tournaments_revision_and_the_tables(two_tables, td_user):
    tournament, first, second = two_tables
    t, r = revisions(tournament, first)
    assert revision_token(tournament.pk, first.pk) == f"{t}.{r}"
    play(first, 2, -1, -1)
    assert revisions(tournament, first) == (t, r + 1)  # a hand moves the table alone
    assert revision_token(tournament.pk, first.pk) == f"{t}.{r + 1}"
    # A hand at the other table leaves it alone; the tournament's token moves.
    whole = revision_token(tournament.pk)
    play(second, 3, -3, 0)
    assert revision_token(tournament.pk, first.pk) == f"{t}.{r + 1}"
    assert revision_token(tournament.pk) != whole
    # A penalty moves the tournament's revision: every table's token moves.
    player = first.seats.first().player
    penalties.give_penalty(tournament=tournament, player=player, kind="slow", actor=td_user)
    moved = revisions(tournament, first)
    assert moved[0] > t
    assert revision_token(tournament.pk, first.pk) == "{}.{}".format(*moved)


def test_a_table_of_another_tournament_has_no_token(two_tables, make_tournament, td_user):
    tournament, first, _ = two_tables
    other = make_tournament(3, name="Another")
    single_table(other, td_user)
    assert revision_token(other.pk, first.pk) is None
    assert revision_token(tournament.pk, first.pk + 1000) is None
    assert revision_token(tournament.pk + 1000, first.pk) is None


@pytest.mark.parametrize("bad", IMPOSSIBLE_IDS)
def test_an_id_no_row_can_have_has_no_token_and_no_error(two_tables, bad):
    """Django's ORM answers "no row" for an id beyond the column's range; the token's query
    does the same, on both databases, instead of PostgreSQL's "bigint out of range" (a 500)
    or SQLite's OverflowError."""
    tournament, first, _ = two_tables
    assert revision_token(bad) is None
    assert revision_token(tournament.pk, bad) is None
    assert revision_token(bad, first.pk) is None
    assert revision_token(tournament.pk) is not None  # the connection is still usable


def test_the_token_is_one_plain_query_through_djangos_cursor(two_tables):
    """Django's execute wrappers (query logging, debugging tools, instrumentation) see it."""
    tournament, first, _ = two_tables
    seen = []

    def wrapper(execute, sql, params, many, context):
        seen.append((sql, tuple(params)))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        revision_token(tournament.pk)
        revision_token(tournament.pk, first.pk)
    assert [params for _, params in seen] == [(tournament.pk,), (first.pk, tournament.pk)]
    assert all(sql.lstrip().upper().startswith("SELECT") for sql, _ in seen)


postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="server-side prepared statements are PostgreSQL's"
)


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_nothing_is_prepared_on_the_server(two_tables):
    """As every poll runs it, outside a transaction: a statement prepared on one server
    connection is what a pooler in transaction mode cannot carry to the next client (PgBouncer
    answers 42P05 or 26000), so none is."""
    tournament, first, _ = two_tables
    play(first, 2, -1, -1)
    connection.close()  # a fresh connection, as a worker's after a restart
    for _ in range(8):  # psycopg prepares a statement it runs 5 times, where it may
        tournament_token = revision_token(tournament.pk)
        table_token = revision_token(tournament.pk, first.pk)
    with connection.cursor() as cursor:
        cursor.execute("SELECT name, statement FROM pg_prepared_statements")
        assert cursor.fetchall() == []
    t, r = revisions(tournament, first)
    assert table_token == f"{t}.{r}"
    assert tournament_token == f"{t}.{r + Table.objects.get(pk=two_tables[2].pk).revision}"


def test_every_token_of_the_room_at_once_is_each_ones_own(two_tables, make_tournament, td_user):
    """`room_tokens`: what `revision_token` gives the tournament and each of its tables, in
    one query; nothing of another tournament, nothing for an id no row can have."""
    tournament, first, second = two_tables
    play(first, 2, -1, -1)
    other = make_tournament(3, name="Another")
    elsewhere = single_table(other, td_user)
    seen = []

    def wrapper(execute, sql, params, many, context):
        seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        tokens = room_tokens(tournament.pk)
    assert len(seen) == 1 and seen[0].lstrip().upper().startswith("SELECT")
    t, r = revisions(tournament, first)
    assert tokens.tables == {
        first.pk: f"{t}.{r}",  # one hand played: one more than the other table
        second.pk: f"{t}.{r - 1}",
    }
    assert tokens.tournament == f"{t}.{r + r - 1}"  # both tables of the open level
    assert tokens.tournament == revision_token(tournament.pk)
    assert tokens.tables == {
        table.pk: revision_token(tournament.pk, table.pk) for table in (first, second)
    }
    assert elsewhere.pk not in tokens.tables
    assert room_tokens(other.pk + 1000) is None
    for bad in IMPOSSIBLE_IDS:
        assert room_tokens(bad) is None


def test_the_rooms_tokens_before_a_draw_and_after_a_level_closes(
    two_tables, make_tournament, td_user
):
    """No table yet: the tournament's revision and 0, as `revision_token` gives it. A closed
    level's tables keep their own tokens, and leave the tournament's sum."""
    fresh = make_tournament(3, name="Not drawn")
    fresh.refresh_from_db()
    assert room_tokens(fresh.pk) == (f"{fresh.revision}.0", {})
    assert revision_token(fresh.pk) == f"{fresh.revision}.0"

    tournament, first, second = two_tables
    for table in (first, second):  # three hands each, the first seat wins every one
        for _ in range(3):
            play(table, 2, -1, -1)
    draws.advance(tournament=tournament, actor=td_user, seed="next")
    final = Table.objects.get(level__tournament=tournament, level__number=2)
    tokens = room_tokens(tournament.pk)
    t, r = revisions(tournament, final)
    assert tokens.tournament == f"{t}.{r}" == revision_token(tournament.pk)
    assert tokens.tables == {
        table.pk: revision_token(tournament.pk, table.pk) for table in (first, second, final)
    }
