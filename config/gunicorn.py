"""gunicorn's settings shared by `make venue` and docker-compose
(`--config python:config.gunicorn`).

When the server stops (Ctrl+C at the venue, a container's stop), the master runs the
backups' catch-up: changes recorded in the last minutes are not left out of the newest
backup for want of the catch-up the stopped workers would have run
(tournament/services/autobackup.py).
"""

import subprocess
import sys
from pathlib import Path

MANAGE = Path(__file__).resolve().parent.parent / "manage.py"


def on_exit(server):
    try:
        subprocess.run([sys.executable, str(MANAGE), "backup_catch_up"], timeout=120, check=False)
    except (OSError, subprocess.SubprocessError) as error:
        server.log.error("The backups' catch-up at shutdown failed: %s", error)
