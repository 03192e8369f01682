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


# --- Structured fields: what a caller needs to build its own (translated) message ---


def caught(boards, **kw):
    with pytest.raises(InvalidHand) as info:
        score_hand(boards, **kw)
    return info.value


def fields(exc):
    return (exc.code, exc.player, exc.row, exc.card, dict(exc.params))


def only_problem(exc):
    """A one-problem error: its single problem repeats the error's own fields."""
    assert len(exc.problems) == 1
    problem = exc.problems[0]
    assert (problem.code, problem.player, problem.row, problem.card) == fields(exc)[:4]
    assert dict(problem.params) == dict(exc.params)
    assert problem.message == str(exc)
    return fields(exc)


def test_an_error_made_from_a_message_alone():
    exc = InvalidHand("Something is off")
    assert str(exc) == "Something is off"
    assert exc.args == ("Something is off",)
    assert isinstance(exc, ValueError)
    assert only_problem(exc) == ("invalid", None, None, None, {})


def test_structured_duplicate_card_across_players():
    c = dict(C, back="Ts Tc 7s 7h Qs")
    exc = caught([A, B, c])
    assert str(exc) == "Card Q♠ appears twice: player 1 front and player 3 back"
    assert fields(exc) == (
        "duplicate_card",
        1,
        "front",
        "Q♠",
        {"places": ((1, "front"), (3, "back")), "count": 2},
    )
    (problem,) = exc.problems
    assert problem.code == "duplicate_card"
    assert problem.card == "Q♠"
    assert problem.params["places"] == ((1, "front"), (3, "back"))
    assert problem.message == str(exc)


def test_structured_duplicate_card_in_one_row():
    a = dict(A, middle="Qd Qc 9s 9s 2c")
    exc = caught([a, B])
    assert fields(exc) == (
        "duplicate_card",
        1,
        "middle",
        "9♠",
        {"places": ((1, "middle"), (1, "middle")), "count": 2},
    )


def test_structured_duplicate_ten_is_shown_as_10():
    b = dict(B, back="9h Th Jd Kc Td")
    c = dict(C, back="Ts Tc 7s 7h Td")
    exc = caught([A, b, c])
    assert str(exc) == "Card 10♦ appears twice: player 2 back and player 3 back"
    assert exc.card == "10♦"
    assert exc.params["places"] == ((2, "back"), (3, "back"))


def test_structured_several_duplicates_are_separate_problems():
    b = dict(B, front="Qs 4h 2d", back="9h Th Jd Kc Ad")
    c = dict(C, front="2s 3h Qs")
    exc = caught([A, b, c])
    assert [(p.code, p.player, p.row, p.card, dict(p.params), p.message) for p in exc.problems] == [
        (
            "duplicate_card",
            1,
            "front",
            "Q♠",
            {"places": ((1, "front"), (2, "front"), (3, "front")), "count": 3},
            "Card Q♠ appears 3 times: player 1 front, player 2 front and player 3 front",
        ),
        (
            "duplicate_card",
            1,
            "back",
            "A♦",
            {"places": ((1, "back"), (2, "back")), "count": 2},
            "Card A♦ appears twice: player 1 back and player 2 back",
        ),
    ]
    # the error's own fields are those of its first problem
    assert fields(exc) == (
        "duplicate_card",
        1,
        "front",
        "Q♠",
        {"places": ((1, "front"), (2, "front"), (3, "front")), "count": 3},
    )
    assert str(exc) == "; ".join(p.message for p in exc.problems)


def test_structured_unknown_card():
    b = dict(B, middle="Js Jh 5d 4c Xx")
    assert only_problem(caught([A, b])) == ("unknown_card", 2, "middle", "Xx", {})


def test_structured_unknown_card_in_a_list():
    c = dict(C, back=["Ts", "Tc", "7s", "7h", "joker"])
    assert only_problem(caught([A, B, c])) == ("unknown_card", 3, "back", "joker", {})


def test_structured_card_that_is_not_text():
    a = dict(A, front=["Qs", "Qh", 7])
    assert only_problem(caught([a, B])) == (
        "not_a_card",
        1,
        "front",
        None,
        {"type": "int", "value": "7"},
    )


