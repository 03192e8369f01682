"""The caches equal a recomputation from scratch of the hand history."""

import pytest

from tests.tournament.conftest import play_named, single_table
from tests.tournament.services.test_hands import BOARDS, record_cards
from tournament.models import Hand, Player, Seat, Table
from tournament.services import hands, penalties
from tournament.tables.store import recompute_table

pytestmark = pytest.mark.django_db


def snapshot(table):
    table.refresh_from_db()
    seats = {
        s.player.name: (
            s.hand_points,
            s.penalty_points,
            s.total,
            s.place,
            s.in_fantasyland,
            s.fantasyland_streak,
        )
        for s in Seat.objects.filter(table=table).select_related("player", "table")
    }
    dealt = list(Hand.objects.filter(table=table).values_list("dealer_position", flat=True))
    return (
        table.hands_played,
        table.required_hands,
        table.is_over,
        table.winner_id,
        seats,
        table.fantasyland_hands,
        table.last_dealer_position,
        table.next_dealer_position,
        dealt,
    )


def seat_caches(table):
    return snapshot(table)[4]


def test_a_hand_writes_every_seat_cache_that_moved(make_tournament, td_user):
    """A hand writes each seat's caches that moved: each value lands on its own seat."""
    table = single_table(make_tournament(3, min_hands=4), td_user)
    play_named(table, {"Anna": 6, "Bo": -2, "Cia": -4}, fantasyland_names=["Bo"])
    # (hand points, penalty points, total, place, in Fantasyland, Fantasyland hands in a row)
    assert seat_caches(table) == {
        "Anna": (6, 0, 6, 1, False, 0),
        "Bo": (-2, 0, -2, 2, True, 1),
        "Cia": (-4, 0, -4, 3, False, 0),
    }
    # Bo plays hand 2 in Fantasyland and does not stay; Cia passes Bo.
    play_named(table, {"Anna": 0, "Bo": -2, "Cia": 2})
    assert seat_caches(table) == {
        "Anna": (6, 0, 6, 1, False, 0),
        "Bo": (-4, 0, -4, 3, False, 0),
        "Cia": (-2, 0, -2, 2, False, 0),
    }


def test_recomputing_from_scratch_gives_the_same_numbers(make_tournament, td_user):
    tournament = make_tournament(3, min_hands=4)
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 6, "Bo": -3, "Cia": -3}, fantasyland_names=["Bo"])
    record_cards(table, BOARDS)
    penalties.give_penalty(
        tournament=tournament,
        player=Player.objects.get(name="Cia"),
        kind="timeout",
        actor=td_user,
    )
    play_named(table, {"Anna": -2, "Bo": 4, "Cia": -2})
    hands.correct_hand(
        hand=Hand.objects.get(table=table, number=3),
        actor=td_user,
        reason="typo",
        based_on_version=1,
        points={0: 1, 1: 1, 2: -2},
    )
    cached = snapshot(table)
    # Hand-worked: hand 1 Anna 6 Bo -3 Cia -3; hand 2 (cards) Anna 36 Bo -9 Cia -27;
    # hand 3 corrected to 1/1/-2 by seat position; Cia's timeout -10.
    # Bo's Fantasyland after hand 1 and Anna's QQ in hand 2 -> 4 + 2 = 6 hands.
    assert cached[0:3] == (3, 6, False)

    wrong = {
        "hand_points": 0,
        "penalty_points": 0,
        "total": 0,
        "place": None,
        "in_fantasyland": True,
        "fantasyland_streak": 9,
    }
    Table.objects.filter(pk=table.pk).update(
        seat_caches={str(position): wrong for position in range(3)},
        hands_played=0,
        required_hands=0,
        is_over=True,
        fantasyland_hands=0,
        last_dealer_position=None,
        next_dealer_position=None,
    )
    Hand.objects.filter(table=table).update(dealer_position=None)
    recompute_table(Table.objects.select_related("level__tournament").get(pk=table.pk))
    assert snapshot(table) == cached
