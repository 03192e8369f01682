"""Row evaluation and comparison: categories, rank order, descriptions."""

import pytest

from scoring import describe, evaluate, parse_row


def ev(text):
    return evaluate(parse_row(text, 1, "front" if len(text.split()) == 3 else "middle"))


def cat(text):
    from scoring import CATEGORIES

    return CATEGORIES[ev(text) >> 20]


@pytest.mark.parametrize(
    ("row", "category"),
    [
        ("2s 7h 9d Jc Kd", "high_card"),
        ("2s 2h 9d Jc Kd", "pair"),
        ("2s 2h 9d 9c Kd", "two_pair"),
        ("2s 2h 2d Jc Kd", "three_of_a_kind"),
        ("As 2h 3d 4c 5d", "straight"),
        ("Ts Jh Qd Kc Ad", "straight"),
        ("2s 7s 9s Js Ks", "flush"),
        ("2s 2h 2d Kc Kd", "full_house"),
        ("2s 2h 2d 2c Kd", "four_of_a_kind"),
        ("As 2s 3s 4s 5s", "straight_flush"),
        ("9h Th Jh Qh Kh", "straight_flush"),
        ("Th Jh Qh Kh Ah", "royal_flush"),
        ("Qs Kh Ad 2c 3d", "high_card"),  # no wrap-around straight
        ("2s 7h 9d", "high_card"),
        ("2s 2h 9d", "pair"),
        ("2s 2h 2d", "three_of_a_kind"),
        ("2s 3s 4s", "high_card"),  # front: no straights or flushes
    ],
)
def test_categories(row, category):
    assert cat(row) == category


# Each pair: (stronger, weaker).
STRONGER = [
    # category decides first
    ("2s 2h 3d 4c 5d", "As Kh Qd Jc 9d"),
    ("2s 2h 3d 3c 4d", "As Ah Kd Qc Jd"),
    ("2s 2h 2d 3c 4d", "As Ah Kd Kc Qd"),
    ("As 2h 3d 4c 5d", "As Ah Ad Kc Qd"),  # even the wheel beats trips
    ("2s 3s 4s 5s 7s", "Ts Jh Qd Kc Ad"),
    ("2s 2h 2d 3c 3d", "As Ks Qs Js 9s"),
    ("2s 2h 2d 2c 3d", "As Ah Ad Kc Kd"),
    ("As 2s 3s 4s 5s", "Ac Ah Ad As Kd"),  # 5-high straight flush beats quads
    ("Th Jh Qh Kh Ah", "9s Ts Js Qs Ks"),  # royal beats K-high straight flush
    # straights: A-2-3-4-5 is the lowest
    ("2s 3h 4d 5c 6d", "As 2h 3d 4c 5d"),
    ("Ts Jh Qd Kc Ad", "9s Th Jd Qc Kd"),
    ("2h 3h 4h 5h 6h", "As 2s 3s 4s 5s"),
    # full house: trips first, then the pair
    ("Ks Kh Kd 2c 2d", "Qs Qh Qd Ac Ad"),
    ("Ks Kh Kd 3c 3d", "Kc Kd Kh 2s 2h"),  # rows on their own: cards may repeat here
    # two pair: high pair, then low pair, then kicker
    ("Ks Kh 2d 2c 3d", "Qs Qh Jd Jc Ad"),
    ("Ks Kh 4d 4c 2d", "Kd Kc 3d 3c Ad"),
    ("Ks Kh 4d 4c 9d", "Kd Kc 4s 4h 8d"),
    # pair: pair rank, then kickers in order
    ("9s 9h 2d 3c 4d", "8s 8h Ad Kc Qd"),
    ("9s 9h Ad 3c 2d", "9d 9c Kd Qc Jd"),
    ("9s 9h Ad Kc 3d", "9d 9c Ah Kd 2d"),
    # trips and quads: rank, then kickers
    ("9s 9h 9d 3c 2d", "8s 8h 8d Ac Kd"),
    ("9s 9h 9d Ac 2d", "9c 9h 9d Kc Qd"),
    ("8s 8h 8d 8c 3d", "8s 8h 8d 8c 2d"),
    # flush: ranks in order
    ("As Ks 7s 5s 3s", "Ah Qh Jh Th 8h"),
    ("As Ks 7s 5s 3s", "Ah Kh 7h 5h 2h"),
    # high card: ranks in order
    ("As Kh 7d 5c 3d", "Ad Qh Jd Tc 8d"),
    ("As Kh 7d 5c 3d", "Ad Kc 7h 5s 2d"),
]


