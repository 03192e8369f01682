"""A call that names a player (issue 19 §2): the timeout call, and the warning asked for."""

import pytest

from tests.tournament.conftest import single_table
from tournament.models import AuditEntry, Player, TableCall
from tournament.services import InvalidEntry, calls, penalties

pytestmark = pytest.mark.django_db


def test_a_timeout_call_names_the_player_and_the_audit_says_who(make_tournament, td_user):
    tournament = make_tournament(3)
    table = single_table(tournament, td_user)
    bo = Player.objects.get(tournament=tournament, name="Bo")
    call = calls.call_td(table=table, kind="timeout", player=bo, actor_label="Revisor, table 1")
    call.refresh_from_db()
    assert (call.kind, call.player, call.cleared_at) == ("timeout", bo, None)
    entry = AuditEntry.objects.get(action="table.call")
    assert entry.params["player"] == "Bo" and entry.after["player"] == bo.pk


def test_a_call_without_a_player_names_nobody(make_tournament, td_user):
    table = single_table(make_tournament(3), td_user)
    call = calls.call_td(table=table, kind="dispute")
    call.refresh_from_db()
    assert call.player is None
    assert AuditEntry.objects.get(action="table.call").params["player"] == ""


def test_a_player_of_another_table_is_refused_and_nothing_is_called(make_tournament, td_user):
    tournament = make_tournament(3)
    table = single_table(tournament, td_user)
    other = make_tournament(3, name="Another cup")
    stranger = Player.objects.get(tournament=other, name="Anna")
    with pytest.raises(InvalidEntry, match="does not play at table 1"):
        calls.call_td(table=table, kind="timeout", player=stranger)
    with pytest.raises(InvalidEntry, match="does not play at table 1"):
        calls.call_td(table=table, kind="timeout", player="1; drop")
    assert not TableCall.objects.exists()


def test_a_disqualified_player_can_no_longer_be_timed(make_tournament, td_user):
    tournament = make_tournament(3)
    table = single_table(tournament, td_user)
    cia = Player.objects.get(tournament=tournament, name="Cia")
    for _ in range(3):  # the 3rd warning disqualifies: Cia leaves the table
        penalties.give_penalty(tournament=tournament, player=cia, kind="conduct", actor=td_user)
    with pytest.raises(InvalidEntry, match="does not play at table 1"):
        calls.call_td(table=table, kind="timeout", player=cia)
    assert not TableCall.objects.exists()
