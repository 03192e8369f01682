"""The automatic backup catches up with what was recorded: every change asks for one, the
newest is never more than BACKUP_MINUTES behind (a reviewer's room went quiet after a hand
and its newest backup lacked two hands and a penalty for good), and the TD's pages say how
many changes are not in it yet, and why none can be written."""

import io
import json
import time
from datetime import timedelta
from unittest import mock

import pytest
from django.core.management import call_command
from django.utils import timezone

from tests.tournament.conftest import play, single_table
from tournament.audit.reading import audit_entries
from tournament.backups import automatic
from tournament.models import Penalty
from tournament.services import penalties, registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def timers(settings):
    """The catch-ups a server would start, kept instead of started: [(delay, function)]."""
    settings.BACKUP_CATCH_UP_TIMERS = True
    started = []
    with mock.patch.object(automatic, "_start_timer", lambda d, f: started.append((d, f))):
        yield started


def hands_in(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    return [h["number"] for h in data["levels"][0]["draws"][0]["tables"][0]["hands"]]


def in_minutes(minutes):
    return mock.patch(
        "django.utils.timezone.now", return_value=timezone.now() + timedelta(minutes=minutes)
    )


def test_hands_after_a_backup_are_written_by_the_catch_up(
    backup_dir, make_tournament, td_user, django_capture_on_commit_callbacks
):
    tournament = make_tournament(players=3)
    table = single_table(tournament, td_user)
    with django_capture_on_commit_callbacks(execute=True):
        play(table, 6, -6, 0, actor=td_user)
    first = automatic.latest(tournament)
    assert hands_in(first.path) == [1]
    # The file says how many changes it holds: the lines of the tournament's audit log then
    # (5 entries: created, 3 players, the draw; and the hand).
    assert first.changes == 6 == audit_entries(tournament).count()
    with django_capture_on_commit_callbacks(execute=True):
        play(table, 1, -1, 0, actor=td_user)
        play(table, 2, -2, 0, actor=td_user)
    assert automatic.latest(tournament) == first  # not due: the room goes quiet
    assert automatic.waiting_changes(tournament, first) == 2

    assert automatic.catch_up(tournament.pk) is None  # too early: the minutes are not up
    with in_minutes(5):
        written = automatic.catch_up(tournament.pk)
    assert written is not None and hands_in(written) == [1, 2, 3]
    assert automatic.waiting_changes(tournament, automatic.latest(tournament)) == 0
    with in_minutes(11):
        assert automatic.catch_up(tournament.pk) is None  # nothing new: nothing written
    assert len(automatic.backups(tournament)) == 2


def test_a_penalty_is_a_change_the_backup_takes_too(
    backup_dir, make_tournament, td_user, django_capture_on_commit_callbacks
):
    tournament = make_tournament(players=3)
    table = single_table(tournament, td_user)
    with django_capture_on_commit_callbacks(execute=True):
        play(table, 6, -6, 0, actor=td_user)
    player = table.seats.get(position=0).player
    with in_minutes(6), django_capture_on_commit_callbacks(execute=True):
        penalties.give_penalty(
            tournament=tournament, player=player, kind=Penalty.Kind.TIMEOUT, actor=td_user
        )
    newest = json.loads(automatic.latest(tournament).path.read_text(encoding="utf-8"))
    assert [(p["player"], p["points"]) for p in newest["penalties"]] == [(player.number, 10)]


def test_a_change_before_the_minutes_end_starts_one_catch_up_per_process(
    backup_dir, timers, make_tournament, td_user, django_capture_on_commit_callbacks
):
    tournament = make_tournament(players=3)
    table = single_table(tournament, td_user)
    with django_capture_on_commit_callbacks(execute=True):
        play(table, 6, -6, 0, actor=td_user)
    assert timers == []  # written at once: nothing waits
    with django_capture_on_commit_callbacks(execute=True):
        play(table, 1, -1, 0, actor=td_user)
        play(table, 2, -2, 0, actor=td_user)
    assert len(timers) == 1  # one catch-up for both hands
    delay, run = timers[0]
    assert 5 * 60 - 5 < delay <= 5 * 60 + 1
    # The timer's thread runs the tournament's catch-up on a connection of its own (here,
    # the test's: its own would not see the test's transaction), closed after.
    with (
        mock.patch.object(automatic, "catch_up") as caught_up,
        mock.patch.object(automatic, "close_old_connections"),
        mock.patch.object(automatic.connections, "close_all") as closed,
    ):
        run()
    caught_up.assert_called_once_with(tournament.pk)
    closed.assert_called_once_with()
    with in_minutes(5):
        automatic.catch_up(tournament.pk)
    assert hands_in(automatic.latest(tournament).path) == [1, 2, 3]


def test_a_catch_up_that_cannot_write_tries_again_later(
    backup_dir, timers, make_tournament, td_user
):
    tournament = make_tournament(players=3)
    single_table(tournament, td_user)
    with mock.patch.object(automatic, "write_backup", side_effect=OSError(28, "No space")):
        assert automatic.catch_up(tournament.pk) is None
    assert len(timers) == 1 and timers[0][0] > 4 * 60
    assert automatic.catch_up(tournament.pk) is not None  # the disk has room again


def test_at_shutdown_every_tournament_with_changes_waiting_is_written(
    backup_dir, make_tournament, td_user, django_capture_on_commit_callbacks
):
    first = make_tournament(players=3, name="First Cup")
    table = single_table(first, td_user)
    second = make_tournament(players=3, name="Second Cup")
    with django_capture_on_commit_callbacks(execute=True):
        play(table, 6, -6, 0, actor=td_user)
    with django_capture_on_commit_callbacks(execute=True):
        play(table, 1, -1, 0, actor=td_user)
    assert hands_in(automatic.latest(first).path) == [1]
    written = automatic.catch_up_all()  # at once, however recent the newest backup
    # The first's two hands, the second's registrations (no backup of it yet).
    assert sorted(p.parent for p in written) == sorted(
        [automatic.folder(first), automatic.folder(second)]
    )
    assert hands_in(automatic.latest(first).path) == [1, 2]


def test_a_renamed_tournament_takes_its_backups_folder_along(
    backup_dir, make_tournament, td_user, django_capture_on_commit_callbacks
):
    """A reviewer renamed "Friday Cup" and the TD's page said "No automatic backup yet", the
    backups left in the old folder; a folder found by the id alone would take another
    tournament's of the same id (a restore's copied folder) and prune them."""
    tournament = make_tournament(players=3, name="Friday Cup")
    path = automatic.write_backup(tournament)
    assert path.parent.name == f"{tournament.pk}-friday-cup"
    with django_capture_on_commit_callbacks(execute=True):
        registration.rename_tournament(
            tournament=tournament, actor=td_user, name="Friday Cup Final"
        )
    tournament.refresh_from_db()
    assert automatic.folder(tournament).name == f"{tournament.pk}-friday-cup-final"
    assert not path.parent.exists()
    assert automatic.latest(tournament).path.name == path.name
    # Another tournament's folder of the same id (copied from another laptop) is not taken.
    stranger = backup_dir / f"{tournament.pk}-other-cup"
    stranger.mkdir()
    (stranger / "backup-20260101-000000-000000-1-c3.json").write_text("{}")
    assert automatic.latest(tournament).path.parent == automatic.folder(tournament)


def test_settings_that_rename_a_tournament_take_its_folder_along(
    backup_dir, make_tournament, td_user, django_capture_on_commit_callbacks
):
    tournament = make_tournament(players=3, name="Spring Cup")
    path = automatic.write_backup(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        registration.update_settings(tournament=tournament, actor=td_user, name="Spring Open")
    tournament.refresh_from_db()
    assert automatic.latest(tournament).path.name == path.name
    assert automatic.folder(tournament).name == f"{tournament.pk}-spring-open"


def test_the_tds_pages_say_how_many_changes_wait_and_when_they_are_late(
    backup_dir, make_tournament, td_client, td_user, django_capture_on_commit_callbacks
):
    tournament = make_tournament(players=3)
    table = single_table(tournament, td_user)
    url = f"/td/{tournament.pk}/players/"
    with django_capture_on_commit_callbacks(execute=True):
        play(table, 6, -6, 0, actor=td_user)
    html = td_client.get(url).content.decode()
    assert "ago), with every change" in html
    with django_capture_on_commit_callbacks(execute=True):
        play(table, 1, -1, 0, actor=td_user)
        play(table, 2, -2, 0, actor=td_user)
    due = timezone.localtime(automatic.latest(tournament).written_at + timedelta(minutes=5))
    html = td_client.get(url).content.decode()
    assert f"2 changes since: in the next backup, by {due:%H:%M}." in html
    assert "td-backup-alert" not in html
    with in_minutes(7):
        html = td_client.get(url).content.decode()
    assert "2 changes are not in it, and their backup is late" in html
    assert "td-backup-alert" in html
    td_client.cookies["django_language"] = "sv"
    with in_minutes(7):
        html = td_client.get(url).content.decode()
    assert "2 ändringar finns inte i den, och deras säkerhetskopia är sen" in html


def test_a_read_only_folder_or_a_full_disk_is_said_on_the_tds_pages(
    backup_dir, make_tournament, td_client
):
    tournament = make_tournament(players=3)
    url = f"/td/{tournament.pk}/players/"
    with mock.patch.object(automatic.os, "access", return_value=False):
        html = td_client.get(url).content.decode()
    assert "Backups cannot be written: the folder" in html and "is read-only or missing" in html
    full = mock.Mock(free=10 * 1024 * 1024)
    with mock.patch.object(automatic.shutil, "disk_usage", return_value=full):
        html = td_client.get(url).content.decode()
    assert "has less than 50 MB free" in html
    html = td_client.get(url).content.decode()
    assert "td-backup-alert" not in html


def test_the_catch_up_command_writes_what_waits(
    backup_dir, make_tournament, td_user, django_capture_on_commit_callbacks
):
    tournament = make_tournament(players=3)
    table = single_table(tournament, td_user)
    with django_capture_on_commit_callbacks(execute=True):
        play(table, 6, -6, 0, actor=td_user)
    with django_capture_on_commit_callbacks(execute=True):
        play(table, 1, -1, 0, actor=td_user)
    out = io.StringIO()
    call_command("backup_catch_up", stdout=out)
    newest = automatic.latest(tournament)
    assert hands_in(newest.path) == [1, 2]
    assert out.getvalue() == f"Backup written: {newest.path}\n"
    out = io.StringIO()
    call_command("backup_catch_up", stdout=out)
    assert out.getvalue() == "Every backup holds every change: nothing to write.\n"


@pytest.mark.django_db(transaction=True)
def test_a_real_catch_up_thread_writes_the_hand_that_waited(
    backup_dir, settings, make_tournament, td_user
):
    """The catch-up as a server runs it: a timer thread, on a connection of its own, after
    the hand committed (the minutes shortened to five seconds for the test)."""
    settings.BACKUP_CATCH_UP_TIMERS = True
    tournament = make_tournament(players=3)
    table = single_table(tournament, td_user)
    with mock.patch.object(automatic, "_every", lambda moment: moment + timedelta(seconds=5)):
        play(table, 6, -6, 0, actor=td_user)
        automatic.catch_up(tournament.pk, at_once=True)  # a backup of hand 1 just now
        assert hands_in(automatic.latest(tournament).path) == [1]
        play(table, 1, -1, 0, actor=td_user)  # within the seconds: the catch-up waits
        deadline = time.monotonic() + 30
        while hands_in(automatic.latest(tournament).path) != [1, 2]:
            assert time.monotonic() < deadline, "no catch-up within 30 s"
            time.sleep(0.2)


def test_a_catch_up_after_backups_were_turned_off_writes_nothing(
    backup_dir, settings, make_tournament, td_user
):
    tournament = make_tournament(players=3)
    settings.BACKUP_DIR = ""
    assert automatic.catch_up(tournament.pk) is None
    assert not backup_dir.exists()
