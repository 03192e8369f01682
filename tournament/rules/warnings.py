"""Warnings and their price, counted across the whole tournament (rules.md): a timeout costs
10; the 2nd warning costs 25 more; the 3rd disqualifies. The one place that says what a
warning costs: the table's store, the TD's confirmation and the backup's check ask here."""

from tournament.models import Penalty

TIMEOUT_POINTS = 10
SECOND_WARNING_POINTS = 25
DISQUALIFYING_WARNING = 3


def warning_points(kind: str, number: int) -> int:
    """What the `number`-th warning of the tournament costs, if it is of `kind`."""
    return (TIMEOUT_POINTS if kind == Penalty.Kind.TIMEOUT else 0) + (
        SECOND_WARNING_POINTS if number == 2 else 0
    )
