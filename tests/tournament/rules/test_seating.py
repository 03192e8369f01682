import pytest

from tournament.rules.seating import deal_order, new_seed, seat_players, table_sizes


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (2, [2]),
        (3, [3]),
        (4, [2, 2]),
        (5, [3, 2]),
        (6, [3, 3]),
        (7, [3, 2, 2]),
        (8, [3, 3, 2]),
        (9, [3, 3, 3]),
        (10, [3, 3, 2, 2]),
        (11, [3, 3, 3, 2]),
        (22, [3, 3, 3, 3, 3, 3, 2, 2]),
    ],
)
def test_tables_of_three_with_heads_up_for_the_remainder(players, sizes):
    assert table_sizes(players) == sizes


def test_one_player_cannot_be_drawn():
    with pytest.raises(ValueError, match="at least 2"):
        table_sizes(1)


def test_same_seed_same_tables_and_dealers():
    first = seat_players(list(range(1, 11)), "5eed")
    again = seat_players(list(reversed(range(1, 11))), "5eed")  # input order does not matter
    assert first == again


def test_every_player_seated_once_and_dealer_is_a_seat():
    seating = seat_players(list(range(1, 12)), new_seed())
    seated = [player for table in seating for player in table.players]
    assert sorted(seated) == list(range(1, 12))
    assert [len(t.players) for t in seating] == [3, 3, 3, 2]
    assert [t.number for t in seating] == [1, 2, 3, 4]
    assert all(0 <= t.first_dealer_position < len(t.players) for t in seating)


def test_different_seeds_give_different_draws():
    assert seat_players(list(range(1, 10)), "seed-a") != seat_players(list(range(1, 10)), "seed-b")


def test_seed_is_128_bits_of_hex():
    seed = new_seed()
    assert len(seed) == 32 and int(seed, 16) >= 0
    assert new_seed() != seed


def test_the_deal_goes_round_from_the_first_dealer():
    # Three seats 0, 1, 2 with the first dealer at 1: 1 deals, then 2, then 0.
    assert deal_order([2, 0, 1], 1) == [1, 2, 0]
    assert deal_order([0, 1, 2], 0) == [0, 1, 2]
    # Heads-up from seats 0 and 2 whose first dealer sat at 1 (gone): the next seat, 2.
    assert deal_order([0, 2], 1) == [2, 0]
    # Past the last seat the deal wraps round to the first.
    assert deal_order([0, 1], 5) == [0, 1]
