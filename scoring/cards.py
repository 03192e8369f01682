"""Cards: parsing card text and formatting cards for people.

A card is an int 0..51: ``(rank - 2) * 4 + suit`` with rank 2..14 (ace 14) and
suit 0..3 = spades, hearts, diamonds, clubs.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = tuple(range(2, 15))
SUITS = (0, 1, 2, 3)
SUIT_LETTERS = "shdc"
SUIT_SYMBOLS = "♠♥♦♣"
# How a rank is shown; ten is shown as "10", which reads better at a table than "T".
RANK_TEXT = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10"}
RANK_TEXT.update({11: "J", 12: "Q", 13: "K", 14: "A"})
RANK_NAMES = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
}
RANK_PLURALS = {r: ("sixes" if r == 6 else name + "s") for r, name in RANK_NAMES.items()}

DECK = tuple(range(52))


def make_card(rank: int, suit: int) -> int:
    return (rank - 2) * 4 + suit


def card_rank(card: int) -> int:
    return (card >> 2) + 2


def card_suit(card: int) -> int:
    return card & 3


def _build_tokens() -> dict[str, int]:
    rank_spellings: dict[int, list[str]] = {r: [str(r)] for r in range(2, 10)}
    rank_spellings[10] = ["T", "t", "10"]
    for rank, letter in ((11, "J"), (12, "Q"), (13, "K"), (14, "A")):
        rank_spellings[rank] = [letter, letter.lower()]
    suit_spellings = {
        0: ["s", "S", "♠", "♤"],
        1: ["h", "H", "♥", "♡"],
        2: ["d", "D", "♦", "♢"],
        3: ["c", "C", "♣", "♧"],
    }
    tokens = {}
    for rank, rank_texts in rank_spellings.items():
        for suit, suit_texts in suit_spellings.items():
            for rt in rank_texts:
                for st in suit_texts:
                    tokens[rt + st] = make_card(rank, suit)
    return tokens


TOKENS: dict[str, int] = _build_tokens()


def parse_card(text: object) -> int | None:
    """The card for ``text`` ("As", "10h", "td", "Q♠"), or None when it is not a card."""
    if not isinstance(text, str):
        return None
    card = TOKENS.get(text)
    if card is None:
        # Tolerate surrounding blanks and the emoji variation selector ("♠️").
        card = TOKENS.get(text.strip().replace("\ufe0f", ""))
    return card


def format_card(card: int) -> str:
    """``Q♠``, ``10♥``: the card as shown to people."""
    return RANK_TEXT[(card >> 2) + 2] + SUIT_SYMBOLS[card & 3]


def card_code(card: int) -> str:
    """``Qs``, ``Th``: plain ASCII text that :func:`parse_card` reads back."""
    return "23456789TJQKA"[card >> 2] + SUIT_LETTERS[card & 3]


def format_cards(cards: Iterable[int]) -> str:
    return " ".join(format_card(c) for c in cards)
