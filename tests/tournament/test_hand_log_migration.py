"""Migration 0015 and backups: a hand's first version is its "hand recorded" line.

Hands recorded before 0015 keep their AuditEntry as their line (no second line from the
version); hands recorded since have none, and migrating back writes one for each. A
backup holds every line as an entry, and its restore shows each line once.
"""

import uuid

import pytest

from tests.tournament.conftest import log_lines, play_named, single_table
from tests.tournament.test_audit_migration import leaves, migrate
from tournament import backups
from tournament.models import AuditEntry, HandVersion, Tournament

BEFORE = [("tournament", "0014_seat_caches_in_table")]


@pytest.mark.django_db(transaction=True)
def test_the_log_shows_each_hand_once_across_the_migration_both_ways(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 6, "Bo": -4, "Cia": -2}, actor=td_user)
    first = HandVersion.objects.get()
    try:
        # Back at 0014, hand 1 has the entry the older code wrote for it; forward again.
        migrate(BEFORE)
        migrate(leaves())
        first.refresh_from_db()
        assert first.has_audit_entry
        table.refresh_from_db()
        play_named(table, {"Anna": -1, "Bo": 5, "Cia": -4})
        hand_lines = [
            (line.params["hand"], line.actor_label)
            for line in log_lines(tournament)
            if line.action == "hand.record"
        ]
        assert hand_lines == [(1, "director"), (2, "system")]
        assert AuditEntry.objects.filter(action="hand.record").count() == 1

        # Back to 0014: hand 2 gets the entry the older code's log reads.
        apps = migrate(BEFORE)
        Entry = apps.get_model("tournament", "AuditEntry")
        written = Entry.objects.filter(action="hand.record").order_by("id").last()
        second = apps.get_model("tournament", "HandVersion").objects.get(hand__number=2)
        assert (written.params, written.actor_label, written.at) == (
            {"level": 1, "table": 1, "hand": 2, "mode": "points"},
            "system",
            second.created_at,
        )
        assert written.after == {
            "hand": 2,
            "mode": "points",
            "results": {
                "Anna": {"points": -1, "fantasyland_next": False},
                "Bo": {"points": 5, "fantasyland_next": False},
                "Cia": {"points": -4, "fantasyland_next": False},
            },
        }
    finally:
        migrate(leaves())


@pytest.mark.django_db
def test_a_backup_holds_every_hand_line_and_its_restore_shows_each_once(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 6, "Bo": -4, "Cia": -2}, actor=td_user)
    play_named(table, {"Anna": -1, "Bo": 5, "Cia": -4})
    data = backups.export_tournament(tournament)
    assert [(e["action"], e["actor_label"]) for e in data["audit"]][-3:] == [
        ("draw.create", "director"),
        ("hand.record", "director"),
        ("hand.record", "system"),
    ]
    assert data["audit"][-1]["params"] == {"level": 1, "table": 1, "hand": 2, "mode": "points"}
    assert data["audit"][-1]["summary"] == "Level 1 table 1: hand 2 (points)"

    data["settings"]["name"] = "Copy"
    for hand in data["levels"][0]["draws"][0]["tables"][0]["hands"]:
        hand["versions"][0]["idempotency_key"] = str(uuid.uuid4())
    copy = backups.import_tournament(data, actor=td_user)
    assert Tournament.objects.count() == 2
    restored = [(line.action, line.params) for line in log_lines(copy)]
    original = [(line.action, line.params) for line in log_lines(tournament)]
    assert restored[:-1] == original
    assert restored[-1][0] == "tournament.import"
    # The file's lines came back as entries: the versions are not a second line.
    assert set(
        HandVersion.objects.filter(hand__table__level__tournament=copy).values_list(
            "has_audit_entry", flat=True
        )
    ) == {True}
