import pytest

from tests.tournament.conftest import play, single_table
from tournament.models import AuditEntry, Hand, Player, Tournament

pytestmark = pytest.mark.django_db


def test_nothing_can_be_deleted(make_tournament, td_user):
    tournament = make_tournament(3)
    table = single_table(tournament, td_user)
    play(table, 1, 0, -1)
    with pytest.raises(PermissionError):
        Hand.objects.get().delete()
    with pytest.raises(PermissionError):
        Player.objects.all().delete()
    with pytest.raises(PermissionError):
        Tournament.objects.get().delete()
    with pytest.raises(PermissionError):
        AuditEntry.objects.all().delete()
    assert Hand.objects.count() == 1


def test_audit_entries_cannot_be_changed(make_tournament, td_user):
    make_tournament(3)
    entry = AuditEntry.objects.filter(action="player.register").first()
    entry.summary = "rewritten"
    with pytest.raises(PermissionError):
        entry.save()


def test_every_change_leaves_an_audit_entry_with_who(make_tournament, td_user):
    tournament = make_tournament(3)
    table = single_table(tournament, td_user)
    play(table, 1, 0, -1, actor=td_user)
    actions = list(AuditEntry.objects.order_by("id").values_list("action", "actor_label"))
    assert actions == [
        ("tournament.create", "director"),
        ("player.register", "director"),
        ("player.register", "director"),
        ("player.register", "director"),
        ("draw.create", "director"),
        ("hand.record", "director"),
    ]
