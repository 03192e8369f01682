"""Royalty tables (rules.md section 4)."""

from __future__ import annotations

from .hands import (
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    PAIR,
    ROYAL_FLUSH,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
)

# Royalty by category, for the back and the middle rows.
BACK = {
    "us": {
        STRAIGHT: 2,
        FLUSH: 4,
        FULL_HOUSE: 6,
        FOUR_OF_A_KIND: 10,
        STRAIGHT_FLUSH: 15,
        ROYAL_FLUSH: 25,
    },
    "russian": {
        STRAIGHT: 2,
        FLUSH: 4,
        FULL_HOUSE: 6,
        FOUR_OF_A_KIND: 8,
        STRAIGHT_FLUSH: 10,
        ROYAL_FLUSH: 15,
    },
}
MIDDLE = {
    "us": {
        THREE_OF_A_KIND: 2,
        STRAIGHT: 4,
        FLUSH: 8,
        FULL_HOUSE: 12,
        FOUR_OF_A_KIND: 20,
        STRAIGHT_FLUSH: 30,
        ROYAL_FLUSH: 50,
    },
    "russian": {
        THREE_OF_A_KIND: 2,
        STRAIGHT: 4,
        FLUSH: 8,
        FULL_HOUSE: 12,
        FOUR_OF_A_KIND: 16,
        STRAIGHT_FLUSH: 20,
        ROYAL_FLUSH: 30,
    },
}


def front_royalty(code: int) -> int:
    """Front royalty (same in every table): 66 = 1 ... AA = 9, 222 = 10 ... AAA = 22."""
    category = code >> 20
    rank = (code >> 16) & 15
    if category == PAIR:
        return rank - 5 if rank >= 6 else 0
    if category == THREE_OF_A_KIND:
        return rank + 8
    return 0


def middle_royalty(code: int, table: str = "us") -> int:
    return MIDDLE[table].get(code >> 20, 0)


def back_royalty(code: int, table: str = "us") -> int:
    return BACK[table].get(code >> 20, 0)
