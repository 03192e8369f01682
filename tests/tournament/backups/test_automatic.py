"""Backups that write themselves during play (tournament/backups/automatic.py)."""

import io
import json
import os
import time
from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from django.core.management import call_command
from django.utils import timezone

from tests.tournament.conftest import play, single_table
from tournament.backups import automatic
from tournament.models import Tournament
from tournament.services import draws, hands

pytestmark = pytest.mark.django_db


def files(tournament):
    folder = automatic.folder(tournament)
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_the_first_hand_writes_a_backup_then_one_every_few_minutes(
    backup_dir, make_tournament, td_user, django_capture_on_commit_callbacks
):
    tournament = make_tournament(players=3, name="Vårcupen Göteborg")
    table = single_table(tournament, td_user)
    with django_capture_on_commit_callbacks(execute=True):
        play(table, 6, -6, 0, actor=td_user)
    assert len(files(tournament)) == 1
    assert automatic.folder(tournament).name == f"{tournament.pk}-varcupen-goteborg"

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        play(table, 1, -1, 0, actor=td_user)  # at once: not due yet
    assert len(files(tournament)) == 1
    assert callbacks == []  # not even a look at the folder: this process knows when it is due

    later = timezone.now() + timedelta(minutes=5)
    moved = mock.patch("django.utils.timezone.now", return_value=later)
    with moved, django_capture_on_commit_callbacks(execute=True):
        play(table, 2, -2, 0, actor=td_user)
    assert len(files(tournament)) == 2
    newest = json.loads(automatic.latest(tournament).path.read_text(encoding="utf-8"))
    hands_in_it = newest["levels"][0]["draws"][0]["tables"][0]["hands"]
    assert [h["number"] for h in hands_in_it] == [1, 2, 3]


def test_a_backup_another_worker_wrote_puts_the_next_one_later(
    backup_dir, make_tournament, td_user, django_capture_on_commit_callbacks
):
    """Two workers: each looks once, when it believes a backup due; one written meanwhile by
    the other is found on disk, and none is written twice within the minutes."""
    tournament = make_tournament(players=3)
    table = single_table(tournament, td_user)
    with django_capture_on_commit_callbacks(execute=True):
        play(table, 6, -6, 0, actor=td_user)
    assert len(files(tournament)) == 1
    automatic._due_at.clear()  # this hand comes to a worker that has not looked yet
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        play(table, 1, -1, 0, actor=td_user)
    assert len(callbacks) == 1 and len(files(tournament)) == 1  # looked, found it recent
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        play(table, 2, -2, 0, actor=td_user)
    assert callbacks == []  # and now knows when the next is due


def test_nothing_is_written_before_the_transaction_commits(
    backup_dir, make_tournament, td_user, django_capture_on_commit_callbacks
):
    tournament = make_tournament(players=3)
    table = single_table(tournament, td_user)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        play(table, 6, -6, 0, actor=td_user)
    assert files(tournament) == []
    assert len(callbacks) == 1


def test_closing_a_level_always_writes_one(
    backup_dir, make_tournament, td_user, django_capture_on_commit_callbacks
):
    tournament = make_tournament(players=3, min_hands=1)
    table = single_table(tournament, td_user)
    with django_capture_on_commit_callbacks(execute=True):
        play(table, 6, -6, 0, actor=td_user)
    assert len(files(tournament)) == 1
    with django_capture_on_commit_callbacks(execute=True):
        draws.advance(tournament=tournament, actor=td_user)  # one table: the champion
    assert len(files(tournament)) == 2
    newest = json.loads(automatic.latest(tournament).path.read_text(encoding="utf-8"))
    assert newest["levels"][0]["closed_at"] is not None


def test_only_the_newest_are_kept(backup_dir, make_tournament):
    tournament = make_tournament(players=3)
    written = []
    for minutes_ago in (40, 30, 20, 10, 0):
        path = automatic.write_backup(tournament)
        os.utime(path, (time.time() - minutes_ago * 60,) * 2)
        written.append(path.name)
    automatic.write_backup(tournament)  # prunes to BACKUP_KEEP = 3
    kept = files(tournament)
    assert len(kept) == 3
    assert written[-1] in kept and written[-2] in kept
    assert written[0] not in kept and written[1] not in kept


