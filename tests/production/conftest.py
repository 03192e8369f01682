import json
import shutil
import uuid

import pytest

from tests.production.servers import (
    Deployment,
    pgbouncer_binary,
    postgres_url,
    run_psql_command,
    start_pgbouncer,
    start_redis,
    stop,
    with_database,
)

# A tournament of three players drawn at one table, and the TD's login (made once). Each
# run makes a new tournament; it prints the ids, the revisor's link key and the seats.
SETUP = """
import json
from django.contrib.auth import get_user_model
from tournament.models import Tournament
from tournament.services import draws, registration

users = get_user_model().objects
td = users.filter(username="director").first() or users.create_user(
    "director", password="td-pass-123", is_staff=True
)
# A name of its own: no two tournaments share one (services/registration.py).
tournament = registration.create_tournament(
    actor=td, name=f"SM 2026 {Tournament.objects.count() + 1}", min_hands=3
)
for name in ["Anna", "Bo", "Cia"]:
    registration.register_player(tournament=tournament, actor=td, name=name)
level = draws.draw_first_level(tournament=tournament, actor=td, seed="fixed-seed")
table = level.tables.get()
seats = {seat.player.name: seat.position for seat in table.seats.select_related("player")}
print(json.dumps(
    {"tournament": tournament.pk, "table": table.pk, "key": table.revisor_key, "seats": seats}
))
"""


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    """A Redis of the module's own; the machine's redis-server binary (Debian's
    redis-server package, which .ci/run installs)."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (apt-get install -y redis-server)")
    process, url = start_redis(tmp_path_factory.mktemp("redis"))
    yield url
    stop(process)


@pytest.fixture(scope="module")
def deployment(tmp_path_factory):
    """A database of the module's own, migrated. PostgreSQL when the suite runs on it
    (a database made here and dropped afterwards), else a SQLite file in WAL mode."""
    work_dir = tmp_path_factory.mktemp("deployment")
    server = postgres_url()
    if server:
        name = f"ofc_twoapps_{uuid.uuid4().hex[:12]}"
        run_psql_command(server, f'CREATE DATABASE "{name}"')
        database_url = with_database(server, name)
    else:
        database_url = f"sqlite:///{work_dir / 'shared.sqlite3'}"
    try:
        deployment = Deployment(work_dir, database_url)
        deployment.manage("migrate", "--noinput", "-v", "0")
        yield deployment
    finally:
        if server:
            run_psql_command(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def new_tournament(deployment):
    """A new tournament drawn at one table in the deployment's database (see SETUP)."""
    return json.loads(deployment.python(SETUP))


@pytest.fixture(scope="module")
def pgbouncer_port():
    """PgBouncer in transaction mode in front of the suite's PostgreSQL server, with one
    server connection (Debian's pgbouncer package, which .ci/run installs)."""
    server = postgres_url()
    if server is None:
        pytest.skip("PgBouncer stands in front of PostgreSQL; the suite runs on SQLite")
    if pgbouncer_binary() is None:
        pytest.skip("pgbouncer is not installed (apt-get install -y pgbouncer)")
    # One server connection: every client meets what another left on it, at once.
    process, port, folder = start_pgbouncer(server, pool_size=1)
    yield port
    stop(process)
    shutil.rmtree(folder, ignore_errors=True)
