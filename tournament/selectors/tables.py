"""A level's tables, their seats and their hands, as every page reads them."""

from django.db.models import Exists, OuterRef, Prefetch, QuerySet
from django.db.models.expressions import Combinable, NegatedExpression

from tournament.models import (
    Hand,
    HandResult,
    HandVersion,
    Level,
    Seat,
    Table,
    Tournament,
    shown_draw,
)
from tournament.rules.seating import deal_order
from tournament.selectors.td_words import blank_td_words, without_td_words


def seats_with_players() -> QuerySet[Seat]:
    return Seat.objects.select_related("player").order_by("position")


def table_seats(table: Table) -> list[Seat]:
    """The table's seats with their players, in seat order: 1 query."""
    return list(table.seats.select_related("player").order_by("position"))


def is_final_table(table: Table) -> bool:
    """The table is the only one of its draw, the final table: 1 query."""
    return not Table.objects.filter(draw_id=table.draw_id).exclude(pk=table.pk).exists()


def alone_in_draw() -> "NegatedExpression[Combinable]":  # generic in the stubs only
    """For a Seat queryset's annotate(): its table is the only one of its draw, the final
    table, whose winner is the champion (in the same query as the seats)."""
    others = Table.objects.filter(draw_id=OuterRef("draw_id")).exclude(pk=OuterRef("table_id"))
    return ~Exists(others)


def bound_table(table_id: int) -> Table | None:
    """The table a revisor's device is bound to, with its level, tournament, draw and
    winner, or None. Every request of a tablet reads it, its polls too: `get`, as
    `first()` would add an ORDER BY for the one row an id names."""
    try:
        return Table.objects.select_related("level__tournament", "draw", "winner").get(pk=table_id)
    except Table.DoesNotExist:
        return None


def tournament_table(tournament: Tournament, table_id: int) -> Table | None:
    """A table of this tournament (any level, any draw) with its level (its `tournament`
    set), draw and winner, or None: 1 query."""
    table = (
        Table.objects.select_related("level", "draw", "winner")
        .filter(pk=table_id, level__tournament=tournament)
        .first()
    )
    if table is not None:
        table.level.tournament = tournament
    return table


def shown_table(tournament: Tournament, table_id: int) -> Table | None:
    """A table of this tournament (any level, any draw) as the room sees it: with its level
    and draw, without the reason of a redraw, or None when it is not there or its draw is
    not released to the room yet (issue 19 §5): 1 query."""
    table = without_td_words(
        Table.objects.select_related("level", "draw").filter(
            pk=table_id, level__tournament=tournament
        ),
        ("draw", "Draw"),
    ).first()
    if table is None or not shown_draw(table.draw):
        return None
    blank_td_words([table.draw])
    table.level.tournament = tournament
    return table


def level_tables(level: Level) -> list[Table]:
    """A level's current tables with their seats, players and totals: 2 queries."""
    return list(
        Table.objects.current()
        .filter(level=level)
        .select_related("winner")
        .prefetch_related(Prefetch("seats", queryset=seats_with_players()))
        .order_by("number")
    )


def dealer_order(table: Table) -> list[Seat]:
    """The table's seats (prefetched, as `level_tables` reads them) in the order the deal
    goes round, the first dealer first: no query."""
    seats = {seat.position: seat for seat in table.seats.all()}
    return [seats[p] for p in deal_order(seats, table.first_dealer_position)]


def tables_without_links(level: Level, tables: list[Table]) -> int:
    """How many of the level's `tables` have no revisor link (a tournament restored from a
    backup) while the level is open; 0 once it is closed, when none needs one."""
    if level.closed_at is not None:
        return 0
    return sum(1 for table in tables if not table.revisor_key)


def current_versions_with_results() -> "Prefetch[str, QuerySet[HandVersion], str]":
    # Quoted: Prefetch is generic in the stubs only.

    """For hands: `hand.current_versions`, the current version (a list of one) with its
    per-seat results in seat order: 2 queries for any number of hands."""
    return Prefetch(
        "versions",
        queryset=HandVersion.objects.current().prefetch_related(
            Prefetch("results", queryset=HandResult.objects.order_by("seat__position"))
        ),
        to_attr="current_versions",
    )


def table_hands(table: Table) -> list[Hand]:
    """A table's hands, each with its current version and per-seat results: 3 queries."""
    return list(
        Hand.objects.filter(table=table)
        .order_by("number")
        .prefetch_related(current_versions_with_results())
    )


def hand_history(hand: Hand) -> list[HandVersion]:
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
