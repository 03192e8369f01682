"""Foul (bust) detection: back >= middle >= front, equal allowed."""

import pytest

from scoring import score_hand

DECK = [r + s for r in "23456789TJQKA" for s in "shdc"]


def fouled(front, middle, back):
    mine = {"front": front, "middle": middle, "back": back}
    used = set(f"{front} {middle} {back}".split())
    rest = [c for c in DECK if c not in used][:13]
    other = {"front": " ".join(rest[:3]), "middle": " ".join(rest[3:8]), "back": " ".join(rest[8:])}
    return score_hand([mine, other])[0].fouled


@pytest.mark.parametrize(
    ("front", "middle", "back", "expected"),
    [
        # Tokyo seed: QQ7 over QQ654 fouls, QQ7 over QQ982 does not.
        ("Qs Qh 7d", "Qd Qc 6s 5h 4c", "As Ad Ac 3s 3d", True),
        ("Qs Qh 7d", "Qd Qc 9s 8h 2c", "As Ad Ac 3s 3d", False),
        # All the front's ranks matched: the 5-card middle is the stronger, no foul.
        ("Qs Qh 7d", "Qd Qc 7s 3h 2c", "As Ad Ac 3s 3d", False),
        ("As Kh Qd", "Ac Kd Qs 3h 2c", "4s 4h 5d 5c 6d", False),
        ("As Kh Qd", "Ac Kd Js 9h 8c", "2s 2h 3d 3c 4d", True),
        # front category above middle category
        ("5s 5h 2d", "As Kh Qd Jc 9d", "Ac Ad 3s 3h 4c", True),
        ("2s 2h 2d", "As Ah Kd Kc Qd", "7s 7h 7c 8d 8c", True),
        # middle above back
        ("2s 3h 4d", "9s 9h 9d 5c 6c", "Ks Kh Qd Qc 2c", True),
        ("2d 4c 6d", "As Ks 7s 5s 3s", "Ah Qh Jh Th 8h", True),  # flush vs flush by ranks
        ("2s 3h 5d", "Ks Kh 4s 4h 9c", "Kd Kc 4d 4c 8s", True),  # two pair, kicker decides
        ("3c 4c 6d", "Qs Qh Qd As Ah", "Ks Kh Kd 2s 2h", False),  # full house: trips first
        ("3c 4c 6d", "Ks Kh Kd 2s 2h", "Qs Qh Qd As Ah", True),
        # A-2-3-4-5 is the lowest straight
        ("7s 8h Td", "2s 3h 4d 5c 6s", "Ah 2h 3d 4c 5s", True),
        ("7s 8h Td", "Ah 2h 3d 4c 5s", "2s 3h 4d 5c 6s", False),
        ("2d 3d 6c", "9h Th Jh Qh Kh", "As 2s 3s 4s 5s", True),  # 5-high SF below K-high SF
        # equal rows are allowed
        ("2s 3h 5d", "9s Th Jd Qc Kd", "9h Ts Jc Qd Kh", False),
        ("2s 3h 5d", "2h 7h 9h Jh Kh", "2d 7d 9d Jd Kd", False),
    ],
)
def test_foul(front, middle, back, expected):
    assert fouled(front, middle, back) is expected


def test_fouled_hand_loses_everything_but_categories_are_shown():
    # Player 1 fouls (QQ7 over QQ654) with what would be QQ (7) + aces full (6) = 13 royalties.
    # Player 2: front 2-3-4 (0), middle pair of eights (0), back pair of nines (0), clean.
    # Player 2 wins 6 (3 rows + 3 scoop) and pays no royalties: +6, player 1 -6.
    p1 = {"front": "Qs Qh 7d", "middle": "Qd Qc 6s 5h 4c", "back": "As Ad Ac 3s 3d"}
    p2 = {"front": "2s 3h 4d", "middle": "8s 8h 5d 6c 7c", "back": "9s 9h Td Jc Kc"}
    r1, r2 = score_hand([p1, p2])
    assert (r1.fouled, r2.fouled) == (True, False)
    assert (r1.points, r2.points) == (-6, 6)
    assert r1.royalties == 0 and r1.row_royalties == {"front": 0, "middle": 0, "back": 0}
    assert r1.categories == {"front": "pair", "middle": "pair", "back": "full_house"}
    assert r1.descriptions["back"] == "full house, aces full of threes"
    assert r1.fantasyland is False  # QQ in front, but fouled
