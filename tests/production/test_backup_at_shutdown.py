"""A server that stops writes the backup of what its catch-up would have written: the
changes of the last minutes are in the newest backup on disk (config/gunicorn.py)."""

import json
import re

import pytest

from tests.production.conftest import SETUP
from tests.production.servers import WORKER_ARGS, stop

pytestmark = [pytest.mark.django_db(transaction=True)]

COUNT = """
from tournament.models import AuditEntry
print(AuditEntry.objects.filter(tournament_id={pk}).count())
"""


def newest(folder):
    files = sorted(folder.glob("*/backup-*.json"))
    return files[-1] if files else None


def test_stopping_the_server_writes_the_changes_waiting(deployment, tmp_path):
    backups = tmp_path / "backups"
    env = {"DJANGO_BACKUP_DIR": str(backups), "DJANGO_BACKUP_MINUTES": "5"}
    # The tournament's first change writes a backup at once; the rest of the set-up comes
    # within the minutes, and the script ends before any catch-up could run.
    made = json.loads(deployment.python(SETUP, env=env))
    changes = int(deployment.python(COUNT.format(pk=made["tournament"]), env=env))
    first = newest(backups)
    assert first is not None and changes > 1
    assert int(re.search(r"-c(\d+)\.json$", first.name).group(1)) < changes

    process, _ = deployment.start_app_server(
        env, worker_args=(*WORKER_ARGS, "--config", "python:config.gunicorn")
    )
    stop(process)  # SIGTERM: gunicorn's master stops its workers, then runs on_exit

    written = newest(backups)
    assert written != first
    assert int(re.search(r"-c(\d+)\.json$", written.name).group(1)) == changes
    data = json.loads(written.read_text(encoding="utf-8"))
    assert [p["name"] for p in data["players"]] == ["Anna", "Bo", "Cia"]
