"""The boards typed as cards (the next hand's entry and a fix's): one set of row inputs
per seat and the touch card picker's keys (static/js/card-picker.js)."""

from collections.abc import Iterable, Mapping, Sized
from dataclasses import dataclass

from django import forms
from django.utils.translation import gettext_lazy

from scoring.boards import ROW_SIZES, ROWS
from tournament.models import Seat

# The picker's keys: ranks high to low as players sort their cards, suits in bridge order.
PICKER_RANKS = (
    ("A", "A", gettext_lazy("ace")),
    ("K", "K", gettext_lazy("king")),
    ("Q", "Q", gettext_lazy("queen")),
    ("J", "J", gettext_lazy("jack")),
    ("T", "10", gettext_lazy("ten")),
    ("9", "9", gettext_lazy("nine")),
    ("8", "8", gettext_lazy("eight")),
    ("7", "7", gettext_lazy("seven")),
    ("6", "6", gettext_lazy("six")),
    ("5", "5", gettext_lazy("five")),
    ("4", "4", gettext_lazy("four")),
    ("3", "3", gettext_lazy("three")),
    ("2", "2", gettext_lazy("two")),
)
PICKER_SUITS = (
    ("s", "♠", "spades", gettext_lazy("spades")),
    ("h", "♥", "hearts", gettext_lazy("hearts")),
    ("d", "♦", "diamonds", gettext_lazy("diamonds")),
    ("c", "♣", "clubs", gettext_lazy("clubs")),
)


@dataclass(frozen=True)
class BoardRow:
    """One row's input on the entry form: its name ("front"), size (3 or 5) and field."""

    name: str
    size: int
    field: forms.BoundField


@dataclass(frozen=True)
class SeatBoard:
    position: int
    name: str
    in_fantasyland: bool  # plays this hand in Fantasyland (14 cards dealt, 13 placed)
    rows: tuple[BoardRow, ...]


def seat_boards(
    seats: Iterable[Seat], in_fantasyland: Mapping[int, bool], form: forms.BaseForm
) -> list[SeatBoard]:
    """The entry form's boards, one per seat; `in_fantasyland` {seat id: plays in FL}."""
    return [
        SeatBoard(
            position=seat.position,
            name=seat.player.name,
            in_fantasyland=bool(in_fantasyland.get(seat.id)),
            rows=tuple(
                BoardRow(row, ROW_SIZES[row], form[f"{row}_{seat.position}"]) for row in ROWS
            ),
        )
        for seat in seats
    ]


def picker_context(seats: Sized) -> dict[str, object]:
    """What the picker's keys (_card_picker.html) need."""
    return {
        "picker_ranks": PICKER_RANKS,
        "picker_suits": PICKER_SUITS,
        "cards_total": sum(ROW_SIZES.values()) * len(seats),
    }
