"""Nothing final in one unguarded click, as a TD clicks it: closing a level goes through a
confirmation page that lists what still blocks it (here a revisor's call) with a link to it;
settling a tie is confirmed first. On a phone (360 px) and in Swedish too."""

import os
import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import td_page, tournament_with
from tests.tournament.conftest import play
from tournament.models import Level, TieSettlement
from tournament.services import calls

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("CLOSE_SHOTS")  # a folder: save screenshots there (for a look)

LONG = [
    "Karl-Erik Lindqvist-Söderström",
    "Anna-Karin Långnamnsson-Östergren",
    "Åsa Öberg-Wallenberg af Ekström",
    "Björn Bäckström-Kullenberg",
    "Cecilia Fredriksdotter-Nyström",
    "Dan Örjansson-Hammarskjöld",
]


def scroll_width(page):
    return page.evaluate("document.documentElement.scrollWidth")


def small_targets(page):
    """Links and buttons of the page's own content (not the shared navigation) under
    WCAG 2.2's 24 px: (text, height). Measured once the page's stylesheets are in: a page
    reached by a click is shown before its CSS has loaded on a busy machine."""
    page.wait_for_load_state("load")
    return page.evaluate(
        """() => [...document.querySelectorAll(
                '.close-page a, .close-page button, .table-page a, .table-page button')]
            .map(e => [e.innerText.trim(), e.getBoundingClientRect().height])
            .filter(([, h]) => h < 24)"""
    )


def shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def test_closing_a_level_on_a_phone_blocked_by_a_call_then_confirmed(
    chromium_browser, live_server, td_user
):
    tournament, tables = tournament_with(LONG, td_user, min_hands=1, seed="close")
    play(tables[0], 3, -3, 0)
    play(tables[1], 2, 0, -2)
    calls.call_td(table=tables[1], kind="dispute", note="Who won the back row?")
    with td_page(chromium_browser, live_server, 360, 740) as page:
        page.goto(f"{live_server.url}/td/{tournament.pk}/")
        page.get_by_role("link", name="Close level and draw the next").click()

        # The confirmation: the call blocks, and the page links to its table.
        expect(page.get_by_role("heading", name="Close level 1", exact=True)).to_be_visible()
        expect(page.get_by_text("1 open call")).to_be_visible()
        assert page.get_by_role("button", name=re.compile("Close level 1")).count() == 0
        assert scroll_width(page) <= 360
        shot(page, "close-blocked-360")
        assert small_targets(page) == []
        # The alerts bar polls at once and may link the same table too: the page's own link.
        page.locator(".close-page").get_by_role("link", name="Table 2", exact=True).click()
        page.get_by_role("button", name="Clear the call").click()
        expect(page.get_by_text("The call at table 2 is cleared.")).to_be_visible()
        assert Level.objects.get(tournament=tournament).closed_at is None

        # Back on the confirmation: nothing blocks; it says what closing does.
        page.goto(f"{live_server.url}/td/{tournament.pk}/advance/")
        expect(page.get_by_role("heading", name="What closing does")).to_be_visible()
        expect(
            page.get_by_text("The 2 table winners are drawn at random into level 2.")
        ).to_be_visible()
        button = page.get_by_role("button", name="Close level 1 and draw level 2")
        assert button.bounding_box()["height"] >= 44
        assert scroll_width(page) <= 360
        shot(page, "close-ready-360")
        assert small_targets(page) == []
        button.click()
        expect(page.get_by_text("Level 1 is closed and level 2 is drawn.")).to_be_visible()
        assert page.url == f"{live_server.url}/td/{tournament.pk}/levels/2/"
    assert Level.objects.get(tournament=tournament, number=1).closed_at is not None


