"""The poll tokens: what every live page polls with, one indexed query (or none) each."""

from functools import cache
from typing import NamedTuple

from django.db import connection

from tournament.lib.ids import is_db_id
from tournament.models import (
    Level,
    Table,
    Tournament,
)


# Both tokens are one constant SQL string run through `connection.cursor()` (Django's cursor,
# its wrappers and errors; nothing prepared on the server, so a pooler in transaction mode
# works): every poll of a room of phones runs it first, and an unchanged poll runs nothing
# else. Built by the ORM at each poll, a table's token cost 0.7-0.9 ms in process against
# this string's 0.23 ms (docs/performance-log.md, "The poll token"), about the bare view's
# time.
@cache
def _token_sql(of_table):
    """The token's query, named from the models' own tables and columns: the tournament's
    (`%s`: its id) or one of its tables' (`%s, %s`: the table's id, the tournament's)."""
    quote = connection.ops.quote_name
    tournament, table, level = (model._meta.db_table for model in (Tournament, Table, Level))
    rev, pk = quote("revision"), quote("id")
    level_id, tournament_id = quote("level_id"), quote("tournament_id")
    if of_table:
        return (
            f"SELECT t.{rev}, tb.{rev} FROM {quote(table)} tb"
            f" JOIN {quote(level)} l ON l.{pk} = tb.{level_id}"
            f" JOIN {quote(tournament)} t ON t.{pk} = l.{tournament_id}"
            f" WHERE tb.{pk} = %s AND l.{tournament_id} = %s"
        )
    return (
        f"SELECT t.{rev}, COALESCE((SELECT SUM(tb.{rev}) FROM {quote(table)} tb"
        f" JOIN {quote(level)} l ON l.{pk} = tb.{level_id}"
        f" WHERE l.{tournament_id} = t.{pk} AND l.{quote('closed_at')} IS NULL), 0)"
        f" FROM {quote(tournament)} t WHERE t.{pk} = %s"
    )


class RoomTokens(NamedTuple):
    """A tournament's token and each of its tables' (`revision_token`), as of one read."""

    tournament: str
    tables: dict  # table id: its token


def room_tokens(tournament_id):
    """`revision_token` of the tournament and of each of its tables, by table id, in one
    query (None when there is no such tournament): a room's phones poll the tournament's
    pages and the score cards of a hundred tables, and a process reads every token at once,
    once a second (`live.tokens.tournament_token` and `table_token`). One read
    also makes them agree: a player's record checked against his table's token is never
    older than the tournament's token his page shows. The ORM's building of it is no cost
    at once a second."""
    if not is_db_id(tournament_id):
        return None
    rows = (
        Tournament.objects.filter(pk=tournament_id)
        .values_list(
            "revision", "levels__tables__pk", "levels__tables__revision", "levels__closed_at"
        )
        .order_by()
    )
    ours, tables, open_sum = None, {}, 0
    for revision, table_id, table_revision, closed_at in rows:
        ours = revision
        if table_id is not None:
            tables[table_id] = join_token(revision, table_revision)
            open_sum += table_revision if closed_at is None else 0
    # The tournament's token sums its open levels' tables, as `revision_token` does.
    return None if ours is None else RoomTokens(join_token(ours, open_sum), tables)


def read_table_token(table):
    """`revision_token(tournament, table)` of a table read with its tournament
    (`select_related("level__tournament")`), from that read: no query. A revisor's tablet
    reads its table at every request (its binding), so its poll needs no query of its own
    (0.5-1 ms of 3-4 queries a poll, PostgreSQL, bench/bench_public.py). As of that read:
    a card read after it is never older than the token it is sent with."""
    return join_token(table.level.tournament.revision, table.revision)


def join_token(revision, revisions):
    """A poll token as every reader spells it: the tournament's revision, a dot, then the
    table's revision (a table's token) or its open tables' sum (the tournament's). The
    readers compare tokens from different reads (`revision_token`, `room_tokens`, a table
    read with its tournament), so one function writes them all."""
    return f"{revision}.{revisions}"


def tournament_revision(tournament_id):
    """The tournament's own revision as a token ("7"), without its tables': draws, releases,
    penalties, announcements and settings move it, hands do not. One indexed query; None
    when there is no such tournament."""
    if not is_db_id(tournament_id):
        return None
    revision = Tournament.objects.filter(pk=tournament_id).values_list("revision", flat=True)
    found = revision.first()
    return None if found is None else str(found)


def revision_token(tournament_id, table_id=None):
    """The token every live page polls with: it changes whenever anything the page shows
    changes. One indexed query; None when there is no such tournament (or table of it).

    The tournament's token is its own revision (draws, penalties, settings, renames...) and
    the sum of its open levels' table revisions (each hand, correction, call...): table
    revisions only grow, and the set of open tables only changes with the tournament's
    revision, so equal tokens mean nothing changed. A table's token (its score card) is the
    tournament's revision and the table's own: hands at other tables leave it alone.
    """
    ids = (tournament_id,) if table_id is None else (table_id, tournament_id)
    if not all(is_db_id(value) for value in ids):
        return None
    with connection.cursor() as cursor:
        cursor.execute(_token_sql(table_id is not None), ids)
        row = cursor.fetchone()
    return None if row is None else join_token(row[0], row[1])
