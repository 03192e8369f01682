"""A real app server for the fault tests: gunicorn with several threaded workers, as a
deployment runs it, on a database of its own (tests/production/servers.py's Deployment),
and what the tests do to it from outside: see its workers' database connections, cut
them, kill a worker.
"""

import html
import re
import time
from contextlib import closing, contextmanager

import psutil
import psycopg
import requests

from tests.production.servers import postgres_url, run_psql_command

TIMEOUT = 30


# Deployed workers, with one thread each and no kept client connections: each request of a
# test may land on any worker, and each worker holds one database connection, which the
# tests watch and cut.
WORKER_ARGS = ("--worker-class", "gthread", "--threads", "1", "--keep-alive", "0")


def start_workers(deployment, workers=2, env=None):
    """gunicorn with `workers` workers on a free port: (master process, base URL)."""
    return deployment.start_app_server(env, workers=workers, worker_args=WORKER_ARGS)


def connect(deployment):
    """A connection of the test's own to the deployment's database (autocommit)."""
    return closing(psycopg.connect(deployment.database_url, autocommit=True))


def app_backends(deployment):
    """{backend pid: client port} of every connection to the deployment's database but
    the asking one: the app's workers' (and a setup script's, while it runs)."""
    with connect(deployment) as db:
        rows = db.execute(
            "SELECT pid, client_port FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
    return dict(rows)


def terminate_backends(deployment, keep=()):
    """What a database restart does to the app's kept connections: each is ended by the
    server (`pg_terminate_backend`), all but the backends `keep` names (a test's own);
    returns the ended backends' pids."""
    ended = set(app_backends(deployment)) - set(keep)
    with connect(deployment) as db:
        for pid in ended:
            db.execute("SELECT pg_terminate_backend(%s)", [pid])
    wait_until(lambda: not ended & set(app_backends(deployment)), "the backends end")
    return ended


def set_read_only(deployment, on, keep=()):
    """The deployment's database read-only for new connections (as a standby after a
    failover is), or writable again, and the app's connections ended (all but `keep`), as
    a failover ends them: its workers reconnect so (connection health checks)."""
    name = deployment.database_url.rsplit("/", 1)[1]
    setting = "SET default_transaction_read_only = on" if on else "RESET ALL"
    run_psql_command(postgres_url(), f'ALTER DATABASE "{name}" {setting}')
    terminate_backends(deployment, keep)


def allow_connections(deployment, allowed):
    """Whether the deployment's database takes new connections: refused ("not currently
    accepting connections"), as while it restarts or fails over; kept ones stay."""
    name = deployment.database_url.rsplit("/", 1)[1]
    run_psql_command(
        postgres_url(), f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS {str(allowed).lower()}'
    )


@contextmanager
def read_only(deployment):
    set_read_only(deployment, True)
    try:
        yield
    finally:
        set_read_only(deployment, False)


def log_in_td(url):
    """A browser session of the TD `director` (tests/production/conftest.py's SETUP)."""
    td = requests.Session()
    form = td.get(f"{url}/accounts/login/", timeout=TIMEOUT)
    answer = td.post(
        f"{url}/accounts/login/",
        data={
            "username": "director",
            "password": "td-pass-123",
            "csrfmiddlewaretoken": field_value(form.text, "csrfmiddlewaretoken"),
        },
        timeout=TIMEOUT,
        allow_redirects=False,
    )
    assert answer.status_code == 302, answer.text
    return td


def lock_waiter(deployment):
    """(backend pid, client port) of the app's connection that waits for a lock, or None."""
    with connect(deployment) as db:
        return db.execute(
            "SELECT pid, client_port FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock'"
        ).fetchone()


def end_backend(deployment, pid):
    """End one backend of the app's, as a restart or a failover ends it, and wait till it
    is gone."""
    with connect(deployment) as db:
        db.execute("SELECT pg_terminate_backend(%s)", [pid])
    wait_until(lambda: pid not in app_backends(deployment), f"backend {pid} ends")


def recorded_hands(deployment, table_id):
    """[(hand number, versions, {seat position: points})] of the table, as stored."""
    with connect(deployment) as db:
        hands = db.execute(
            "SELECT h.id, h.number, count(DISTINCT v.id) FROM tournament_hand h "
            "JOIN tournament_handversion v ON v.hand_id = h.id "
            "WHERE h.table_id = %s GROUP BY h.id, h.number ORDER BY h.number",
            [table_id],
        ).fetchall()
        found = []
        for hand_id, number, versions in hands:
            points = db.execute(
                "SELECT s.position, r.points FROM tournament_handresult r "
                "JOIN tournament_handversion v ON v.id = r.version_id "
                "JOIN tournament_seat s ON s.id = r.seat_id WHERE v.hand_id = %s",
                [hand_id],
            ).fetchall()
            found.append((number, versions, dict(points)))
    return found


def worker_backends(master, deployment):
    """{worker pid: its database backend's pid} for the workers of gunicorn `master` that
    hold a connection to the deployment's database (matched by the connection's port)."""
    by_port = {port: pid for pid, port in app_backends(deployment).items()}
    found = {}
    for worker in psutil.Process(master.pid).children():
        for socket in worker.net_connections(kind="tcp"):
            if socket.laddr and socket.laddr.port in by_port:
                found[worker.pid] = by_port[socket.laddr.port]
    return found


def worker_with_connection(master, client_port):
    """The gunicorn worker (a psutil.Process) whose database connection leaves from
    `client_port` of 127.0.0.1."""
    for worker in psutil.Process(master.pid).children():
        for socket in worker.net_connections(kind="tcp"):
            if socket.laddr and socket.laddr.port == client_port:
                return worker
    raise AssertionError(f"no worker of gunicorn {master.pid} holds port {client_port}")


def wait_until(condition, what, seconds=TIMEOUT):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"waited {seconds} s for: {what}")


def text(page):
    """A page's words, tags dropped and spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def field_value(page, name):
    """The value of the page's (first) input called `name`."""
    found = re.search(rf'name="{re.escape(name)}"[^>]*?value="([^"]*)"', page)
    if found is None:
        found = re.search(rf'value="([^"]*)"[^>]*?name="{re.escape(name)}"', page)
    assert found is not None, f"no input {name} on the page"
    return html.unescape(found.group(1))
