"""`manage.py import_tournament --migrate`, as `make restore` runs it, into a database that
cannot be opened, or from a file that cannot be read: one line saying what to do, and the
file is checked before the database is touched.

The command is run in this process against a connection of its own (the test's database
is left alone), and once as `make restore` runs it, in a process of its own, to see the
one line it prints instead of a traceback.
"""

import io
import os
import sqlite3
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.db.utils import ConnectionHandler

from tests.tournament.conftest import play, single_table
from tournament.management import database
from tournament.management.commands import import_tournament

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def backup_file(make_tournament, td_user, tmp_path):
    tournament = make_tournament(players=3, min_hands=1, name="Cup")
    play(single_table(tournament, td_user), 6, -6, 0, actor=td_user)
    path = tmp_path / "cup.json"
    call_command(
        "export_tournament", str(tournament.pk), "--output", str(path), stderr=io.StringIO()
    )
    return path


def use_database(monkeypatch, **settings):
    """The command's database for this test: one named by `settings`, not the test's."""
    handler = ConnectionHandler({"default": settings})
    monkeypatch.setattr(import_tournament, "connections", handler)
    return handler["default"]


def test_an_sqlite_file_in_a_missing_folder_is_told_in_one_line(
    db, backup_file, tmp_path, monkeypatch
):
    path = tmp_path / "no-such-folder" / "restored.sqlite3"
    use_database(monkeypatch, ENGINE="django.db.backends.sqlite3", NAME=str(path))
    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(backup_file), "--migrate")
    assert str(refused.value) == (
        f"The database file {path} cannot be opened: unable to open database file. "
        f"Create its folder first (mkdir -p {path.parent}) or check DATABASE_URL."
    )
    assert not path.parent.exists()


def test_an_sqlite_file_that_is_no_database_is_told_in_one_line(
    db, backup_file, tmp_path, monkeypatch
):
    path = tmp_path / "notes.txt"
    path.write_text("not a database, but notes " * 100, encoding="utf-8")
    use_database(monkeypatch, ENGINE="django.db.backends.sqlite3", NAME=str(path))
    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(backup_file), "--migrate")
    assert str(refused.value) == (
        f"The database file {path} cannot be opened: file is not a database. Check that its "
        "folder can be written and that the file, if there is one, is an SQLite database; or "
        "check DATABASE_URL."
    )


@pytest.mark.postgres
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs a PostgreSQL server (DATABASE_URL)"
)
def test_a_postgresql_database_that_does_not_exist_is_told_with_how_to_create_it(
    db, backup_file, monkeypatch
):
    name = f"pofc_no_such_{uuid.uuid4().hex[:8]}"
    given = connection.settings_dict
    use_database(
        monkeypatch,
        ENGINE=given["ENGINE"],
        NAME=name,
        USER=given["USER"],
        PASSWORD=given["PASSWORD"],
        HOST=given["HOST"],
        PORT=given["PORT"],
    )
    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(backup_file), "--migrate")
    # The test run's server, as DATABASE_URL names it (postgres://postgres@127.0.0.1:5432/…).
    createdb = ["createdb"]
    for option, key in (("-h", "HOST"), ("-p", "PORT"), ("-U", "USER")):
        createdb += [option, str(given[key])] if given[key] else []
    assert str(refused.value) == (
        f'The database “{name}” cannot be opened: database "{name}" does not exist. Create it '
        f"first ({' '.join(createdb)} {name}) or check DATABASE_URL."
    )


def test_a_postgresql_server_that_does_not_answer_is_told_in_one_line(db):
    """No server at all (a port nothing listens on): the driver's own words, on one line."""
    handler = ConnectionHandler(
        {
            "default": {
                "ENGINE": "django.db.backends.postgresql",
                "NAME": "ofc",
                "USER": "postgres",
                "HOST": "127.0.0.1",
                "PORT": "1",
                "OPTIONS": {"connect_timeout": 5},
            }
        }
    )
    with pytest.raises(CommandError) as refused:
        database.open_database(handler["default"])
    assert str(refused.value) == (
        "The database “ofc” cannot be opened: Connection refused. Create it first "
        "(createdb -h 127.0.0.1 -p 1 -U postgres ofc) or check DATABASE_URL."
    )


