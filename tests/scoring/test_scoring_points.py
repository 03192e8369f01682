"""Pairwise points: 1-6 and 2-4 methods, royalties, fouls, 2 and 3 players.

Every expected number is worked out by hand in the comments.
"""

from scoring import RUSSIAN, SM, Rules, score_hand

M24 = Rules(method="2-4")


def b(front, middle, back):
    return {"front": front, "middle": middle, "back": back}


def points(boards, rules=SM):
    return [r.points for r in score_hand(boards, rules=rules)]


# rules.md / Tokyo seed worked example. A wins front (66, royalty 1) and middle; B wins the
# back with a straight (royalty 2); nothing else pays.
TOKYO_A = b("6s 6h 2c", "Ks Kh 9d 8c 7s", "Qs Qh Qd 3c 5s")  # 66 / KK / QQQ
TOKYO_B = b("4s 4h 2d", "Js Jh 5d 4c 3d", "9s Th Jd Qc Kc")  # 44 / JJ / K-high straight


def test_tokyo_worked_example():
    # A: +1 (front) +1 (middle) -1 (back) + 1 (own 66) - 2 (B's straight) = 0
    # B: -1 -1 +1 + 2 - 1 = 0
    ra, rb = score_hand([TOKYO_A, TOKYO_B])
    assert (ra.points, rb.points) == (0, 0)
    assert ra.row_royalties == {"front": 1, "middle": 0, "back": 0}
    assert rb.row_royalties == {"front": 0, "middle": 0, "back": 2}
    assert (ra.royalties, rb.royalties) == (1, 2)
    assert not ra.fouled and not rb.fouled


# A scoops B. A: KK (8) / trips 9 (2) / A-high straight (2) = 12 royalties.
# B: 5-3-2 / pair of sixes / two pair 8s and 7s, no royalties.
SCOOP_A = b("Ks Kh 2c", "9s 9h 9d 3c 4c", "Ts Jh Qd Kc As")
SCOOP_B = b("2s 3h 5d", "6s 6h 7d 8c Jd", "7s 7h 8s 8h 9c")


def test_scoop_1_6():
    # A: 3 rows + 3 scoop bonus + 12 royalties - 0 = 18
    assert points([SCOOP_A, SCOOP_B]) == [18, -18]
    assert points([SCOOP_B, SCOOP_A]) == [-18, 18]


def test_scoop_2_4():
    # A: 3 rows + 1 majority bonus + 12 royalties = 16
    assert points([SCOOP_A, SCOOP_B], M24) == [16, -16]


# Front tied (K-Q-3 both); A wins middle (99 vs 88) and back (JJ TT vs TT 77).
TIE_A = b("Ks Qh 3d", "9s 9h 2d 4c 5c", "Ts Th Js Jh 6d")
TIE_B = b("Kd Qc 3h", "8s 8h 2h 4d 6c", "Tc Td 7s 7h 6h")


def test_tied_row_means_no_scoop():
    # 0 (tie) + 1 + 1 = 2; no scoop bonus because a row is tied; no royalties.
    assert points([TIE_A, TIE_B]) == [2, -2]


def test_2_4_two_wins_and_a_tie_gets_the_bonus():
    # pokerdom seed: 2 rows won + 1 bonus = 3; B wins nothing: 3 - 0 = 3
    assert points([TIE_A, TIE_B], M24) == [3, -3]


# One win each and a tie: A wins middle (99 vs 88), B wins back (JJ 77 vs TT 66).
SPLIT_A = b("Ks Qh 3d", "9s 9h 2d 4c 5c", "Ts Th 6s 6h 7d")
SPLIT_B = b("Kd Qc 3h", "8s 8h 2h 4d 6c", "Js Jh 7s 7h 2c")


