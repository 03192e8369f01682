"""A projector view has no navigation: its links open it in a new tab, and the page they were
clicked on stays where it was (the TD is not stranded on the big screen)."""

import pytest
from django.urls import reverse

from tests.browser.helpers import td_page, tournament_with

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Anna Berg", "Björk Ek", "Åsa Lind"]


def opens_in_a_new_tab(page, link, url):
    """Click `link`: a new tab shows `url`, the page stays as it was."""
    before = page.url
    with page.context.expect_page() as opened:
        link.click()
    tab = opened.value
    tab.wait_for_load_state()
    assert tab.url == url
    assert tab.locator("body.projector").count() == 1
    assert page.url == before
    assert len(page.context.pages) == 2
    tab.close()


def test_the_tds_projector_view_opens_in_a_new_tab(chromium_browser, live_server, td_user):
    tournament, _ = tournament_with(NAMES, td_user)
    pk = tournament.pk
    with td_page(chromium_browser, live_server, 1280, 800) as page:
        page.goto(live_server.url + reverse("td:level", args=[pk, 1]))
        opens_in_a_new_tab(
            page,
            page.get_by_role("link", name="Projector view"),
            live_server.url + reverse("td:level_projector", args=[pk, 1]),
        )
        page.goto(live_server.url + reverse("td:tournament", args=[pk]))
        opens_in_a_new_tab(
            page,
            page.get_by_role("link", name="Tables on the big screen"),
            live_server.url + reverse("public:tables_projector", args=[pk]),
        )


def test_the_big_screen_links_of_the_players_page_open_a_new_tab(phone_page, live_server):
    tournament, _ = tournament_with(NAMES)
    phone_page.goto(f"{live_server.url}/t/{tournament.pk}/")
    phone_page.get_by_text("Share this page").click()
    opens_in_a_new_tab(
        phone_page,
        phone_page.get_by_role("link", name="Standings on the big screen"),
        live_server.url + reverse("public:standings_projector", args=[tournament.pk]),
    )
