"""The database restarts in the middle of play: every worker's next requests recover.

A real gunicorn with two workers keeps its database connections between requests
(CONN_MAX_AGE, as in production). The machine's PostgreSQL is shared with other tests,
so it is not restarted: the server ends each of the app's connections instead
(`pg_terminate_backend` from a connection of the test's own), which is what a restart does
to them. Then the revisor's and the TD's next requests, whichever worker answers them,
must be answered as always: no 500, the right page. With connection health checks off
(the default before issue 18), each worker's first request after the restart failed.
"""

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from tests.faults.servers import (
    TIMEOUT,
    field_value,
    log_in_td,
    terminate_backends,
    text,
    worker_backends,
)

pytestmark = pytest.mark.postgres
WORKERS = 2


def together(*calls):
    """Run the calls at the same time (so that both workers may take one each)."""
    with ThreadPoolExecutor(len(calls)) as pool:
        return [future.result() for future in [pool.submit(call) for call in calls]]


def test_every_worker_recovers_from_a_database_restart_without_a_500(
    pg_deployment, app_server, new_tournament
):
    master, url = app_server
    ids = new_tournament()
    revisor = requests.Session()
    assert revisor.get(f"{url}/r/{ids['key']}/", timeout=TIMEOUT).status_code == 200
    td = log_in_td(url)
    td_table = f"{url}/td/{ids['tournament']}/tables/{ids['table']}/"

    def card():
        return revisor.get(f"{url}/r/card/", timeout=TIMEOUT)

    def td_page():
        return td.get(td_table, timeout=TIMEOUT)

    def visit_until_every_worker_is_connected(expected, ended=frozenset()):
        """The revisor's card and the TD's table page, side by side, until each worker
        holds a connection other than the `ended` ones; every answer must be right."""
        answers = []
        for _ in range(60):
            for answer in together(card, td_page):
                answers.append(answer)
                assert answer.status_code == 200, (answer.status_code, answer.url)
                assert expected in text(answer.text), (expected, answer.url)
            connected = worker_backends(master, pg_deployment)
            if len(connected) == WORKERS and not ended & set(connected.values()):
                return answers
            time.sleep(0.05)
        raise AssertionError(f"a worker never connected again: {connected}")

    # Both workers serve the room and keep a connection each.
    visit_until_every_worker_is_connected("Hand 1 of 3")

    # The database restarts: every kept connection is ended by the server.
    ended = terminate_backends(pg_deployment)
    assert len(ended) == WORKERS
    visit_until_every_worker_is_connected("Hand 1 of 3", frozenset(ended))

    # Again, and this time the revisor's first request records hand 1 (Anna +4, Bo -1,
    # Cia -3, typed into the card shown before the restart) while the TD opens the page.
    form = card().text
    ended = terminate_backends(pg_deployment)
    points = {"Anna": 4, "Bo": -1, "Cia": -3}
    data = {f"points_{ids['seats'][name]}": str(value) for name, value in points.items()}
    data.update(
        hand_number="1",
        idempotency_key=field_value(form, "idempotency_key"),
        csrfmiddlewaretoken=field_value(form, "csrfmiddlewaretoken"),
    )
    recorded, page = together(
        lambda: revisor.post(f"{url}/r/card/hand/", data=data, timeout=TIMEOUT),
        td_page,
    )
    assert [step.status_code for step in recorded.history] == [302]
    assert recorded.status_code == 200, recorded.status_code
    assert "Hand 1 recorded ✓" in text(recorded.text)
    assert "Hand 2 of 3" in text(recorded.text)
    assert page.status_code == 200, page.status_code
    visit_until_every_worker_is_connected("Hand 2 of 3", frozenset(ended))
    shown = text(td_page().text)
    assert "Anna" in shown and "+4" in shown and "-3" in shown