def test_one_win_one_tie_one_loss():
    # 1-6: +1 -1 + 0 = 0. 2-4: A 1 point, B 1 point, nobody has a majority: 0.
    assert points([SPLIT_A, SPLIT_B]) == [0, 0]
    assert points([SPLIT_A, SPLIT_B], M24) == [0, 0]


# Two ties and one win: front K-Q-3 tie, middle 99-5-4-2 tie, A's back TT 66 beats 88 77.
ONE_A = b("Ks Qh 3d", "9s 9h 2d 4c 5c", "Ts Th 6s 6h 7d")
ONE_B = b("Kd Qc 3h", "9d 9c 2h 4d 5s", "8s 8h 7s 7h 2c")


def test_one_win_two_ties():
    # 1-6: +1. 2-4: 1 row won is not a majority, no bonus: +1.
    assert points([ONE_A, ONE_B]) == [1, -1]
    assert points([ONE_A, ONE_B], M24) == [1, -1]


# A: 4-3-2 / KK / four nines (US 10, Russian 8). B: 8-6-5 / QQ / trips tens (0).
# B wins the front, A the middle and the back.
QUADS_A = b("2s 3h 4d", "Ks Kh 7d 8c Jd", "9s 9h 9d 9c Js")
QUADS_B = b("5s 6h 8d", "Qs Qh 2d 3c 4c", "Ts Th Tc 2h 3s")


def test_royalties_us_and_russian():
    # rows: -1 +1 +1 = +1; US: 1 + 10 = 11; Russian: 1 + 8 = 9
    assert points([QUADS_A, QUADS_B]) == [11, -11]
    assert points([QUADS_A, QUADS_B], RUSSIAN) == [9, -9]


def test_2_4_two_wins_one_loss():
    # A: 2 rows + 1 bonus = 3, B: 1 row = 1 -> net 2; + 10 royalties = 12
    assert points([QUADS_A, QUADS_B], M24) == [12, -12]
    # Russian 2-4: 2 + 8 = 10
    assert points([QUADS_A, QUADS_B], Rules(royalties="russian", method="2-4")) == [10, -10]


# Foul: QQ7 over QQ654 (would have been 7 + 6 royalties).
FOUL_A = b("Qs Qh 7d", "Qd Qc 6s 5h 4c", "As Ad Ac 3s 3d")
# Clean: 66 (1) / two pair tens and eights (0) / club flush K-high (4): 5 royalties.
CLEAN_B = b("6h 6d 8d", "Ts Th 8s 8h 2h", "3c 7c 9c Tc Kc")


def test_fouled_player_pays_six_and_royalties():
    # B: 6 + 5 (own royalties) = 11; the fouled A gets no royalties to offset.
    assert points([FOUL_A, CLEAN_B]) == [-11, 11]


def test_fouled_player_pays_four_and_royalties_in_2_4():
    # B: 3 rows + 1 bonus = 4, + 5 royalties = 9
    assert points([FOUL_A, CLEAN_B], M24) == [-9, 9]


# Three-handed: A and B foul, C is clean.
# B fouls with trips in the middle over two pair in the back.
FOUL_B = b("2s 3h 4d", "9s 9h 9d 5c 6c", "Ks Kh Jd Jc 2c")
# C: 77 (2) / two pair tens and eights (0) / club flush (4) = 6 royalties.
CLEAN_C = b("7s 7h 8d", "Ts Th 8s 8h 2h", "3c 7c 9c Tc Kc")


def test_fouled_against_fouled_is_zero():
    # A vs B: both fouled, 0. C vs A: 6 + 6 = 12. C vs B: 6 + 6 = 12.
    # A = 0 - 12 = -12, B = 0 - 12 = -12, C = 24.
    assert points([FOUL_A, FOUL_B, CLEAN_C]) == [-12, -12, 24]
    assert points([FOUL_A, FOUL_B]) == [0, 0]


