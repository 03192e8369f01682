import os
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
def chromium_browser():
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


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Pages keep rendered regions in the cache by revision; on SQLite a rolled-back test's
    ids come back in the next test, so every test starts with an empty cache (and with
    nothing a process keeps of the public pages: the standings, the tokens, the players'
    records)."""
    from tournament.views.public import common

    common.forget_kept()
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
