"""The TD's standings on the big screen: as many rows as fit, the line saying which ones
below them and on the screen too, paging on by itself."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.helpers import td_page, tournament_with

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_standings_projector_pages_with_its_status_line_on_the_screen(
    chromium_browser, live_server, td_user
):
    names = [f"Spelare {n}" for n in range(1, 31)]
    tournament, _ = tournament_with(
        names, td_user, min_hands=2, name="Göteborg Open", seed="big screen"
    )
    with td_page(chromium_browser, live_server, 1024, 500) as page:
        page.goto(live_server.url + reverse("td:standings_projector", args=[tournament.pk]))

        status = page.locator("[data-pager-status]")
        expect(status).to_have_text(re.compile(r"1–\d+ / 30"))
        rows = page.locator("table.standings tbody tr:not([hidden])")
        size = rows.count()
        assert 1 <= size < 30 and status.inner_text() == f"1–{size} / 30"
        line = status.bounding_box()
        last = rows.last.bounding_box()
        assert last["y"] + last["height"] <= line["y"]  # the rows end above the status line
        assert line["y"] + line["height"] <= 500  # which is on the screen

        # After 8 s it shows the next rows.
        expect(status).to_have_text(f"{size + 1}–{min(2 * size, 30)} / 30", timeout=12_000)
