"""Backups that write themselves: the tournament's JSON backup, during play, on disk.

When a level closes, and while hands are being recorded once every
settings.BACKUP_MINUTES, the tournament's whole history (the same JSON as the TD's
"Download the backup", docs/export-format.md) is written to
settings.BACKUP_DIR/<tournament-id>-<name>/; the newest settings.BACKUP_KEEP files are
kept. Each file is written beside its final name and renamed into place after an fsync,
so a crash (or a full disk) leaves the last complete backup and at most a stray
`.partial` file, never a half backup under a backup's name; the next backup removes such
a file once it is STALE_PARTIAL old (one being written by another worker is younger).

The backup is written after the change's transaction commits, from what was committed;
a backup that cannot be written is logged and never undoes or fails the change.
"""

import json
import logging
import os
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from tournament.models import Tournament
from tournament.services.backup_export import export_tournament

log = logging.getLogger(__name__)
SUFFIX = ".json"
PARTIAL = ".partial"
# A `.partial` file this old is a crash's leftover: a backup is written in about a second.
STALE_PARTIAL = timedelta(minutes=10)

# When each tournament's next backup falls due, as this process last looked: a hand before
# then skips the look (a query and a directory listing, 1 ms of a 5-13 ms hand,
# docs/performance.md). Another worker's backup only puts the moment later, so a hand
# never misses a backup that is due; keyed by the folder too (a test's, a restore's).
_due_at = {}


@dataclass(frozen=True)
class BackupFile:
    path: Path
    written_at: datetime


def enabled():
    return bool(settings.BACKUP_DIR)


def while_hands():
    """Whether hands write backups too (every BACKUP_MINUTES); otherwise only a level's
    close does (DJANGO_BACKUP_MINUTES=0)."""
    return enabled() and settings.BACKUP_MINUTES > 0


def folder(tournament):
    """Where the tournament's backups go: one folder per tournament, named for a person."""
    name = slugify(tournament.name)[:60] or "tournament"
    return Path(settings.BACKUP_DIR) / f"{tournament.pk}-{name}"


def backups(tournament):
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


def latest(tournament):
    """The newest complete backup of the tournament, or None."""
    if not enabled():
        return None
    found = backups(tournament)
    return found[0] if found else None


def write_backup(tournament):
    """Write the tournament's backup now (atomically) and prune to the newest BACKUP_KEEP."""
    target_dir = folder(tournament)
    target_dir.mkdir(parents=True, exist_ok=True)
    text = json.dumps(export_tournament(tournament), ensure_ascii=False, indent=1) + "\n"
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
    target = target_dir / f"backup-{stamp}-{os.getpid()}{SUFFIX}"
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


def _remove_stale_partials(target_dir):
    """Remove what a crash left of a backup being written (never a complete backup)."""
    too_old = (datetime.now(UTC) - STALE_PARTIAL).timestamp()
    for path in target_dir.glob(f"*{PARTIAL}"):
        try:
            if path.stat().st_mtime < too_old:
                path.unlink()
        except FileNotFoundError:
            pass  # another worker removed it (or renamed it into place) meanwhile


def _sync_directory(path):
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


def _write_quietly(tournament_id, *, only_if_due):
    try:
        tournament = Tournament.objects.get(pk=tournament_id)
        if only_if_due:
            newest = latest(tournament)
            if newest is not None and _every(newest.written_at) > timezone.now():
                _due_at[_key(tournament_id)] = _every(newest.written_at)
                return
        write_backup(tournament)
        _due_at[_key(tournament_id)] = _every(timezone.now())
    except Exception:
        # The change is committed and stays; the TD's page shows how old the last backup is.
        log.exception("The automatic backup of tournament %s could not be written.", tournament_id)


def _every(moment):
    return moment + timedelta(minutes=settings.BACKUP_MINUTES)


def _key(tournament_id):
    return (str(settings.BACKUP_DIR), tournament_id)


def after_hand(tournament_id):
    """Called by the services that record or correct a hand, inside their transaction."""
    if not while_hands():
        return
    due_at = _due_at.get(_key(tournament_id))
    if due_at is not None and timezone.now() < due_at:
        return  # a backup of less than BACKUP_MINUTES ago is on disk
    transaction.on_commit(lambda: _write_quietly(tournament_id, only_if_due=True))


def after_level_closed(tournament_id):
    """Called by the service that closes a level, inside its transaction."""
    if enabled():
        transaction.on_commit(lambda: _write_quietly(tournament_id, only_if_due=False))