def test_the_confirmation_in_swedish(chromium_browser, live_server, td_user):
    tournament, tables = tournament_with(LONG, td_user, min_hands=1, seed="sv")
    play(tables[0], 3, -3, 0)
    play(tables[1], 2, 0, -2)
    with td_page(chromium_browser, live_server, 1366, 768) as page:
        page.context.add_cookies(
            [{"name": "django_language", "value": "sv", "url": live_server.url}]
        )
        page.goto(f"{live_server.url}/td/{tournament.pk}/")
        page.get_by_role("link", name="Stäng nivån och lotta nästa").click()
        expect(page.get_by_role("heading", name="Stäng nivå 1", exact=True)).to_be_visible()
        shot(page, "close-ready-sv-1366")
        page.get_by_role("button", name="Stäng nivå 1 och lotta nivå 2").click()
        expect(page.get_by_text("Nivå 1 är avslutad och nivå 2 är lottad.")).to_be_visible()
    assert Level.objects.get(tournament=tournament, number=1).closed_at is not None


def test_settling_a_tie_is_confirmed_first(chromium_browser, live_server, td_user):
    tournament, tables = tournament_with(LONG[:3], td_user, min_hands=1, seed="tie")
    table = tables[0]
    play(table, 4, 4, -8)  # seats 1 and 2 tied for first
    first, second = (s.player.name for s in table.seats.order_by("position")[:2])
    with td_page(chromium_browser, live_server, 360, 740) as page:
        page.goto(f"{live_server.url}/td/{tournament.pk}/tables/{table.pk}/")
        page.get_by_role("radio", name=second).check()
        page.get_by_label("Reason").fill("Card draw: a king against a nine")
        page.get_by_role("button", name="Review the settlement").click()

        expect(page.get_by_role("heading", name="Confirm the tie settlement")).to_be_visible()
        expect(page.get_by_text(f"{second} wins table 1")).to_be_visible()
        expect(page.get_by_text("Reason: Card draw: a king against a nine")).to_be_visible()
        expect(
            page.get_by_text(f"This is the final table: {second} is the champion")
        ).to_be_visible()
        assert not TieSettlement.objects.exists()
        assert scroll_width(page) <= 360
        shot(page, "tie-confirm-360")
        assert small_targets(page) == []

        # Change it: back to the form with everything typed, then confirm.
        page.get_by_role("button", name="Change it").click()
        expect(page.get_by_label("Reason")).to_have_value("Card draw: a king against a nine")
        expect(page.get_by_role("radio", name=second)).to_be_checked()
        page.get_by_role("button", name="Review the settlement").click()
        page.get_by_role("button", name="Settle the tie").click()
        expect(page.get_by_text(f"Tie settled: {second} wins table 1.")).to_be_visible()
    settlement = TieSettlement.objects.get()
    assert settlement.winner.name == second and settlement.reason.startswith("Card draw")
    assert first != second


def test_a_call_at_a_redone_draw_is_cleared_from_the_dashboard(
    chromium_browser, live_server, td_user
):
    from tournament.models import TableCall
    from tournament.services import draws

    tournament, tables = tournament_with(LONG[:3], td_user, seed="before")
    calls.call_td(table=tables[0], kind="misdeal", note="Karl-Erik got fourteen cards")
    draws.redraw_level(level=tables[0].level, actor=td_user, reason="Misdeal", seed="after")
    with td_page(chromium_browser, live_server, 360, 740) as page:
        page.goto(f"{live_server.url}/td/{tournament.pk}/")
        expect(page.get_by_text("Open calls at tables no longer in play")).to_be_visible()
        # Listed apart, and among the alerts too (test_td_alerts_browser.py).
        elsewhere = page.locator("#calls-elsewhere")
        expect(elsewhere.get_by_text("Level 1, table 1 of draw 1 (redone)")).to_be_visible()
        assert scroll_width(page) <= 360
        shot(page, "dashboard-elsewhere-360")
        button = page.get_by_role("button", name="Clear the call at level 1, table 1")
        assert button.bounding_box()["height"] >= 44
        button.click()
        expect(page.get_by_text("The call at table 1 is cleared.")).to_be_visible()
        expect(page.get_by_text("Open calls at tables no longer in play")).to_have_count(0)
    assert TableCall.objects.get().cleared_at is not None
