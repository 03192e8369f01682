"""Backups that write themselves: the tournament's JSON backup, during play, on disk.

Every change of state (each writes an audit entry: a hand, a penalty, a draw, a player)
announces itself (tournament/events.py), and this module's receivers ask for a backup:
written at once when the newest is BACKUP_MINUTES old, else by a catch-up at most
BACKUP_MINUTES later, so that the newest backup is never more than that behind what was
recorded, even when the room goes quiet after a hand. Closing a level writes one at once.
The tournament's whole history (the same JSON as the TD's "Download the backup",
docs/export-format.md) goes to settings.BACKUP_DIR/<tournament-id>-<name>/; the newest
settings.BACKUP_KEEP files are kept. A file's name says how many changes (audit entries) it
holds, so that the TD's pages can say how many are not in it yet.

Each file is written beside its final name and renamed into place after an fsync,
so a crash (or a full disk) leaves the last complete backup and at most a stray
`.partial` file, never a half backup under a backup's name; the next backup removes such
a file once it is STALE_PARTIAL old (one being written by another worker is younger).

The backup is written after the change's transaction commits, from what was committed; no
service calls this module. A backup that cannot be written is logged and never undoes or
fails the change, and the TD's pages say so (the changes waiting, the folder that cannot
be written).
"""

import json
import logging
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.db import close_old_connections, connections
from django.utils import timezone
from django.utils.text import slugify

from tournament.audit.reading import hands_recorded
from tournament.backups.export import export_tournament
from tournament.models import AuditEntry, Tournament

log = logging.getLogger(__name__)
SUFFIX = ".json"
PARTIAL = ".partial"
# A `.partial` file this old is a crash's leftover: a backup is written in about a second.
STALE_PARTIAL = timedelta(minutes=10)
# backup-<when>-<pid>-c<changes>.json: the changes (audit entries) the backup holds.
CHANGES = re.compile(r"-c(\d+)\.json$")
# Below this, the TD's pages warn that the backups' disk is nearly full.
LOW_DISK_BYTES = 50 * 1024 * 1024

# When each tournament's next backup falls due, as this process last looked: a hand before
# then skips the look (a query and a directory listing, 1 ms of a 5-13 ms hand,
# docs/performance-log.md). Another worker's backup only puts the moment later, so a hand
# never misses a backup that is due; keyed by the folder too (a test's, a restore's).
_due_at: dict[tuple[str, int], datetime] = {}


# The catch-ups this process has waiting, by tournament (and folder), to start one only.
_catch_up_at: dict[tuple[str, int], datetime] = {}
_catch_up_lock = threading.Lock()


@dataclass(frozen=True)
class BackupFile:
    path: Path
    written_at: datetime

    @property
    def changes(self) -> int | None:
        """How many changes (audit entries) the backup holds; None for an older name."""
        found = CHANGES.search(self.path.name)
        return int(found.group(1)) if found else None


def enabled() -> bool:
    return bool(settings.BACKUP_DIR)


def while_hands() -> bool:
    """Whether hands write backups too (every BACKUP_MINUTES); otherwise only a level's
    close does (DJANGO_BACKUP_MINUTES=0)."""
    return enabled() and settings.BACKUP_MINUTES > 0


def folder(tournament: Tournament) -> Path:
    """Where the tournament's backups go: one folder per tournament, named for a person
    (a renamed tournament's folder is renamed with it: `after_rename`)."""
    return _named_folder(tournament.pk, tournament.name)


def _named_folder(pk: int, name: str) -> Path:
    return Path(settings.BACKUP_DIR) / f"{pk}-{slugify(name)[:60] or 'tournament'}"


def backups(tournament: Tournament) -> list[BackupFile]:
    """The tournament's complete backups, newest first."""
    try:
        files = [p for p in folder(tournament).iterdir() if p.name.endswith(SUFFIX)]
    except FileNotFoundError:
        return []
    return sorted(
        (BackupFile(p, datetime.fromtimestamp(p.stat().st_mtime, UTC)) for p in files),
        key=lambda b: (b.written_at, b.path.name),
        reverse=True,
    )


