"""Scoring a hand: fouls, royalties, pairwise row points and Fantasyland."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .boards import Board, parse_boards
from .hands import (
    CATEGORIES,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    PAIR,
    THREE_OF_A_KIND,
    describe,
    evaluate3,
    evaluate5,
)
from .result import PlayerResult
from .royalties import BACK, MIDDLE, front_royalty
from .rules import SM, Rules, coerce_rules

# Codes at or above these thresholds (see hands.encode) qualify for Fantasyland.
QQ_OR_BETTER = PAIR << 20 | 12 << 16  # any pair of queens or better, any three of a kind
FRONT_TRIPS = THREE_OF_A_KIND << 20
MIDDLE_FULL_HOUSE = FULL_HOUSE << 20
BACK_QUADS = FOUR_OF_A_KIND << 20

# method -> (rows that must be won for the bonus, the bonus, points won against a foul)
METHODS = {"1-6": (3, 3, 6), "2-4": (2, 1, 4)}


class RowValues(NamedTuple):
    """A board's evaluated rows (codes from :mod:`scoring.hands`) and its standing."""

    front: int
    middle: int
    back: int
    fouled: bool
    row_royalties: tuple[int, int, int]
    royalties: int


def evaluate_board(board: Board, rules: Rules = SM) -> RowValues:
    f = evaluate3(board.front)
    m = evaluate5(board.middle)
    b = evaluate5(board.back)
    fouled = f > m or m > b
    if fouled:
        rr = (0, 0, 0)
    else:
        rr = (
            front_royalty(f),
            MIDDLE[rules.royalties].get(m >> 20, 0),
            BACK[rules.royalties].get(b >> 20, 0),
        )
    return RowValues(f, m, b, fouled, rr, rr[0] + rr[1] + rr[2])


def pair_points(a: RowValues, b: RowValues, method: str = "1-6") -> int:
    """Points ``a`` wins from ``b`` (``b`` gets the negative), royalties included."""
    bonus_rows, bonus, vs_foul = METHODS[method]
    if a.fouled:
        if b.fouled:
            return 0  # two fouled hands score nothing against each other
        return -(vs_foul + b.royalties)
    if b.fouled:
        return vs_foul + a.royalties
    won = lost = 0
    for x, y in ((a.front, b.front), (a.middle, b.middle), (a.back, b.back)):
        if x > y:
            won += 1
        elif x < y:
            lost += 1
    points = won - lost
    if won >= bonus_rows:
        points += bonus
    elif lost >= bonus_rows:
        points -= bonus
    return points + a.royalties - b.royalties


def fantasyland_may_continue(repeat: str, streak: int) -> bool:
    """The repeat rule: may a player in his ``streak``-th Fantasyland hand in a row stay?

    "unlimited" (SM): as long as he qualifies; "once": after his first Fantasyland
    hand only; "never": not at all.
    """
    return repeat == "unlimited" or (repeat == "once" and streak == 1)


def next_fantasyland(board: Board, values: RowValues, repeat: str = "unlimited") -> bool:
    """Whether the player plays the next hand in Fantasyland."""
    if values.fouled:
        return False
    if not board.in_fantasyland:
        return values.front >= QQ_OR_BETTER
    if not fantasyland_may_continue(repeat, board.fantasyland_streak):
        return False
    return (
        values.front >= FRONT_TRIPS
        or values.middle >= MIDDLE_FULL_HOUSE
        or values.back >= BACK_QUADS
    )


_DESCRIPTIONS: dict[int, str] = {}


def _describe(code: int) -> str:
    text = _DESCRIPTIONS.get(code)
    if text is None:
        text = _DESCRIPTIONS[code] = describe(code)
    return text


def score_hand(boards: Sequence[object], rules: Rules = SM) -> tuple[PlayerResult, ...]:
    """Score one hand of 2 or 3 players; results in the order of ``boards``.

    Raises :class:`InvalidHand` (and nothing else) for input that cannot be scored.
    """
    rules = coerce_rules(rules)
    parsed = parse_boards(boards)
    values = [evaluate_board(board, rules) for board in parsed]
    n = len(values)
    points = [0] * n
    for i in range(n):
        for j in range(i + 1, n):
            p = pair_points(values[i], values[j], rules.method)
            points[i] += p
            points[j] -= p
    repeat = rules.fantasyland_repeat
    desc = _DESCRIPTIONS.get
    results = []
    for board, v, pts in zip(parsed, values, points, strict=True):
        f, m, b = v.front, v.middle, v.back
        rf, rm, rb = v.row_royalties
        results.append(
            PlayerResult(
                points=pts,
                fouled=v.fouled,
                royalties=v.royalties,
                row_royalties={"front": rf, "middle": rm, "back": rb},
                categories={
                    "front": CATEGORIES[f >> 20],
                    "middle": CATEGORIES[m >> 20],
                    "back": CATEGORIES[b >> 20],
                },
                fantasyland=next_fantasyland(board, v, repeat),
                descriptions={
                    "front": desc(f) or _describe(f),
                    "middle": desc(m) or _describe(m),
                    "back": desc(b) or _describe(b),
                },
            )
        )
    return tuple(results)
