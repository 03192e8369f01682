"""Row evaluation.

A row (3-card front or 5-card middle/back) is evaluated to an int *code* that
orders rows exactly as poker does:

    code = category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5

where r1..r5 are the ranks in order of significance (pair rank, then kickers
high to low; two pair high, low, kicker; full house trips then pair; ...) and
unused places are 0. Comparing codes is comparing (category, ranks...) tuples,
and because a 3-card front leaves its last places 0, a front whose ranks are all
matched by a 5-card middle compares as the weaker one: front Q-Q-7 < middle
Q-Q-7-3-2, front Q-Q-7 > middle Q-Q-6-5-4, front Q-Q-7 < middle Q-Q-9-8-2.

Evaluation is a table lookup: the product of one prime per rank identifies the
rank multiset, and a flush is looked up in a separate table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations, combinations_with_replacement

from .cards import RANK_NAMES, RANK_PLURALS

HIGH_CARD = 0
PAIR = 1
TWO_PAIR = 2
THREE_OF_A_KIND = 3
STRAIGHT = 4
FLUSH = 5
FULL_HOUSE = 6
FOUR_OF_A_KIND = 7
STRAIGHT_FLUSH = 8
ROYAL_FLUSH = 9

CATEGORIES = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
)

_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
CARD_PRIME = tuple(_PRIMES[c >> 2] for c in range(52))
CARD_SUIT = tuple(c & 3 for c in range(52))


def encode(category: int, ranks: Iterable[int]) -> int:
    code = category << 20
    shift = 16
    for r in ranks:
        code |= r << shift
        shift -= 4
    return code


def category_of(code: int) -> int:
    return code >> 20


def ranks_of(code: int) -> tuple[int, ...]:
    """The ranks of a code in order of significance (without the unused places)."""
    out = []
    for shift in (16, 12, 8, 4, 0):
        r = (code >> shift) & 15
        if r:
            out.append(r)
    return tuple(out)


def _grouped(ranks: Iterable[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(counts, ranks) with groups ordered by count, then rank, both descending."""
    groups = sorted(Counter(ranks).items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    return tuple(c for _, c in groups), tuple(r for r, _ in groups)


def _straight_top(ranks: Iterable[int]) -> int:
    """Top card of a straight (5 for A-2-3-4-5), or 0 when the ranks are not a straight."""
    distinct = sorted(set(ranks), reverse=True)
    if len(distinct) != 5:
        return 0
    if distinct[0] - distinct[4] == 4:
        return distinct[0]
    if distinct == [14, 5, 4, 3, 2]:
        return 5
    return 0


_SHAPES5 = {
    (4, 1): FOUR_OF_A_KIND,
    (3, 2): FULL_HOUSE,
    (3, 1, 1): THREE_OF_A_KIND,
    (2, 2, 1): TWO_PAIR,
    (2, 1, 1, 1): PAIR,
    (1, 1, 1, 1, 1): HIGH_CARD,
}
_SHAPES3 = {(3,): THREE_OF_A_KIND, (2, 1): PAIR, (1, 1, 1): HIGH_CARD}


def value5(ranks: Sequence[int], flush: bool) -> tuple[int, ...]:
    """(category, ranks in order of significance) of five cards' ranks."""
    top = _straight_top(ranks)
    if flush:
        if top == 14:
            return (ROYAL_FLUSH, 14)
        if top:
            return (STRAIGHT_FLUSH, top)
        return (FLUSH, *sorted(ranks, reverse=True))
    if top:
        return (STRAIGHT, top)
    counts, ordered = _grouped(ranks)
    return (_SHAPES5[counts], *ordered)


def value3(ranks: Sequence[int]) -> tuple[int, ...]:
    """(category, ranks in order of significance) of a 3-card front."""
    counts, ordered = _grouped(ranks)
    return (_SHAPES3[counts], *ordered)


def _prime_key(ranks: Iterable[int]) -> int:
    key = 1
    for r in ranks:
        key *= _PRIMES[r - 2]
    return key


def _build_tables() -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    plain5: dict[int, int] = {}
    flush5: dict[int, int] = {}
    plain3: dict[int, int] = {}
    for ranks in combinations_with_replacement(range(2, 15), 5):
        if max(Counter(ranks).values()) <= 4:
            cat, *rs = value5(ranks, False)
            plain5[_prime_key(ranks)] = encode(cat, rs)
    for ranks in combinations(range(2, 15), 5):
        cat, *rs = value5(ranks, True)
        flush5[_prime_key(ranks)] = encode(cat, rs)
    for ranks3 in combinations_with_replacement(range(2, 15), 3):
        cat, *rs = value3(ranks3)
        plain3[_prime_key(ranks3)] = encode(cat, rs)
    return plain5, flush5, plain3


_PLAIN5, _FLUSH5, _PLAIN3 = _build_tables()


def evaluate5(cards: Sequence[int]) -> int:
    """Code of a 5-card row (cards as ints)."""
    a, b, c, d, e = cards
    p = CARD_PRIME
    key = p[a] * p[b] * p[c] * p[d] * p[e]
    s = CARD_SUIT
    if s[a] == s[b] == s[c] == s[d] == s[e]:
        return _FLUSH5[key]
    return _PLAIN5[key]


def evaluate3(cards: Sequence[int]) -> int:
    """Code of a 3-card front (cards as ints). Only high card, pair and trips exist here."""
    a, b, c = cards
    p = CARD_PRIME
    return _PLAIN3[p[a] * p[b] * p[c]]


def evaluate(cards: Sequence[int]) -> int:
    """Code of a row of 3 or 5 cards."""
    return evaluate3(cards) if len(cards) == 3 else evaluate5(cards)


def describe(value: int | Sequence[int]) -> str:
    """Readable description of a row: ``pair of queens``, ``kings full of fives``.

    ``value`` is a code or a ``(category, rank, ...)`` tuple.
    """
    if isinstance(value, int):
        cat, ranks = category_of(value), ranks_of(value)
    else:
        cat, ranks = value[0], tuple(value[1:])
    name, plural = RANK_NAMES, RANK_PLURALS
    r = ranks[0]
    if cat == HIGH_CARD:
        return f"{name[r]} high"
    if cat == PAIR:
        return f"pair of {plural[r]}"
    if cat == TWO_PAIR:
        return f"two pair, {plural[r]} and {plural[ranks[1]]}"
    if cat == THREE_OF_A_KIND:
        return f"three {plural[r]}"
    if cat == STRAIGHT:
        return f"straight, {name[r]} high"
    if cat == FLUSH:
        return f"flush, {name[r]} high"
    if cat == FULL_HOUSE:
        return f"full house, {plural[r]} full of {plural[ranks[1]]}"
    if cat == FOUR_OF_A_KIND:
        return f"four {plural[r]}"
    if cat == STRAIGHT_FLUSH:
        return f"straight flush, {name[r]} high"
    return "royal flush"
