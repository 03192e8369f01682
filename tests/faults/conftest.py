import json
import uuid

import pytest

from tests.faults.servers import start_workers
from tests.production.conftest import SETUP
from tests.production.servers import (
    Deployment,
    postgres_url,
    run_psql_command,
    stop,
    with_database,
)
from tests.tournament.conftest import make_tournament  # noqa: F401 (a fixture for these tests)
from tests.tournament.views.conftest import revisor, table  # noqa: F401 (Anna, Bo and Cia)


@pytest.fixture(scope="session")
def pg_deployment(tmp_path_factory):
    """A PostgreSQL database of these tests' own (made here, migrated by `manage.py
    migrate` as a deployment would, dropped afterwards), on the server the suite runs on.
    The faults these tests make (connections cut, a worker killed) need a real server."""
    server = postgres_url()
    if server is None:
        pytest.skip("needs a real PostgreSQL server (DATABASE_URL=postgres://...)")
    name = f"ofc_faults_{uuid.uuid4().hex[:12]}"
    run_psql_command(server, f'CREATE DATABASE "{name}"')
    try:
        deployment = Deployment(tmp_path_factory.mktemp("faults"), with_database(server, name))
        deployment.manage("migrate", "--noinput", "-v", "0")
        yield deployment
    finally:
        run_psql_command(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def app_server(pg_deployment):
    """gunicorn with two workers on the deployment, kept connections (CONN_MAX_AGE
    60 s, the default) and the default settings otherwise: (master process, base URL)."""
    process, url = start_workers(pg_deployment, workers=2)
    try:
        yield process, url
    finally:
        stop(process)


# The tournament's settings beyond SETUP's (`entry_mode="cards"`), given by the test.
SETUP_WITH_OPTIONS = SETUP.replace("min_hands=3", "min_hands=3, **OPTIONS")
assert SETUP_WITH_OPTIONS != SETUP


@pytest.fixture
def new_tournament(pg_deployment):
    """A tournament of Anna, Bo and Cia drawn at one table, and the TD `director`
    (tests/production/conftest.py's SETUP), with `options` for its settings: its ids,
    revisor key and seats."""

    def make(**options):
        code = f"OPTIONS = {options!r}\n" + SETUP_WITH_OPTIONS
        return json.loads(pg_deployment.python(code))

    return make
