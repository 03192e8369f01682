import contextlib
import os
import threading
from pathlib import Path

import pytest

from tests.longest_first import LongestFilesFirst


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


def pytest_xdist_make_scheduler(config, log):
    """`--dist loadfile` hands out the longest files first (tests/longest_first.py)."""
    if config.getoption("dist") == "loadfile":
        return LongestFilesFirst(config, log)
    return None


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
    """The live server's open connections and the requests it is serving, counted: on
    SQLite its threads share the test's in-memory connection, so a request still being
    served (a poll the browser sent just before its page closed) must end before the test's
    database is flushed, or the flush finds a table locked and every later test fails; and
    every connection must be closed before the server stops, or its thread closes the shared
    connection after the sharing ended (a PytestUnhandledThreadExceptionWarning each).

    A test waits half a second at most for its connections to close, then for the requests
    being served: chromium may keep an idle keep-alive connection open after its context is
    closed (the server's thread then waits for a request line that never comes), and waiting
    for it to close cost each such test 5 s. An idle connection serves nothing and touches
    no database; the browser closes it at the end.

    Sharing one SQLite connection, the server's threads serve one request at a time: two
    at once on it fail with "bad parameter or other API misuse" or read each other's rows
    (a poll kept an announcement the TD had withdrawn), and the test's own thread takes the
    same lock for each of its queries and transactions (`_guard_shared_connection`). On
    PostgreSQL each has its own."""

    def __init__(self, server, shares_connection):
        self.open = 0
        self.busy = 0
        self.holding = False  # `held()`: new requests wait while the test writes
        self.in_test = False  # a test with the live server is running
        self.changed = threading.Condition()
        self.one_at_a_time = threading.RLock() if shares_connection else None
        serve = server.process_request_thread
        counts = self

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

        class CountedRequests(server.RequestHandlerClass):
            """A request is being served from the moment its request line has come (the
            wait for it, on a kept connection, is no request) until it is answered."""

            def handle_one_request(self):
                self.counted = False
                self.serving_alone = False
                try:
                    super().handle_one_request()
                finally:
                    if self.serving_alone:
                        counts.one_at_a_time.release()
                    if self.counted:
                        with counts.changed:
                            counts.busy -= 1
                            counts.changed.notify_all()

            def parse_request(self):
                with counts.changed:
                    counts.changed.wait_for(lambda: not counts.holding, timeout=30)
                    counts.busy += 1
                    late = not counts.in_test
                self.counted = True
                if late:
                    # Sent by a page of a test that is over (a beacon as its context
                    # closed): the database is no longer a test's, and Django's request
                    # signal would fail on it with a traceback in the output.
                    if super().parse_request():
                        self.send_error(503, "No test is running")
                    return False
                if counts.one_at_a_time is not None:
                    counts.one_at_a_time.acquire()
                    self.serving_alone = True
                return super().parse_request()

        server.RequestHandlerClass = CountedRequests
        if shares_connection:
            # Each request's thread closes its connections as it ends: on SQLite that is the
            # shared in-memory one, whose close Django ignores (it would drop the database)
            # after checking that the thread may use it. A thread of a connection chromium
            # kept idle can end in a later test, and that check then failed in it.
            server._close_connections = lambda: None

    def wait_closed(self, seconds):
        with self.changed:
            self.changed.wait_for(lambda: self.open == 0, timeout=seconds)

    def wait_served(self, seconds):
        with self.changed:
            self.changed.wait_for(lambda: self.busy == 0, timeout=seconds)

    @contextlib.contextmanager
    def held(self, seconds=5):
        """While the test writes as the TD would, with a page open that polls: the requests
        being served end first and new ones wait. On SQLite the server's threads share the
        test's connection, and a write meeting a poll's open read of the same table fails
        with "database table is locked"; in the room each request has its own connection."""
        with self.changed:
            self.holding = True
            self.changed.wait_for(lambda: self.busy == 0, timeout=seconds)
        try:
            yield
        finally:
            with self.changed:
                self.holding = False
                self.changed.notify_all()


@contextlib.contextmanager
def _guard_shared_connection(lock):
    """On SQLite the test's thread shares its connection with the live server's, which serve
    one request at a time under `lock`: the test's queries and transactions (a service
    called while a page polls, an assertion reading the database) take it too, so that a
    poll never runs in the middle of them (it would read rows not yet committed, or use the
    connection at the same moment and fail). Reentrant: a request's own queries, already
    under it, and nested atomic blocks take it again. A transaction holds it to its end."""
    from django.db import transaction
    from django.db.models.sql import compiler

    patched = []

    def guard(owner, name, wrap):
        original = getattr(owner, name)
        patched.append((owner, name, original))
        setattr(owner, name, wrap(original))

    def locked(method):
        def under_lock(*args, **kwargs):
            with lock:
                return method(*args, **kwargs)

        return under_lock

    def entered(enter):
        def enter_under_lock(self):
            lock.acquire()
            try:
                return enter(self)
            except BaseException:
                lock.release()
                raise

        return enter_under_lock

    def exited(exit_):
        def exit_and_release(self, *exc_info):
            try:
                return exit_(self, *exc_info)
            finally:
                lock.release()

        return exit_and_release

    # execute_sql fetches a query's rows too (all of them, unless iterated in chunks).
    for owner in (
        compiler.SQLCompiler,
        compiler.SQLInsertCompiler,
        compiler.SQLDeleteCompiler,
        compiler.SQLUpdateCompiler,
        compiler.SQLAggregateCompiler,
    ):
        if "execute_sql" in vars(owner):
            guard(owner, "execute_sql", locked)
    guard(transaction.Atomic, "__enter__", entered)
    guard(transaction.Atomic, "__exit__", exited)
    try:
        yield
    finally:
        for owner, name, original in reversed(patched):
            setattr(owner, name, original)


@pytest.fixture(scope="session")
def live_server(live_server):
    """pytest-django's live server, its connections counted, stopped only once they are
    closed (the browser, which asks for it, is closed before)."""
    shares = bool(live_server.thread.connections_override)
    live_server.connections = _Connections(live_server.thread.httpd, shares_connection=shares)
    yield live_server
    live_server.connections.wait_closed(seconds=5)


@pytest.fixture(autouse=True)
def _live_server_idle_before_flush(request):
    """For a test with the live server: on SQLite its queries and transactions take the
    server's lock (`_guard_shared_connection`); once it is over (its browser pages closed),
    wait for the requests the server is serving to end before the database is flushed
    (requested here, so torn down after this fixture)."""
    if "live_server" not in request.fixturenames:
        yield
        return
    server = request.getfixturevalue("live_server")
    request.getfixturevalue("transactional_db")
    shared = server.connections.one_at_a_time
    server.connections.in_test = True
    with _guard_shared_connection(shared) if shared is not None else contextlib.nullcontext():
        yield
    # Most connections close as the browser's context does: a request still on its way in
    # one is then served first. What is left open after that is idle, or being served.
    server.connections.wait_closed(seconds=0.5)
    server.connections.wait_served(seconds=5)
    server.connections.in_test = False


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