def test_a_crash_while_writing_leaves_the_last_complete_backup(
    backup_dir, make_tournament, monkeypatch
):
    tournament = make_tournament(players=3)
    first = automatic.write_backup(tournament)
    before = first.read_text(encoding="utf-8")

    def disk_full(descriptor):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(automatic.os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space left"):
        automatic.write_backup(tournament)
    assert files(tournament) == [first.name]  # no half file, not even a .partial
    assert first.read_text(encoding="utf-8") == before
    assert automatic.latest(tournament).path == first


def test_a_stray_partial_file_is_never_taken_for_a_backup(backup_dir, make_tournament):
    tournament = make_tournament(players=3)
    complete = automatic.write_backup(tournament)
    (automatic.folder(tournament) / ".backup-x.partial").write_text('{"format": "pofc', "utf-8")
    assert automatic.latest(tournament).path == complete


def test_a_backup_that_cannot_be_written_never_fails_the_hand(
    settings, tmp_path, make_tournament, td_user, django_capture_on_commit_callbacks, caplog
):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", "utf-8")
    settings.BACKUP_DIR = str(blocker)
    tournament = make_tournament(players=3)
    table = single_table(tournament, td_user)
    with django_capture_on_commit_callbacks(execute=True):
        recorded = play(table, 6, -6, 0, actor=td_user)
    assert recorded.created
    table.refresh_from_db()
    assert table.hands_played == 1
    assert "could not be written" in caplog.text


def test_no_backup_folder_set_writes_nothing(
    settings, make_tournament, td_user, django_capture_on_commit_callbacks
):
    settings.BACKUP_DIR = ""
    tournament = make_tournament(players=3)
    table = single_table(tournament, td_user)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        play(table, 6, -6, 0, actor=td_user)
    assert callbacks == []
    assert automatic.latest(tournament) is None


@pytest.mark.django_db(transaction=True)
def test_restore_drill_the_latest_backup_into_an_empty_database_matches(
    backup_dir, make_tournament, td_user, django_user_model
):
    tournament = make_tournament(players=5, min_hands=2, name="Drill")
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="drill")
    for table in level.tables.order_by("number"):
        seats = table.seats.count()
        for _ in range(2):
            play(table, *([4, -4, 0][:seats] if seats == 3 else [3, -3]), actor=td_user)
    first = level.tables.order_by("number").first()
    hand = first.hands.get(number=1)
    hands.correct_hand(
        hand=hand,
        actor=td_user,
        reason="misread",
        based_on_version=1,
        points=dict(enumerate([5, -5, 0][:3])),
    )
    draws.advance(tournament=tournament, actor=td_user)
    latest = automatic.latest(tournament)
    saved = json.loads(latest.path.read_text(encoding="utf-8"))

    call_command("flush", "--noinput")
    assert not Tournament.objects.exists()
    # A restore starts from a fresh database in which the TD made their login again.
    django_user_model.objects.create_user("director", password="td-pass-123", is_staff=True)
    call_command("import_tournament", str(latest.path), stdout=io.StringIO())
    restored = Tournament.objects.get()
    out = io.StringIO()
    call_command("export_tournament", str(restored.pk), stdout=out)
    again = json.loads(out.getvalue())
    for data in (saved, again):
        data.pop("exported_at", None)
    # The restored history is the backup's, plus the import itself in the audit log.
    restored_audit, saved_audit = again.pop("audit"), saved.pop("audit")
    assert again == saved
    assert [e for e in restored_audit if e["action"] != "tournament.import"] == saved_audit
    assert [e["action"] for e in restored_audit].count("tournament.import") == 1


def test_the_tds_pages_say_when_and_where_the_last_backup_was_written(
    backup_dir, make_tournament, td_client, td_user
):
    tournament = make_tournament(players=3, name="Cup")
    url = f"/td/{tournament.pk}/players/"
    html = td_client.get(url).content.decode()
    assert "No automatic backup yet" in html
    assert str(automatic.folder(tournament)) in html

    path = automatic.write_backup(tournament)
    then = time.time() - 3 * 60
    os.utime(path, (then, then))
    html = td_client.get(url).content.decode()
    written = timezone.localtime(datetime.fromtimestamp(then, UTC))
    assert f"Last automatic backup: {written:%H:%M} (3\xa0minutes ago)" in html
    assert str(path) in html

    td_client.cookies["django_language"] = "sv"
    html = td_client.get(url).content.decode()
    assert f"Senaste automatiska säkerhetskopia: {written:%H:%M} (för 3\xa0minuter sedan)" in html


def test_without_a_backup_folder_the_pages_say_nothing_of_backups(
    settings, make_tournament, td_client
):
    settings.BACKUP_DIR = ""
    tournament = make_tournament(players=3)
    html = td_client.get(f"/td/{tournament.pk}/players/").content.decode()
    assert "automatic backup" not in html


def test_without_backups_while_hands_the_page_says_the_first_comes_with_a_levels_close(
    backup_dir, settings, make_tournament, td_client, td_user, django_capture_on_commit_callbacks
):
    settings.BACKUP_MINUTES = 0  # DJANGO_BACKUP_MINUTES=0: only a level's close writes one
    tournament = make_tournament(players=3, name="Cup", min_hands=1)
    table = single_table(tournament, td_user)
    url = f"/td/{tournament.pk}/players/"
    html = td_client.get(url).content.decode()
    assert "No automatic backup yet: the first is written when a level closes." in html
    assert str(automatic.folder(tournament)) in html  # under "Where it is"
    assert "with the first hand" not in html
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        play(table, 6, -6, 0, actor=td_user)
    assert callbacks == [] and files(tournament) == []  # true: the hand wrote none
    td_client.cookies["django_language"] = "sv"
    html = td_client.get(url).content.decode()
    assert "den första skrivs när en nivå stängs." in html
    with django_capture_on_commit_callbacks(execute=True):
        draws.advance(tournament=tournament, actor=td_user)
    assert len(files(tournament)) == 1


def test_the_next_backup_removes_what_a_crash_left_but_not_one_being_written(
    backup_dir, make_tournament
):
    tournament = make_tournament(players=3)
    folder = automatic.folder(tournament)
    folder.mkdir(parents=True)
    crashed = folder / ".backup-crashed.partial"
    crashed.write_text('{"format": "pofc', "utf-8")
    an_hour_ago = time.time() - 3600
    os.utime(crashed, (an_hour_ago, an_hour_ago))
    being_written = folder / ".backup-another-worker.partial"  # by another worker, now
    being_written.write_text('{"format": "pofc', "utf-8")
    written = automatic.write_backup(tournament)
    assert not crashed.exists()
    assert being_written.exists()
    assert sorted(p.name for p in folder.iterdir()) == sorted([written.name, being_written.name])
