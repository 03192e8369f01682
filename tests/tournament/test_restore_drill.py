"""The restore drill of docs/backups.md, run as written there: on a fresh shell (no secret
key, no settings in the environment), a real backup into an empty SQLite database."""

import os
import re
import shlex
import sqlite3
import subprocess
import uuid
from pathlib import Path

import pytest
from django.db import connection

from tests.tournament.conftest import play, single_table
from tournament.backups import automatic

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "backups.md"


def documented_commands(block=0):
    """The shell lines of the drill's code block in docs/backups.md (`block`: the first,
    into SQLite; the second, into PostgreSQL)."""
    text = DOC.read_text(encoding="utf-8")
    drill = text[text.index("## Restore drill") :]
    code = re.findall(r"```\n(.*?)```", drill, re.S)[block]
    return [shlex.split(line) for line in code.splitlines() if line.strip()]


def test_the_documented_restore_brings_a_backup_back_into_an_empty_database(
    settings, tmp_path, make_tournament, td_user
):
    settings.BACKUP_DIR = str(tmp_path / "backups")
    tournament = make_tournament(players=3, name="Drill 2026")
    table = single_table(tournament, td_user)
    for points in ([6, -6, 0], [1, 0, -1], [-2, 2, 0]):
        play(table, *points, actor=td_user)
    backup = automatic.write_backup(tournament)
    restored = tmp_path / "restored.sqlite3"

    commands = documented_commands()
    assert commands and all(command[:2] == ["make", "restore"] for command in commands)
    env = fresh_shell(tmp_path)
    for command in commands:
        # The documented command with this backup and database; -o: the .venv is set up.
        given = [
            f"FILE={backup}"
            if word.startswith("FILE=")
            else f"DATABASE_URL=sqlite:///{restored}"
            if word.startswith("DATABASE_URL=")
            else word
            for word in command
        ]
        assert given != command
        done = subprocess.run(
            [given[0], "-o", ".venv/.installed-stamp", *given[1:]],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "Imported Drill 2026" in done.stdout

    with sqlite3.connect(restored) as db:
        (name,) = db.execute("SELECT name FROM tournament_tournament").fetchone()
        hands = db.execute("SELECT hands_played FROM tournament_table").fetchall()
        recorded = db.execute("SELECT count(*) FROM tournament_hand").fetchone()
    assert name == "Drill 2026"
    assert hands == [(3,)] and recorded == (3,)


def fresh_shell(tmp_path):
    """A fresh shell's environment: nothing of this test run's settings, and above all no
    secret key; only the automatic backups the restore writes go to the test's folder, not
    into the working tree's var/backups."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env["DJANGO_BACKUP_DIR"] = str(tmp_path / "restored-backups")
    return env


def make_restore(tmp_path, *words):
    """`make restore …` on a fresh shell (-o: the .venv is set up)."""
    return subprocess.run(
        ["make", "-o", ".venv/.installed-stamp", "restore", *words],
        cwd=ROOT,
        env=fresh_shell(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_any_path_is_restored_quotes_and_spaces_too(settings, tmp_path, make_tournament, td_user):
    """The TD's folder and file named as people name them: the path reaches the command as
    it is (the recipe used to wrap it in single quotes, which a "TD's" closed)."""
    settings.BACKUP_DIR = str(tmp_path / "backups")
    tournament = make_tournament(players=3, name="Quote Cup")
    play(single_table(tournament, td_user), 6, -6, 0, actor=td_user)
    folder = tmp_path / "TD's backups" / 'a "quoted" & spaced; folder'
    folder.mkdir(parents=True)
    backup = folder / "TD's backup.json"
    backup.write_bytes(automatic.write_backup(tournament).read_bytes())
    restored = tmp_path / "it's restored.sqlite3"

    done = make_restore(tmp_path, f"FILE={backup}", f"DATABASE_URL=sqlite:///{restored}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Imported Quote Cup" in done.stdout
    with sqlite3.connect(restored) as db:
        assert db.execute("SELECT name FROM tournament_tournament").fetchall() == [("Quote Cup",)]


def test_a_file_that_cannot_be_read_is_told_before_the_database_is_made(tmp_path):
    missing = tmp_path / "TD's backup.json"
    restored = tmp_path / "restored.sqlite3"
    done = make_restore(tmp_path, f"FILE={missing}", f"DATABASE_URL=sqlite:///{restored}")
    assert done.returncode != 0
    assert f"CommandError: Cannot read {missing}: No such file or directory." in done.stderr
    assert "Traceback" not in done.stderr
    assert not restored.exists()  # neither made nor migrated


def test_a_database_that_cannot_be_opened_is_told_in_one_line(tmp_path):
    backup = tmp_path / "backup.json"
    backup.write_text("{}", encoding="utf-8")
    restored = tmp_path / "no such folder" / "restored.sqlite3"
    done = make_restore(tmp_path, f"FILE={backup}", f"DATABASE_URL=sqlite:///{restored}")
    assert done.returncode != 0
    said = [line for line in done.stderr.splitlines() if not line.startswith("make")]
    assert said == [
        f"CommandError: The database file {restored} cannot be opened: unable to open database "
        f"file. Create its folder first (mkdir -p '{restored.parent}') or check DATABASE_URL."
    ]


@pytest.mark.postgres
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs a PostgreSQL server (DATABASE_URL)"
)
def test_the_documented_postgresql_restore_creates_the_database_then_restores(
    settings, tmp_path, make_tournament, td_user
):
    settings.BACKUP_DIR = str(tmp_path / "backups")
    tournament = make_tournament(players=3, name="Drill PG")
    play(single_table(tournament, td_user), 6, -6, 0, actor=td_user)
    backup = automatic.write_backup(tournament)
    name = f"pofc_drill_{uuid.uuid4().hex[:8]}"

    createdb, restore = documented_commands(block=1)
    assert createdb[0] == "createdb" and restore[:2] == ["make", "restore"]
    createdb[-1] = name
    given = [
        f"FILE={backup}"
        if word.startswith("FILE=")
        else word.rsplit("/", 1)[0] + f"/{name}"
        if word.startswith("DATABASE_URL=")
        else word
        for word in restore
    ]
    try:
        # Before the database exists: one line, how to create it.
        refused = make_restore(tmp_path, *given[2:])
        assert refused.returncode != 0
        assert f'database "{name}" does not exist. Create it first (createdb' in refused.stderr
        assert "Traceback" not in refused.stderr
        subprocess.run(createdb, check=True, capture_output=True, timeout=60)
        done = make_restore(tmp_path, *given[2:])
        assert done.returncode == 0, done.stdout + done.stderr
        assert "Imported Drill PG" in done.stdout
    finally:
        subprocess.run(
            ["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", name],
            capture_output=True,
            timeout=60,
        )
