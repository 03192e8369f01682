"""Bad input: always InvalidHand, with a message a scorekeeper can act on."""

import re

import pytest

from scoring import InvalidHand, score_hand

A = {"front": "Qs Qh 7d", "middle": "Qd Qc 9s 8h 2c", "back": "As Ad Ac 3s 3d"}
B = {"front": "4s 4h 2d", "middle": "Js Jh 5d 4c 3c", "back": "9h Th Jd Kc Kd"}
C = {"front": "2s 3h 5h", "middle": "6s 6h 7c 8c 9c", "back": "Ts Tc 7s 7h 2h"}


def error(boards, **kw):
    with pytest.raises(InvalidHand) as info:
        score_hand(boards, **kw)
    assert isinstance(info.value, ValueError)
    return str(info.value)


def test_invalid_hand_is_a_value_error():
    assert issubclass(InvalidHand, ValueError)


def test_the_three_sample_boards_are_valid():
    assert len(score_hand([A, B, C])) == 3


def test_duplicate_card_across_players():
    c = dict(C, back="Ts Tc 7s 7h Qs")
    assert error([A, B, c]) == "Card Q♠ appears twice: player 1 front and player 3 back"


def test_duplicate_card_in_one_row():
    a = dict(A, middle="Qd Qc 9s 9s 2c")
    assert error([a, B]) == "Card 9♠ appears twice: player 1 middle and player 1 middle"


def test_duplicate_written_differently_is_still_a_duplicate():
    b = dict(B, front="4s 4h q♠")
    assert error([A, b]) == "Card Q♠ appears twice: player 1 front and player 2 front"


def test_several_duplicates_are_all_named():
    b = dict(B, front="Qs 4h 2d", back="9h Th Jd Kc Ad")
    c = dict(C, front="2s 3h Qs")
    assert error([A, b, c]) == (
        "Card Q♠ appears 3 times: player 1 front, player 2 front and player 3 front; "
        "Card A♦ appears twice: player 1 back and player 2 back"
    )


@pytest.mark.parametrize("text", ["Xx", "1s", "Qx", "QQ", "11h", "A", "Az", "♠A"])
def test_unknown_card(text):
    b = dict(B, middle=f"Js Jh 5d 4c {text}")
    assert error([A, b]) == f"Unknown card {text!r} in player 2 middle"


def test_unknown_card_in_a_list():
    c = dict(C, back=["Ts", "Tc", "7s", "7h", "joker"])
    assert error([A, B, c]) == "Unknown card 'joker' in player 3 back"


def test_a_card_that_is_not_text():
    a = dict(A, front=["Qs", "Qh", 7])
    assert error([a, B]) == 'player 1 front: a card must be text like "As", got int 7'


@pytest.mark.parametrize(
    ("player", "row", "cards", "message"),
    [
        (2, "middle", "Js Jh 5d 4c", "player 2 middle has 4 cards, needs 5"),
        (1, "front", "Qs", "player 1 front has 1 card, needs 3"),
        (1, "front", "", "player 1 front has 0 cards, needs 3"),
        (1, "front", "Qs Qh 7d 8d", "player 1 front has 4 cards, needs 3"),
        (2, "back", "9h Th Jd Kc Kd 2s", "player 2 back has 6 cards, needs 5"),
        (2, "back", [], "player 2 back has 0 cards, needs 5"),
    ],
)
def test_wrong_number_of_cards(player, row, cards, message):
    boards = [dict(A), dict(B)]
    boards[player - 1][row] = cards
    assert error(boards) == message


@pytest.mark.parametrize(
    ("boards", "message"),
    [
        ([A], "A hand needs 2 or 3 players, got 1"),
        ([], "A hand needs 2 or 3 players, got 0"),
        ([A, B, C, A], "A hand needs 2 or 3 players, got 4"),
        (None, "A hand needs a list of 2 or 3 player boards, got NoneType"),
        (7, "A hand needs a list of 2 or 3 player boards, got int"),
        ("As Ks", "A hand needs a list of 2 or 3 player boards, got str"),
        (A, "A hand needs a list of 2 or 3 player boards, got dict"),
    ],
)
def test_number_of_players(boards, message):
    assert error(boards) == message


def test_board_not_a_mapping():
    assert error([A, "Qs Qh"]) == (
        "player 2 board must be a mapping with front, middle and back rows, got str"
    )
    assert error([None, B]).startswith("player 1 board must be a mapping")


@pytest.mark.parametrize("row", ["front", "middle", "back"])
def test_board_without_a_row(row):
    c = {k: v for k, v in C.items() if k != row}
    assert error([A, B, c]) == f"player 3 board has no {row} row"


def test_row_of_the_wrong_type():
    a = dict(A, back=12345)
    assert error([a, B]) == (
        'player 1 back must be card text like "As Kd Qh" or a list of cards, got int'
    )


@pytest.mark.parametrize("value", [1, "yes", 0.5, [True]])
def test_fantasyland_must_be_a_bool(value):
    a = dict(A, fantasyland=value)
    assert error([a, B]).startswith("player 1 fantasyland must be true or false, got ")


@pytest.mark.parametrize("value", ["1", 1.0, -1, True])
def test_fantasyland_streak_must_be_a_whole_number(value):
    a = dict(A, fantasyland=True, fantasyland_streak=value)
    assert re.match(r"player 1 fantasyland_streak must be a whole number, got ", error([a, B]))


def test_fantasyland_streak_zero_with_fantasyland():
    a = dict(A, fantasyland=True, fantasyland_streak=0)
    assert error([a, B]) == (
        "player 1 fantasyland_streak must be 1 or more for a Fantasyland hand, got 0"
    )


@pytest.mark.parametrize(
    ("rules", "start"),
    [
        ("us", "rules must be a Rules object"),
        (5, "rules must be a Rules object"),
        ({"royalties": "martian"}, "Rules royalties must be one of 'us', 'russian', got 'martian'"),
        ({"method": 16}, "Rules method must be one of '1-6', '2-4', got 16"),
        ({"colour": "red"}, "Unknown rules setting 'colour'"),
    ],
)
def test_bad_rules(rules, start):
    assert error([A, B], rules=rules).startswith(start)


def test_a_mapping_that_misbehaves_still_gives_invalid_hand():
    class Weird(dict):
        def __getitem__(self, key):
            raise RuntimeError("boom")

    assert error([Weird(A), B]) == "The boards could not be read (RuntimeError)"


def test_a_card_whose_repr_fails():
    class Nasty:
        def __repr__(self):
            raise RuntimeError("no")

    a = dict(A, front=["Qs", "Qh", Nasty()])
    assert error([a, B]) == 'player 1 front: a card must be text like "As", got Nasty <Nasty>'
