"""InvalidHand from the scoring package, as a translated message naming the players."""

import pytest
from django.utils.translation import override

from scoring import InvalidHand, score_hand
from tournament.rules.hand_errors import invalid_hand_message

A = {"front": "Qs Qh 7d", "middle": "Qd Qc 9s 8h 2c", "back": "As Ad Ac 3s 3d"}
B = {"front": "4s 4h 2d", "middle": "Js Jh 5d 4c 3c", "back": "9h Th Jd Kc Kd"}
C = {"front": "2s 3h 5h", "middle": "6s 6h 7c 8c 9c", "back": "Ts Tc 7s 7h 2h"}
NAMES = ["Anna", "Bo", "Cia"]


def caught(boards, **kw):
    with pytest.raises(InvalidHand) as info:
        score_hand(boards, **kw)
    return info.value


def messages(exc, names=NAMES):
    """(English, Swedish)."""
    with override("en"):
        english = invalid_hand_message(exc, names)
    with override("sv"):
        swedish = invalid_hand_message(exc, names)
    return english, swedish


def test_duplicate_card_across_players():
    exc = caught([A, B, dict(C, back="Ts Tc 7s 7h Qs")])
    assert messages(exc) == (
        "Card Q♠ appears twice: Anna's front and Cia's back",
        "Kortet Q♠ förekommer två gånger: Annas topprad och Cias bottenrad",
    )


def test_several_duplicates_are_joined():
    b = dict(B, front="Qs 4h 2d", back="9h Th Jd Kc Ad")
    c = dict(C, front="2s 3h Qs")
    assert messages(caught([A, b, c])) == (
        "Card Q♠ appears 3 times: Anna's front, Bo's front and Cia's front; "
        "Card A♦ appears twice: Anna's back and Bo's back",
        "Kortet Q♠ förekommer 3 gånger: Annas topprad, Bos topprad och Cias topprad; "
        "Kortet A♦ förekommer två gånger: Annas bottenrad och Bos bottenrad",
    )


def test_duplicate_in_one_row():
    exc = caught([dict(A, middle="Qd Qc 9s 9s 2c"), B])
    assert messages(exc) == (
        "Card 9♠ appears twice: Anna's middle and Anna's middle",
        "Kortet 9♠ förekommer två gånger: Annas mittrad och Annas mittrad",
    )


def test_names_ending_in_s_x_or_z():
    exc = caught([A, dict(B, front="4s 4h Qs"), dict(C, middle="6s 6h 7c 8c Qd")])
    assert messages(exc, ["Lars", "Max", "Björk"]) == (
        "Card Q♠ appears twice: Lars's front and Max's front; "
        "Card Q♦ appears twice: Lars's middle and Björk's middle",
        "Kortet Q♠ förekommer två gånger: Lars topprad och Max topprad; "
        "Kortet Q♦ förekommer två gånger: Lars mittrad och Björks mittrad",
    )


def test_unknown_card():
    exc = caught([A, dict(B, middle="Js Jh 5d 4c Xx")])
    assert messages(exc) == (
        'Unknown card "Xx" in Bo\'s middle',
        "Okänt kort ”Xx” i Bos mittrad",
    )


def test_a_long_unknown_card_is_cut_short():
    exc = caught([dict(A, front="Qs Qh abcdefghijklmnopqrstuvwxyz"), B])
    assert messages(exc) == (
        'Unknown card "abcdefghijklmnopqrs…" in Anna\'s front',
        "Okänt kort ”abcdefghijklmnopqrs…” i Annas topprad",
    )


def test_a_card_that_is_not_text():
    exc = caught([dict(A, front=["Qs", "Qh", 7]), B])
    assert messages(exc) == (
        "Anna's front holds something that is not a card: 7",
        "Annas topprad innehåller något som inte är ett kort: 7",
    )


@pytest.mark.parametrize(
    ("player", "row", "cards", "english", "swedish"),
    [
        (
            1,
            "front",
            "Qs Qh",
            "Anna's front has 2 cards; it needs 3",
            "Annas topprad har 2 kort; den behöver 3",
        ),
        (
            2,
            "back",
            "9h",
            "Bo's back has 1 card; it needs 5",
            "Bos bottenrad har 1 kort; den behöver 5",
        ),
        (
            3,
            "middle",
            "",
            "Cia's middle has 0 cards; it needs 5",
            "Cias mittrad har 0 kort; den behöver 5",
        ),
        (
            2,
            "middle",
            "Js Jh 5d 4c 3c 2c",
            "Bo's middle has 6 cards; it needs 5",
            "Bos mittrad har 6 kort; den behöver 5",
        ),
    ],
)
def test_wrong_number_of_cards(player, row, cards, english, swedish):
    boards = [dict(A), dict(B), dict(C)]
    boards[player - 1][row] = cards
    assert messages(caught(boards)) == (english, swedish)


