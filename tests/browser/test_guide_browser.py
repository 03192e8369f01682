"""The guide as the app serves it (/guide/<lang>/<page>/), in a real browser: every page of it
in both languages on a 360 px phone and on the TD's 1366 px laptop, its pictures loaded (the
static files, under the CSP), nothing wider than the screen, no critical or serious axe-core
fault; and the Help link of a TD page opens the guide's page about it."""

import pytest
from django.urls import reverse

from tests.browser.axe import assert_no_serious_axe_violations
from tests.browser.layout import assert_fits
from tournament.services import registration
from tournament.web.guide import PAGES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = {
    "phone": {"viewport": {"width": 360, "height": 740}, "is_mobile": True},
    "laptop": {"viewport": {"width": 1366, "height": 768}},
}
BROKEN_PICTURES = "[...document.images].filter((i) => !i.complete || !i.naturalWidth).length"


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("language", ["en", "sv"])
def test_every_guide_page_reads_well(chromium_browser, live_server, language, screen):
    context = chromium_browser.new_context(**SCREENS[screen])
    messages = []
    try:
        page = context.new_page()
        page.on("console", lambda message: messages.append(message.text))
        for name in PAGES:
            page.goto(live_server.url + reverse("guide:page", args=[language, name]))
            page.wait_for_load_state("load")
            assert page.locator("article.guide-page h1").count() == 1, name
            assert page.evaluate(BROKEN_PICTURES) == 0, f"{name}: a picture did not load"
            if screen == "phone":
                assert_fits(page)
            assert_no_serious_axe_violations(page)
    finally:
        context.close()
    assert [m for m in messages if "Content Security Policy" in m] == []


def test_help_opens_the_guide_about_the_page(chromium_browser, live_server, td_user):
    tournament = registration.create_tournament(actor=td_user, name="Lund Open")
    context = chromium_browser.new_context(**SCREENS["laptop"])
    try:
        page = context.new_page()
        page.goto(live_server.url + reverse("login") + "?next=/td/")
        page.locator("#id_username").fill("director")
        page.locator("#id_password").fill("td-pass-123")
        page.locator("#id_password").press("Enter")
        page.wait_for_url(live_server.url + "/td/")
        page.goto(live_server.url + reverse("td:players", args=[tournament.pk]))
        page.get_by_role("link", name="Help").click()
        page.wait_for_url(live_server.url + "/guide/en/check-in/")
        assert page.locator("h1").inner_text() == "Check-in"
    finally:
        context.close()
