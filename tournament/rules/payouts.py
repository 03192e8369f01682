"""The prize pool and who wins what: whole numbers of the currency's smallest unit (öre,
cents), never floats. No Django here: the arithmetic alone (docs/prizes.md).

Who pays (decision): every player registered and not withdrawn. Withdrawing is possible
only before play (services/registration.py), so a late registration adds a buy-in and a
no-show withdrawn before the first hand takes his out; a disqualified player has paid and
is not refunded (SM rules §5: "inköp återbetalas ej"), so his buy-in stays in the pool.

    pool = paying players × (buy-in − fee) + added money

Shares are basis points of the pool (1/100 of a percent: 6.5 % is 650), WHOLE in all.
Each prize is rounded down to the TD's unit (e.g. 100: whole kronor); what the rounding
leaves, and the shares of places nobody can take, go to first place, so the prizes always
add up to the pool exactly.
"""

from collections.abc import Sequence
from dataclasses import dataclass

WHOLE = 10_000  # basis points in 100 %

# The standard structure by field size (paying players), from a card room's published
# table for tournaments of a buy-in over $5 (vegaspoker247.com, "Tourney payout
# structures"): winner takes all up to 8 players; 3 paid from 9, 5 from 28, 9 from 46;
# from 101, 18 places, as that room's column for 101-150 entrants (its 10th-13th 1.4 %
# each, 14th-18th 1.04 %). About 10-15 % of the field is paid in most of each band.
STANDARD_STRUCTURES = (
    (1, (10_000,)),
    (9, (5_000, 3_000, 2_000)),
    (28, (4_000, 2_400, 1_600, 1_200, 800)),
    (46, (3_000, 2_000, 1_200, 1_000, 800, 650, 550, 450, 350)),
    (101, (3_000, 2_000, 1_190, 800, 650, 500, 350, 260, 170) + (140,) * 4 + (104,) * 5),
)


def standard_shares(players: int) -> tuple[int, ...]:
    """The standard shares for a field of `players` paying players (see the table)."""
    shares: tuple[int, ...] = STANDARD_STRUCTURES[0][1]
    for smallest, band in STANDARD_STRUCTURES:
        if players >= smallest:
            shares = band
    return shares


def prize_pool(*, paying: int, buy_in: int, fee: int, added: int) -> int:
    """What is paid out: each paying player's buy-in less the organiser's fee, plus the
    added money."""
    return paying * (buy_in - fee) + added


def round_down(amount: int, unit: int) -> int:
    return amount // unit * unit


def place_prizes(pool: int, shares: Sequence[int], unit: int) -> list[int]:
    """Each place's prize, 1st first: its share of the pool rounded down to `unit`, and
    what the rounding leaves to 1st."""
    prizes = [round_down(pool * share // WHOLE, unit) for share in shares]
    if prizes:
        prizes[0] += pool - sum(prizes)
    return prizes


def standing_prizes(
    ranks: Sequence[int | None], pool: int, shares: Sequence[int], unit: int
) -> list[int]:
    """The prize of each line of the final standings, in their order.

    `ranks`: each line's rank, in the standings' order (rules.md §6); None for a
    disqualified player, who wins nothing. The others take the places in that order, so
    the places below a disqualified player move up. Players with the same rank (tied)
    share the prizes of the places they take between them, equally, each share rounded
    down to `unit`. What the rounding leaves, and the shares of places nobody takes, go to
    the first line that wins.
    """
    prizes = [0] * len(ranks)
    lines = [index for index, rank in enumerate(ranks) if rank is not None]
    place = 1
    start = 0
    while start < len(lines):
        end = start
        while end + 1 < len(lines) and ranks[lines[end + 1]] == ranks[lines[start]]:
            end += 1
        tied = end - start + 1
        taken = sum(shares[place - 1 : place - 1 + tied])
        for index in lines[start : end + 1]:
            prizes[index] = round_down(pool * taken // (WHOLE * tied), unit)
        place += tied
        start = end + 1
    if lines:
        prizes[lines[0]] += pool - sum(prizes)
    return prizes


@dataclass(frozen=True)
class PlacePrize:
    place: int
    share: int  # basis points
    prize: int  # in the smallest unit


def payout_table(pool: int, shares: Sequence[int], unit: int) -> list[PlacePrize]:
    """(place, share, prize) for every place paid."""
    return [
        PlacePrize(place, share, prize)
        for place, (share, prize) in enumerate(
            zip(shares, place_prizes(pool, shares, unit), strict=True), start=1
        )
    ]
