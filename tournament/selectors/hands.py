"""A table's last hands, as the revisor's card lists them."""

from dataclasses import dataclass

from tournament.models import HandResult


@dataclass(frozen=True)
class LastResult:
    """What the card's last hands show of one player's hand."""

    points: int
    fantasyland_next: bool


def last_hands(table, count=5):
    """The table's last `count` hands as `table` was read: their numbers, oldest first, and
    each one's current results by seat id. 1 query: a table's hands are numbered from 1 to
    its `hands_played`, none missing (each is recorded as the one after the last), so the
    numbers need no read of their own; and the card shows two values of a result, so no
    model is made (3 queries and 30 models before, a fifth of a revisor's hand POST)."""
    last = table.hands_played
    numbers = list(range(max(1, last - count + 1), last + 1))
    results = {number: {} for number in numbers}
    if numbers:
        rows = (
            HandResult.objects.filter(
                version__hand__table=table,
                version__hand__number__range=(numbers[0], last),
                version__superseded_at__isnull=True,
            )
            .order_by()
            .values_list("version__hand__number", "seat_id", "points", "fantasyland_next")
        )
        for number, seat_id, points, fantasyland_next in rows:
            results[number][seat_id] = LastResult(points, fantasyland_next)
    return numbers, results
