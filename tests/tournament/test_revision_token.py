"""The polling token moves with every change a page shows, and costs one query."""

import uuid

import pytest

from tests.tournament.conftest import single_table
from tournament.selectors import revision_token
from tournament.services import calls, hands, penalties

pytestmark = pytest.mark.django_db


def test_token_moves_with_hands_penalties_and_calls(make_tournament, td_user):
    tournament = make_tournament(3)
    before_draw = revision_token(tournament.pk)
    table = single_table(tournament, td_user)
    drawn = revision_token(tournament.pk)
    hands.record_hand(
        table=table, hand_number=1, idempotency_key=uuid.uuid4(), points={0: 1, 1: 0, 2: -1}
    )
    after_hand = revision_token(tournament.pk)
    player = table.seats.first().player
    penalties.give_penalty(tournament=tournament, player=player, kind="slow", actor=td_user)
    after_penalty = revision_token(tournament.pk)
    calls.call_td(table=table, kind="dispute")
    after_call = revision_token(tournament.pk)
    tokens = [before_draw, drawn, after_hand, after_penalty, after_call]
    assert len(set(tokens)) == 5
    assert revision_token(tournament.pk) == after_call  # nothing changed: the same token


def test_unknown_tournament_has_no_token_and_one_query(django_assert_num_queries):
    with django_assert_num_queries(1):
        assert revision_token(999_999) is None
