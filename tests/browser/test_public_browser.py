"""The players' pages on a 360 px phone, and the big screen: a total changes on the page when a
hand is recorded elsewhere, with no reload; "Where do I sit?" by a few letters; the projector
pages through the tables by itself. Nothing the Content-Security-Policy blocks."""

import re
import uuid

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from tests.browser.helpers import tournament_with
from tournament.services import hands

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def quick(settings):
    """Poll every half second (phones wait 5), page the big screen every second."""
    settings.PUBLIC_POLL_SECONDS = 0.5
    settings.PUBLIC_PAGER_SECONDS = 1
    cache.clear()
    yield
    cache.clear()


def watch_console(page):
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    return problems


def test_a_total_changes_on_the_phone_when_a_hand_is_recorded_elsewhere(
    quick, phone_page, live_server
):
    page = phone_page
    problems = watch_console(page)
    tournament, (table,) = tournament_with(["Anna Berg", "Björk Ek", "Åsa-Märta Östergren"])
    seats = list(table.seats.select_related("player").order_by("position"))
    first = seats[0].player.name

    page.goto(f"{live_server.url}/t/{tournament.pk}/")
    leader = page.locator("#table-1 li", has_text=first).locator(".total")
    assert leader.inner_text() == "0"
    assert page.locator("#table-1 .hands").inner_text() == "0/3 hands"
    page.evaluate("window.notReloaded = true")

    # The revisor records a hand at the table (another device): the phone sees it.
    hands.record_hand(
        table=table,
        hand_number=1,
        idempotency_key=uuid.uuid4(),
        points={0: 7, 1: -3, 2: -4},
        fantasyland={0},
    )
    # Playwright's expect polls the page (wait_for_function would need eval, which the
    # Content-Security-Policy forbids).
    # 1 hand of 3, and one more for the hand after which seat 1 went to Fantasyland.
    expect(page.locator("#table-1 .hands")).to_have_text("1/4 hands", timeout=10_000)
    assert leader.inner_text() == "7"
    assert page.locator("#table-1 li", has_text=first).locator("abbr.fl").is_visible()
    assert page.locator("#table-1 li.leads").inner_text().startswith(first)
    assert page.evaluate("window.notReloaded") is True  # the region changed, not the page
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert problems == []


def test_a_phone_switches_a_kept_page_to_swedish_and_it_stays_live(quick, phone_page, live_server):
    """The tournament page is kept whole for phones without a session, so its language
    switch carries no CSRF token: it still works, and the Swedish page still polls."""
    page = phone_page
    problems = watch_console(page)
    tournament, (table,) = tournament_with(["Anna Berg", "Björk Ek", "Åsa-Märta Östergren"])
    page.goto(f"{live_server.url}/t/{tournament.pk}/")
    expect(page.locator("#table-1 .hands")).to_have_text("0/3 hands")
    assert page.locator("form.lang-switch").get_attribute("action") == "/t/language/"
    page.get_by_role("button", name="Svenska").click()
    page.wait_for_url(f"{live_server.url}/t/{tournament.pk}/")
    assert page.locator("html").get_attribute("lang") == "sv"
    expect(page.locator("#table-1 .hands")).to_have_text("0/3 händer")
    hands.record_hand(
        table=table, hand_number=1, idempotency_key=uuid.uuid4(), points={0: 2, 1: -1, 2: -1}
    )
    expect(page.locator("#table-1 .hands")).to_have_text("1/3 händer", timeout=10_000)
    assert problems == []


def test_where_do_i_sit_on_a_phone(quick, phone_page, live_server):
    page = phone_page
    problems = watch_console(page)
    tournament, tables = tournament_with(["Anna Berg", "Björk Ek", "Åsa Lind", "Asa Holm"])
    seat = next(
        (table.number, s.position + 1)
        for table in tables
        for s in table.seats.select_related("player")
        if s.player.name == "Åsa Lind"
    )
    page.goto(f"{live_server.url}/t/{tournament.pk}/")
    page.get_by_label("Your name, or a few letters of it").fill("asa")
    page.get_by_role("button", name="Find my seat").click()
    page.wait_for_url(re.compile(r".*/find/\?q=asa$"))
    found = page.locator(".found > li")
    assert found.count() == 2
    assert found.nth(0).inner_text().startswith("Asa Holm")
    lines = [line for line in found.nth(1).inner_text().splitlines() if line.strip()]
    assert lines == [
        "Åsa Lind",
        f"Level 1: table {seat[0]}, seat {seat[1]} · score card",
        "Follow me on this phone",
    ]
    found.nth(1).get_by_role("link", name="score card").click()
    page.wait_for_url(re.compile(r".*/table/\d+/$"))
    assert page.locator("h1").inner_text().startswith(f"Table {seat[0]}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert problems == []


def test_the_big_screen_pages_through_the_tables_by_itself(quick, chromium_browser, live_server):
    context = chromium_browser.new_context(viewport={"width": 800, "height": 400})
    page = context.new_page()
    problems = watch_console(page)
    names = [f"Spelare {n}" for n in range(1, 31)]  # 10 tables: more than fit on 400 px
    tournament, _ = tournament_with(names)
    page.goto(f"{live_server.url}/t/{tournament.pk}/projector/tables/")
    status = page.locator("[data-pager-status]")
    expect(status).to_have_text(re.compile(r"1–\d+ / 10"))
    first = status.inner_text()
    assert re.fullmatch(r"1–\d+ / 10", first), first
    shown = page.locator("[data-pager-item]:not([hidden])").count()
    assert 1 <= shown < 10
    expect(status).to_have_text(re.compile(rf"{shown + 1}–\d+ / 10"), timeout=5_000)
    assert problems == []
    context.close()


def test_the_big_screen_measures_again_when_the_window_changes_size(
    settings, chromium_browser, live_server
):
    """Set to the projector's resolution (or dragged to it) after the page opened, the big
    screen shows as many tables as now fit, not as many as fitted before."""
    settings.PUBLIC_PAGER_SECONDS = 600  # no page turns meanwhile: only the size changes
    context = chromium_browser.new_context(viewport={"width": 800, "height": 400})
    page = context.new_page()
    problems = watch_console(page)
    tournament, _ = tournament_with([f"Spelare {n}" for n in range(1, 31)])  # 10 tables
    page.goto(f"{live_server.url}/t/{tournament.pk}/projector/tables/")
    status = page.locator("[data-pager-status]")
    shown = page.locator("[data-pager-item]:not([hidden])")
    expect(status).to_have_text(re.compile(r"1–\d+ / 10"))
    small = shown.count()
    assert 1 <= small < 10 and status.inner_text() == f"1–{small} / 10"

    page.set_viewport_size({"width": 800, "height": 1400})
    expect(shown).not_to_have_count(small)  # measured again once the size settled
    large = shown.count()
    assert large > small
    assert status.inner_text() == ("" if large == 10 else f"1–{large} / 10")
    last = page.locator("[data-pager-item]:not([hidden])").last.bounding_box()
    assert last["y"] + last["height"] <= 1400  # every table shown is on the screen

    page.set_viewport_size({"width": 800, "height": 400})
    expect(status).to_have_text(f"1–{small} / 10")
    assert shown.count() == small
    assert problems == []
    context.close()
