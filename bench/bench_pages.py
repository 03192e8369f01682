"""Service and selector speed on a throwaway database: `make bench` prints the figures.

Records every hand of a 60-player level through the services (as a tablet would)
and times the reads a page makes. Set DATABASE_URL to measure PostgreSQL instead
of a temporary SQLite file.
"""

import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_DEBUG", "1")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
if "DATABASE_URL" not in os.environ:
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"


def main(players=60, hands_per_table=20):
    import django

    django.setup()
    from django.core.management import call_command

    from tournament.selectors.standings import standings
    from tournament.selectors.tables import level_tables, table_hands
    from tournament.services import draws, hands, registration

    call_command("migrate", verbosity=0)
    tournament = registration.create_tournament(actor=None, name=f"Bench {uuid.uuid4().hex[:6]}")
    for number in range(players):
        registration.register_player(tournament=tournament, actor=None, name=f"P{number}")
    level = draws.draw_first_level(tournament=tournament, actor=None, seed="bench")
    tables = list(level.tables.all())

    started = time.perf_counter()
    recorded = 0
    for hand_number in range(1, hands_per_table + 1):
        for table in tables:
            size = table.seats.count()
            points = {0: 2, 1: -1, 2: -1} if size == 3 else {0: 1, 1: -1}
            hands.record_hand(
                table=table,
                hand_number=hand_number,
                idempotency_key=uuid.uuid4(),
                points=points,
            )
            recorded += 1
    elapsed = time.perf_counter() - started
    print(f"record_hand: {recorded} hands in {elapsed:.2f} s = {recorded / elapsed:.0f} hands/s")

    for name, read in (
        ("level_tables", lambda: level_tables(level)),
        ("table_hands", lambda: table_hands(tables[0])),
        ("standings", lambda: standings(tournament)),
    ):
        runs = 50
        started = time.perf_counter()
        for _ in range(runs):
            read()
        per_call = (time.perf_counter() - started) / runs * 1000
        print(f"{name}: {per_call:.1f} ms per call ({players} players)")


if __name__ == "__main__":
    main()
