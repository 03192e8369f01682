"""The checks a TD's change makes before its confirmation page is shown (`check_*` before
the change): a penalty from the page of a table no longer in play, a tie with no one tied
or at a closed level, a decision on a tie made from a page that showed it otherwise; and
the cost of a penalty as given, said after giving it."""

import uuid

import pytest
from django.utils import timezone

from tests.tournament.conftest import play_named, single_table
from tournament.errors import Conflict, NotAllowed
from tournament.models import Player, Table, TieSettlement
from tournament.services import draws, hands, penalties, ties
from tournament.services.penalties import PenaltyCost

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_tournament, td_user):
    return single_table(make_tournament(3, min_hands=2), td_user)


def fresh(table):
    return Table.objects.select_related("level", "draw").get(pk=table.pk)


def tie_at(table):
    """Anna and Bo on 2 after the two hands the level needs, Cia on -4: tied for first."""
    play_named(table, {"Anna": 4, "Bo": 0, "Cia": -4})
    play_named(table, {"Anna": -2, "Bo": 2, "Cia": 0})
    return [table.seats.get(player__name=name) for name in ("Anna", "Bo")]


def test_a_table_in_play_takes_a_penalty(table):
    penalties.check_table_takes_penalty(fresh(table))  # nothing refused


def test_a_redrawn_table_takes_no_penalty(table, td_user):
    draws.redraw_level(level=table.level, actor=td_user, reason="Seated wrongly", seed="b")
    with pytest.raises(NotAllowed) as refused:
        penalties.check_table_takes_penalty(fresh(table))
    assert str(refused.value) == (
        "This table is no longer in play: give the penalty at the player's current table."
    )


def test_a_table_of_a_closed_level_takes_no_penalty(table):
    closed = fresh(table)
    closed.level.closed_at = timezone.now()
    with pytest.raises(NotAllowed, match="no longer in play"):
        penalties.check_table_takes_penalty(closed)


def test_the_cost_as_given_is_the_penalty_s_own(table, td_user):
    bo = Player.objects.get(name="Bo")
    penalties.give_penalty(tournament=bo.tournament, player=bo, kind="slow", actor=td_user)
    second = penalties.give_penalty(
        tournament=bo.tournament, player=bo, kind="timeout", actor=td_user
    )
    # Bo's 2nd warning, a timeout: 10 for the timeout and 25 for a 2nd warning; not out.
    assert penalties.given_cost(second) == PenaltyCost(
        warning_number=2, points=35, disqualifies=False, table=table
    )


def test_no_tie_to_settle_before_anyone_is_tied(table):
    with pytest.raises(NotAllowed) as refused:
        ties.check_tie_to_settle(fresh(table), [])
    assert str(refused.value) == "Table 1 has no tie for first to settle."


def test_a_tie_at_a_table_in_play_can_be_settled(table):
    leaders = tie_at(table)
    ties.check_tie_to_settle(fresh(table), leaders)  # nothing refused


def test_a_tie_at_a_closed_level_is_final(table):
    leaders = tie_at(table)
    closed = fresh(table)
    closed.level.closed_at = timezone.now()
    with pytest.raises(NotAllowed) as refused:
        ties.check_tie_to_settle(closed, leaders)
    assert str(refused.value) == "This level is closed: its results are final."


def test_a_decision_from_the_page_that_showed_the_tie_open(table):
    tie_at(table)
    ties.check_decision_shown(fresh(table), None, None)  # open then, open now


def test_a_decision_from_a_page_that_showed_the_tie_open_after_it_was_decided(table, td_user):
    tie_at(table)
    bo = Player.objects.get(name="Bo")
    hands.settle_tie(table=table, actor=td_user, winner=bo, reason="High card", key=uuid.uuid4())
    settlement = TieSettlement.objects.get()
    said = "^The tie at table 1 was already decided for Bo by director at "
    with pytest.raises(Conflict, match=said):
        ties.check_decision_shown(fresh(table), settlement, None)
    ties.check_decision_shown(fresh(table), settlement, settlement.pk)  # the one shown


def test_a_decision_on_a_tie_no_longer_decided(table):
    tie_at(table)
    with pytest.raises(Conflict) as refused:
        ties.check_decision_shown(fresh(table), None, 7)
    assert str(refused.value) == "This form is out of date: reload the page and send it again."
