"""The restore drill of docs/backups.md, run as written there: on a fresh shell (no secret
key, no settings in the environment), a real backup into an empty SQLite database."""

import os
import re
import shlex
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tests.tournament.conftest import play, single_table
from tournament.services import autobackup

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "backups.md"


def documented_commands():
    """The shell lines of the drill's code block in docs/backups.md."""
    text = DOC.read_text(encoding="utf-8")
    drill = text[text.index("## Restore drill") :]
    block = re.search(r"```\n(.*?)```", drill, re.S).group(1)
    return [shlex.split(line) for line in block.splitlines() if line.strip()]


def test_the_documented_restore_brings_a_backup_back_into_an_empty_database(
    settings, tmp_path, make_tournament, td_user
):
    settings.BACKUP_DIR = str(tmp_path / "backups")
    tournament = make_tournament(players=3, name="Drill 2026")
    table = single_table(tournament, td_user)
    for points in ([6, -6, 0], [1, 0, -1], [-2, 2, 0]):
        play(table, *points, actor=td_user)
    backup = autobackup.write_backup(tournament)
    restored = tmp_path / "restored.sqlite3"

    commands = documented_commands()
    assert commands and all(command[:2] == ["make", "restore"] for command in commands)
    # A fresh shell: nothing of this test run's settings, and above all no secret key.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
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
