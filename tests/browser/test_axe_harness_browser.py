"""The axe-core harness itself (tests/browser/axe.py): it fails on a serious fault, names the
rule and the element, lets moderate ones through (returned), and runs under the pages' own
Content-Security-Policy."""

import pytest

from tests.browser.axe import assert_no_serious_axe_violations, axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGE = """<!doctype html><html lang="en"><head><title>Harness</title></head><body>
<main><h1>Harness</h1>{body}</main></body></html>"""


def test_a_serious_fault_fails_with_its_rule_and_element(phone_page):
    # The revisor card's old message list: a status role on the <ul> takes its list role.
    phone_page.set_content(PAGE.format(body='<ul role="status"><li>Hand 1 recorded</li></ul>'))
    with pytest.raises(AssertionError) as failed:
        assert_no_serious_axe_violations(phone_page)
    assert "[serious] listitem" in str(failed.value)
    assert "<li>Hand 1 recorded</li>" in str(failed.value)


def test_a_name_that_does_not_start_with_the_words_shown_fails(phone_page):
    link = '<a href="/x" aria-label="Follow Bo Lind on this phone">Follow me on this phone</a>'
    phone_page.set_content(PAGE.format(body=link))
    with pytest.raises(AssertionError, match="label-content-name-mismatch"):
        assert_no_serious_axe_violations(phone_page)


def test_a_moderate_fault_is_returned_not_failed(phone_page):
    regions = '<section aria-label="Card">One</section><section aria-label="Card">Two</section>'
    phone_page.set_content(PAGE.format(body=regions))
    others = assert_no_serious_axe_violations(phone_page)
    assert [(v["id"], v["impact"]) for v in others] == [("landmark-unique", "moderate")]


def test_it_runs_on_a_page_with_the_apps_policy(phone_page, live_server):
    """Given through Playwright, not a <script> tag: `script-src 'self'` does not stop it."""
    response = phone_page.goto(live_server.url + "/r/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert axe_violations(phone_page) == []
    phone_page.reload()  # a new document: axe is given again
    assert axe_violations(phone_page, include="main") == []
