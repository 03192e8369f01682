"""How long `make venue` takes to serve: a first start on an empty var/ folder, then
restarts with nothing changed (target: within 5 s), then a start that must collect the
static files again (their stamp removed, as a changed file would make it).

Each start is the real command (`python -m config.venue`, 2 workers) on a free port of
127.0.0.1, timed from its launch to the first page served, then stopped. Its state lives
in a throwaway folder.

    .venv/bin/python bench/bench_venue_start.py [--restarts 3]
"""

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(var_dir):
    """Seconds from the launch to the first page served; the server is stopped after."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env.update({"VENUE_DIR": str(var_dir), "VENUE_PORT": str(port), "VENUE_WORKERS": "2"})
    began = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "config.venue"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).read()
                return time.perf_counter() - began
            except OSError:
                if process.poll() is not None:
                    raise SystemExit("make venue stopped before it served") from None
                time.sleep(0.05)
    finally:
        process.terminate()
        process.wait(timeout=60)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--restarts", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        var_dir = Path(folder)
        print(f"first start (empty var/):          {start(var_dir):5.1f} s")
        for number in range(1, args.restarts + 1):
            print(f"restart {number}, nothing changed:       {start(var_dir):5.1f} s  (target 5 s)")
        (var_dir / "static.stamp").unlink()
        print(f"restart, static files to collect:  {start(var_dir):5.1f} s")


if __name__ == "__main__":
    main()