# Three-handed, all clean.
# A: QQ (7) / trips fives (2) / A-high straight (2) = 11
# B: K-4-3 / two pair 9s and 7s / sixes full of jacks (6) = 6
# C: TT (5) / two pair aces and fours / 9-high spade flush (4) = 9
MIX_A = b("Qs Qh 2c", "5s 5h 5d 8c 9c", "Ts Js Qd Kc Ah")
MIX_B = b("Ks 3h 4d", "7s 7h 9d 9h 2d", "6h 6c 6d Jd Jh")
MIX_C = b("Td Tc 3d", "Ad Ac 4c 4h Kd", "2s 3s 6s 8s 9s")


def test_three_handed_1_6():
    # front: A > C > B; middle: A > C > B; back: B (full house) > C (flush) > A (straight)
    # A vs B: +1 +1 -1 = +1, royalties 11 - 6 = +5: A +6
    # A vs C: +1 +1 -1 = +1, royalties 11 - 9 = +2: A +3
    # B vs C: -1 -1 +1 = -1, royalties 6 - 9 = -3: B -4
    # A = 6 + 3 = 9; B = -6 - 4 = -10; C = -3 + 4 = 1
    assert points([MIX_A, MIX_B, MIX_C]) == [9, -10, 1]
    assert points([MIX_A, MIX_B, MIX_C], RUSSIAN) == [9, -10, 1]  # no quads or better


def test_three_handed_2_4():
    # A vs B: A 2 + 1 = 3, B 1 -> +2, royalties +5: A +7
    # A vs C: +2, royalties +2: A +4
    # B vs C: B 1, C 2 + 1 = 3 -> -2, royalties -3: B -5
    # A = 7 + 4 = 11; B = -7 - 5 = -12; C = -4 + 5 = 1
    assert points([MIX_A, MIX_B, MIX_C], M24) == [11, -12, 1]


def test_three_handed_results_in_input_order():
    ra, rb, rc = score_hand([MIX_A, MIX_B, MIX_C])
    assert ra.royalties == 11 and rb.royalties == 6 and rc.royalties == 9
    assert ra.fantasyland is True  # QQ
    assert rb.fantasyland is False and rc.fantasyland is False
    # the same hand, seats rotated: the same numbers per player
    rc2, ra2, rb2 = score_hand([MIX_C, MIX_A, MIX_B])
    assert (ra2, rb2, rc2) == (ra, rb, rc)


def test_three_handed_one_foul():
    a = FOUL_A  # fouled
    # B: 2-3-4 (0) / pair of eights (0) / pair of nines (0)
    b_ = b("2s 3h 4d", "8s 8h 5d 6c 7c", "9s 9h Td Jc Kc")
    # C: 77 (2) / two pair jacks and fives (0) / heart flush (4) = 6
    c = b("7s 7h 8d", "Js Jh 5s 5c Ks", "2h 4h 6h Th Ah")
    # B vs A: +6 + 0 = 6. C vs A: +6 + 6 = 12.
    # B vs C: front 4-3-2 < 77 (-1), middle 88 < JJ55 (-1), back 99 < flush (-1): scooped,
    #   -3 - 3 = -6, royalties 0 - 6: B -12 vs C.
    # A = -6 - 12 = -18; B = 6 - 12 = -6; C = 12 + 12 = 24
    assert points([a, b_, c]) == [-18, -6, 24]


def test_points_are_ints_and_to_dict_is_plain():
    import json

    results = score_hand([MIX_A, MIX_B, MIX_C])
    for r in results:
        assert type(r.points) is int
        d = r.to_dict()
        assert json.loads(json.dumps(d)) == d
    assert results[0].to_dict() == {
        "points": 9,
        "fouled": False,
        "royalties": 11,
        "row_royalties": {"front": 7, "middle": 2, "back": 2},
        "categories": {"front": "pair", "middle": "three_of_a_kind", "back": "straight"},
        "descriptions": {
            "front": "pair of queens",
            "middle": "three fives",
            "back": "straight, ace high",
        },
        "fantasyland": True,
    }
