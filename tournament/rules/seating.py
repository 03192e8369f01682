"""The random seating of a level: pure, and reproducible from its seed."""

import random
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

MAX_TABLE = 3


def new_seed() -> str:
    """A seed from the operating system's secure source, kept with the draw."""
    return secrets.token_hex(16)


def table_sizes(player_count: int) -> list[int]:
    """Tables of 3; heads-up tables take the remainder; never a table of 1 or 4.

    N % 3 == 0 -> all 3; N % 3 == 2 -> one table of 2; N % 3 == 1 -> two tables of 2.
    """
    if player_count < 2:
        raise ValueError("A draw needs at least 2 players.")
    remainder = player_count % 3
    heads_up = {0: 0, 2: 1, 1: 2}[remainder]
    threes = (player_count - 2 * heads_up) // 3
    return [3] * threes + [2] * heads_up


@dataclass(frozen=True)
class TableSeating:
    number: int
    players: tuple[int, ...]  # player keys in seat order (position 0, 1, 2)
    first_dealer_position: int


def seat_players(player_keys: Iterable[int], seed: str) -> list[TableSeating]:
    """Shuffle the players with `seed` and deal them into tables.

    `player_keys` are stable identifiers (start numbers); they are sorted first so
    that the same players and the same seed always give the same tables.
    """
    rng = random.Random(seed)
    order = sorted(player_keys)
    rng.shuffle(order)
    seatings = []
    start = 0
    for number, size in enumerate(table_sizes(len(order)), start=1):
        players = tuple(order[start : start + size])
        start += size
        seatings.append(TableSeating(number, players, rng.randrange(size)))
    return seatings


def deal_order(positions: Iterable[int], first_dealer_position: int) -> list[int]:
    """The seats' positions in the order the deal goes round, the first dealer first (the
    next seat clockwise when the first dealer's seat is not among them)."""
    ordered = sorted(positions)
    first = next((i for i, p in enumerate(ordered) if p >= first_dealer_position), 0)
    return ordered[first:] + ordered[:first]
