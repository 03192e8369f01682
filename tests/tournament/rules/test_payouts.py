"""The prize arithmetic of tournament/rules/payouts.py, against figures worked out by hand.

The running example: 27 players, a buy-in of 500 kr of which the organiser keeps 50 kr,
and 1,000 kr added. In öre: pool = 27 × (50,000 − 5,000) + 100,000 = 1,315,000 (13,150 kr).
27 players pay 3 places, 50 / 30 / 20 %: 657,500, 394,500 and 263,000 öre.
"""

import pytest

from tournament.rules.payouts import (
    STANDARD_STRUCTURES,
    WHOLE,
    PlacePrize,
    payout_table,
    place_prizes,
    prize_pool,
    standard_shares,
    standing_prizes,
)

POOL = 1_315_000
SHARES = (5_000, 3_000, 2_000)


def test_pool_is_buy_ins_less_fees_plus_added_money():
    assert prize_pool(paying=27, buy_in=50_000, fee=5_000, added=100_000) == POOL


def test_pool_of_no_player_is_the_added_money():
    assert prize_pool(paying=0, buy_in=50_000, fee=5_000, added=100_000) == 100_000


def test_prizes_in_whole_kronor_are_the_exact_shares():
    assert place_prizes(POOL, SHARES, 100) == [657_500, 394_500, 263_000]


def test_prizes_rounded_down_to_10_kr_leave_10_kr_to_first():
    # 6,575 -> 6,570, 3,945 -> 3,940, 2,630 stays: 13,140; the 10 kr left go to 1st.
    assert place_prizes(POOL, SHARES, 1_000) == [658_000, 394_000, 263_000]


def test_prizes_rounded_down_to_100_kr_leave_150_kr_to_first():
    # 6,500 + 3,900 + 2,600 = 13,000; 150 kr left: 1st 6,650.
    assert place_prizes(POOL, SHARES, 10_000) == [665_000, 390_000, 260_000]


def test_an_ore_left_by_the_shares_goes_to_first():
    # 1,001 öre at 50/30/20: 500.5, 300.3, 200.2 -> 500, 300, 200 and the öre left to 1st.
    assert place_prizes(1_001, SHARES, 1) == [501, 300, 200]


def test_payout_table_names_each_place():
    assert payout_table(POOL, SHARES, 1_000) == [
        PlacePrize(1, 5_000, 658_000),
        PlacePrize(2, 3_000, 394_000),
        PlacePrize(3, 2_000, 263_000),
    ]


@pytest.mark.parametrize(
    ("players", "places"),
    [(0, 1), (1, 1), (2, 1), (8, 1), (9, 3), (27, 3), (28, 5), (45, 5), (46, 9), (100, 9)]
    + [(101, 18), (300, 18)],
)
def test_standard_places_paid_by_field_size(players, places):
    assert len(standard_shares(players)) == places


def test_standard_shares_for_the_sm_field():
    assert standard_shares(27) == (5_000, 3_000, 2_000)
    assert standard_shares(30) == (4_000, 2_400, 1_600, 1_200, 800)


def test_every_standard_structure_adds_up_to_100_percent_and_falls():
    for _smallest, shares in STANDARD_STRUCTURES:
        assert sum(shares) == WHOLE
        assert list(shares) == sorted(shares, reverse=True)


def test_final_standings_pay_the_first_three():
    ranks = [1, 2, 3, 4, 5]
    assert standing_prizes(ranks, POOL, SHARES, 1_000) == [658_000, 394_000, 263_000, 0, 0]


def test_disqualified_player_wins_nothing_and_the_places_below_move_up():
    # The standings list him last, unranked; were he read in the middle, the next player
    # still takes 2nd place's prize.
    ranks = [1, None, 2, 3, 4]
    assert standing_prizes(ranks, POOL, SHARES, 1_000) == [658_000, 0, 394_000, 263_000, 0]


def test_tied_players_share_the_places_they_take():
    # Two tied 2nd: places 2 and 3, 50 % of 13,150 kr, 3,287.50 kr each, down to 3,280;
    # 1st 6,570; 13,130 in all, the 20 kr left to 1st: 6,590.
    ranks = [1, 2, 2, 4]
    assert standing_prizes(ranks, POOL, SHARES, 1_000) == [659_000, 328_000, 328_000, 0]


def test_tie_across_the_last_paid_place_shares_it():
    # Two tied 3rd take places 3 and 4: 20 % + 0 %, 1,315 kr each.
    ranks = [1, 2, 3, 3]
    assert standing_prizes(ranks, POOL, SHARES, 100) == [657_500, 394_500, 131_500, 131_500]


def test_places_nobody_takes_go_to_first():
    # Two players for three places: 1st 50 % + the 20 % nobody takes.
    assert standing_prizes([1, 2], 100_000, SHARES, 100) == [70_000, 30_000]


def test_nobody_to_pay_pays_nothing():
    assert standing_prizes([None, None], POOL, SHARES, 100) == [0, 0]
    assert standing_prizes([], POOL, SHARES, 100) == []
