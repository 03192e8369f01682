"""Real parts for the production tests: app servers (gunicorn), a Redis, a PgBouncer and a
database of their own, each started on a free port of 127.0.0.1 and stopped afterwards.

The servers run outside pytest's transaction, so they get a database made for them (a
SQLite file in WAL mode, or a PostgreSQL database of the server DATABASE_URL names,
dropped at the end), migrated by `manage.py migrate` as a deployment would.
"""

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from config.venue import WORKER_ARGS

ROOT = Path(__file__).resolve().parent.parent.parent
SECRET = "production-test-" + uuid.uuid4().hex


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port, process, seconds=60):
    """Wait until something listens on 127.0.0.1:`port`; fail if `process` ends first."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args[0]} ended with {process.returncode}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {seconds} s")


def stop(process):
    """Stop a process this module started (by its own id), then reap it."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def clean_environment():
    """This process's environment without any setting of the app's: each server gets its own."""
    return {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))
    }


def postgres_url():
    """The PostgreSQL server the suite runs on (DATABASE_URL), or None on SQLite."""
    url = os.environ.get("DATABASE_URL", "")
    return url if url.startswith(("postgres://", "postgresql://")) else None


def with_database(url, name, *, port=None):
    """`url` naming database `name` (and another port, when given)."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if port is not None:
        netloc = re.sub(r":\d+$", "", netloc) + f":{port}"
    return urlunsplit((parts.scheme, netloc, "/" + name, "", ""))


def run_psql_command(url, sql):
    """One statement on the server of `url` (its maintenance database), autocommit."""
    import psycopg

    with psycopg.connect(with_database(url, "postgres"), autocommit=True) as connection:
        connection.execute(sql)


class Deployment:
    """What the app servers share: settings, the environment, the database."""

    def __init__(self, work_dir, database_url, extra_env=None):
        self.work_dir = Path(work_dir)
        self.database_url = database_url
        settings_file = self.work_dir / "production_test_settings.py"
        # The production settings, but static files as they are: no collectstatic (half
        # a minute), and these tests ask for pages, not their CSS.
        settings_file.write_text(
            "from config.settings import *  # noqa: F403\n\n"
            "STORAGES = {**STORAGES, 'staticfiles': {'BACKEND': "
            "'django.contrib.staticfiles.storage.StaticFilesStorage'}}\n"
        )
        self.env = {
            **clean_environment(),
            "PYTHONPATH": os.pathsep.join([str(self.work_dir), str(ROOT)]),
            "DJANGO_SETTINGS_MODULE": "production_test_settings",
            "DJANGO_SECRET_KEY": SECRET,
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "DJANGO_SECURE_SSL_REDIRECT": "0",
            "DJANGO_SECURE_COOKIES": "0",
            "DJANGO_HSTS_SECONDS": "0",
            "DJANGO_BACKUP_DIR": "",
            "DATABASE_URL": database_url,
            **(extra_env or {}),
        }

    def manage(self, *args, env=None):
        result = subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), *args],
            cwd=ROOT,
            env={**self.env, **(env or {})},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    def python(self, code, env=None):
        """Run `code` with Django set up as the servers have it; its printed output."""
        result = subprocess.run(
            [sys.executable, "-c", "import django\ndjango.setup()\n" + code],
            cwd=ROOT,
            env={**self.env, **(env or {})},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    def start_app_server(self, env=None, *, workers=1, worker_args=WORKER_ARGS):
        """A gunicorn (threaded workers, as each of compose's replicas runs it, only fewer:
        one unless told) on a free port; returns (process, base URL)."""
        port = free_port()
        log = open(self.work_dir / f"gunicorn-{port}.log", "w")  # noqa: SIM115
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "config.wsgi:application",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                str(workers),
                *worker_args,
                "--timeout",
                "120",
            ],
            cwd=ROOT,
            env={**self.env, **(env or {})},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        wait_for_port(port, process)
        return process, f"http://127.0.0.1:{port}"

    def log_of(self, url):
        return (self.work_dir / f"gunicorn-{urlsplit(url).port}.log").read_text()


def start_redis(work_dir, port=None):
    """A Redis of the test's own (no persistence) on a free port, or `port`: (process, URL)."""
    binary = shutil.which("redis-server")
    port = port or free_port()
    process = subprocess.Popen(
        [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(work_dir),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_for_port(port, process)
    return process, f"redis://127.0.0.1:{port}/0"


def pgbouncer_binary():
    return shutil.which("pgbouncer") or (
        "/usr/sbin/pgbouncer" if Path("/usr/sbin/pgbouncer").exists() else None
    )


def start_pgbouncer(server_url, *, pool_size=2):
    """PgBouncer in transaction mode in front of the PostgreSQL server of `server_url`, on
    a free port, trusting local clients: (process, port, its folder, to be removed). It
    refuses to run as root, so as root it runs as the user `postgres`, which then owns its
    folder (made in the system's temporary folder, which that user can reach)."""
    parts = urlsplit(server_url)
    folder = Path(tempfile.mkdtemp(prefix="ofc-pgbouncer-"))
    port = free_port()
    user = parts.username or "postgres"
    (folder / "userlist.txt").write_text(f'"{user}" ""\n')
    (folder / "pgbouncer.ini").write_text(
        "[databases]\n"
        f"* = host={parts.hostname or '127.0.0.1'} port={parts.port or 5432}\n"
        "[pgbouncer]\n"
        "listen_addr = 127.0.0.1\n"
        f"listen_port = {port}\n"
        "unix_socket_dir =\n"
        "auth_type = trust\n"
        f"auth_file = {folder / 'userlist.txt'}\n"
        "pool_mode = transaction\n"
        f"default_pool_size = {pool_size}\n"
        "max_client_conn = 100\n"
        f"logfile = {folder / 'pgbouncer.log'}\n"
    )
    command = [pgbouncer_binary()]
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
        for path in folder.iterdir():
            shutil.chown(path, "postgres")
        command += ["-u", "postgres"]
    process = subprocess.Popen(
        [*command, str(folder / "pgbouncer.ini")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_for_port(port, process)
    return process, port, folder
