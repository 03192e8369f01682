"""The pure dealing and placing of simulated boards."""

import random
from collections import Counter

from scoring import score_hand
from scoring.cards import parse_card
from tournament.demo import simulation


def cards_of(board):
    return [parse_card(text) for row in ("front", "middle", "back") for text in board[row].split()]


def test_deal_gives_13_cards_and_14_in_fantasyland_from_one_deck():
    dealt = simulation.deal(random.Random(1), [False, True, False])
    assert [len(hand) for hand in dealt] == [13, 14, 13]
    every = [card for hand in dealt for card in hand]
    assert len(set(every)) == 40


def test_place_uses_the_dealt_cards_in_rows_of_3_5_5():
    rng = random.Random(2)
    for in_fl in (False, True):
        cards = simulation.deal(rng, [in_fl])[0]
        board = simulation.place(cards, rng)
        assert [len(board[row].split()) for row in ("front", "middle", "back")] == [3, 5, 5]
        placed = cards_of(board)
        assert len(set(placed)) == 13
        assert set(placed) <= set(cards)


def test_a_fantasyland_player_discards_a_card_that_pairs_with_nothing():
    # 2c is the lowest card, but it pairs with 2d: 3s, the lowest single, goes.
    hand = ["2c", "2d", "3s", "5h", "5d", "7c", "8d", "9h", "Jc", "Qd", "Kh", "Ac", "As", "Ad"]
    cards = [parse_card(c) for c in hand]
    kept = simulation.discard(cards)
    assert len(kept) == 13
    assert parse_card("3s") not in kept


def test_the_same_seed_places_the_same_boards():
    def boards(seed):
        rng = random.Random(seed)
        return [simulation.place(hand, rng) for hand in simulation.deal(rng, [False] * 3)]

    assert boards("x") == boards("x")


def test_many_hands_bring_fouls_and_fantasyland_but_mostly_sound_boards():
    rng = random.Random(3)
    outcomes = Counter()
    for _ in range(300):
        boards = [simulation.place(hand, rng) for hand in simulation.deal(rng, [False] * 3)]
        for result in score_hand(boards):
            outcomes["fouled"] += result.fouled
            outcomes["fantasyland"] += result.fantasyland
    assert 0 < outcomes["fouled"] < 90  # under 10% of the 900 boards
    assert 0 < outcomes["fantasyland"] < 180  # under 20%
