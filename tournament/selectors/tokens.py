"""The poll tokens: what every live page polls with, one indexed query (or none) each."""

from typing import NamedTuple

from django.db.models import OuterRef, Subquery, Sum

from tournament.lib.ids import is_db_id
from tournament.models import Table, Tournament


def open_tables_revision() -> Subquery:
    """The sum of the revisions of the tournament's open levels' tables, the second half of
    its token: a subquery of the tournament's row, so that both halves come from one read
    (`revision_token`, `public.public_tournament`). None when it has no open table: the
    reader counts that 0 (`join_tournament_token`), which keeps the query's only parameter the
    tournament's id."""
    revisions = (
        Table.objects.filter(level__tournament_id=OuterRef("pk"), level__closed_at__isnull=True)
        .order_by()
        .values("level__tournament_id")
        .annotate(total=Sum("revision"))
        .values("total")
    )
    return Subquery(revisions)


def join_tournament_token(revision: int, open_tables_revision: int | None) -> str:
    """The tournament's token from its revision and `open_tables_revision()` as read."""
    return join_token(revision, open_tables_revision or 0)


class RoomTokens(NamedTuple):
    """A tournament's token and each of its tables' (`revision_token`), as of one read."""

    tournament: str
    tables: dict[int, str]  # table id: its token


def room_tokens(tournament_id: int) -> RoomTokens | None:
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
    ours: int | None = None
    tables: dict[int, str] = {}
    open_sum = 0
    for revision, table_id, table_revision, closed_at in rows:
        ours = revision
        if table_id is not None:
            tables[table_id] = join_token(revision, table_revision)
            open_sum += table_revision if closed_at is None else 0
    # The tournament's token sums its open levels' tables, as `revision_token` does.
    return None if ours is None else RoomTokens(join_token(ours, open_sum), tables)


def read_table_token(table: Table) -> str:
    """`revision_token(tournament, table)` of a table read with its tournament
    (`select_related("level__tournament")`), from that read: no query. A revisor's tablet
    reads its table at every request (its binding), so its poll needs no query of its own
    (0.5-1 ms of 3-4 queries a poll, PostgreSQL, bench/bench_public.py). As of that read:
    a card read after it is never older than the token it is sent with."""
    return join_token(table.level.tournament.revision, table.revision)


def join_token(revision: int, revisions: int) -> str:
    """A poll token as every reader spells it: the tournament's revision, a dot, then the
    table's revision (a table's token) or its open tables' sum (the tournament's). The
    readers compare tokens from different reads (`revision_token`, `room_tokens`, a table
    read with its tournament), so one function writes them all."""
    return f"{revision}.{revisions}"


def tournament_revision(tournament_id: int) -> str | None:
    """The tournament's own revision as a token ("7"), without its tables': draws, releases,
    penalties, announcements and settings move it, hands do not. One indexed query; None
    when there is no such tournament."""
    if not is_db_id(tournament_id):
        return None
    revision = Tournament.objects.filter(pk=tournament_id).values_list("revision", flat=True)
    found = revision.first()
    return None if found is None else str(found)


def revision_token(tournament_id: int, table_id: int | None = None) -> str | None:
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
    # One row by its key: no ORDER BY, no LIMIT (`first()` would add both).
    if table_id is None:
        found = list(
            Tournament.objects.filter(pk=tournament_id)
            .annotate(open_tables_revision=open_tables_revision())
            .order_by()
            .values_list("revision", "open_tables_revision")
        )
        return join_tournament_token(*found[0]) if found else None
    found = list(
        Table.objects.filter(pk=table_id)
        .filter(level__tournament_id=tournament_id)  # its parameter second, as the ids
        .order_by()
        .values_list("level__tournament__revision", "revision")
    )
    return join_token(*found[0]) if found else None
