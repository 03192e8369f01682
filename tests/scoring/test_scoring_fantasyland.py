"""Fantasyland: entering (QQ or better in front), staying, and the repeat policies."""

import pytest

from scoring import SM, Rules, score_hand

DECK = [r + s for r in "23456789TJQKA" for s in "shdc"]


def next_fl(front, middle, back, rules=SM, **extra):
    mine = {"front": front, "middle": middle, "back": back, **extra}
    used = set(f"{front} {middle} {back}".split())
    rest = [c for c in DECK if c not in used][:13]
    other = {"front": " ".join(rest[:3]), "middle": " ".join(rest[3:8]), "back": " ".join(rest[8:])}
    return score_hand([mine, other], rules=rules)[0].fantasyland


QQ = ("Qs Qh 2c", "Ks Kh 3d 4c 5c", "As Ah Ad 6c 7c")
JJ = ("Js Jh 2c", "Ks Kh 3d 4c 5c", "As Ah Ad 6c 7c")
KK = ("Ks Kh 2c", "As Ah 3d 4c 5c", "7s 7h 7d 6c 8c")
AA = ("As Ah 2c", "3s 3h 4d 4c 5c", "7s 7h 7d 6c 8c")
TRIPS_222 = ("2s 2h 2d", "3s 3h 3d 4c 5c", "8s 9h Td Jc Qc")  # front trips only
QQ_FOULED = ("Qs Qh 7d", "Qd Qc 6s 5h 4c", "As Ad Ac 3s 3d")
MIDDLE_FULL_HOUSE = ("2s 3h 5d", "4s 4h 4d 8s 8h", "9s 9h 9d Tc Td")
MIDDLE_FLUSH_BACK_FULL_HOUSE = ("2s 3h 5d", "2c 6c 9c Jc Ac", "Ts Td Th 7s 7d")
BACK_QUADS = ("2s 3h 5d", "4s 4h 7d 8c 9c", "Ts Th Td Tc Js")
BACK_STRAIGHT_FLUSH = ("2s 3h 5d", "4s 4h 7d 8c 9c", "5h 6h 7h 8h 9h")
BACK_FULL_HOUSE = ("2s 3h 5d", "4s 4h 7d 8c 9c", "Ts Th Td Js Jd")
TRIPS_FOULED = ("As Ah Ad", "2s 2h 3d 4c 5c", "6s 6h 6d 7c 8c")  # AAA over a pair


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        (QQ, True),
        (KK, True),
        (AA, True),
        (TRIPS_222, True),
        (JJ, False),
        (QQ_FOULED, False),
        (MIDDLE_FULL_HOUSE, False),  # staying conditions do not let a player enter
        (BACK_QUADS, False),
    ],
)
def test_enter(rows, expected):
    assert next_fl(*rows) is expected


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        (TRIPS_222, True),
        (MIDDLE_FULL_HOUSE, True),
        (BACK_QUADS, True),
        (BACK_STRAIGHT_FLUSH, True),
        (QQ, False),  # enough to enter, not to stay
        (AA, False),
        (JJ, False),
        (MIDDLE_FLUSH_BACK_FULL_HOUSE, False),
        (BACK_FULL_HOUSE, False),
        (TRIPS_FOULED, False),
    ],
)
def test_stay_unlimited(rows, expected):
    assert next_fl(*rows, fantasyland=True) is expected
    assert next_fl(*rows, fantasyland=True, fantasyland_streak=9) is expected


ONCE = Rules(fantasyland_repeat="once")
NEVER = Rules(fantasyland_repeat="never")


@pytest.mark.parametrize("rows", [TRIPS_222, MIDDLE_FULL_HOUSE, BACK_QUADS])
def test_stay_once(rows):
    assert next_fl(*rows, rules=ONCE, fantasyland=True) is True  # streak defaults to 1
    assert next_fl(*rows, rules=ONCE, fantasyland=True, fantasyland_streak=1) is True
    assert next_fl(*rows, rules=ONCE, fantasyland=True, fantasyland_streak=2) is False
    assert next_fl(*rows, rules=ONCE, fantasyland=True, fantasyland_streak=5) is False


@pytest.mark.parametrize("rows", [TRIPS_222, MIDDLE_FULL_HOUSE, BACK_QUADS, QQ])
def test_stay_never(rows):
    assert next_fl(*rows, rules=NEVER, fantasyland=True) is False


@pytest.mark.parametrize("rules", [SM, ONCE, NEVER])
def test_entering_is_the_same_under_every_policy(rules):
    assert next_fl(*QQ, rules=rules) is True
    assert next_fl(*QQ, rules=rules, fantasyland=False) is True
    assert next_fl(*JJ, rules=rules) is False
    assert next_fl(*QQ_FOULED, rules=rules) is False


def test_policy_not_qualified_stays_out():
    assert next_fl(*QQ, rules=ONCE, fantasyland=True, fantasyland_streak=1) is False


def test_fantasyland_none_means_not_in_fantasyland():
    assert next_fl(*QQ, fantasyland=None) is True
