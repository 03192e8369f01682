"""The live dashboard in a real browser: 100 tables fit a phone and a laptop without
sideways scroll, and the region updates itself when a table records a hand."""

import pytest
from playwright.sync_api import expect

from tests.tournament.conftest import play
from tournament.models import Table
from tournament.services import calls, draws, registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def td_page(chromium_browser, live_server, td_user, client):
    def open_page(width, height):
        client.force_login(td_user)
        context = chromium_browser.new_context(viewport={"width": width, "height": height})
        cookie = client.cookies["sessionid"]
        context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
        page = context.new_page()
        page.problems = []
        page.on("pageerror", lambda error: page.problems.append(str(error)))
        page.on(
            "console",
            lambda msg: msg.type == "error" and page.problems.append(msg.text),
        )
        return page

    return open_page


def big_tournament(td_user, players=300):
    tournament = registration.create_tournament(actor=td_user, name="SM 2026 Göteborg")
    for n in range(players):
        registration.register_player(
            tournament=tournament, actor=td_user, name=f"Spelare Långnamnsson-Östergren {n}"
        )
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="browser")
    tables = {t.number: t for t in Table.objects.current().filter(level__tournament=tournament)}
    for number in (1, 2, 3):
        play(tables[number], 12, -7, -5)
    calls.call_td(table=tables[2], kind="dispute", note="Who won the back row?")
    return tournament, tables


def scroll_width(page):
    return page.evaluate("document.documentElement.scrollWidth")


@pytest.mark.parametrize("width,height", [(360, 740), (1366, 768)])
def test_100_tables_fit_without_sideways_scroll(td_page, live_server, td_user, width, height):
    tournament, _tables = big_tournament(td_user)
    page = td_page(width, height)
    page.goto(f"{live_server.url}/td/{tournament.pk}/")
    assert page.get_by_role("heading", name="Level 1: live").is_visible()
    assert page.locator("tr.dash-row").count() == 100
    assert scroll_width(page) <= width
    # The table with the call is first, and its Clear button is reachable by its name.
    assert page.locator("tr.dash-row").first.get_attribute("id") == "table-2"
    assert page.get_by_role("button", name="Clear the call at table 2").is_visible()
    assert page.problems == []
    page.context.close()


def test_the_dashboard_updates_itself(td_page, live_server, td_user):
    tournament = registration.create_tournament(actor=td_user, name="Live", min_hands=20)
    for name in ("Anna", "Bo", "Cia"):
        registration.register_player(tournament=tournament, actor=td_user, name=name)
    table = draws.draw_first_level(tournament=tournament, actor=td_user, seed="x").tables.get()
    page = td_page(1280, 800)
    page.goto(f"{live_server.url}/td/{tournament.pk}/")
    hands_cell = page.locator("td.dash-hands .played")
    assert hands_cell.inner_text() == "0 / 20"
    play(table, 5, -2, -3)  # the revisor's tablet records a hand
    expect(page.locator("td.dash-hands .played")).to_have_text("1 / 20", timeout=15_000)
    assert page.locator(".dash-seats .total").first.inner_text() in {"+5", "-2", "-3"}
    assert page.problems == []
    page.context.close()