@pytest.mark.parametrize(("strong", "weak"), STRONGER)
def test_comparisons(strong, weak):
    assert ev(strong) > ev(weak)
    assert ev(weak) < ev(strong)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("As Kh 7d 5c 3d", "Ad Kc 7h 5s 3c"),  # same ranks, other suits
        ("As 2h 3d 4c 5d", "Ah 2s 3c 4d 5s"),  # two wheels
        ("Ks Kh 4d 4c 9d", "Kd Kc 4s 4h 9s"),
        ("2s 7s 9s Js Ks", "2h 7h 9h Jh Kh"),
        ("Qs Qh 7d", "Qd Qc 7h"),
    ],
)
def test_equal_strength(a, b):
    assert ev(a) == ev(b)


@pytest.mark.parametrize(
    ("front", "middle", "front_is_stronger"),
    [
        # rules.md section 4 / Tokyo seed: ranks in order, the longer middle wins a tie
        ("Qs Qh 7d", "Qd Qc 6s 5h 4c", True),
        ("Qs Qh 7d", "Qd Qc 9s 8h 2c", False),
        ("Qs Qh 7d", "Qd Qc 7s 3h 2c", False),  # all front ranks matched
        ("As Kh Qd", "Ac Kd Qs 3h 2c", False),
        ("As Kh Qd", "Ac Kd Js Th 9c", True),
        ("As Kh Qd", "2s 2h 3d 4c 5c", False),  # any pair beats high card
        ("2s 2h 2d", "As Ah Kd Kc Qc", True),  # trips beat two pair
        ("Ks Kh Kd", "As Ac Ad 2c 3c", False),
        ("Ks Kh Kd", "Ks Kh Kc 2c 3c", False),  # same trips (not one deck): middle has more
        ("Ks Kh Kd", "Qs Qc Qd Ac 2h", True),
        ("Ks Kh Kd", "Qs Qc Qd Ac Ah", False),  # a full house beats trips
        ("Ks Kh Kd", "2s 3h 4d 5c 6c", False),
    ],
)
def test_front_against_middle(front, middle, front_is_stronger):
    assert (ev(front) > ev(middle)) is front_is_stronger


@pytest.mark.parametrize(
    ("row", "text"),
    [
        ("As Kh 7d 5c 3d", "ace high"),
        ("Qs Qh 7d", "pair of queens"),
        ("6s 6h 7d", "pair of sixes"),
        ("Ks Kh 4d 4c 9d", "two pair, kings and fours"),
        ("9s 9h 9d", "three nines"),
        ("As 2h 3d 4c 5d", "straight, five high"),
        ("2s 7s 9s Js Ks", "flush, king high"),
        ("Ks Kh Kd 2c 2d", "full house, kings full of twos"),
        ("8s 8h 8d 8c 3d", "four eights"),
        ("As 2s 3s 4s 5s", "straight flush, five high"),
        ("Th Jh Qh Kh Ah", "royal flush"),
        ("Ts Th 2d", "pair of tens"),
    ],
)
def test_describe(row, text):
    assert describe(ev(row)) == text


def test_describe_takes_a_tuple():
    # (category index, ranks...): 1 = pair, of queens (12) with a 7 kicker
    assert describe((1, 12, 7)) == "pair of queens"
    assert describe((6, 13, 2)) == "full house, kings full of twos"
