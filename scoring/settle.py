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


class PairSettlement(NamedTuple):
    """What ``a`` wins from ``b``, told part by part (``b`` gets the negative of each).

    ``rows``: front, middle, back from ``a``'s side, +1 won, -1 lost, 0 even (a
    fouled hand loses every row; two fouled hands are even in all three).
    ``row_points`` and ``bonus`` (the scoop, or the majority of rows in 2-4) are 0
    where a foul is involved: ``foul_points`` then holds the fixed points against
    a foul. ``royalties``: ``a``'s less ``b``'s (a fouled hand has none). ``points``
    is the sum of the four.
    """

    rows: tuple[int, int, int]
    row_points: int
    bonus: int
    foul_points: int
    royalties: int
    points: int


def _row(x: int, y: int) -> int:
    return 1 if x > y else -1 if x < y else 0


def settle_pair(a: RowValues, b: RowValues, method: str = "1-6") -> PairSettlement:
    """The pairwise settlement of ``a`` against ``b``, row by row (rules.md section 4)."""
    bonus_rows, bonus, vs_foul = METHODS[method]
    royalties = a.royalties - b.royalties
    if a.fouled or b.fouled:
        if a.fouled and b.fouled:
            return PairSettlement((0, 0, 0), 0, 0, 0, 0, 0)  # they score nothing
        side = -1 if a.fouled else 1
        foul_points = side * vs_foul
        return PairSettlement(
            (side, side, side), 0, 0, foul_points, royalties, foul_points + royalties
        )
    rows = (_row(a.front, b.front), _row(a.middle, b.middle), _row(a.back, b.back))
    won, lost = rows.count(1), rows.count(-1)
    row_points = won - lost
    extra = bonus if won >= bonus_rows else -bonus if lost >= bonus_rows else 0
    return PairSettlement(rows, row_points, extra, 0, royalties, row_points + extra + royalties)


def pair_points(a: RowValues, b: RowValues, method: str = "1-6") -> int:
    """Points ``a`` wins from ``b`` (``b`` gets the negative), royalties included."""
    return settle_pair(a, b, method).points


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
