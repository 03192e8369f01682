"""A worker killed in the middle of a hand's POST: the hand is recorded once or not at all,
and the revisor's retry (the same submission key) records it exactly once.

A real gunicorn with two workers on PostgreSQL. The test stops the worker at a chosen
moment of the POST with a lock of its own, taken from a second connection, kills that
worker (SIGKILL: no cleanup of any kind), then lets go of the lock:

- before the commit: the test holds the table's row (`FOR UPDATE`), so the worker waits
  inside the hand's transaction, at the service's lock of the table;
- after the commit: the test holds the table of the TD's calls (`LOCK TABLE ... ACCESS
  EXCLUSIVE`), which the revisor's card reads to answer, after the hand is committed.

No test hook in the app: the worker waits where any request would wait for a lock.
"""

import threading

import pytest
import requests

from tests.faults.servers import (
    TIMEOUT,
    app_backends,
    connect,
    field_value,
    lock_waiter,
    recorded_hands,
    text,
    wait_until,
    worker_with_connection,
)

pytestmark = pytest.mark.postgres
HTMX = {"HX-Request": "true"}
POINTS = {"Anna": 4, "Bo": -1, "Cia": -3}
BEFORE_COMMIT, AFTER_COMMIT = "before the commit", "after the commit"


@pytest.mark.parametrize("moment", [BEFORE_COMMIT, AFTER_COMMIT])
def test_a_worker_killed_mid_post_leaves_the_hand_whole_and_the_retry_records_it_once(
    pg_deployment, app_server, new_tournament, moment
):
    master, url = app_server
    ids = new_tournament()
    seats = ids["seats"]
    expected = [(1, 1, {seats[name]: points for name, points in POINTS.items()})]
    revisor = requests.Session()
    card = revisor.get(f"{url}/r/{ids['key']}/", timeout=TIMEOUT)
    assert "Record hand 1" in text(card.text)
    data = {f"points_{seats[name]}": str(points) for name, points in POINTS.items()}
    data.update(
        hand_number="1",
        idempotency_key=field_value(card.text, "idempotency_key"),
        csrfmiddlewaretoken=field_value(card.text, "csrfmiddlewaretoken"),
    )

    def send():
        return revisor.post(f"{url}/r/card/hand/", data=data, headers=HTMX, timeout=TIMEOUT)

    outcome = {}

    def send_and_keep():
        try:
            outcome["answer"] = send()
        except requests.ConnectionError as error:
            outcome["error"] = error

    with connect(pg_deployment) as blocker, blocker.transaction():
        if moment == BEFORE_COMMIT:
            blocker.execute(
                "SELECT id FROM tournament_table WHERE id = %s FOR UPDATE", [ids["table"]]
            )
        else:
            blocker.execute("LOCK TABLE tournament_tablecall IN ACCESS EXCLUSIVE MODE")
        sender = threading.Thread(target=send_and_keep)
        sender.start()
        _pid, port = wait_until(lambda: lock_waiter(pg_deployment), "the POST waits")
        # Where it waits: inside the hand's transaction, or with the hand committed.
        assert recorded_hands(pg_deployment, ids["table"]) == (
            [] if moment == BEFORE_COMMIT else expected
        )
        worker = worker_with_connection(master, port)
        backends_before = set(app_backends(pg_deployment))
        worker.kill()
        worker.wait(TIMEOUT)
    # The lock is let go; the killed worker's connection ends with its transaction.
    sender.join(TIMEOUT)
    assert "answer" not in outcome, "the killed worker answered"
    wait_until(
        lambda: (
            not any(
                pid in backends_before and port_ == port
                for pid, port_ in app_backends(pg_deployment).items()
            )
        ),
        "the killed worker's connection ends",
    )
    assert recorded_hands(pg_deployment, ids["table"]) == (
        [] if moment == BEFORE_COMMIT else expected
    )

    # The revisor sends it again (the page keeps what was typed and its key): once.
    retried = send()
    assert retried.status_code == 200, retried.text
    if moment == BEFORE_COMMIT:
        assert "Hand 1 recorded ✓" in text(retried.text)
    else:
        assert "Hand 1 was already recorded (the same entry arrived twice)." in text(retried.text)
    assert "Hand 2 of 3" in text(retried.text)
    assert recorded_hands(pg_deployment, ids["table"]) == expected

    # And once more: still one hand, one version.
    again = send()
    assert "Hand 1 was already recorded (the same entry arrived twice)." in text(again.text)
    assert recorded_hands(pg_deployment, ids["table"]) == expected
