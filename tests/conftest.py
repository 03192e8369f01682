import os
import threading
from pathlib import Path

import pytest


@pytest.fixture
def td_user(django_user_model):
    """The tournament director: a staff user."""
    return django_user_model.objects.create_user("director", password="td-pass-123", is_staff=True)


@pytest.fixture
def outsider(django_user_model):
    """Logged in, but no staff rights."""
    return django_user_model.objects.create_user("outsider", password="out-pass-123")


@pytest.fixture
def td_client(client, td_user):
    client.force_login(td_user)
    return client


# ---------------------------------------------------------------- browser (Playwright)
# Playwright driving Debian's chromium (never a downloaded browser), for any test module.


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Playwright's sync API runs an event loop in this thread; Django's ORM calls made by the
# test itself (fixtures, assertions) are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def chromium_browser(live_server):
    """Debian's chromium. It asks for the live server so that it is set up after it and
    closed before it stops: the connections it keeps open to the server close first."""
    if not CHROMIUM.exists():
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(
                "REQUIRE_BROWSER=1 but /usr/bin/chromium is missing (apt-get install chromium)"
            )
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone_page(chromium_browser, live_server):
    """A 360 px wide phone screen."""
    context = chromium_browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    page = context.new_page()
    yield page
    context.close()


class _Connections:
    """The live server's open connections, counted: on SQLite its threads share the test's
    in-memory connection, so a request still being served (a poll the browser sent just
    before its page closed) must end before the test's database is flushed, or the flush
    finds a table locked and every later test fails; and every connection must be closed
    before the server stops, or its thread closes the shared connection after the sharing
    ended (a PytestUnhandledThreadExceptionWarning each)."""

    def __init__(self, server):
        self.open = 0
        self.changed = threading.Condition()
        serve = server.process_request_thread

        def counted(request, client_address):
            with self.changed:
                self.open += 1
            try:
                serve(request, client_address)
            finally:
                with self.changed:
                    self.open -= 1
                    self.changed.notify_all()

        server.process_request_thread = counted

    def wait_closed(self, seconds):
        with self.changed:
            self.changed.wait_for(lambda: self.open == 0, timeout=seconds)


@pytest.fixture(scope="session")
def live_server(live_server):
    """pytest-django's live server, its connections counted, stopped only once they are
    closed (the browser, which asks for it, is closed before)."""
    live_server.connections = _Connections(live_server.thread.httpd)
    yield live_server
    live_server.connections.wait_closed(seconds=5)


@pytest.fixture(autouse=True)
def _live_server_idle_before_flush(request):
    """For a test with the live server: once it is over (its browser pages closed), wait for
    the server's connections to close before the database is flushed (requested here, so
    torn down after this fixture)."""
    if "live_server" not in request.fixturenames:
        yield
        return
    server = request.getfixturevalue("live_server")
    request.getfixturevalue("transactional_db")
    yield
    server.connections.wait_closed(seconds=5)


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Pages keep rendered regions in the cache by revision; on SQLite a rolled-back test's
    ids come back in the next test, so every test starts with an empty cache (and with
    nothing a process keeps of the public pages: the standings, the tokens, the players'
    records)."""
    from tournament.live import kept

    kept.forget_kept()
    yield


@pytest.fixture(autouse=True)
def _default_language():
    """A page in Swedish leaves Swedish active in this thread (the locale middleware does not
    switch back): every test starts in the default language, whatever ran before it."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)
