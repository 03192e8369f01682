"""A full garbage collection in a worker that has served the room, with and without
config/gunicorn.py's `post_worker_init` (`gc.freeze()` once the worker has loaded the app).

Every thread of a worker waits while its collector walks the objects it tracks; a full
collection walks them all. On a throwaway SQLite file holding the public bench's 300-player
room (bench_public.set_up_tournament), two fresh processes, each as a worker: load the app
(`config.wsgi`, production settings, DEBUG off), run the hook or not, serve every public
page of the room once, then time full collections. It prints both.
"""

import gc
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def worker(room, frozen):
    """One worker's figures: (objects tracked, frozen, median full collection in ms)."""
    import config.wsgi  # noqa: F401 (the app loaded, as gunicorn's worker loads it)
    from config import gunicorn

    if frozen:
        gunicorn.post_worker_init(worker=None)
    from django.test import Client

    client = Client()
    t = room["tournament"]
    for path in (
        f"/t/{t}/",
        f"/t/{t}/standings/",
        *(f"/t/{t}/find/?q={text}" for text in room["searches"]),
        f"/t/{t}/projector/tables/",
        f"/t/{t}/projector/standings/",
        *(f"/t/{t}/table/{table['id']}/" for table in room["tables"]),
        *(f"/t/{t}/player/{player}/" for player in room["players"]),
    ):
        status = client.get(path).status_code
        assert status == 200, (path, status)
    times = []
    for _ in range(7):
        started = time.perf_counter()
        gc.collect()
        times.append((time.perf_counter() - started) * 1000)
    return len(gc.get_objects()), gc.get_freeze_count(), statistics.median(times)


def main():
    work = Path(tempfile.mkdtemp(prefix="bench_gc_"))
    os.environ["DATABASE_URL"] = f"sqlite:///{work}/bench_gc.sqlite3"
    import bench_public  # noqa: E402 (the production settings, DEBUG off)

    try:
        figures(work, bench_public)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(bench_public.BACKUP_DIR, ignore_errors=True)


def figures(work, bench_public):
    room = bench_public.set_up_tournament(300, 3)
    env = {
        **bench_public.server_env(work, os.environ["DATABASE_URL"]),
        "DJANGO_ALLOWED_HOSTS": "testserver",  # the test client's requests
    }
    bench_public.collect_static(work, env)
    print(f"A worker that has served every public page of a {len(room['players'])}-player room:")
    for frozen in (False, True):
        done = subprocess.run(
            [sys.executable, __file__, "--worker", json.dumps(room), str(int(frozen))],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        tracked, kept_aside, ms = json.loads(done.stdout.strip().splitlines()[-1])
        print(
            f"  {'with' if frozen else 'without'} post_worker_init: {tracked:,} objects "
            f"tracked ({kept_aside:,} frozen); a full collection {ms:.1f} ms (median of 7)"
        )


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--worker":
        print(json.dumps(worker(json.loads(sys.argv[2]), sys.argv[3] == "1")))
    else:
        main()