def latest(tournament: Tournament) -> BackupFile | None:
    """The newest complete backup of the tournament, or None."""
    if not enabled():
        return None
    found = backups(tournament)
    return found[0] if found else None


def write_backup(tournament: Tournament) -> Path:
    """Write the tournament's backup now (atomically) and prune to the newest BACKUP_KEEP."""
    target_dir = folder(tournament)
    target_dir.mkdir(parents=True, exist_ok=True)
    data = export_tournament(tournament)
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
    target = target_dir / f"backup-{stamp}-{os.getpid()}-c{len(data['audit'])}{SUFFIX}"
    descriptor, partial = tempfile.mkstemp(dir=target_dir, prefix=".backup-", suffix=PARTIAL)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, target)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise
    _sync_directory(target_dir)
    for old in backups(tournament)[settings.BACKUP_KEEP :]:
        old.path.unlink(missing_ok=True)  # another worker may have pruned it already
    _remove_stale_partials(target_dir)
    return target


def _remove_stale_partials(target_dir: Path) -> None:
    """Remove what a crash left of a backup being written (never a complete backup)."""
    too_old = (datetime.now(UTC) - STALE_PARTIAL).timestamp()
    for path in target_dir.glob(f"*{PARTIAL}"):
        try:
            if path.stat().st_mtime < too_old:
                path.unlink()
        except FileNotFoundError:
            pass  # another worker removed it (or renamed it into place) meanwhile


def _sync_directory(path: Path) -> None:
    """Make the rename itself durable (POSIX); a no-op where directories cannot be opened."""
    try:
        descriptor = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def changes_made(tournament: Tournament) -> int:
    """How many changes the tournament has had: the lines of its audit log (its audit
    entries and the hands that are their own line), never deleted."""
    return (
        AuditEntry.objects.filter(tournament=tournament).count()
        + hands_recorded(tournament).count()
    )


def waiting_changes(tournament: Tournament, newest: BackupFile | None) -> int | None:
    """Changes recorded since `newest` was written (None when its name does not say)."""
    if newest is None or newest.changes is None:
        return None
    return max(0, changes_made(tournament) - newest.changes)


def folder_problem(tournament: Tournament) -> str | None:
    """Why backups cannot be written into the tournament's folder now, or None."""
    path = folder(tournament)
    while not path.exists() and path != path.parent:
        path = path.parent  # the folder is made with the first backup: its nearest parent
    if not os.access(path, os.W_OK | os.X_OK):
        return "read-only"
    try:
        if shutil.disk_usage(path).free < LOW_DISK_BYTES:
            return "disk-full"
    except OSError:
        return "read-only"
    return None


def _write_quietly(tournament_id: int, *, only_if_due: bool) -> None:
    try:
        tournament = Tournament.objects.get(pk=tournament_id)
        if only_if_due:
            newest = latest(tournament)
            if newest is not None and _every(newest.written_at) > timezone.now():
                _due_at[_key(tournament_id)] = _every(newest.written_at)
                _catch_up_later(tournament_id, _every(newest.written_at))
                return
        write_backup(tournament)
        _due_at[_key(tournament_id)] = _every(timezone.now())
    except Exception:
        # The change is committed and stays; the TD's page shows the changes not backed up.
        log.exception("The automatic backup of tournament %s could not be written.", tournament_id)


