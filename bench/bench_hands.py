"""What recording a hand costs, at hand 1, 20, 60 and 80, beside a bare locked write.

`make bench` prints the figures (SQLite in a throwaway file; set DATABASE_URL for
PostgreSQL, whose statistics are refreshed with ANALYZE before timing). All in
one run with DEBUG off, so that the ratios compare like with like; the target (issue
18 §7) is a hand within 4x the bare write on both databases, flat from hand 1 to 80.
Then a whole simulated tournament of 300 players (`--players`), timed.

The bare write is the least a hand could cost: one transaction that locks the
table row and updates one column of it.
"""

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["DJANGO_DEBUG"] = "0"
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-" + uuid.uuid4().hex)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
if "DATABASE_URL" not in os.environ:
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
# A hand's automatic backup is part of what recording costs (a look at the newest backup's
# age after the commit): kept in a throwaway folder, never among the venue's backups.
os.environ["DJANGO_BACKUP_DIR"] = tempfile.mkdtemp(prefix="bench_backups_")

MARKS = (1, 20, 60, 80)
TABLES = 12
TARGET_RATIO = 4.0  # a hand within 4x the bare locked write (issue 18 §7)


def setup_database():
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    assert not settings.DEBUG
    if connection.vendor == "postgresql":
        # A throwaway database next to the configured one, dropped at the end.
        from django.db import connections

        name = f"bench_{uuid.uuid4().hex[:8]}"
        connection.settings_dict["NAME"] = "postgres"  # the configured one may not exist yet
        with connection.cursor() as cursor:
            cursor.execute(f'CREATE DATABASE "{name}"')
        settings.DATABASES["default"]["NAME"] = name
        connections["default"].close()
        connections["default"].settings_dict["NAME"] = name
        call_command("migrate", verbosity=0)
        return name
    call_command("migrate", verbosity=0)
    return None


def drop_database(name):
    if name is None:
        return
    from django.db import connections

    connections["default"].close()
    settings_dict = connections["default"].settings_dict
    settings_dict["NAME"] = "postgres"
    with connections["default"].cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
    connections["default"].close()


def analyze():
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def bare_write(table):
    from django.db import transaction
    from django.db.models import F

    from tournament.models import Table

    with transaction.atomic():
        Table.objects.select_for_update(no_key=True).filter(pk=table.pk).values_list(
            "pk", flat=True
        ).get()
        Table.objects.filter(pk=table.pk).update(revision=F("revision") + 1)


def make_tables(mode):
    from tournament.models import Table
    from tournament.services import draws, registration

    tournament = registration.create_tournament(
        actor=None, name=f"Bench {mode} {uuid.uuid4().hex[:6]}", min_hands=90
    )
    for number in range(3 * TABLES):
        registration.register_player(tournament=tournament, actor=None, name=f"P{number}")
    level = draws.draw_first_level(tournament=tournament, actor=None, seed="bench")
    return list(Table.objects.current().filter(level=level).select_related("level__tournament"))


def next_hand_kwargs(table, mode, rng):
    from tournament.demo import simulation
    from tournament.tables.state import cached_state

    if mode == "points":
        return {"points": {0: 2, 1: -1, 2: -1}}
    state, seats = cached_state(table)
    dealt = simulation.deal(rng, [state.in_fantasyland[s.id] for s in seats])
    return {
        "boards": {
            seat.position: simulation.place(cards, rng)
            for seat, cards in zip(seats, dealt, strict=True)
        }
    }


def time_hands(mode):
    """Median ms per hand at each mark (over every table), and the bare write beside it."""
    from tournament.services import hands

    rng = random.Random(f"bench-{mode}")
    tables = make_tables(mode)
    analyze()
    hand_ms, bare_ms = {}, {}
    for number in range(1, max(MARKS) + 1):
        timed, bare = [], []
        for table in tables:
            kwargs = next_hand_kwargs(table, mode, rng)  # dealing is not the service's cost
            started = time.perf_counter()
            hands.record_hand(
                table=table, hand_number=number, idempotency_key=uuid.uuid4(), **kwargs
            )
            timed.append(time.perf_counter() - started)
            if number in MARKS:
                started = time.perf_counter()
                bare_write(table)
                bare.append(time.perf_counter() - started)
            table.refresh_from_db(fields=["hands_played"])
        if number in MARKS:
            hand_ms[number] = statistics.median(timed) * 1000
            bare_ms[number] = statistics.median(bare) * 1000
    return hand_ms, bare_ms


def time_simulation(players):
    from tournament.demo.autoplay import simulate

    started = time.perf_counter()
    outcome = simulate(players=players, seed="bench", name=f"Bench simulation {players}")
    elapsed = time.perf_counter() - started
    from tournament.models import Hand

    count = Hand.objects.filter(table__level__tournament=outcome.tournament).count()
    return elapsed, count, outcome.levels_closed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300, help="simulated tournament size")
    args = parser.parse_args()
    name = setup_database()
    try:
        from django.db import connection

        print(f"Recording a hand on {connection.vendor} (DEBUG off, median of {TABLES} tables)")
        print(f"{'mode':<8}{'hand':>6}{'record ms':>12}{'bare ms':>10}{'ratio':>8}")
        ratios = []
        for mode in ("points", "cards"):
            hand_ms, bare_ms = time_hands(mode)
            for number in MARKS:
                ratio = hand_ms[number] / bare_ms[number]
                ratios.append(ratio)
                print(
                    f"{mode:<8}{number:>6}{hand_ms[number]:>12.2f}"
                    f"{bare_ms[number]:>10.2f}{ratio:>7.1f}x"
                )
        worst = max(ratios)
        verdict = "met   " if worst <= TARGET_RATIO else "MISSED"
        print(f"{verdict} a hand within {TARGET_RATIO:g}x the bare write: at worst {worst:.1f}x")
        elapsed, count, levels = time_simulation(args.players)
        print(
            f"simulate_tournament --players {args.players}: {elapsed:.1f} s "
            f"({count} hands, {levels} levels, {count / elapsed:.0f} hands/s)"
        )
    finally:
        drop_database(name)
        shutil.rmtree(os.environ["DJANGO_BACKUP_DIR"], ignore_errors=True)


if __name__ == "__main__":
    main()