def test_missing_row():
    c = {"front": C["front"], "back": C["back"]}
    assert messages(caught([A, B, c])) == ("Cia's middle is missing", "Cias mittrad saknas")


def test_row_of_the_wrong_type():
    assert messages(caught([dict(A, back=12345), B])) == (
        'Anna\'s back must be cards like "As Kd Qh"',
        "Annas bottenrad måste vara kort som ”As Kd Qh”",
    )


def test_board_not_a_mapping():
    assert messages(caught([A, "Qs Qh"])) == (
        "The cards of Bo must be given as front, middle and back",
        "Korten för Bo måste anges som toppen, mitten och botten",
    )


def test_fantasyland_not_yes_or_no():
    assert messages(caught([dict(A, fantasyland="yes"), B])) == (
        "Fantasyland for Anna must be yes or no, not 'yes'",
        "Fantasyland för Anna måste vara ja eller nej, inte 'yes'",
    )


def test_fantasyland_streak():
    exc = caught([A, dict(B, fantasyland=True, fantasyland_streak=1.0)])
    assert messages(exc) == (
        "The Fantasyland streak of Bo must be a whole number, not 1.0",
        "Antalet Fantasyland-händer i rad för Bo måste vara ett heltal, inte 1.0",
    )
    exc = caught([dict(A, fantasyland=True, fantasyland_streak=0), B])
    assert messages(exc) == (
        "The Fantasyland streak of Anna must be 1 or more in Fantasyland, not 0",
        "Antalet Fantasyland-händer i rad för Anna måste vara minst 1 i Fantasyland, inte 0",
    )


def test_number_of_players():
    assert messages(caught([A]), ["Anna"]) == (
        "A hand needs 2 or 3 players, not 1",
        "En hand behöver 2 eller 3 spelare, inte 1",
    )


def test_boards_that_cannot_be_read():
    class Weird(dict):
        def __getitem__(self, key):
            raise RuntimeError("boom")

    expected = ("The hand's boards could not be read", "Handens kort kunde inte läsas")
    assert messages(caught(None)) == expected
    assert messages(caught([Weird(A), B])) == expected


@pytest.mark.parametrize(
    ("rules", "english", "swedish"),
    [
        (
            {"royalties": "martian"},
            "The rules setting royalties must be one of us, russian, not 'martian'",
            "Regelinställningen royalties måste vara en av us, russian, inte 'martian'",
        ),
        (
            {"colour": "red"},
            "Unknown rules setting 'colour'",
            "Okänd regelinställning 'colour'",
        ),
        ("us", "The rules settings could not be read", "Regelinställningarna kunde inte läsas"),
    ],
)
def test_bad_rules(rules, english, swedish):
    assert messages(caught([A, B], rules=rules)) == (english, swedish)


def test_the_active_language_is_followed():
    exc = caught([A, dict(B, middle="Js Jh 5d 4c Xx")])
    with override("sv"):
        assert invalid_hand_message(exc, ["Anna", "Björk"]) == "Okänt kort ”Xx” i Björks mittrad"
    with override("en"):
        assert (
            invalid_hand_message(exc, ["Anna", "Björk"]) == 'Unknown card "Xx" in Björk\'s middle'
        )


def test_unknown_codes_fall_back_to_the_english_text():
    assert messages(InvalidHand("Something odd")) == ("Something odd", "Something odd")
    exc = InvalidHand("player 1 did a new thing", code="new_thing", player=1)
    assert messages(exc) == ("player 1 did a new thing", "player 1 did a new thing")


def test_a_player_without_a_name_falls_back_to_the_english_text():
    exc = caught([A, B, dict(C, back="Ts Tc 7s 7h Qs")])
    assert (
        messages(exc, ["Anna", "Bo"])
        == ("Card Q♠ appears twice: player 1 front and player 3 back",) * 2
    )


def test_a_plain_value_error_gives_its_text():
    assert messages(ValueError("odd")) == ("odd", "odd")
