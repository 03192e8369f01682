"""The warning of a page that prints links, when phones cannot reach its address (the test
server's loopback host, as the page's own or as DJANGO_PUBLIC_URL): a red box above what is
printed on every such page, the public poster included, and left off the paper itself."""

import pytest
from django.urls import reverse

from tests.browser.helpers import td_page, tournament_with

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Anna Berg", "Björk Ek", "Åsa Lind"]
DANGER_RED = "rgb(180, 35, 24)"  # --danger, #b42318
WARNING_PINK = "rgb(253, 236, 234)"  # #fdecea


def printing_pages(tournament, table):
    return {
        "poster": reverse("public:poster", args=[tournament.pk]),
        "table cards": reverse("td:table_cards", args=[tournament.pk, 1]),
        "revisor access": reverse("td:table_access", args=[tournament.pk, table.pk]),
    }


@pytest.mark.parametrize("public", ["", "live server"])
def test_every_printing_page_boxes_the_warning_and_leaves_it_off_the_paper(
    chromium_browser, live_server, td_user, settings, public
):
    # No public address, or the server's own loopback one (what `make venue` sets on a
    # laptop not yet on the Wi-Fi): the same box, with what to do.
    settings.PUBLIC_URL = live_server.url if public else ""
    tournament, tables = tournament_with(NAMES, td_user)
    with td_page(chromium_browser, live_server, 1280, 800) as page:
        for name, path in printing_pages(tournament, tables[0]).items():
            page.goto(live_server.url + path)
            warning = page.locator(".address-warning")
            assert warning.is_visible(), name
            said = warning.inner_text()
            assert "an address only this computer can open" in said, name
            if public:
                assert "no network address (not yet on the venue's Wi-Fi)" in said, name
            style = warning.evaluate(
                "el => { const s = getComputedStyle(el);"
                " return [s.borderTopColor, s.borderTopWidth, s.backgroundColor]; }"
            )
            assert style == [DANGER_RED, "1px", WARNING_PINK], name
            # Above what is printed: the first QR code comes after it.
            code = page.locator("svg").first.bounding_box()
            assert warning.bounding_box()["y"] < code["y"], name
            page.emulate_media(media="print")
            assert not warning.is_visible(), name
            page.emulate_media(media="screen")