@pytest.mark.parametrize(
    ("given", "reason"),
    [
        (
            'connection failed: connection to server at "127.0.0.1", port 5432 failed: '
            'FATAL:  database "nosuchdb" does not exist',
            'database "nosuchdb" does not exist',
        ),
        (
            'connection failed: connection to server at "127.0.0.1", port 5499 failed: '
            "Connection refused\n\tIs the server running on that host and accepting TCP/IP "
            "connections?",
            "Connection refused",
        ),
        ("unable to open database file", "unable to open database file"),
        ("", "OperationalError"),
    ],
)
def test_the_drivers_words_are_kept_short(given, reason):
    from django.db import OperationalError

    assert database._reason(OperationalError(given)) == reason


def test_a_missing_file_is_told_before_the_database_is_opened(db, tmp_path, monkeypatch):
    opened = []
    monkeypatch.setattr(import_tournament, "open_database", opened.append)
    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(tmp_path / "missing.json"), "--migrate")
    assert str(refused.value) == (
        f"Cannot read {tmp_path / 'missing.json'}: No such file or directory."
    )
    with pytest.raises(CommandError, match="Is a directory"):  # a folder given as FILE
        call_command("import_tournament", str(tmp_path), "--migrate")
    not_json = tmp_path / "notes.json"
    not_json.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError, match="not valid JSON"):
        call_command("import_tournament", str(not_json), "--migrate")
    assert opened == []


def restore(file, database_url):
    """The command as `make restore` runs it, in a fresh process with no settings of ours."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env.update(DATABASE_URL=database_url, DJANGO_SECRET_KEY="restore-only")
    return subprocess.run(
        [sys.executable, "manage.py", "import_tournament", "--migrate", str(file)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_run_as_make_restore_runs_it_one_line_and_no_traceback(tmp_path):
    backup = tmp_path / "backup.json"
    backup.write_text("{}", encoding="utf-8")
    missing_folder = tmp_path / "nowhere" / "restored.sqlite3"
    done = restore(backup, f"sqlite:///{missing_folder}")
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"CommandError: The database file {missing_folder} cannot be opened: unable to open "
        f"database file. Create its folder first (mkdir -p {missing_folder.parent}) or check "
        "DATABASE_URL."
    ]
    # A file that cannot be read: said before the database is made (and migrated).
    new = tmp_path / "new.sqlite3"
    done = restore(tmp_path / "missing.json", f"sqlite:///{new}")
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"CommandError: Cannot read {tmp_path / 'missing.json'}: No such file or directory."
    ]
    assert not new.exists()


def test_restored_into_a_fresh_database_it_keeps_who_made_each_draw_and_says_so(
    db, backup_file, tmp_path
):
    """No `make venue` there first, so no login of the file's TD (`director`): the restore
    keeps him as who made the draw and the hands, as an account nobody logs in with yet."""
    fresh = tmp_path / "fresh.sqlite3"
    done = restore(backup_file, f"sqlite:///{fresh}")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-2:] == [
        "Imported Cup (id 1).",
        "director had no login in this database: added, locked (no password), to keep who "
        "made each change.",
    ]
    with sqlite3.connect(fresh) as restored:
        makers = restored.execute(
            "SELECT username, is_active, is_staff, password FROM tournament_draw "
            "JOIN auth_user ON auth_user.id = tournament_draw.created_by_id"
        ).fetchall()
    ((username, active, staff, password),) = makers
    assert (username, active, staff) == ("director", 0, 0)
    assert password.startswith("!")  # Django's mark of a password nobody can type


MB = 1024 * 1024


def test_a_backup_over_the_size_limit_is_told_its_own_size_not_the_part_read(tmp_path):
    """50 MB (padding in an unknown key, 100,000 audit entries, garbage): the command reads
    20 MB and a byte of it, and says the file's size, as `make restore` prints it."""
    large = tmp_path / "large.json"
    with large.open("wb") as file:
        file.truncate(50 * MB)
    done = restore(large, f"sqlite:///{tmp_path / 'restored.sqlite3'}")
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "CommandError: The file is 50.0\xa0MB; a backup can be at most 20.0\xa0MB."
    ]
    assert not (tmp_path / "restored.sqlite3").exists()  # refused before the database


def test_a_backup_read_from_a_pipe_is_more_than_the_limit(db, tmp_path):
    """A pipe's size is not known: only that it went on past the limit."""
    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)

    def write():
        try:
            with pipe.open("wb") as end:
                for _chunk in range(25):
                    end.write(b" " * MB)
        except BrokenPipeError:
            pass  # the command stopped reading at the limit

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(pipe))
    writer.join(timeout=10)
    assert str(refused.value) == (
        "The file is more than 20.0\xa0MB; a backup can be at most 20.0\xa0MB."
    )
