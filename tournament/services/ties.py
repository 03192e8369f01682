"""The checks of a decision on a tie for first, made before its confirmation is shown
(zulip's `check_*` before `do_*`): the change itself is `hands.settle_tie`, which checks
the same again under the table's lock."""

from collections.abc import Sequence

from django.utils.translation import gettext as _

from tournament.errors import NotAllowed
from tournament.models import Seat, Table, TieSettlement
from tournament.services.hands import check_table_open, tie_decided_meanwhile


def check_tie_to_settle(table: Table, leaders: Sequence[Seat]) -> None:
    """Refuse deciding the tie at `table` when its results are final or its seating is not
    in play (`hands.check_table_open`), or when no one is tied for first (`leaders`, the
    score card's)."""
    check_table_open(table)
    if not leaders:
        raise NotAllowed(
            _("Table %(table)d has no tie for first to settle.") % {"table": table.number}
        )


def check_decision_shown(table: Table, settlement: TieSettlement | None, shown: int | None) -> None:
    """Refuse (a Conflict) a decision made from a page that showed the tie otherwise:
    `shown`, the id of the settlement the page showed (None: undecided), is not the one
    that decides it now (`settlement`)."""
    if shown != (settlement.pk if settlement is not None else None):
        raise tie_decided_meanwhile(table, settlement)
