"""Dealt and placed Pineapple boards for simulated tournaments (demo data, tests).

Pure: no Django. Every random choice comes from the `random.Random` passed in,
so a simulation is reproducible from its seed. The placing is a simple
heuristic, not good play: pairs and bigger groups go to the back first, then the
middle; a queen-or-better pair sometimes goes to the front (Fantasyland); and now
and then a "mistake" swaps two rows, so that fouls happen too.
"""

import random
from collections import defaultdict
from collections.abc import Iterable, Sequence

from scoring.cards import DECK, card_code, card_rank, card_suit
from scoring.hands import evaluate

ROW_SIZES = {"back": 5, "middle": 5, "front": 3}
FILL_ORDER = ("back", "middle", "front")
# A board being placed: its rows' cards (ints), back first.
Rows = dict[str, list[int]]
FANTASYLAND_RANK = 12  # queens
# How often a player with a chance at Fantasyland takes it, and how often a
# player swaps two rows by mistake; tuned so tables last about 25 hands.
TRY_FANTASYLAND = 0.5
MISTAKE = 0.04


def deal(rng: random.Random, in_fantasyland: Iterable[bool]) -> list[list[int]]:
    """One shuffled deck: 13 cards to each player, 14 to a player in Fantasyland."""
    deck = list(DECK)
    rng.shuffle(deck)
    hands: list[list[int]] = []
    start = 0
    for in_fl in in_fantasyland:
        count = 14 if in_fl else 13
        hands.append(deck[start : start + count])
        start += count
    return hands


def _by_rank(cards: Iterable[int]) -> defaultdict[int, list[int]]:
    groups: defaultdict[int, list[int]] = defaultdict(list)
    for card in cards:
        groups[card_rank(card)].append(card)
    return groups


def discard(cards: Sequence[int]) -> list[int]:
    """A Fantasyland player keeps 13 of 14: drop the lowest card that pairs with nothing."""
    groups = _by_rank(cards)
    singles = [c for c in cards if len(groups[card_rank(c)]) == 1]
    drop = min(singles or cards, key=lambda c: (card_rank(c), card_suit(c)))
    return [c for c in cards if c != drop]


def _fill(rows: Rows, cards: Iterable[int]) -> Rows:
    """Put groups of a rank in the first row with room, then the singles high to low."""
    groups = sorted(_by_rank(cards).items(), key=lambda kv: (len(kv[1]), kv[0]), reverse=True)
    singles: list[int] = []
    for _, group in groups:
        if len(group) == 1:
            singles.append(group[0])
            continue
        for row in FILL_ORDER:
            if len(rows[row]) + len(group) <= ROW_SIZES[row]:
                rows[row].extend(group)
                break
        else:
            singles.extend(group)
    singles.sort(key=lambda c: (card_rank(c), card_suit(c)), reverse=True)
    for row in FILL_ORDER:
        while len(rows[row]) < ROW_SIZES[row]:
            rows[row].append(singles.pop(0))
    return rows


def _empty() -> Rows:
    return {row: [] for row in FILL_ORDER}


def _plain(cards: Iterable[int]) -> Rows:
    return _fill(_empty(), cards)


def _flush_back(cards: Sequence[int]) -> Rows | None:
    by_suit: defaultdict[int, list[int]] = defaultdict(list)
    for card in cards:
        by_suit[card_suit(card)].append(card)
    suited = max(by_suit.values(), key=len)
    if len(suited) < 5:
        return None
    back = sorted(suited, key=card_rank, reverse=True)[:5]
    rows = _empty()
    rows["back"] = back
    return _fill(rows, [c for c in cards if c not in back])


def _fantasyland_front(cards: Sequence[int]) -> Rows | None:
    """Queens or better in front, the lowest single as kicker; the rest as usual."""
    groups = _by_rank(cards)
    pairs = [rank for rank, group in groups.items() if len(group) >= 2]
    high = [rank for rank in pairs if rank >= FANTASYLAND_RANK]
    if not high:
        return None
    front = groups[max(high)][:2]
    rest = [c for c in cards if c not in front]
    singles = [c for c in rest if len(groups[card_rank(c)]) == 1]
    kicker = min(singles or rest, key=card_rank)
    rows = _empty()
    rows["front"] = [*front, kicker]
    return _fill(rows, [c for c in rest if c != kicker])


def fouls(rows: Rows) -> bool:
    back, middle, front = (evaluate(rows[row]) for row in FILL_ORDER)
    return not back >= middle >= front


def _strength(rows: Rows) -> int:
    return sum(evaluate(rows[row]) >> 20 for row in FILL_ORDER)


def place(cards_dealt: Iterable[int], rng: random.Random) -> dict[str, str]:
    """Three rows (card text) for 13 cards, or 14 in Fantasyland (one is discarded)."""
    cards = list(cards_dealt)
    if len(cards) == 14:
        cards = discard(cards)
    options = [_plain(cards)]
    flush = _flush_back(cards)
    if flush is not None:
        options.append(flush)
    fantasyland = _fantasyland_front(cards)
    if fantasyland is not None and not fouls(fantasyland) and rng.random() < TRY_FANTASYLAND:
        rows = fantasyland
    else:
        sound = [rows for rows in options if not fouls(rows)] or options
        rows = max(sound, key=_strength)
    if rng.random() < MISTAKE:
        rows = {**rows, "back": rows["middle"], "middle": rows["back"]}
    return {row: " ".join(card_code(c) for c in rows[row]) for row in ("front", "middle", "back")}
