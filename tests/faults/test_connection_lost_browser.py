"""The connection to the database lost while the revisor's phone uses it, in a real browser
(360 px) against a real gunicorn on PostgreSQL: the hand's form says the hand is recorded
and sends it again by itself, with its key, and the card ends showing it recorded once; a
poll whose connection is lost shows its region's "trying again" and polls on.

The test stops the request with a lock of its own and ends its backend meanwhile, as in
test_connection_lost.py.
"""

import re

import pytest

from tests.faults.servers import (
    TIMEOUT,
    connect,
    end_backend,
    lock_waiter,
    recorded_hands,
    start_workers,
    wait_until,
)
from tests.production.servers import stop

pytestmark = [pytest.mark.browser, pytest.mark.postgres]
POINTS = {"Anna": 4, "Bo": -1, "Cia": -3}
CALLS = "LOCK TABLE tournament_tablecall IN ACCESS EXCLUSIVE MODE"
TABLES = "LOCK TABLE tournament_table IN ACCESS EXCLUSIVE MODE"
# The production settings, and static files served from the folders (no collectstatic).
BROWSER_SETTINGS = (
    "from production_test_settings import *  # noqa: F403\n\nWHITENOISE_USE_FINDERS = True\n"
)


@pytest.fixture(scope="module")
def server(pg_deployment):
    (pg_deployment.work_dir / "browser_settings.py").write_text(BROWSER_SETTINGS)
    env = {"DJANGO_SETTINGS_MODULE": "browser_settings", "DJANGO_PUBLIC_TOKEN_SECONDS": "0"}
    process, url = start_workers(pg_deployment, env=env)
    try:
        yield url
    finally:
        stop(process)


@pytest.fixture
def phone(chromium_browser):
    context = chromium_browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    try:
        yield context.new_page()
    finally:
        context.close()


def lock_waiters(deployment):
    with connect(deployment) as db:
        rows = db.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock'"
        ).fetchall()
    return [pid for (pid,) in rows]


def test_a_hand_whose_connection_dies_after_its_commit_ends_recorded_once_by_itself(
    pg_deployment, server, new_tournament, phone
):
    ids = new_tournament()
    page = phone
    page.goto(f"{server}/r/{ids['key']}/")
    page.wait_for_url(re.compile(r".*/r/card/$"))
    for name, points in POINTS.items():
        page.get_by_label(f"Points for {name}").fill(str(points))

    with connect(pg_deployment) as blocker, blocker.transaction():
        blocker.execute(CALLS)  # the card the hand answers with waits for it
        page.get_by_role("button", name="Record hand 1").click()
        wait_until(lambda: recorded_hands(pg_deployment, ids["table"]), "the hand commits")
        wait_until(lambda: lock_waiter(pg_deployment), "the answer waits")
        # (a poll of the card may wait beside it: every waiter's connection dies)
        for pid in lock_waiters(pg_deployment):
            end_backend(pg_deployment, pid)

    alert = page.locator("#points-form").get_by_role("alert")
    alert.wait_for()
    assert [line for line in alert.inner_text().splitlines() if line] == [
        "Hand 1 is recorded: the connection to the database was lost only after it was saved.",
        "It is sent again by itself in a moment: it is recorded once.",
    ]
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    # Sent again by the page: the card of hand 2, with hand 1 recorded, said once.
    page.get_by_text("Hand 2 of 3").wait_for(timeout=TIMEOUT * 1000)
    assert page.get_by_text("Hand 1 recorded ✓").count() == 1
    assert page.get_by_text("arrived twice").count() == 0
    assert page.locator(".fault-alert").count() == 0
    assert recorded_hands(pg_deployment, ids["table"]) == [
        (1, 1, {ids["seats"][name]: points for name, points in POINTS.items()})
    ]


def test_a_poll_whose_connection_is_lost_says_so_in_its_region_and_polls_on(
    pg_deployment, server, new_tournament, phone
):
    ids = new_tournament()
    page = phone
    page.goto(f"{server}/r/{ids['key']}/")
    page.wait_for_url(re.compile(r".*/r/card/$"))
    page.get_by_label("Points for Anna").fill("7")  # typed, and kept throughout
    summary = page.locator("#card-summary")

    with connect(pg_deployment) as blocker, blocker.transaction():
        blocker.execute(TABLES)  # the poll's token, then its binding, wait for it
        for _ in range(2):  # lost, then lost again on a fresh connection: 503
            pid, _port = wait_until(lambda: lock_waiter(pg_deployment), "the poll waits")
            end_backend(pg_deployment, pid)
        note = summary.get_by_role("status").filter(
            has_text="The server lost its connection to the database: trying again…"
        )
        note.wait_for()
        assert "Table 1 · level 1" in summary.inner_text()  # what it showed, kept

    # The next poll is answered: the note goes, and the form was never touched.
    note.wait_for(state="detached", timeout=TIMEOUT * 1000)
    assert page.get_by_label("Points for Anna").input_value() == "7"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
