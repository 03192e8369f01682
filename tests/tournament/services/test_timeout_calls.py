"""A call that names a player (issue 19 §2): the timeout call, and the warning asked for."""

import pytest
from django.utils import translation

from tests.tournament.conftest import single_table
from tournament.audit.sentences import sentence
from tournament.errors import InvalidEntry
from tournament.models import AuditEntry, Player, TableCall
from tournament.services import calls, penalties

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
    entry = AuditEntry.objects.get(action="table.call")
    assert "player" not in entry.params and "player" not in entry.after


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


def test_the_audit_log_says_whom_the_call_names_in_both_languages(make_tournament, td_user):
    tournament = make_tournament(3)
    table = single_table(tournament, td_user)
    bo = Player.objects.get(tournament=tournament, name="Bo")
    calls.call_td(table=table, kind="timeout", player=bo)
    entry = AuditEntry.objects.get(action="table.call")
    assert sentence(entry) == "Level 1 table 1 calls the TD about Bo: Timeout (count a player)"
    with translation.override("sv"):
        assert sentence(entry) == (
            "Nivå 1 bord 1 tillkallar TL om Bo: Timeout (räkna ner en spelare)"
        )
    calls.clear_call(table=table, actor=td_user)
    calls.call_td(table=table, kind="other", player=bo, note="Acted in time")
    entry = AuditEntry.objects.filter(action="table.call").latest("id")
    assert sentence(entry) == "Level 1 table 1 calls the TD about Bo: Other (Acted in time)"
