"""A level's tables, their seats and their hands, as every page reads them."""

from django.db.models import Exists, OuterRef, Prefetch

from tournament.models import (
    Hand,
    HandResult,
    HandVersion,
    Seat,
    Table,
)


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


def bound_table(table_id):
    """The table a revisor's device is bound to, with its level, tournament, draw and
    winner, or None. Every request of a tablet reads it, its polls too: `get`, as
    `first()` would add an ORDER BY for the one row an id names."""
    try:
        return Table.objects.select_related("level__tournament", "draw", "winner").get(pk=table_id)
    except Table.DoesNotExist:
        return None


def level_tables(level):
    """A level's current tables with their seats, players and totals: 2 queries."""
    return list(
        Table.objects.current()
        .filter(level=level)
        .select_related("winner")
        .prefetch_related(Prefetch("seats", queryset=seats_with_players()))
        .order_by("number")
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