@pytest.mark.parametrize(
    ("player", "row", "cards", "count", "need"),
    [
        (2, "middle", "Js Jh 5d 4c", 4, 5),
        (1, "front", "Qs", 1, 3),
        (1, "front", "", 0, 3),
        (1, "front", "Qs Qh 7d 8d", 4, 3),
        (2, "back", "9h Th Jd Kc Kd 2s", 6, 5),
        (2, "back", [], 0, 5),
    ],
)
def test_structured_wrong_number_of_cards(player, row, cards, count, need):
    boards = [dict(A), dict(B)]
    boards[player - 1][row] = cards
    assert only_problem(caught(boards)) == (
        "wrong_card_count",
        player,
        row,
        None,
        {"count": count, "need": need},
    )


@pytest.mark.parametrize(
    ("boards", "code", "params"),
    [
        ([A], "player_count", {"count": 1, "min": 2, "max": 3}),
        ([], "player_count", {"count": 0, "min": 2, "max": 3}),
        ([A, B, C, A], "player_count", {"count": 4, "min": 2, "max": 3}),
        (None, "not_a_list", {"type": "NoneType"}),
        ("As Ks", "not_a_list", {"type": "str"}),
        (A, "not_a_list", {"type": "dict"}),
    ],
)
def test_structured_number_of_players(boards, code, params):
    assert only_problem(caught(boards)) == (code, None, None, None, params)


def test_structured_board_not_a_mapping():
    assert only_problem(caught([A, "Qs Qh"])) == ("not_a_board", 2, None, None, {"type": "str"})


@pytest.mark.parametrize("row", ["front", "middle", "back"])
def test_structured_board_without_a_row(row):
    c = {k: v for k, v in C.items() if k != row}
    assert only_problem(caught([A, B, c])) == ("missing_row", 3, row, None, {})


def test_structured_row_of_the_wrong_type():
    a = dict(A, back=12345)
    assert only_problem(caught([a, B])) == ("bad_row", 1, "back", None, {"type": "int"})


def test_structured_fantasyland_not_a_bool():
    a = dict(A, fantasyland="yes")
    assert only_problem(caught([a, B])) == ("bad_fantasyland", 1, None, None, {"value": "'yes'"})


def test_structured_fantasyland_streak_not_a_whole_number():
    b = dict(B, fantasyland=True, fantasyland_streak=1.0)
    assert only_problem(caught([A, b])) == ("bad_streak", 2, None, None, {"value": "1.0"})


def test_structured_fantasyland_streak_zero_with_fantasyland():
    a = dict(A, fantasyland=True, fantasyland_streak=0)
    assert only_problem(caught([a, B])) == ("bad_streak", 1, None, None, {"value": "0", "min": 1})


@pytest.mark.parametrize(
    ("rules", "params"),
    [
        ("us", {"type": "str"}),
        (
            {"royalties": "martian"},
            {"setting": "royalties", "value": "'martian'", "choices": ("us", "russian")},
        ),
        ({"method": 16}, {"setting": "method", "value": "16", "choices": ("1-6", "2-4")}),
        ({"colour": "red"}, {"setting": "'colour'"}),
    ],
)
def test_structured_bad_rules(rules, params):
    assert only_problem(caught([A, B], rules=rules)) == ("rules", None, None, None, params)


def test_structured_a_mapping_that_misbehaves():
    class Weird(dict):
        def __getitem__(self, key):
            raise RuntimeError("boom")

    assert only_problem(caught([Weird(A), B])) == (
        "unreadable",
        None,
        None,
        None,
        {"type": "RuntimeError"},
    )


def test_structured_fields_survive_pickling():
    import pickle

    b = dict(B, front="Qs 4h 2d", back="9h Th Jd Kc Ad")
    exc = caught([A, b])
    copy = pickle.loads(pickle.dumps(exc))
    assert type(copy) is InvalidHand
    assert str(copy) == str(exc)
    assert fields(copy) == fields(exc)
    assert copy.problems == exc.problems


def test_structured_command_line_errors():
    from scoring.__main__ import _fantasyland_players, _split_board

    with pytest.raises(InvalidHand) as info:
        _split_board("Qs Qh 7d / Qd Qc 9s 8h 2c", 2)
    assert only_problem(info.value) == ("command_line", 2, None, None, {"parts": 2})
    with pytest.raises(InvalidHand) as info:
        _fantasyland_players("1,4", 3)
    assert str(info.value) == "--fantasyland: there is no player 4 (players 1-3)"
    assert only_problem(info.value) == ("command_line", None, None, None, {"fantasyland": "4"})
