"""Every royalty value of every row, US (SM) and Russian tables.

Expected values are copied by hand from rules.md section 4 (and the pokerdom seed
for the Russian table), never computed by the code under test.
"""

import pytest

from scoring import RUSSIAN, SM, score_hand

DECK = [r + s for r in "23456789TJQKA" for s in "shdc"]


def score_alone(front, middle, back, rules=SM):
    """Player 1's result; player 2 gets 13 of the unused cards (his result is not checked)."""
    mine = {"front": front, "middle": middle, "back": back}
    used = set(f"{front} {middle} {back}".split())
    rest = [c for c in DECK if c not in used][:13]
    other = {"front": " ".join(rest[:3]), "middle": " ".join(rest[3:8]), "back": " ".join(rest[8:])}
    return score_hand([mine, other], rules=rules)[0]


# (back, category, US royalty, Russian royalty). Front "2c 3d 5h" (high card, 0) and
# middle "4c 4h 7c 8d Kh" (pair of fours, 0) are below every back here.
BACK_CASES = [
    ("8s 9d Tc Jh Qs", "straight", 2, 2),
    ("As 2s 3h 4d 5c", "straight", 2, 2),  # wheel, still a straight
    ("2h 6h 9h Jh Ah", "flush", 4, 4),
    ("Ts Td Tc 6s 6d", "full_house", 6, 6),
    ("9s 9h 9d 9c Js", "four_of_a_kind", 10, 8),
    ("5s 6s 7s 8s 9s", "straight_flush", 15, 10),
    ("As 2s 3s 4s 5s", "straight_flush", 15, 10),  # 5-high straight flush is not royal
    ("Ts Js Qs Ks As", "royal_flush", 25, 15),
    ("Qs Qd Qc 2s 3s", "three_of_a_kind", 0, 0),
    ("9s 9h 5s 5d As", "two_pair", 0, 0),
    ("Ks Kd 2s 3s 6d", "pair", 0, 0),
]


@pytest.mark.parametrize(("back", "category", "us", "russian"), BACK_CASES)
def test_back_royalties(back, category, us, russian):
    for rules, expected in ((SM, us), (RUSSIAN, russian)):
        r = score_alone("2c 3d 5h", "4c 4h 7c 8d Kh", back, rules)
        assert not r.fouled
        assert r.categories["back"] == category
        assert r.row_royalties == {"front": 0, "middle": 0, "back": expected}
        assert r.royalties == expected


# (middle, back, middle category, US middle, Russian middle, US back, Russian back).
# Front "2c 3c 6c" (six high, 0 royalty) is below every middle here.
MIDDLE_CASES = [
    ("7s 7h 7d Kc 2s", "8s 9d Tc Jh Qs", "three_of_a_kind", 2, 2, 2, 2),
    ("8c 9c Th Jd Qh", "2h 6h 9h Jh Ah", "straight", 4, 4, 4, 4),
    ("Ad 2d 3h 4h 5s", "2h 6h 9h Jh Ah", "straight", 4, 4, 4, 4),  # wheel
    ("2d 6d 9d Jd Ad", "Ts Td Tc 7s 7c", "flush", 8, 8, 6, 6),
    ("4s 4h 4d 8s 8h", "9s 9h 9d 9c Js", "full_house", 12, 12, 10, 8),
    ("8s 8h 8d 8c Kd", "9s Ts Js Qs Ks", "four_of_a_kind", 20, 16, 15, 10),
    ("4h 5h 6h 7h 8h", "9s Ts Js Qs Ks", "straight_flush", 30, 20, 15, 10),
    ("Ad 2d 3d 4d 5d", "9s Ts Js Qs Ks", "straight_flush", 30, 20, 15, 10),
    ("Th Jh Qh Kh Ah", "Ts Js Qs Ks As", "royal_flush", 50, 30, 25, 15),
    ("7s 7h 4d 4c Kd", "8s 9d Tc Jh Qs", "two_pair", 0, 0, 2, 2),
    ("7s 7h 4d 5d Kd", "8s 9d Tc Jh Qs", "pair", 0, 0, 2, 2),
]


