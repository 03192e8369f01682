"""Reads shared by every page: tournaments, levels, tables, hands, standings, the poll token."""

from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from django.db import connection
from django.db.models import Exists, OuterRef, Prefetch

from tournament.converters import DB_ID_MAX
from tournament.models import (
    Hand,
    HandResult,
    HandVersion,
    Level,
    Penalty,
    Player,
    Seat,
    Table,
    Tournament,
    seat_standing,
)


def tournament_list():
    """Tournaments, newest first, with their champion: 1 query."""
    return list(Tournament.objects.select_related("champion").order_by("-created_at", "-id"))


def seats_with_players():
    return Seat.objects.select_related("player").order_by("position")


def is_final_table(table):
    """The table is the only one of its draw, the final table: 1 query."""
    return not Table.objects.filter(draw_id=table.draw_id).exclude(pk=table.pk).exists()


def alone_in_draw():
    """For a Seat queryset's annotate(): its table is the only one of its draw, the final
    table, whose winner is the champion (in the same query as the seats)."""
    others = Table.objects.filter(draw_id=OuterRef("draw_id")).exclude(pk=OuterRef("table_id"))
    return ~Exists(others)


def level_tables(level):
    """A level's current tables with their seats, players and totals: 2 queries."""
    return list(
        Table.objects.current()
        .filter(level=level)
        .select_related("winner")
        .prefetch_related(Prefetch("seats", queryset=seats_with_players()))
        .order_by("number")
    )


def tournament_levels(tournament):
    """Every level with its current tables, seats and players: 3 queries."""
    return list(
        Level.objects.filter(tournament=tournament)
        .order_by("number")
        .prefetch_related(
            Prefetch(
                "tables",
                queryset=Table.objects.current().select_related("winner").order_by("number"),
            ),
            Prefetch("tables__seats", queryset=seats_with_players()),
        )
    )


def current_versions_with_results():
    """For hands: `hand.current_versions`, the current version (a list of one) with its
    per-seat results in seat order: 2 queries for any number of hands."""
    return Prefetch(
        "versions",
        queryset=HandVersion.objects.current().prefetch_related(
            Prefetch("results", queryset=HandResult.objects.order_by("seat__position"))
        ),
        to_attr="current_versions",
    )


def table_hands(table):
    """A table's hands, each with its current version and per-seat results: 3 queries."""
    return list(
        Hand.objects.filter(table=table)
        .order_by("number")
        .prefetch_related(current_versions_with_results())
    )


def hand_history(hand):
    """Every version of one hand, oldest first, with who entered it: 2 queries."""
    return list(
        HandVersion.objects.filter(hand=hand)
        .select_related("created_by")
        .prefetch_related(
            Prefetch(
                "results",
                queryset=HandResult.objects.select_related("seat__player").order_by(
                    "seat__position"
                ),
            )
        )
        .order_by("version")
    )


def tournament_penalties(tournament):
    return list(
        Penalty.objects.filter(tournament=tournament)
        .select_related("player", "table__level", "created_by", "rescinded_by")
        .order_by("created_at", "id")
    )


@dataclass(frozen=True)
class Standing:
    rank: int | None  # None for disqualified players
    player: Player
    level: int | None  # the last level the player played
    place: int | None  # place at that level's table
    points: int | None  # total at that table
    status: str  # "champion", "in", "out", "disqualified"


class _LastSeat(NamedTuple):
    """A seat as the standings read it, in the order of `_LAST_SEAT_LOOKUPS`."""

    player_id: int
    place: int | None
    total: int
    table_is_over: bool
    table_winner_id: int | None
    level: int  # the level's number
    alone_in_draw: bool  # the final table


_LAST_SEAT_LOOKUPS = (
    "player_id",
    "position",
    "table__seat_caches",  # the seat's place and total, by its position
    "table__is_over",
    "table__winner_id",
    "table__level__number",
)


