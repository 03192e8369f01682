"""Phones that close their connection late, against gunicorn's sync and gthread workers.

At the venue `make venue` serves the room with no proxy in front (docs/deployment.md). A
sync worker of gunicorn 27 answers with "Connection: close" and then waits, up to 2 s, for
the client to close its side (`gunicorn.util.close_graceful`): a phone whose Wi-Fi drops
right after a response holds a whole worker meanwhile. This bench serves the demo
tournament from a throwaway SQLite database behind gunicorn with 2 workers and lets
`--slow` clients read the tournament page and close 1.5 s later, over and over, while one
ordinary client reads the same page every 50 ms; it prints the ordinary client's times,
once per worker kind. Everything runs on 127.0.0.1 and stops by itself.

    .venv/bin/python bench/bench_slow_clients.py [--slow 2] [--seconds 8]
"""

import argparse
import contextlib
import os
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from config.venue import WORKER_ARGS  # noqa: E402 (the repository's root on the path first)

PATH = "/t/2/"  # the demo's tournament in play
KINDS = {"sync": [], "gthread (compose, make venue)": list(WORKER_ARGS)}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def read_response(sock):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed before the response's head")
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return head


def request(port):
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"GET {PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        return read_response(sock)


def measure(port, slow, seconds):
    stop = time.monotonic() + seconds

    def slow_phone():
        while time.monotonic() < stop:
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(f"GET {PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            read_response(sock)
            time.sleep(1.5)  # the Wi-Fi dropped: the phone's FIN comes late
            sock.close()

    threads = [threading.Thread(target=slow_phone, daemon=True) for _ in range(slow)]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    times = []
    while time.monotonic() < stop - 0.5:
        start = time.perf_counter()
        request(port)
        times.append((time.perf_counter() - start) * 1000)
        time.sleep(0.05)
    for thread in threads:
        thread.join()
    return sorted(times)


def serve(env, port, extra):
    command = [
        str(ROOT / ".venv/bin/gunicorn"),
        "config.wsgi:application",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        "2",
        *extra,
    ]
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}{PATH}", timeout=2).read()
            return process
        time.sleep(0.2)
    process.kill()
    raise RuntimeError("gunicorn did not answer in 30 s")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slow", type=int, default=2, help="phones that close 1.5 s late")
    parser.add_argument("--seconds", type=float, default=8)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work:
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{work}/bench.sqlite3",
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": "bench-slow-clients",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "DJANGO_SECURE_SSL_REDIRECT": "0",
            "DJANGO_SECURE_COOKIES": "0",
            "DJANGO_LOG_LEVEL": "WARNING",
            "DJANGO_STATIC_ROOT": f"{work}/static",
            "DJANGO_BACKUP_DIR": f"{work}/backups",
        }
        manage = [sys.executable, "manage.py"]
        steps = (
            ["migrate", "--noinput", "-v", "0"],
            ["collectstatic", "--noinput"],
            ["demo_setup"],
        )
        for step in steps:
            subprocess.run(manage + step, cwd=ROOT, env=env, check=True, capture_output=True)
        print(f"{args.slow} phones closing 1.5 s late; one ordinary client on {PATH}, ms:")
        for kind, extra in KINDS.items():
            port = free_port()
            process = serve(env, port, extra)
            try:
                times = measure(port, args.slow, args.seconds)
            finally:
                process.terminate()
                process.wait(10)
            p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
            print(
                f"  {kind:38} {shlex.join(extra) or '(gunicorn defaults)'}: "
                f"{len(times)} requests, p50 {statistics.median(times):.1f}, "
                f"p95 {p95:.1f}, worst {times[-1]:.0f}"
            )


if __name__ == "__main__":
    main()
