"""The database made read-only in the middle of play (a standby after a failover, or
`ALTER DATABASE ... SET default_transaction_read_only`), on a real gunicorn with two
workers: the revisor's hand is refused with the clear page (in the form, for htmx), nothing
is written, and once the database takes changes again the same entry is recorded once.

The setting holds for new connections, so the app's kept ones are ended as a restart would
(`pg_terminate_backend`); the workers reconnect (connection health checks) read-only.
"""

import pytest
import requests

from tests.faults.servers import (
    TIMEOUT,
    field_value,
    read_only,
    recorded_hands,
    text,
)

pytestmark = pytest.mark.postgres
HTMX = {"HX-Request": "true"}
POINTS = {"Anna": 4, "Bo": -1, "Cia": -3}
REFUSED = (
    "The database cannot take changes right now: nothing was recorded. "
    "Tell the TD; try again in a minute."
)


def test_a_database_made_read_only_refuses_the_hand_clearly_and_the_retry_records_it_once(
    pg_deployment, app_server, new_tournament
):
    _, url = app_server
    ids = new_tournament()
    seats = ids["seats"]
    revisor = requests.Session()
    card = revisor.get(f"{url}/r/{ids['key']}/", timeout=TIMEOUT)
    data = {f"points_{seats[name]}": str(points) for name, points in POINTS.items()}
    data.update(
        hand_number="1",
        idempotency_key=field_value(card.text, "idempotency_key"),
        csrfmiddlewaretoken=field_value(card.text, "csrfmiddlewaretoken"),
    )

    def send(headers=None):
        return revisor.post(f"{url}/r/card/hand/", data=data, headers=headers, timeout=TIMEOUT)

    with read_only(pg_deployment):
        # Whichever worker answers: the card still shows (reads work), entries are refused.
        for _ in range(3):
            shown = revisor.get(f"{url}/r/card/", timeout=TIMEOUT)
            assert shown.status_code == 200 and "Record hand 1" in text(shown.text)
            in_form = send(HTMX)
            assert in_form.status_code == 503
            assert in_form.headers["HX-Retarget"] == "closest form"
            assert REFUSED in text(in_form.text) and "<html" not in in_form.text
            page = send()
            assert page.status_code == 503 and REFUSED in text(page.text)
        assert recorded_hands(pg_deployment, ids["table"]) == []

    retried = send(HTMX)
    assert retried.status_code == 200
    assert "Hand 1 recorded ✓" in text(retried.text)
    assert recorded_hands(pg_deployment, ids["table"]) == [
        (1, 1, {seats[name]: points for name, points in POINTS.items()})
    ]
