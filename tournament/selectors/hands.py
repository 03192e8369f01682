"""A table's last hands, as the revisor's card lists them, and its last hand as the
revisor's fix reads it."""

from dataclasses import dataclass

from tournament.models import Hand, HandResult, HandVersion, Seat, Table
from tournament.selectors.tables import hand_history


@dataclass(frozen=True)
class LastResult:
    """What the card's last hands show of one player's hand."""

    points: int
    fantasyland_next: bool


def last_hands(table: Table, count: int = 5) -> tuple[list[int], dict[int, dict[int, LastResult]]]:
    """The table's last `count` hands as `table` was read: their numbers, oldest first, and
    each one's current results by seat id. 1 query: a table's hands are numbered from 1 to
    its `hands_played`, none missing (each is recorded as the one after the last), so the
    numbers need no read of their own; and the card shows two values of a result, so no
    model is made (3 queries and 30 models before, a fifth of a revisor's hand POST)."""
    last = table.hands_played
    numbers = list(range(max(1, last - count + 1), last + 1))
    results: dict[int, dict[int, LastResult]] = {number: {} for number in numbers}
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


def first_version(table: Table, number: int) -> HandVersion | None:
    """The first version of the table's hand of this number (who recorded it and when),
    or None while it is not recorded: 1 query."""
    return (
        HandVersion.objects.filter(hand__table=table, hand__number=number, version=1)
        .select_related("created_by")
        .first()
    )


@dataclass(frozen=True)
class LastHand:
    """The table's last hand as it stands: its current version and results, in seat order."""

    hand: Hand
    version: HandVersion
    results: list[HandResult]  # with seat__player

    @property
    def seats(self) -> list[Seat]:
        return [result.seat for result in self.results]

    @property
    def in_fantasyland(self) -> dict[int, bool]:
        return {result.seat_id: result.in_fantasyland for result in self.results}


def last_hand(table: Table) -> LastHand | None:
    """The table's last hand (the one the revisor may fix), or None before the first."""
    hand = Hand.objects.filter(table=table, number=table.hands_played).first()
    if hand is None:
        return None
    version = HandVersion.objects.current().get(hand=hand)
    results = list(version.results.select_related("seat__player").order_by("seat__position"))
    return LastHand(hand, version, results)


@dataclass(frozen=True)
class Correction:
    """A recorded hand as the TD's correction page shows it: every version, the current
    one's results, and whether its table still plays (a correction is made only then)."""

    hand: Hand
    history: list[HandVersion]  # with their results
    current: HandVersion
    in_play: bool  # the table's draw is current and its level open

    @property
    def seats(self) -> list[Seat]:
        return [result.seat for result in self.current.results.all()]

    @property
    def fl_positions(self) -> list[int]:
        return [r.seat.position for r in self.current.results.all() if r.in_fantasyland]


def hand_to_correct(table: Table, number: int) -> Correction | None:
    """The table's hand of this number with its history, or None if it has none."""
    try:
        hand = Hand.objects.get(table=table, number=number)
    except Hand.DoesNotExist:
        return None
    history = hand_history(hand)
    current = next(v for v in history if v.superseded_at is None)
    in_play = table.draw.superseded_at is None and table.level.closed_at is None
    return Correction(hand, history, current, in_play)
