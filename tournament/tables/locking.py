"""Row locks, always taken in one order so that two services can never deadlock.

THE LOCK ORDER: first the tournament row (only services that change more than one
table, or the tournament itself, take it), then table rows in increasing id
order. Nothing else is locked explicitly.

- Recording a hand takes no lock before it writes: it reads its table, writes the
  hand, and writes the table's row only if the table's revision is still the one it
  read (services/hands.py), or it starts again. That write is its lock.
- Correcting a hand and settling a tie change one table: they lock that table only,
  so that tables of one tournament never wait for each other.
- Draws, redraws, advancing, penalties, rescinding, settings and registration
  lock the tournament, then every table they will rewrite, in id order.
- Merging two register entries locks the two entries' rows, in id order, and nothing
  else (`lock_register_entries`): it changes no tournament.
- Naming a tournament (creating one, renaming it) takes the tournament names' lock
  (`lock_tournament_names`) last, after the tournament row: two TDs choosing the same
  name at once are checked one after the other.

LOCKING A TABLE MOVES ITS REVISION (`lock_tables`): a hand read before the lock was
taken finds, at its write, that its table has moved, and is recorded again from what
the locking service left (a redrawn table refuses it, a penalty is counted in it).
A revision is only a poll token that grows, so a lock that ends up changing nothing
costs a page one refresh.

Each lock names its own row only (`of=("self",)`), so a join never locks the
level or the tournament behind a table. Locks are `FOR NO KEY UPDATE` (`no_key=True`;
an update that changes no key takes the same): inserting a row that refers to a locked
one (a hand to its table, an audit entry to its tournament) takes `FOR KEY SHARE` on
it, which this lock does not block, so an insert never waits for another service's lock.

A locked row is read again after the lock is granted (a second query): a
statement's joined rows come from before it waited, and could be stale.

On SQLite, which has no row locks, the database serialises writers (the
settings open every transaction with BEGIN IMMEDIATE): the revision moves all the
same, so both databases show the same tokens.
"""

from collections.abc import Iterable

from django.db import connection
from django.db.models import F
from django.utils.translation import gettext as _

from tournament.errors import InvalidEntry
from tournament.models import RegisterEntry, Seat, Table, Tournament
from tournament.tables import read


def lock_tournament(tournament: Tournament) -> Tournament:
    """Lock the tournament row (step 1 of the order) and return it, read afresh."""
    return (
        Tournament.objects.select_for_update(no_key=True, of=("self",)).filter(pk=tournament.pk)
    ).get()


def lock_tables(table_ids: Iterable[int]) -> None:
    """Lock these table rows in id order (step 2), after any tournament lock, and move
    their revisions: a hand read before this sees, at its write, that its table moved."""
    ids = sorted(set(table_ids))
    if not ids:
        return
    tables = Table.objects.filter(pk__in=ids)
    if len(ids) > 1 and connection.features.has_select_for_update:
        # Several rows: locked in id order first, which an update() does not promise.
        list(
            tables.select_for_update(no_key=True, of=("self",))
            .order_by("pk")
            .values_list("pk", flat=True)
        )
    # One row: the update() is the lock (FOR NO KEY UPDATE: it changes no key).
    tables.update(revision=F("revision") + 1)


def lock_table(table: Table) -> Table:
    """Lock one table and return it read afresh, with its level, tournament and draw."""
    lock_tables([table.pk])
    return read_table_and_seats(table)[0]


def read_table_and_seats(table: Table) -> tuple[Table, list[Seat]]:
    """One table read afresh, with its level, tournament and draw, and its seats with
    players (one query); locked only if the caller locked it."""
    try:
        return read.read_table_and_seats(table.pk)
    except Table.DoesNotExist:
        raise InvalidEntry(_("This table does not exist.")) from None


# The key of PostgreSQL's transaction-scoped advisory lock on the tournaments' names (any
# number the app uses for nothing else).
TOURNAMENT_NAMES_LOCK = 0x504F4643  # "POFC"


def lock_tournament_names() -> None:
    """Hold the lock on the tournaments' names until the transaction ends: a name is checked
    against the others and written under it (no two tournaments of the same name, case
    and accents aside, which no unique index can express on both databases)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [TOURNAMENT_NAMES_LOCK])


def touch_tournament(tournament: Tournament) -> None:
    """Bump the tournament's revision (pages poll it); only under its lock."""
    Tournament.objects.filter(pk=tournament.pk).update(revision=F("revision") + 1)


def lock_register_entries(
    first: RegisterEntry, second: RegisterEntry
) -> tuple[RegisterEntry, RegisterEntry]:
    """Lock two register entries' rows in id order and return them read afresh, in the
    order given: two merges of the same entries wait for each other, and the second finds
    the first's pointer."""
    locked = {
        entry.pk: entry
        for entry in RegisterEntry.objects.select_for_update(no_key=True, of=("self",))
        .filter(pk__in=[first.pk, second.pk])
        .order_by("pk")
    }
    return locked[first.pk], locked[second.pk]
