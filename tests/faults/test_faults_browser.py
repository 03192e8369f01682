"""A revisor's hand refused by a read-only database, on a 360 px phone: the message shows in
the form the hand was typed into, what was typed stays, and tapping the button again once
the database takes changes records the hand once.
"""

import re
from contextlib import contextmanager

import pytest
from django.db import connection
from pytest_django.live_server_helper import LiveServer

from tests.browser.helpers import tournament_with
from tournament.models import Hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LONG_NAME = "Karl-Erik Lindqvist-Söderström"
POINTS = {"Anna": 4, "Bo": -1, LONG_NAME: -3}


@pytest.fixture
def server(transactional_db):
    """A live server started after the test's database exists, so that on SQLite it
    serves from the test's own connection (pytest-django's session-wide one, started
    before, opens connections of its own, which it keeps from request to request)."""
    live = LiveServer("localhost")
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture
def phone(chromium_browser, server):
    """A 360 px phone, closed before the server stops (its open connections with it)."""
    context = chromium_browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    try:
        yield context.new_page()
    finally:
        context.close()


def set_read_only(on):
    """PostgreSQL: the test database read-only for new connections (or not any more), and
    the server's connections ended, as a restart would: it opens new ones (connection
    health checks), which start so. The test's own connection is left as it is."""
    name = connection.settings_dict["NAME"]
    setting = (
        "SET default_transaction_read_only = on" if on else "RESET default_transaction_read_only"
    )
    with connection.cursor() as cursor:
        cursor.execute(f'ALTER DATABASE "{name}" {setting}')
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@contextmanager
def read_only_database():
    """The server's database refuses changes, as one made read-only does. SQLite: the
    server's connection (the test's) is `query_only`. PostgreSQL: `ALTER DATABASE ... SET
    default_transaction_read_only`, for the server's next connections."""
    postgres = connection.vendor == "postgresql"
    if postgres:
        set_read_only(True)
    else:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA query_only = ON")
    try:
        yield
    finally:
        if postgres:
            set_read_only(False)
        else:
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA query_only = OFF")


def test_a_refused_hand_is_said_in_its_form_and_the_same_tap_later_records_it_once(
    phone, server, td_user
):
    page = phone
    _, (table,) = tournament_with(["Anna", "Bo", LONG_NAME], td_user)
    page.goto(f"{server.url}/r/{table.revisor_key}/")
    page.wait_for_url(re.compile(r".*/r/card/$"))
    for name, points in POINTS.items():
        page.get_by_label(f"Points for {name}").fill(str(points))
    record = page.get_by_role("button", name="Record hand 1")

    with read_only_database():
        record.click()
        alert = page.locator("#points-form").get_by_role("alert")
        alert.wait_for()
    assert alert.inner_text().splitlines()[0] == (
        "The database cannot take changes right now: nothing was recorded. "
        "Tell the TD; try again in a minute."
    )
    # The form is as it was typed, its button ready to be tapped again.
    for name, points in POINTS.items():
        assert page.get_by_label(f"Points for {name}").input_value() == str(points)
    assert record.is_enabled()
    assert not Hand.objects.exists()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    record.click()
    page.get_by_text("Hand 1 recorded ✓").wait_for()
    assert Hand.objects.filter(table=table).count() == 1
    assert page.locator(".fault-alert").count() == 0
