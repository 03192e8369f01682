"""Write a table's cached state, inside the caller's transaction (and under its lock).

`store` writes a state worked out by `tournament.tables.state`; `recompute_table` walks
the whole history first (after a correction, and in the drift test);
`refresh_table` concludes again from the cached progress when only penalties,
departures or a tie settlement moved (constant cost).
"""

from collections.abc import Sequence

from django.db.models import F

from tournament.models import Hand, HandResult, Penalty, Player, Seat, Table
from tournament.rules.table_fold import TableState
from tournament.rules.warnings import DISQUALIFYING_WARNING, warning_points
from tournament.tables.state import (
    History,
    cached_state,
    history_state,
    penalty_points_at,
    table_seats,
)

TABLE_CACHES = (
    "hands_played",
    "fantasyland_hands",
    "last_dealer_position",
    "next_dealer_position",
    "required_hands",
    "is_over",
    "winner",
    "seat_caches",
)


class TableMoved(Exception):
    """The table's revision is not the one its state was worked out from (`store`)."""


def store(
    table: Table,
    seats: Sequence[Seat],
    state: TableState,
    *,
    read_at_revision: int | None = None,
) -> TableState:
    """Write `state` into the table's caches, its seats' standings among them
    (`Table.seat_caches`: the table's row is the only one written); bump its revision.

    `read_at_revision`: write only if the table's revision is still this one (the
    table was read without a lock), else raise TableMoved (nothing written)."""
    table.seat_caches = {
        str(seat.position): {
            "hand_points": state.hand_points[seat.id],
            "penalty_points": state.penalty_points[seat.id],
            "total": state.totals[seat.id],
            "place": state.places[seat.id],
            "in_fantasyland": state.in_fantasyland[seat.id],
            "fantasyland_streak": state.fantasyland_streak[seat.id],
        }
        for seat in seats
    }
    progress = state.progress
    table.hands_played = state.hands_played
    table.fantasyland_hands = progress.fantasyland_hands
    table.last_dealer_position = progress.last_dealer
    table.next_dealer_position = state.next_dealer_position
    table.required_hands = state.required_hands
    table.is_over = state.is_over
    table.winner = next((s.player for s in seats if s.id == state.winner_seat_id), None)
    row = Table.objects.filter(pk=table.pk)
    if read_at_revision is not None:
        row = row.filter(revision=read_at_revision)
    written = row.update(
        revision=F("revision") + 1, **{name: getattr(table, name) for name in TABLE_CACHES}
    )
    if read_at_revision is not None and not written:
        raise TableMoved
    table.revision += 1
    return state


def recompute_table(table: Table) -> History:
    """Walk the table's whole history and rewrite every cache it moves; return the History.

    Also rewrites each hand's dealer and, for every hand, who played it in
    Fantasyland and who went there (a correction can move them for later hands).
    """
    history = history_state(table)
    played = {hand.number: hand for hand in history.played}
    hands: list[Hand] = []
    results: list[HandResult] = []
    for version in history.versions:
        hand = played[version.hand.number]
        if version.hand.dealer_position != hand.dealer:
            version.hand.dealer_position = hand.dealer
            hands.append(version.hand)
        for result in version.results.all():
            now = (hand.in_fantasyland[result.seat_id], hand.fantasyland_next[result.seat_id])
            if (result.in_fantasyland, result.fantasyland_next) != now:
                result.in_fantasyland, result.fantasyland_next = now
                results.append(result)
    if hands:
        Hand.objects.bulk_update(hands, ["dealer_position"])
    if results:
        HandResult.objects.bulk_update(results, ["in_fantasyland", "fantasyland_next"])
    store(table, history.seats, history.state)
    return history


def refresh_table(table: Table) -> TableState:
    """Conclude again from the cached progress, with the penalties and seats as they are now."""
    seats = table_seats(table)
    state, _ = cached_state(table, seats, penalty_points=penalty_points_at(table, seats))
    return store(table, seats, state)


def recompute_warnings(player: Player) -> set[int]:
    """Number the player's warnings across the tournament and price them.

    A timeout costs 10; the 2nd warning costs 25 more; the 3rd disqualifies, and
    the player leaves the table where it was given after the hands already played.
    Returns the ids of the tables (of open levels) whose totals or seats may have moved.
    """
    penalties = list(
        Penalty.objects.filter(player=player)
        .select_related("table__level")
        .order_by("created_at", "id")
    )
    # A closed level's results are final: only tables of open levels are recomputed.
    touched = {
        p.table.pk for p in penalties if p.table is not None and p.table.level.closed_at is None
    }
    number = 0
    disqualifying: Penalty | None = None
    changed: list[Penalty] = []
    for penalty in penalties:
        if penalty.rescinded_at is not None:
            number_and_points: tuple[int | None, int] = (None, 0)
        else:
            number += 1
            # At no table there is no score to deduct from: the warning counts, for 0 points.
            points = warning_points(penalty.kind, number) if penalty.table_id else 0
            number_and_points = (number, points)
            if number == DISQUALIFYING_WARNING:
                disqualifying = penalty
        if (penalty.warning_number, penalty.points) != number_and_points:
            penalty.warning_number, penalty.points = number_and_points
            changed.append(penalty)
    if changed:
        Penalty.objects.bulk_update(changed, ["warning_number", "points"])
    disqualified = disqualifying is not None
    if player.disqualified != disqualified:
        Player.objects.filter(pk=player.pk).update(disqualified=disqualified)
        player.disqualified = disqualified

    for seat in Seat.objects.open().filter(player=player):
        left = (
            disqualifying.after_hand
            if disqualifying is not None and disqualifying.table_id == seat.table_id
            else None
        )
        if seat.left_after_hand != left:
            seat.left_after_hand = left
            seat.save(update_fields=["left_after_hand"])
        touched.add(seat.table_id)
    return touched


def open_tables_of(player: Player) -> set[int]:
    """Ids of the tables that `recompute_warnings(player)` may rewrite: for locking first."""
    from_penalties = Penalty.objects.filter(
        player=player, table__level__closed_at__isnull=True
    ).values_list("table_id", flat=True)
    from_seats = Seat.objects.open().filter(player=player).values_list("table_id", flat=True)
    return set(from_penalties) | set(from_seats)