def _final_winner(seats):
    """The winner of the final table once it is over, before the TD closes its level: the
    table's page names him champion then, and so do the standings and his own page (they
    told him to wait for a next level's draw)."""
    return next(
        (
            seat.table_winner_id
            for seat in seats
            if seat.alone_in_draw and seat.table_is_over and seat.table_winner_id == seat.player_id
        ),
        None,
    )


def standings(tournament):
    """Final (or current) standings per rules.md section 6: 3 queries.

    Champion first; then the other players of the last table by their points
    there; then, level by level backwards, the players who went out at each
    level, by their place at their table and then their points there. Players
    still playing come first while the tournament runs. Disqualified last.
    """
    players = list(Player.objects.filter(tournament=tournament, withdrawn_at__isnull=True))
    # Each player's seat at the last level he played, as plain values: a model instance
    # for every seat, its table and its level made this read 15 ms of a room's 300 players,
    # worked out again at every hand (the standings are kept per token).
    last_seat = {}
    for values in (
        Seat.objects.current()
        # An unreleased draw (issue 19 §5) counts from its release: the players see where
        # they stand, not the seating the TD still keeps to himself.
        .shown()
        .filter(table__level__tournament=tournament)
        .order_by("table__level__number")
        .annotate(alone_in_draw=alone_in_draw())
        .values_list(*_LAST_SEAT_LOOKUPS, "alone_in_draw")
    ):
        player_id, position, caches, *rest = values
        standing = seat_standing(caches, position)
        seat = _LastSeat(player_id, standing["place"], standing["total"], *rest)
        last_seat[seat.player_id] = seat
    # Read afresh: the caller's instance may predate the final advance.
    champion_id = (
        Tournament.objects.filter(pk=tournament.pk).values_list("champion", flat=True).get()
    ) or _final_winner(last_seat.values())

    def key(player):
        seat = last_seat.get(player.pk)
        if seat is None:
            return (0, 0, 0, 0, player.number)
        # A table's winner is still in until a draw seats him again: also once the TD has
        # closed his level and holds the next draw, which the room sees from its release.
        still_in = player.pk != champion_id and (
            not seat.table_is_over or seat.table_winner_id == player.pk
        )
        return (
            0 if player.pk == champion_id else 1,
            0 if still_in else 1,
            -seat.level,
            seat.place or 99,
            -seat.total,
            player.number,
        )

    ranked = sorted((p for p in players if not p.disqualified), key=key)
    result = []
    previous = None
    for index, player in enumerate(ranked, start=1):
        seat = last_seat.get(player.pk)
        sort_key = key(player)[:-1]
        rank = result[-1].rank if previous == sort_key else index
        previous = sort_key
        if player.pk == champion_id:
            status = "champion"
        elif sort_key[1] == 0:
            status = "in"
        else:
            status = "out"
        result.append(
            Standing(
                rank=rank,
                player=player,
                level=seat.level if seat else None,
                place=seat.place if seat else None,
                points=seat.total if seat else None,
                status=status,
            )
        )
    for player in sorted(
        (p for p in players if p.disqualified),
        key=lambda p: (-(last_seat[p.pk].level if p.pk in last_seat else 0), p.number),
    ):
        seat = last_seat.get(player.pk)
        result.append(
            Standing(
                rank=None,
                player=player,
                level=seat.level if seat else None,
                place=None,
                points=seat.total if seat else None,
                status="disqualified",
            )
        )
    return result


# Both tokens are one constant SQL string run through `connection.cursor()` (Django's cursor,
# its wrappers and errors; nothing prepared on the server, so a pooler in transaction mode
# works): every poll of a room of phones runs it first, and an unchanged poll runs nothing
# else. Built by the ORM at each poll, a table's token cost 0.7-0.9 ms in process against
# this string's 0.23 ms (docs/performance.md, "The poll token"), about the bare view's time.
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
    once a second (`views.public.common.tournament_token` and `table_token`). One read
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


def is_db_id(value):
    """Whether a row could have this id: what the ORM checks before it sends a lookup (an id
    beyond the column's range matches nothing there; here it would be the database's error)."""
    return type(value) is int and 1 <= value <= DB_ID_MAX


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
