"""One PostgreSQL round trip, by how long the connection was idle before it.

An unchanged poll is the bare view's work plus one indexed query, so its ratio to the bare
view is set by what that round trip costs. That cost is not fixed: on a virtual machine a
backend that waited a few milliseconds wakes on cold caches (and a halted virtual CPU), and
the same `SELECT 1` takes several times longer than one right after another. In a quiet
room each gunicorn worker's backend waits tens of milliseconds between polls; in a busy one,
a few. This prints the p50 of a prepared `SELECT 1` after each pause, so that the public
bench's ratios can be read against the machine (docs/performance-log.md, "What the unchanged
poll cost then").

    .venv/bin/python bench/bench_roundtrip.py [--pg postgres://postgres@127.0.0.1:5432]
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_public import pg_server  # noqa: E402

PAUSES_MS = (0, 1, 2, 5, 10, 20, 50)


def round_trips(connection, pause_ms, count):
    """Milliseconds of `count` prepared `SELECT 1`s, each after `pause_ms` of idling."""
    times = []
    for _ in range(count):
        if pause_ms:
            time.sleep(pause_ms / 1000)
        started = time.perf_counter()
        connection.execute("SELECT 1", prepare=True).fetchone()
        times.append((time.perf_counter() - started) * 1000)
    return times


def main():
    import psycopg

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pg", default=pg_server(), help="PostgreSQL server (trust)")
    parser.add_argument("--seconds", type=float, default=2, help="roughly, per pause")
    args = parser.parse_args()
    with psycopg.connect(f"{args.pg}/postgres", autocommit=True) as connection:
        round_trips(connection, 0, 50)  # prepared, and warm
        print("PostgreSQL round trip (prepared SELECT 1) after the connection idled, ms")
        print(f"{'idle before':>12} {'p50':>7} {'p25':>7} {'p75':>7} {'count':>6}")
        for pause in PAUSES_MS:
            count = max(30, min(2000, int(args.seconds * 1000 / max(pause, 0.2))))
            times = sorted(round_trips(connection, pause, count))
            quartiles = statistics.quantiles(times, n=4)
            print(
                f"{pause:>9} ms {statistics.median(times):7.3f} {quartiles[0]:7.3f}"
                f" {quartiles[2]:7.3f} {count:>6}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
