"""Pineapple Open Face Chinese poker scoring (rules.md section 4).

    >>> from scoring import score_hand, SM
    >>> a = {"front": "6s 6h 2c", "middle": "Ks Kh 9d 8c 7s", "back": "Qs Qh Qd 3c 3s"}
    >>> b = {"front": "4s 4h 2d", "middle": "Js Jh 5d 4c 3d", "back": "9s Th Jd Qc Kc"}
    >>> [r.points for r in score_hand([a, b], rules=SM)]
    [11, -11]

Pure Python, no I/O (except the ``python -m scoring`` command line).
"""

from .boards import Board, parse_boards, parse_row
from .cards import format_card, parse_card
from .errors import InvalidHand
from .hands import CATEGORIES, describe, evaluate
from .result import PlayerResult
from .rules import RULE_CHOICES, RULE_HELP, RUSSIAN, SM, Rules
from .settle import fantasyland_may_continue, score_hand

__all__ = [
    "CATEGORIES",
    "RULE_CHOICES",
    "RULE_HELP",
    "RUSSIAN",
    "SM",
    "Board",
    "InvalidHand",
    "PlayerResult",
    "Rules",
    "describe",
    "evaluate",
    "fantasyland_may_continue",
    "format_card",
    "parse_boards",
    "parse_card",
    "parse_row",
    "score_hand",
]
