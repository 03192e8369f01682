"""Card text: every accepted spelling, and how cards are shown."""

import pytest

from scoring import InvalidHand, format_card, parse_card, parse_row, score_hand

A = {"front": "Qs Qh 7d", "middle": "Qd Qc 9s 8h 2c", "back": "As Ad Ac 3s 3d"}
B = {"front": "4s 4h 2d", "middle": "Js Jh 5d 4c 3c", "back": "9h Th Jd Kc Kd"}


@pytest.mark.parametrize(
    "spellings",
    [
        ["As", "as", "AS", "aS", "A♠", "a♠", "A♤", "A♠\ufe0f", " As "],
        ["Th", "th", "TH", "10h", "10H", "10♥", "T♡"],
        ["2d", "2D", "2♦", "2♢"],
        ["Kc", "kc", "KC", "K♣", "k♧"],
    ],
)
def test_spellings(spellings):
    cards = {parse_card(s) for s in spellings}
    assert len(cards) == 1 and None not in cards


@pytest.mark.parametrize("text", ["", "A", "1s", "11s", "Ax", "AsK", None, 14, "A s"])
def test_not_cards(text):
    assert parse_card(text) is None


def test_all_52_cards_are_distinct():
    cards = {parse_card(r + s) for r in "23456789TJQKA" for s in "shdc"}
    assert len(cards) == 52 and None not in cards


@pytest.mark.parametrize(
    ("text", "shown"),
    [("Qs", "Q♠"), ("10h", "10♥"), ("td", "10♦"), ("2c", "2♣"), ("Ah", "A♥"), ("9s", "9♠")],
)
def test_format(text, shown):
    assert format_card(parse_card(text)) == shown


def test_example_from_the_brief():
    assert len(parse_row("As 10h Td", 1, "front")) == 3


def test_row_forms_give_the_same_result():
    expected = score_hand([A, B])
    as_lists = [{k: v.split() for k, v in board.items()} for board in (A, B)]
    as_tuples = [{k: tuple(v.split()) for k, v in board.items()} for board in (A, B)]
    lower = [{k: v.lower() for k, v in board.items()} for board in (A, B)]
    symbols = [
        {
            k: v.replace("s", "♠").replace("h", "♥").replace("d", "♦").replace("c", "♣")
            for k, v in board.items()
        }
        for board in (A, B)
    ]
    commas = [{k: v.replace(" ", ", ") for k, v in board.items()} for board in (A, B)]
    spaced = [{k: f"  {v.replace(' ', '   ')} \n" for k, v in board.items()} for board in (A, B)]
    for boards in (as_lists, as_tuples, lower, symbols, commas, spaced):
        assert score_hand(boards) == expected


def test_ten_written_both_ways_is_a_duplicate():
    a = dict(A, front="Qs Qh Td")
    b = dict(B, front="4s 4h 10d")
    with pytest.raises(InvalidHand, match="Card 10♦ appears twice: player 1 front and player 2"):
        score_hand([a, b])


def test_package_docstring_example():
    import doctest

    import scoring

    assert doctest.testmod(scoring).failed == 0