def catch_up(tournament_id: int, *, at_once: bool = False) -> Path | None:
    """Write the backup if changes were made since the newest (a catch-up's work); if the
    newest is recent, wait for its minutes to pass first, unless `at_once` (a server
    shutting down). Returns the file written, or None."""
    key = _key(tournament_id)
    with _catch_up_lock:
        _catch_up_at.pop(key, None)
    if not enabled():
        return None  # backups turned off since the catch-up was started
    try:
        tournament = Tournament.objects.get(pk=tournament_id)
        newest = latest(tournament)
        if newest is not None and waiting_changes(tournament, newest) == 0:
            return None
        due = _every(newest.written_at) if newest is not None else None
        if due is not None and due > timezone.now() and not at_once:
            _catch_up_later(tournament_id, due)  # another worker wrote one meanwhile
            return None
        written = write_backup(tournament)
        _due_at[key] = _every(timezone.now())
        return written
    except Exception:
        log.exception("The automatic backup of tournament %s could not be written.", tournament_id)
        _catch_up_later(tournament_id, _every(timezone.now()))  # and try again later
        return None


def catch_up_all() -> list[Path]:
    """Every tournament's catch-up now (a server shutting down): the files written."""
    if not enabled():
        return []
    pks = Tournament.objects.values_list("pk", flat=True)
    written = [catch_up(pk, at_once=True) for pk in pks]
    return [path for path in written if path is not None]


def _catch_up_later(tournament_id: int, moment: datetime) -> None:
    """A catch-up of the tournament at `moment` (a second after), one per process."""
    if not settings.BACKUP_CATCH_UP_TIMERS:
        return
    key = _key(tournament_id)
    with _catch_up_lock:
        if key in _catch_up_at:
            return
        _catch_up_at[key] = moment
    delay = max(0.0, (moment - timezone.now()).total_seconds()) + 1
    _start_timer(delay, lambda: _catch_up_in_thread(tournament_id))


def _start_timer(delay: float, function: Callable[[], object]) -> None:
    timer = threading.Timer(delay, function)
    timer.daemon = True
    timer.start()


def _catch_up_in_thread(tournament_id: int) -> None:
    close_old_connections()
    try:
        catch_up(tournament_id)
    finally:
        connections.close_all()  # this thread's own connection


def _every(moment: datetime) -> datetime:
    return moment + timedelta(minutes=settings.BACKUP_MINUTES)


def _key(tournament_id: int) -> tuple[str, int]:
    return (str(settings.BACKUP_DIR), tournament_id)


# The receivers of tournament/events.py, connected in TournamentConfig.ready(): each runs
# once the change has committed, from what was committed.


def change_wanted(tournament_id: int) -> bool:
    """Whether a change needs this process to do anything (asked at the change, in memory):
    a backup is due, or a catch-up must be started for the change to wait for."""
    if not while_hands():
        return False
    key = _key(tournament_id)
    due_at = _due_at.get(key)
    if due_at is not None and timezone.now() < due_at:
        return settings.BACKUP_CATCH_UP_TIMERS and key not in _catch_up_at
    return True


def after_change(tournament_id: int) -> None:
    """Every change of state: a backup when one is due, else a catch-up later."""
    key = _key(tournament_id)
    due_at = _due_at.get(key)
    if due_at is not None and timezone.now() < due_at:
        # A backup of less than BACKUP_MINUTES ago is on disk: this change waits for the
        # catch-up at its minutes' end (started now if this process has none waiting).
        _catch_up_later(tournament_id, due_at)
        return
    _write_quietly(tournament_id, only_if_due=True)


def enabled_for(**facts: object) -> bool:
    """Whether a rename or a level's close has a backup to move or write."""
    return enabled()


def after_rename(tournament_id: int, old_name: str) -> None:
    """A renamed tournament's backups' folder takes its new name too, so that its backups
    stay in one folder (the TD's pages show the newest; a new folder beside the old hid them)."""
    try:
        tournament = Tournament.objects.get(pk=tournament_id)
        old, new = _named_folder(tournament_id, old_name), folder(tournament)
        if old != new and old.is_dir() and not new.exists():
            old.rename(new)
    except Exception:
        log.exception("The backups folder of tournament %s could not be renamed.", tournament_id)


def after_level_closed(tournament_id: int) -> None:
    """A level's close always writes one."""
    _write_quietly(tournament_id, only_if_due=False)
