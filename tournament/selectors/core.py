"""Reads shared by every page: tournaments, levels, tables, hands, standings, the poll token."""

from dataclasses import dataclass
from functools import cache

from django.db import connection
from django.db.models import Exists, OuterRef, Prefetch

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
)
from tournament.selectors.prepared import fetch_one_prepared


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


def standings(tournament):
    """Final (or current) standings per rules.md section 6: 3 queries.

    Champion first; then the other players of the last table by their points
    there; then, level by level backwards, the players who went out at each
    level, by their place at their table and then their points there. Players
    still playing come first while the tournament runs. Disqualified last.
    """
    players = list(Player.objects.filter(tournament=tournament, withdrawn_at__isnull=True))
    last_seat = {}
    for seat in (
        Seat.objects.current()
        .filter(table__level__tournament=tournament)
        .select_related("table__level")
        .order_by("table__level__number")
    ):
        last_seat[seat.player_id] = seat
    # Read afresh: the caller's instance may predate the final advance.
    champion_id = (
        Tournament.objects.filter(pk=tournament.pk).values_list("champion", flat=True).get()
    )

    def key(player):
        seat = last_seat.get(player.pk)
        if seat is None:
            return (0, 0, 0, 0, player.number)
        table = seat.table
        still_in = (
            player.pk != champion_id
            and table.level.closed_at is None
            and not (table.is_over and table.winner_id != player.pk)
        )
        return (
            0 if player.pk == champion_id else 1,
            0 if still_in else 1,
            -table.level.number,
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
                level=seat.table.level.number if seat else None,
                place=seat.place if seat else None,
                points=seat.total if seat else None,
                status=status,
            )
        )
    for player in sorted(
        (p for p in players if p.disqualified),
        key=lambda p: (-(last_seat[p.pk].table.level.number if p.pk in last_seat else 0), p.number),
    ):
        seat = last_seat.get(player.pk)
        result.append(
            Standing(
                rank=None,
                player=player,
                level=seat.table.level.number if seat else None,
                place=None,
                points=seat.total if seat else None,
                status="disqualified",
            )
        )
    return result


@cache
def _token_sql():
    """The revision token's query, named from the models' own tables and columns."""
    quote = connection.ops.quote_name
    tournament, table, level = (model._meta for model in (Tournament, Table, Level))
    return (
        f"SELECT t.{quote('revision')}, COALESCE((SELECT SUM(tb.{quote('revision')})"
        f" FROM {quote(table.db_table)} tb"
        f" JOIN {quote(level.db_table)} l ON l.{quote('id')} = tb.{quote('level_id')}"
        f" WHERE l.{quote('tournament_id')} = t.{quote('id')}"
        f" AND l.{quote('closed_at')} IS NULL), 0)"
        f" FROM {quote(tournament.db_table)} t WHERE t.{quote('id')} = %s"
    )


def revision_token(tournament_id):
    """A token that changes whenever anything a page of this tournament shows changes.

    The tournament's own revision (draws, penalties, settings...) and the sum of
    its open levels' table revisions (each hand, correction, call...): table
    revisions only grow, and the set of open tables only changes with the
    tournament's revision, so equal tokens mean nothing changed. One indexed
    query; None when the tournament does not exist.
    """
    # One constant SQL string: every poll runs it first, and building the same query
    # with the ORM cost four times the query itself (docs/performance.md).
    row = fetch_one_prepared(_token_sql(), [tournament_id])
    return None if row is None else f"{row[0]}.{row[1]}"
