"""The scored result of one player for one hand."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict


class PlayerResultDict(TypedDict):
    """:meth:`PlayerResult.to_dict`: what a hand's stored result holds per player."""

    points: int
    fouled: bool
    royalties: int
    row_royalties: dict[str, int]
    categories: dict[str, str]
    descriptions: dict[str, str]
    fantasyland: bool


@dataclass(frozen=True)
class PlayerResult:
    """One player's result for one hand.

    ``points``: net points for the hand against all opponents (a hand's points sum
    to zero). ``royalties`` and ``row_royalties``: the player's own royalties (all 0
    when fouled). ``categories`` and ``descriptions``: what each row is (shown for
    fouled hands too). ``fantasyland``: the player plays the NEXT hand in Fantasyland.
    """

    points: int
    fouled: bool
    royalties: int
    row_royalties: dict[str, int]
    categories: dict[str, str]
    fantasyland: bool
    descriptions: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> PlayerResultDict:
        return {
            "points": self.points,
            "fouled": self.fouled,
            "royalties": self.royalties,
            "row_royalties": dict(self.row_royalties),
            "categories": dict(self.categories),
            "descriptions": dict(self.descriptions),
            "fantasyland": self.fantasyland,
        }
