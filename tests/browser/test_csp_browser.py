"""The pages run under the strict Content-Security-Policy: chromium reports no
violation and no console message, and htmx works with eval and inline styles off."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Runs before any page script (through the DevTools protocol, so the policy does not
# apply to it) and records every violation the browser reports.
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(
    `${event.violatedDirective} blocked ${event.blockedURI || "inline"} ` +
    `at ${event.sourceFile}:${event.lineNumber}`
  );
});
"""


@pytest.fixture
def watched_page(chromium_browser, live_server):
    context = chromium_browser.new_context(viewport={"width": 360, "height": 740})
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.console_messages_seen = []
    page.on("console", lambda msg: page.console_messages_seen.append(f"{msg.type}: {msg.text}"))
    page.on("pageerror", lambda error: page.console_messages_seen.append(f"error: {error}"))
    yield page
    context.close()


def assert_clean(page, url, status=200):
    page.wait_for_load_state("load")
    header = page.evaluate(
        "fetch(location.href).then(r => r.headers.get('content-security-policy'))"
    )
    assert header and "script-src 'self'" in header, url
    assert page.evaluate("window.__cspViolations") == [], url
    # The browser notes an error status of the page itself in the console; nothing else.
    expected = []
    if status >= 400:
        expected = [
            f"error: Failed to load resource: the server responded with a status of {status}"
        ]
    assert [m.split(" (")[0] for m in page.console_messages_seen] == expected, url
    page.console_messages_seen.clear()


def test_home_and_login_run_under_the_policy_without_violations(watched_page, live_server):
    page = watched_page
    page.goto(live_server.url + "/")
    assert page.locator("h1").inner_text() == "Pineapple OFC tournaments"
    assert page.evaluate("typeof window.htmx") == "object"
    assert page.evaluate("htmx.config.allowEval") is False
    assert page.evaluate("htmx.config.includeIndicatorStyles") is False
    assert page.locator("style").count() == 0  # htmx injected no inline <style>
    # The indicator styles come from app.css instead.
    assert (
        page.evaluate(
            "(() => { const el = document.createElement('span'); el.className = 'htmx-indicator';"
            " document.body.append(el); const o = getComputedStyle(el).opacity; el.remove();"
            " return o; })()"
        )
        == "0"
    )
    assert_clean(page, "/")

    page.goto(live_server.url + "/accounts/login/")
    assert page.get_by_label("Username").is_visible()
    assert_clean(page, "/accounts/login/")


def test_logging_in_a_lockout_and_swedish_pages_stay_clean(
    watched_page, live_server, django_user_model
):
    django_user_model.objects.create_user("tdcsp", password="secret-td-9", is_staff=True)
    page = watched_page
    page.goto(live_server.url + "/td/")
    page.get_by_label("Username").fill("tdcsp")
    page.get_by_label("Password").fill("secret-td-9")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(live_server.url + "/td/")
    assert_clean(page, "/td/")

    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(live_server.url + "/")
    page.get_by_role("button", name="Svenska").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "sv"
    assert_clean(page, "/ (sv)")

    for _ in range(5):
        page.goto(live_server.url + "/accounts/login/")
        page.locator("#id_username").fill("tdcsp")
        page.locator("#id_password").fill("wrong")
        page.locator("button[type=submit]").last.click()
        page.wait_for_load_state()
    assert page.locator("h1").inner_text() == "För många inloggningsförsök"
    assert_clean(page, "lockout page", status=429)
