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


# ---------------------------------------------------------------- wider: below the ORM at all
# Read from the code itself (Python's tokenizer): calls and imports from the code with its
# comments and strings left out, SQL from its string literals (an f-string's text too), so
# that a comment may name what it avoids, and a sentence of prose is not taken for SQL.

# The driver: only Django's backend imports it (DATABASES names PostgreSQL by its ENGINE,
# through dj_database_url); config/settings.py needs none of it, so nothing is allowed.
DRIVER = re.compile(r"^\s*(?:import|from)\s+psycopg2?\b", re.M)
# The driver's connection, raw SQL inside the ORM, and Django's escape hatches.
BELOW_THE_ORM = re.compile(
    r"\bconnection\.connection\b|\bconnections\[[^\]]*\]\.connection\b"
    r"|\bRawSQL\(|\.extra\("
)
# A whole read written as SQL (`Manager.raw`): Django still makes the models and converts
# their values; allowed, like a cursor, only where ALLOWED_RAW says why.
RAW = re.compile(r"\.raw\(")
# A hand-written write, in any case.
WRITE_SQL = re.compile(r"\binsert\s+into\b|\bdelete\s+from\b|\bupdate\s+[\w\"{}.]+\s+set\b", re.I)
CURSOR = re.compile(r"\bconnection\.cursor\(\)|\bconnections\[[^\]]*\]\.cursor\(\)")
# Every use of `connection.cursor()` in the app, with why the ORM could not do it.
ALLOWED_CURSORS = {
    # The poll token (revision_token): one constant read every poll of every phone runs
    # first; through the ORM a table's token cost 0.7-0.9 ms against this string's 0.23 ms,
    # about a bare view's time (docs/performance-log.md, "The poll token").
    "tournament/selectors/tokens.py": 1,
    # The backup's snapshot: SET TRANSACTION ISOLATION LEVEL REPEATABLE READ as the
    # transaction's first statement (PostgreSQL), which the ORM has no way to say.
    "tournament/backups/export.py": 1,
    # The tournaments' names' lock (lock_tournament_names): pg_advisory_xact_lock, which the
    # ORM has no way to say; two TDs naming a tournament alike at once are checked in turn.
    "tournament/tables/locking.py": 1,
    # A table with its level, tournament, draw, seats and players (read_table_and_seats),
    # read by every hand and every service that locks one table: the ORM's join cost 1.9 ms
    # to build and to make its models on SQLite, this 0.27 ms (a hand 3.5 ms in all;
    # docs/performance-log.md, "Figures (29 Nov 2026, small hours …)"). Django's converters
    # and from_db.
    "tournament/tables/read.py": 1,
}
ALLOWED_RAW = {
    # The public pages' tournament (public_tournament), read by every rendering of every
    # public page: its ORM form, with three subqueries, cost 2.2 ms to build for 0.35 ms
    # in the database; this one 0.36 ms in all (docs/performance-log.md, "The public pages'
    # tournament").
    "tournament/selectors/public.py": 1,
}


def code_and_strings(text):
    """The source with its comments and string literals blanked, and those string literals."""
    import io
    import tokenize

    lines = text.splitlines(keepends=True)
    code = [list(line) for line in lines]
    strings = []
    string_kinds = {tokenize.STRING}
    string_kinds |= {getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type in string_kinds:
            strings.append(token.string)
        if token.type in string_kinds or token.type == tokenize.COMMENT:
            (row, col), (end_row, end_col) = token.start, token.end
            for r in range(row, end_row + 1):
                first = col if r == row else 0
                last = end_col if r == end_row else len(code[r - 1])
                for c in range(first, last):
                    if code[r - 1][c] != "\n":
                        code[r - 1][c] = " "
    return "".join("".join(line) for line in code), strings


def scanned():
    for path in app_python_files():
        code, strings = code_and_strings(path.read_text(encoding="utf-8"))
        yield path.relative_to(ROOT).as_posix(), code, strings


def test_the_app_never_reaches_below_djangos_database_api():
    found = []
    cursors, raws = {}, {}
    for name, code, strings in scanned():
        found += [f"{name}: {m.group(0).strip()}" for m in DRIVER.finditer(code)]
        found += [f"{name}: {m.group(0)}" for m in BELOW_THE_ORM.finditer(code)]
        found += [f"{name}: {s[:80]}" for s in strings if WRITE_SQL.search(s)]
        count = len(CURSOR.findall(code))
        if count:
            cursors[name] = count
        count = len(RAW.findall(code))
        if count:
            raws[name] = count
    assert found == [], "\n".join(found)
    assert cursors == ALLOWED_CURSORS, (
        "connection.cursor() only where ALLOWED_CURSORS says why: "
        f"found {cursors}, allowed {ALLOWED_CURSORS}"
    )
    assert raws == ALLOWED_RAW, (
        f".raw() only where ALLOWED_RAW says why: found {raws}, allowed {ALLOWED_RAW}"
    )


def test_the_wider_patterns_find_what_they_are_for():
    code, strings = code_and_strings(
        "import psycopg\n"
        "from psycopg import sql\n"
        "import psycopg2.extras\n"
        "raw = connection.connection\n"
        "Seat.objects.raw('SELECT 1')\n"
        "Seat.objects.annotate(x=RawSQL('1', []))\n"
        "Seat.objects.extra(where=['1'])\n"
        "cursor.execute('delete from tournament_seat where id = %s')\n"
        'cursor.execute(f"insert into {table} values (%s)")\n'
        "cursor.execute('update tournament_table set revision = 1')\n"
        "with connection.cursor() as cursor: pass\n"
    )
    assert len(DRIVER.findall(code)) == 3
    assert len(BELOW_THE_ORM.findall(code)) == 3
    assert len(RAW.findall(code)) == 1
    assert len([s for s in strings if WRITE_SQL.search(s)]) == 3
    assert len(CURSOR.findall(code)) == 1
    # What they leave alone: comments and prose, the ORM's own words.
    code, strings = code_and_strings(
        "# connection.cursor() and psycopg are named here, in a comment\n"
        "Seat.objects.filter(pk=1).update(total=2)  # update the seats, set their totals\n"
        "Seat.objects.filter(pk=1).delete()\n"
        "help_text = 'Update your table, then set the points; insert the card'\n"
        "import psycopg_free\n"
    )
    assert not DRIVER.search(code)
    assert not BELOW_THE_ORM.search(code)
    assert not RAW.search(code)
    assert not [s for s in strings if WRITE_SQL.search(s)]
    assert not CURSOR.search(code)
