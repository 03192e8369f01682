"""A penalty the TD confirmed at the cost he was told, from the revisor's call: one service
(penalties.give_stated_penalty) that checks the cost again, gives the penalty and clears
the call, made once for its key. An admin action or a command gets the same."""

import uuid

import pytest

from tests.tournament.conftest import single_table
from tournament.errors import NotAllowed
from tournament.models import AuditEntry, FormSubmission, Penalty, Player, TableCall
from tournament.services import calls, penalties
from tournament.services.idempotency import AlreadyDone

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_tournament, td_user):
    return single_table(make_tournament(3), td_user)


def player(table, name):
    return Player.objects.get(tournament=table.level.tournament, name=name)


def give(table, td_user, name="Bo", *, stated=1, kind="timeout", call=None, key=None):
    return penalties.give_stated_penalty(
        tournament=table.level.tournament,
        player=player(table, name),
        kind=kind,
        stated_warning=stated,
        call=call,
        actor=td_user,
        key=key,
    )


def test_a_timeout_from_the_call_gives_the_penalty_and_clears_the_call(table, td_user):
    call = calls.call_td(table=table, kind="timeout", player=player(table, "Bo"))
    penalty = give(table, td_user, call=call.pk, key=uuid.uuid4())
    # Bo's 1st warning, a timeout: 10 points at his table.
    assert (penalty.player.name, penalty.warning_number, penalty.points) == ("Bo", 1, 10)
    assert penalty.table == table
    call.refresh_from_db()
    assert call.cleared_at is not None and call.cleared_by == td_user
    assert list(AuditEntry.objects.order_by("id").values_list("action", flat=True))[-2:] == [
        "penalty.give",
        "table.call_cleared",
    ]


def test_the_same_key_twice_gives_one_penalty(table, td_user):
    call = calls.call_td(table=table, kind="timeout", player=player(table, "Bo"))
    key = uuid.uuid4()
    first = give(table, td_user, call=call.pk, key=key)
    # Sent again: Bo's next warning would be his 2nd, yet nothing is checked or given.
    with pytest.raises(AlreadyDone) as again:
        give(table, td_user, call=call.pk, key=key)
    assert again.value.first == first
    assert Penalty.objects.count() == 1
    assert FormSubmission.objects.get(key=key).result_id == first.pk


def test_a_cost_changed_since_it_was_stated_is_refused_with_the_message(table, td_user):
    call = calls.call_td(table=table, kind="timeout", player=player(table, "Bo"))
    # Another TD warned Bo meanwhile: the confirmation stated a 1st warning, it is his 2nd.
    penalties.give_penalty(
        tournament=table.level.tournament, player=player(table, "Bo"), kind="slow", actor=td_user
    )
    key = uuid.uuid4()
    with pytest.raises(penalties.CostChanged) as refused:
        give(table, td_user, stated=1, call=call.pk, key=key)
    assert refused.value.message == (
        "The warnings of Bo changed since the cost was stated: nothing was given. "
        "Check the cost again."
    )
    # What it costs now: the 2nd warning, a timeout: 10 + 25 points.
    cost = refused.value.cost
    assert (cost.warning_number, cost.points, cost.disqualifies) == (2, 35, False)
    assert Penalty.objects.count() == 1  # the other TD's only
    assert TableCall.objects.get().cleared_at is None  # the call still waits
    assert not FormSubmission.objects.exists()  # the key can confirm the new cost
    penalty = give(table, td_user, stated=2, call=call.pk, key=key)
    assert (penalty.warning_number, penalty.points) == (2, 35)
    assert TableCall.objects.get().cleared_at is not None


def test_a_call_cleared_or_replaced_meanwhile_is_left_alone(table, td_user):
    first = calls.call_td(table=table, kind="timeout", player=player(table, "Bo"))
    calls.clear_call(table=table, actor=td_user)
    second = calls.call_td(table=table, kind="dispute", note="Row?")
    give(table, td_user, call=first.pk)
    second.refresh_from_db()
    assert second.cleared_at is None  # the dispute is still for the TD
    assert Penalty.objects.count() == 1


def test_a_call_of_another_tournament_is_not_cleared(make_tournament, td_user, table):
    other = single_table(make_tournament(3, name="Another cup"), td_user)
    theirs = calls.call_td(table=other, kind="dispute")
    give(table, td_user, call=theirs.pk)
    theirs.refresh_from_db()
    assert theirs.cleared_at is None


def test_a_refused_penalty_clears_no_call(table, td_user):
    call = calls.call_td(table=table, kind="timeout", player=player(table, "Bo"))
    for stated in (1, 2, 3):  # the 3rd warning disqualifies Bo
        give(table, td_user, kind="slow", stated=stated)
    with pytest.raises(NotAllowed, match="Bo is already disqualified"):
        give(table, td_user, kind="slow", stated=4, call=call.pk, key=uuid.uuid4())
    assert TableCall.objects.get().cleared_at is None
    assert Penalty.objects.count() == 3 and not FormSubmission.objects.exists()
