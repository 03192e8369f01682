"""One pair's settlement, part by part (what the revisor reads out at the check step).

Every expected number is worked out by hand from rules.md section 4 in the comments.
"""

from scoring import SM, Rules, parse_boards
from scoring.settle import PairSettlement, evaluate_board, settle_pair


def b(front, middle, back):
    return {"front": front, "middle": middle, "back": back}


def values(*boards, rules=SM):
    return [evaluate_board(board, rules) for board in parse_boards(list(boards))]


# The Tokyo worked example: A wins the front (66) and the middle (KK over JJ), B the back
# (a straight over trips). Royalties: A 1 (66), B 2 (the straight).
TOKYO_A = b("6s 6h 2c", "Ks Kh 9d 8c 7s", "Qs Qh Qd 3c 5s")
TOKYO_B = b("4s 4h 2d", "Js Jh 5d 4c 3d", "9s Th Jd Qc Kc")

# A scoops B. A's royalties: KK 8 + middle trips 2 + back straight 2 = 12; B has none.
SCOOP_A = b("Ks Kh 2c", "9s 9h 9d 3c 4c", "Ts Jh Qd Kc As")
SCOOP_B = b("2s 3h 5d", "6s 6h 7d 8c Jd", "7s 7h 8s 8h 9c")

# Fouled: front QQ7 beats middle QQ654. Bo: 66 (1) and a straight in the back (2) = 3.
FOULED = b("Qs Qh 7d", "Qd Qc 6d 5h 4c", "As Ad Ks Kd 2c")
BO = b("6s 6h 2d", "Js Jh 3d 4s 8c", "5d 6c 7h 8d 9s")
# Fouled too: front JJ8 beats middle JJ532.
FOULED_TOO = b("Js Jh 8d", "Jd Jc 3d 2h 5s", "Ts Th 9s 9h 8c")


def test_the_worked_example_row_by_row():
    # Rows +1 +1 -1 = +1, no scoop; royalties 1 - 2 = -1; in all 0.
    a, b_ = values(TOKYO_A, TOKYO_B)
    assert settle_pair(a, b_) == PairSettlement(
        rows=(1, 1, -1), row_points=1, bonus=0, foul_points=0, royalties=-1, points=0
    )


def test_a_scoop_and_the_same_pair_seen_from_the_loser():
    # All three rows +3, the scoop +3, royalties 12 - 0 = +12: 18.
    a, b_ = values(SCOOP_A, SCOOP_B)
    assert settle_pair(a, b_, "1-6") == PairSettlement((1, 1, 1), 3, 3, 0, 12, 18)
    assert settle_pair(b_, a, "1-6") == PairSettlement((-1, -1, -1), -3, -3, 0, -12, -18)


def test_the_2_4_method_gives_one_for_the_majority_of_rows():
    # Scoop under 2-4: rows +3, majority +1, royalties +12: 16.
    a, b_ = values(SCOOP_A, SCOOP_B)
    assert settle_pair(a, b_, "2-4") == PairSettlement((1, 1, 1), 3, 1, 0, 12, 16)
    # Tokyo under 2-4: A wins two rows of three, so the majority +1: 1 + 1 - 1 = 1.
    a, b_ = values(TOKYO_A, TOKYO_B)
    assert settle_pair(a, b_, "2-4") == PairSettlement((1, 1, -1), 1, 1, 0, -1, 1)


def test_an_even_row_counts_nothing():
    # Fronts K-K-2 against K-K-2: even. Middle AA-9-8-7 beats AA-5-4-3, the full house
    # beats the straight: +2, no scoop. Royalties 8 + 6 = 14 against 8 + 2 = 10: +4.
    anna = b("Ks Kh 2c", "As Ah 9d 8c 7s", "Qs Qd Qc 3c 3s")
    bo = b("Kd Kc 2d", "Ac Ad 3d 4d 5c", "8d 9s Th Jd Qh")
    a, b_ = values(anna, bo)
    assert settle_pair(a, b_) == PairSettlement((0, 1, 1), 2, 0, 0, 4, 6)


def test_against_a_foul_the_fixed_points_and_the_royalties():
    fouled, bo = values(FOULED, BO)
    assert fouled.fouled and not bo.fouled
    # 1-6: 6 against a foul, plus Bo's 3 royalties (the fouled hand has none): 9.
    assert settle_pair(bo, fouled, "1-6") == PairSettlement((1, 1, 1), 0, 0, 6, 3, 9)
    assert settle_pair(fouled, bo, "1-6") == PairSettlement((-1, -1, -1), 0, 0, -6, -3, -9)
    # 2-4: 4 against a foul, plus 3: 7.
    assert settle_pair(bo, fouled, "2-4") == PairSettlement((1, 1, 1), 0, 0, 4, 3, 7)


def test_two_fouled_hands_score_nothing_against_each_other():
    a, b_ = values(FOULED, FOULED_TOO, rules=Rules())
    assert a.fouled and b_.fouled
    assert settle_pair(a, b_) == PairSettlement((0, 0, 0), 0, 0, 0, 0, 0)
