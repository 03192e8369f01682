"""A hand by cards: only a player in Fantasyland (14 cards dealt, 13 placed) has a discarded
card. Anyone else's is refused with his name, nothing recorded; a Fantasyland player's is
checked; a part of a board that is no row is refused too."""

import uuid

import pytest

from tests.tournament.conftest import positions, row_counts, single_table
from tests.tournament.services.test_hands import BOARDS, record_cards
from tournament.errors import InvalidEntry
from tournament.models import HandResult
from tournament.services import hands

pytestmark = pytest.mark.django_db

NOT_IN_FANTASYLAND = (
    "Bo does not play this hand in Fantasyland, so has no discarded card: enter Bo's 13 "
    "cards in the three rows, and no discard."
)


def with_parts(name, **parts):
    """BOARDS with more parts on `name`'s board."""
    return {**BOARDS, name: {**BOARDS[name], **parts}}


@pytest.fixture
def table(make_tournament, td_user):
    return single_table(make_tournament(3), td_user)


@pytest.fixture
def anna_in_fantasyland(table):
    """Hand 1 recorded: Anna's QQ front sends her to Fantasyland for hand 2."""
    record_cards(table, BOARDS)
    return table


def refused(table, boards, message):
    before = row_counts()
    with pytest.raises(InvalidEntry) as caught:
        record_cards(table, boards)
    assert caught.value.message == message
    assert row_counts() == before


def test_a_discard_of_a_player_not_in_fantasyland_is_refused_naming_him(table):
    """Hand 1: nobody is in Fantasyland. Bo's 14th card is not dropped without a word."""
    refused(table, with_parts("Bo", discard="2h"), NOT_IN_FANTASYLAND)


def test_only_the_fantasyland_player_may_discard(anna_in_fantasyland):
    table = anna_in_fantasyland
    refused(table, with_parts("Bo", discard="2h"), NOT_IN_FANTASYLAND)
    recorded = record_cards(table, with_parts("Anna", discard="2h"))
    assert recorded.created and recorded.hand.number == 2
    anna = HandResult.objects.get(seat__player__name="Anna", version__hand__number=2)
    assert anna.in_fantasyland
    assert (anna.front, anna.middle, anna.back) == (
        "Qs Qh 2c",
        "Ks Kh 9d 8c 7s",
        "As Ad Ac 3c 3s",
    )


@pytest.mark.parametrize(
    ("discard", "message"),
    [
        ("Qs", "Anna's discarded card Qs is also placed in this hand."),  # her own front
        ("kc", "Anna's discarded card Kc is also placed in this hand."),  # Bo's back
        ("2h 3h", "Anna's discarded card must be one card, such as 2c."),
        ("ZZ", "Anna's discarded card must be one card, such as 2c."),
        (14, "Anna's discarded card must be one card, such as 2c."),
    ],
)
def test_a_fantasyland_discard_is_one_card_placed_nowhere(anna_in_fantasyland, discard, message):
    refused(anna_in_fantasyland, with_parts("Anna", discard=discard), message)


@pytest.mark.parametrize("empty", ["", None])
def test_an_empty_discard_is_no_discard(table, empty):
    """A client that sends every field, blank where nothing was typed."""
    assert record_cards(table, with_parts("Bo", discard=empty)).created


def test_a_part_of_a_board_that_is_no_row_is_refused_naming_the_player(table):
    refused(
        table,
        with_parts("Cia", kicker="2h"),
        "Cia's cards have a part “kicker”: enter the front, middle and back rows.",
    )


def test_a_correction_with_a_discard_of_a_player_not_in_fantasyland_is_refused(table, td_user):
    record_cards(table, BOARDS)
    pos = positions(table)
    boards = {pos[name]: board for name, board in with_parts("Bo", discard="2h").items()}
    boards[pos["Cia"]] = {**BOARDS["Cia"], "front": "5s 6h 7h"}  # a real change besides
    before = row_counts()
    with pytest.raises(InvalidEntry) as caught:
        hands.correct_hand(
            hand=table.hands.get(number=1),
            actor=td_user,
            reason="Cia's front was misread",
            based_on_version=1,
            boards=boards,
            idempotency_key=uuid.uuid4(),
        )
    assert caught.value.message == NOT_IN_FANTASYLAND
    assert row_counts() == before
