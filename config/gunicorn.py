"""gunicorn's settings shared by `make venue` and docker-compose
(`--config python:config.gunicorn`).

When the server stops (Ctrl+C at the venue, a container's stop), the master runs the
backups' catch-up: changes recorded in the last minutes are not left out of the newest
backup for want of the catch-up the stopped workers would have run
(tournament/backups/automatic.py).

Once a worker has loaded the app, what it loaded is set aside from the cyclic garbage
collector (`gc.freeze`): Django's modules, models and settings live as long as the worker,
and a full collection walked them all again, with every thread of the worker waiting: 50-56
ms in a worker that had served a 300-player room, 9 ms with the hook (bench/bench_gc.py;
docs/performance-log.md, "Figures (29 Nov 2026, morning …)").
"""

import gc
import subprocess
import sys
from pathlib import Path
from typing import Protocol

MANAGE = Path(__file__).resolve().parent.parent / "manage.py"


class _Log(Protocol):
    def error(self, msg: str, *args: object) -> None: ...


class _Server(Protocol):
    """What the hook uses of gunicorn's arbiter (gunicorn ships no types)."""

    log: _Log


def post_worker_init(worker: object) -> None:
    gc.collect()  # the start-up's own garbage is freed, not kept for the worker's life
    gc.freeze()


def on_exit(server: _Server) -> None:
    try:
        subprocess.run([sys.executable, str(MANAGE), "backup_catch_up"], timeout=120, check=False)
    except (OSError, subprocess.SubprocessError) as error:
        server.log.error("The backups' catch-up at shutdown failed: %s", error)
