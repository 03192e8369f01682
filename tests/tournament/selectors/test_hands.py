"""A table's recorded hands as the revisor's fix and the TD's correction read them."""

import pytest

from tests.tournament.conftest import play, single_table
from tournament.selectors.hands import first_version, hand_to_correct, last_hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_tournament, td_user):
    return single_table(make_tournament(3), td_user)


def test_no_last_hand_before_the_first(table):
    assert last_hand(table) is None


def test_the_last_hand_with_its_results_in_seat_order(table, django_assert_num_queries):
    play(table, 2, -1, -1)
    play(table, -3, 4, -1)
    table.refresh_from_db()
    with django_assert_num_queries(3):  # the hand, its current version, its results
        last = last_hand(table)
        shown = [(r.seat.position, r.points) for r in last.results]
    assert last.hand.number == 2
    assert shown == [(0, -3), (1, 4), (2, -1)]
    assert [seat.position for seat in last.seats] == [0, 1, 2]


def test_who_recorded_a_hand_first(table, td_user):
    play(table, 2, -1, -1, actor=td_user)
    version = first_version(table, 1)
    assert (version.version, version.created_by) == (1, td_user)
    assert first_version(table, 2) is None


def test_the_hand_to_correct_with_its_history(table):
    play(table, 2, -1, -1)
    table.refresh_from_db()
    assert hand_to_correct(table, 2) is None
    correction = hand_to_correct(table, 1)
    assert correction.in_play
    assert [v.version for v in correction.history] == [1]
    assert correction.current.version == 1
    assert [seat.position for seat in correction.seats] == [0, 1, 2]
    assert correction.fl_positions == []
