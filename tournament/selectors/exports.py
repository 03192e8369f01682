"""The TD's exports: the standings and every hand result of a tournament, as the rows of a
spreadsheet (the CSV files of views/td/exports.py).

Every number in them is a whole number, written plainly (-15, never 1,234 nor 1 234): it
reads as a number in either language. A text cell that a spreadsheet would read as a
formula (it starts with =, +, -, @) gets a leading apostrophe. A prize is written in the
currency's units, with the language's decimal sign when it has öre, never grouped. The
headers are in the language active when the sheet is read.
"""

import datetime
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.audit.sentences import actor_name
from tournament.models import (
    HandResult,
    Tournament,
)
from tournament.rules.money import amount_input
from tournament.selectors.prizes import prized_standings
from tournament.selectors.standings import standings

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class Sheet:
    """A spreadsheet: its header and its rows of cells."""

    header: list[str]
    rows: list[list[object]]


def text_cell(value: object) -> str:
    """A text for a spreadsheet cell: never read as a formula."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def number_cell(value: int | None) -> int | str:
    return "" if value is None else value


def yes_no(value: bool | None) -> str:
    if value is None:
        return ""
    return _("yes") if value else _("no")


def local_time(value: datetime.datetime | None) -> str:
    return "" if value is None else timezone.localtime(value).strftime("%Y-%m-%d %H:%M:%S")


def standings_sheet(tournament: Tournament) -> Sheet:
    """The standings (rules.md section 6) as on the standings page, with each winner's
    prize once the standings are final."""
    labels = {
        "champion": _("Champion"),
        "in": _("Still playing"),
        "out": _("Out"),
        "disqualified": _("Disqualified"),
    }
    header = [
        _("Rank"),
        _("Start number"),
        _("Name"),
        _("Status"),
        _("Level"),
        _("Place"),
        _("Points"),
    ]
    prized = prized_standings(tournament, standings(tournament))
    rows: list[list[object]] = [
        [
            number_cell(standing.rank),
            standing.player.number,
            text_cell(standing.player.name),
            labels[standing.status],
            number_cell(standing.level),
            number_cell(standing.place),
            number_cell(standing.points),
        ]
        for standing in prized.rows
    ]
    if prized.figures.any:  # each winner's prize, once the standings are final
        header.append(_("Prize (%(currency)s)") % {"currency": prized.figures.currency})
        for row, standing in zip(rows, prized.rows, strict=True):
            row.append("" if standing.prize is None else amount_input(standing.prize))
    return Sheet(header, rows)


def hands_sheet(tournament: Tournament) -> Sheet:
    """Every current hand version, one line per player, in the order played: 1 query."""
    header = [
        _("Level"),
        _("Table"),
        _("Hand"),
        _("Version"),
        _("Entry"),
        _("Dealer"),
        _("Player"),
        _("Seat"),
        _("Points"),
        _("In Fantasyland"),
        _("To Fantasyland next"),
        _("Fouled"),
        _("Royalties"),
        _("Front"),
        _("Middle"),
        _("Back"),
        _("Entered by"),
        _("At"),
        _("Correction reason"),
    ]
    return Sheet(header, [_hand_row(result) for result in tournament_hand_results(tournament)])


def _hand_row(result: HandResult) -> list[object]:
    version = result.version
    hand = version.hand
    entered_by = actor_name(version.entered_by_label) or (
        version.created_by.get_username() if version.created_by else ""
    )
    return [
        hand.table.level.number,
        hand.table.number,
        hand.number,
        version.version,
        version.get_mode_display(),
        # Annotated by tournament_hand_results' query (not a column).
        text_cell(result.dealer_name),  # type: ignore[attr-defined]
        text_cell(result.seat.player.name),
        result.seat.position + 1,
        result.points,
        yes_no(result.in_fantasyland),
        yes_no(result.fantasyland_next),
        yes_no(result.fouled),
        number_cell(result.royalties),
        result.front,
        result.middle,
        result.back,
        text_cell(entered_by),
        local_time(version.created_at),
        text_cell(version.reason),
    ]


def tournament_hand_results(tournament: Tournament) -> list[HandResult]:
    """Every player's line of every current hand version of the tournament, for the hands
    CSV: 1 query at any size.

    In the order played (level, table, hand, seat), each with its version (and who
    entered it), hand, table, level, seat and player, and `dealer_name`: the player
    who dealt the hand (the dealer always plays the hand, so is among its lines).
    """
    results = list(
        HandResult.objects.filter(
            version__hand__table__level__tournament=tournament,
            version__hand__table__draw__superseded_at__isnull=True,
            version__superseded_at__isnull=True,
        )
        .select_related("version__hand__table__level", "version__created_by", "seat__player")
        .order_by(
            "version__hand__table__level__number",
            "version__hand__table__number",
            "version__hand__number",
            "seat__position",
        )
    )
    names: dict[tuple[int, int | None], str] = {
        (r.version_id, r.seat.position): r.seat.player.name for r in results
    }

    for result in results:
        hand = result.version.hand
        # Read by the hands CSV beside the columns: not a field of the model.
        result.dealer_name = names.get(  # type: ignore[attr-defined]
            (result.version_id, hand.dealer_position), ""
        )

    return results