@pytest.mark.parametrize(
    ("middle", "back", "category", "us_mid", "ru_mid", "us_back", "ru_back"), MIDDLE_CASES
)
def test_middle_royalties(middle, back, category, us_mid, ru_mid, us_back, ru_back):
    for rules, mid, bk in ((SM, us_mid, us_back), (RUSSIAN, ru_mid, ru_back)):
        r = score_alone("2c 3c 6c", middle, back, rules)
        assert not r.fouled
        assert r.categories["middle"] == category
        assert r.row_royalties == {"front": 0, "middle": mid, "back": bk}
        assert r.royalties == mid + bk


# Front pairs: 66 = 1 ... AA = 9; below 66 nothing. Middle "3s 3h 4s 4h 5c" (two pair, 0)
# beats every front pair; back "5s 5h 5d 2h 2d" (fives full, 6) beats the middle.
FRONT_PAIRS = [
    ("2", 0),
    ("3", 0),
    ("4", 0),
    ("5", 0),
    ("6", 1),
    ("7", 2),
    ("8", 3),
    ("9", 4),
    ("T", 5),
    ("J", 6),
    ("Q", 7),
    ("K", 8),
    ("A", 9),
]


@pytest.mark.parametrize(("rank", "expected"), FRONT_PAIRS)
def test_front_pair_royalties(rank, expected):
    kicker = "6c" if rank == "2" else "2c"
    if rank in "2345":
        # those ranks are in the middle/back used above: use other rows
        middle, back = "9s 9h Ts Th Jc", "Js Jh Jd 8h 8d"
    else:
        middle, back = "3s 3h 4s 4h 5c", "5s 5h 5d 2h 2d"
    for rules in (SM, RUSSIAN):  # the front table is the same in both
        r = score_alone(f"{rank}s {rank}h {kicker}", middle, back, rules)
        assert not r.fouled
        assert r.categories["front"] == "pair"
        assert r.row_royalties["front"] == expected


# Front trips: 222 = 10 ... AAA = 22 (rank value + 8).
FRONT_TRIPS = [
    ("2", 10),
    ("3", 11),
    ("4", 12),
    ("5", 13),
    ("6", 14),
    ("7", 15),
    ("8", 16),
    ("9", 17),
    ("T", 18),
    ("J", 19),
    ("Q", 20),
    ("K", 21),
    ("A", 22),
]


@pytest.mark.parametrize(("rank", "expected"), FRONT_TRIPS)
def test_front_trips_royalties(rank, expected):
    # Middle straight (4) above any trips, back club flush (4) above the straight.
    if rank in "23456789":
        middle, back = "Ts Jh Qd Kc Ac", "2c 4c 6c 8c 9c"
    else:
        middle, back = "2s 3h 4d 5c 6c", "7c 8c 9c Jc Kc"
    for rules in (SM, RUSSIAN):
        r = score_alone(f"{rank}s {rank}h {rank}d", middle, back, rules)
        assert not r.fouled
        assert r.categories["front"] == "three_of_a_kind"
        assert r.row_royalties == {"front": expected, "middle": 4, "back": 4}
        assert r.royalties == expected + 8


def test_front_high_card_has_no_royalty():
    r = score_alone("As Kh Qd", "2s 2h 3d 4c 5c", "6s 6h 6d 7c 7d")
    assert r.row_royalties["front"] == 0
    assert r.categories["front"] == "high_card"


def test_fouled_hand_gets_no_royalties_but_keeps_categories():
    # Middle flush above a back straight: foul. Unfouled this would be 22 + 8 + 2 = 32.
    r = score_alone("As Ah Ac", "2d 6d 9d Jd Kd", "8s 9h Tc Jh Qs")
    assert r.fouled
    assert r.royalties == 0
    assert r.row_royalties == {"front": 0, "middle": 0, "back": 0}
    assert r.categories == {"front": "three_of_a_kind", "middle": "flush", "back": "straight"}
