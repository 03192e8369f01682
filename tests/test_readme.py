"""Every command the README shows runs.

The commands come from the README's ```sh blocks, read as one shell session (an
`export` holds for the commands after it). The `manage.py` ones run in order
against throwaway SQLite databases in a temporary directory: simulate, export,
restore into a second database. A few are deliberately not run here; they are
listed in NOT_RUN with the reason, and the test fails if the README's commands and
these lists drift apart.
"""

import json
import os
import re
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

NOT_RUN = {
    # `make test` runs this very suite: running it from a test would recurse (and the
    # PostgreSQL variant needs a PostgreSQL server). `make -n test` is checked instead.
    "make test": "recurses",
    "DATABASE_URL=postgres://postgres@127.0.0.1:5432/ofc make test": "recurses",
    # `make run` ends in runserver, which serves forever. `make -n run` is checked instead.
    "make run": "serves forever",
    # `make venue` ends in gunicorn, which serves forever; tests/test_venue.py runs it.
    "make venue": "serves forever",
    # Docker is not installed here (tests/test_docker_compose.py checks the compose file).
    "docker compose up -d --build": "no docker",
    "docker compose exec app python manage.py createsuperuser": "no docker",
}

# What each command that does run must print (stdout and stderr together), in order.
EXPECTED_OUTPUT = {
    "export DJANGO_DEBUG=1": r"^1$",
    ".venv/bin/python manage.py migrate --noinput": r"Applying tournament\.0001_initial\.\.\. OK",
    ".venv/bin/python manage.py simulate_tournament --players 9 --seed 42": (
        r"\(id 1\): finished\n\s+1  \S"
    ),
    ".venv/bin/python manage.py export_tournament 1 --output backup.json": (
        r"Exported .+ to backup\.json\."
    ),
    "DATABASE_URL=sqlite:///restored.sqlite3 .venv/bin/python manage.py migrate --noinput": (
        r"Applying tournament\.0001_initial\.\.\. OK"
    ),
    "DATABASE_URL=sqlite:///restored.sqlite3 .venv/bin/python manage.py import_tournament"
    " backup.json": r"Imported .+ \(id 1\)\.",
    '.venv/bin/python -m scoring "Qs Qh 7d / Qd Qc 9s 8h 2c / As Ad Ac 3s 3d"'
    ' "6s 6h 2d / Js Jh 3h 4s 8c / 5d 6c 7h 8d 9d"': r"Player 1\n(.|\n)+points: \+\d+",
    ".venv/bin/python manage.py axes_reset_username td": r"No attempts found\.",
    "export DJANGO_SECRET_KEY=$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))')": (
        r"^[A-Za-z0-9_-]{60,}$"
    ),
}


def readme_commands():
    """The commands of the README's ```sh blocks, comments and blank lines dropped."""
    commands = []
    for block in re.findall(r"^```sh\n(.*?)^```", README.read_text(encoding="utf-8"), re.M | re.S):
        for line in block.splitlines():
            command = re.sub(r"\s+#.*$", "", line).strip()
            if command and not command.startswith("#"):
                commands.append(command)
    return commands


def test_the_readme_commands_are_the_ones_this_test_knows():
    commands = readme_commands()
    assert len(commands) == len(set(commands))
    unknown = [c for c in commands if c not in NOT_RUN and c not in EXPECTED_OUTPUT]
    assert unknown == [], "a new README command: run it here (EXPECTED_OUTPUT) or say why not"
    assert set(NOT_RUN) | set(EXPECTED_OUTPUT) == set(commands), "a command left the README"
    not_run = [c for c in commands if c in NOT_RUN]
    assert all(
        c.startswith("docker ") or c.endswith(("make run", "make test", "make venue"))
        for c in not_run
    )


@pytest.mark.parametrize("target", ["run", "test", "venue"])
def test_make_knows_the_targets_it_does_not_run_here(target):
    result = subprocess.run(
        ["make", "-n", target], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    expected = {"run": "manage.py runserver", "test": "-m pytest", "venue": "-m config.venue"}[
        target
    ]
    assert expected in result.stdout


def test_make_run_serves_on_the_port_it_is_given_and_its_links_name_it():
    result = subprocess.run(
        ["make", "-n", "run", "PORT=8001"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert '-m config.port 8001 --again "PORT={port} make run"' in result.stdout
    assert "manage.py demo_setup --address http://127.0.0.1:8001" in result.stdout
    assert "manage.py runserver 127.0.0.1:8001" in result.stdout
    assert "8000" not in result.stdout


def test_make_run_on_a_taken_port_says_so_in_one_line_and_starts_nothing():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        result = subprocess.run(
            ["make", "run", f"PORT={port}"], cwd=ROOT, capture_output=True, text=True
        )
    assert result.returncode != 0
    said = f"Port {port} is in use: choose another port: PORT={port + 1} make run"
    assert said in result.stderr.splitlines()
    assert "migrate" not in result.stdout  # nothing ran before the check


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_every_readme_command_runs_in_order(tmp_path):
    # The README's paths are relative to the repository: give the temporary directory
    # the same .venv and manage.py, so files the commands write (backup.json, the
    # restored database) land there and not in the working tree.
    (tmp_path / ".venv").symlink_to(ROOT / ".venv")
    (tmp_path / "manage.py").symlink_to(ROOT / "manage.py")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"  # instead of the repo's db.sqlite3
    env["DJANGO_BACKUP_DIR"] = str(tmp_path / "backups")  # instead of the repo's var/backups
    exports = []
    ran = []
    for command in readme_commands():
        if command in NOT_RUN:
            continue
        if command.startswith("export "):
            name = command.removeprefix("export ").split("=", 1)[0]
            script = "\n".join([*exports, command, f'printf "%s\\n" "${name}"'])
            exports.append(command)
        else:
            script = "\n".join([*exports, command])
        result = subprocess.run(
            ["bash", "-euc", script], cwd=tmp_path, env=env, capture_output=True, text=True
        )
        output = result.stdout + result.stderr
        assert result.returncode == 0, f"{command}\n{output}"
        assert re.search(EXPECTED_OUTPUT[command], output.strip(), re.M), f"{command}\n{output}"
        ran.append(command)
    assert len(ran) == len(EXPECTED_OUTPUT)

    backup = json.loads((tmp_path / "backup.json").read_text(encoding="utf-8"))
    assert backup
    assert (tmp_path / "restored.sqlite3").stat().st_size > 0
    assert not (ROOT / "restored.sqlite3").exists() and not (ROOT / "backup.json").exists()
