"""The app stays inside Django's database API: the ORM, or `connection.cursor()` for one
plain query. No driver calls (psycopg's `pgconn`, `exec_prepared`, statements prepared by
hand) and no INSERT or UPDATE built by hand: they skip Django's guards (an id beyond the
column's range, conversions), copy its internals, and break behind a pooler in transaction
mode (issue 18 §6). Tests, benchmarks and migrations may write SQL; the app may not."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The before-stop hook's pattern (/work/shared/hooks/before-stop), case as it is there.
BELOW_DJANGO = re.compile(r'pgconn|exec_prepared|\.prepare\(|INSERT INTO|UPDATE [{a-z"]')
LEFT_OUT = {"tests", "bench", "migrations", ".venv", "node_modules"}


def app_python_files():
    for top in sorted(ROOT.iterdir()):
        if top.name in LEFT_OUT or top.name.startswith("."):
            continue
        for path in [top] if top.suffix == ".py" else sorted(top.rglob("*.py")):
            if not set(path.relative_to(ROOT).parts) & LEFT_OUT:
                yield path


def test_the_app_has_no_driver_calls_or_hand_built_writes():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in app_python_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if BELOW_DJANGO.search(line)
    ]
    assert found == [], "\n".join(found)


def test_the_pattern_finds_what_it_is_for():
    for line in (
        "raw.pgconn.exec_prepared(name, values)",
        "conn.prepare(name, sql)",
        'sql = "INSERT INTO {} ({}) VALUES ({})"',
        'sql = "UPDATE {} SET {} WHERE {} = %s"',
        'cursor.execute("UPDATE tournament_table SET revision = revision + 1")',
    ):
        assert BELOW_DJANGO.search(line), line
    assert not BELOW_DJANGO.search("Seat.objects.filter(pk=seat.pk).update(**moved)")
