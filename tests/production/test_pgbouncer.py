"""PgBouncer in transaction mode between the app and PostgreSQL (docs/deployment.md).

Each transaction may run on another of PgBouncer's server connections, so nothing may
outlive a transaction on the server. Django's server-side cursors (`QuerySet.iterator()`
and everything else that reads in chunks) do: their later chunks are looked for on
whichever connection the next statement gets. DJANGO_DB_POOLER=transaction turns them off
(DISABLE_SERVER_SIDE_CURSORS). A real PgBouncer with two server connections shows both.
The app's pages behind it: tests/production/test_two_app_servers.py.
"""

import shutil
import subprocess
import sys

import pytest

from tests.production.servers import (
    ROOT,
    SECRET,
    clean_environment,
    pgbouncer_binary,
    postgres_url,
    start_pgbouncer,
    stop,
    with_database,
)

# QuerySet.iterator() reading in chunks of 2, whose later chunks are fetched while another
# client's transaction holds the server connection the first came from, so PgBouncer
# gives those fetches its other server connection. Prints whether every row came.
CHUNKED_READ = """
import threading
import django
django.setup()
from django.contrib.contenttypes.models import ContentType
from django.db import connection, connections, transaction

holding, release = threading.Event(), threading.Event()

def another_client():
    with transaction.atomic():
        connection.cursor().execute("SELECT 1")
        holding.set()
        release.wait(10)
    connections.close_all()

ids = ContentType.objects.order_by("pk").values_list("pk", flat=True).iterator(chunk_size=2)
read = [next(ids), next(ids)]
other = threading.Thread(target=another_client)
other.start()
holding.wait(10)
try:
    read += list(ids)
    print("all rows", read == list(ContentType.objects.order_by("pk").values_list("pk", flat=True)))
except Exception as error:
    print("error", type(error).__name__, error)
finally:
    release.set()
    other.join()
"""


@pytest.fixture(scope="module")
def pooled_url(request):
    """The deployment's database through PgBouncer (transaction mode, two server
    connections)."""
    server = postgres_url()
    if server is None:
        pytest.skip("PgBouncer stands in front of PostgreSQL; the suite runs on SQLite")
    if pgbouncer_binary() is None:
        pytest.skip("pgbouncer is not installed (apt-get install -y pgbouncer)")
    deployment = request.getfixturevalue("deployment")
    process, port, folder = start_pgbouncer(server, pool_size=2)
    name = deployment.database_url.rsplit("/", 1)[1]
    yield with_database(server, name, port=port)
    stop(process)
    shutil.rmtree(folder, ignore_errors=True)


def chunked_read(database_url, **env):
    result = subprocess.run(
        [sys.executable, "-c", CHUNKED_READ],
        cwd=ROOT,
        env={
            **clean_environment(),
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_SECRET_KEY": SECRET,
            "DATABASE_URL": database_url,
            **env,
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_server_side_cursors_lose_their_place_behind_pgbouncer_in_transaction_mode(pooled_url):
    # Why the setting exists: without it, the second chunk is looked for elsewhere.
    printed = chunked_read(pooled_url)
    assert printed.startswith("error") and "does not exist" in printed, printed


def test_with_db_pooler_transaction_chunked_reads_work_behind_pgbouncer(pooled_url):
    printed = chunked_read(pooled_url, DJANGO_DB_POOLER="transaction")
    assert printed == "all rows True"


def test_the_pooler_setting_turns_server_side_cursors_off_and_refuses_unknown_modes():
    probe = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.DATABASES['default'].get('DISABLE_SERVER_SIDE_CURSORS', False))"
    )
    base = {
        **clean_environment(),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_SECRET_KEY": SECRET,
        "DATABASE_URL": "postgres://ofc@db:6432/ofc",
    }

    def run(**env):
        return subprocess.run(
            [sys.executable, "-c", probe],
            cwd=ROOT,
            env={**base, **env},
            capture_output=True,
            text=True,
        )

    assert run().stdout.strip() == "False"
    assert run(DJANGO_DB_POOLER="transaction").stdout.strip() == "True"
    assert run(DJANGO_DB_POOLER="Transaction ").stdout.strip() == "True"
    assert run(DJANGO_DB_POOLER="session").stdout.strip() == "False"
    refused = run(DJANGO_DB_POOLER="transactions")
    assert refused.returncode != 0
    assert "DJANGO_DB_POOLER='transactions'" in refused.stderr
    assert "DJANGO_DB_POOLER=transaction" in refused.stderr
