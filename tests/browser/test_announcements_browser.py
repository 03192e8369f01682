"""The TD's announcement as people see it: the TD writes it on the laptop, a player's phone
that is already open shows it at its next poll and loses it at the next poll after the TD
withdraws it; an end time takes it down by the page's clock (a fake one here) with no
change of state; 200 characters on a 360 px phone, 28 px type on the projector."""

import datetime

import pytest
from django.core.cache import cache
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.helpers import td_page, tournament_with
from tournament.services import announcements

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Karl-Erik Lindqvist-Söderström", "Björk Ek", "Åsa-Märta Östergren"]


@pytest.fixture
def quick(settings):
    """Poll every half second (phones wait 5)."""
    settings.PUBLIC_POLL_SECONDS = 0.5
    cache.clear()
    yield
    cache.clear()


def watch_console(page):
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    return problems


def no_sideways_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth") <= 360


@pytest.mark.parametrize("language", ["en", "sv"])
def test_the_td_announces_and_withdraws_and_an_open_phone_follows(
    quick, chromium_browser, phone_page, live_server, td_user, language
):
    tournament, _tables = tournament_with(NAMES, td_user)
    words = {
        "en": ("Message", "Show for (minutes)", "Announce", "Withdraw the announcement"),
        "sv": ("Meddelande", "Visa i (minuter)", "Meddela", "Ta bort meddelandet"),
    }[language]
    label = {"en": "Announcement:", "sv": "Meddelande:"}[language]
    phone = phone_page
    problems = watch_console(phone)
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    phone.goto(f"{live_server.url}/t/{tournament.pk}/standings/")
    expect(phone.locator(".announcement")).to_have_count(0)
    phone.evaluate("window.notReloaded = true")
    # 200 characters, with an address of 60 that no space breaks.
    text = "Level 2 seating is up, see https://example.org/" + "x" * 43 + " "
    text = (text + "Nivå två: se projektorn. " * 7)[:200]
    assert len(text) == 200 and text == text.strip()

    with td_page(chromium_browser, live_server, 1280, 800) as td:
        td.context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        td.goto(f"{live_server.url}/td/{tournament.pk}/")
        td.get_by_role(
            "link",
            name={"en": "Announce something to the room", "sv": "Meddela något till salen"}[
                language
            ],
        ).click()
        td.get_by_label(words[0], exact=True).fill(text)
        td.get_by_label(words[1]).fill("15")
        td.get_by_role("button", name=words[2], exact=True).click()
        expect(td.get_by_role("button", name=words[3])).to_be_visible()

        banner = phone.locator(".announcement")
        expect(banner).to_contain_text(text, timeout=10_000)
        expect(banner).to_contain_text(label)
        assert phone.evaluate("window.notReloaded") is True  # by the poll, not a reload
        assert no_sideways_scroll(phone)  # 200 characters on a 360 px phone

        td.get_by_role("button", name=words[3]).click()
        expect(td.get_by_role("button", name=words[3])).to_have_count(0)
        expect(phone.locator(".announcement")).to_have_count(0, timeout=10_000)
    assert problems == []


def test_an_end_time_takes_the_banner_down_by_the_clock(quick, phone_page, live_server, td_user):
    """No revision moves when the end passes: the page's own clock hides the banner (Playwright
    runs the page's clock forward here), and a page opened after the end has none."""
    tournament, _tables = tournament_with(NAMES, td_user)
    now = timezone.now()
    announcements.announce(
        tournament=tournament,
        actor=td_user,
        text="10-minute break",
        ends_at=now + datetime.timedelta(minutes=10),
    )
    page = phone_page
    page.clock.install(time=now)
    page.goto(f"{live_server.url}/t/{tournament.pk}/")
    banner = page.get_by_role("status").filter(has_text="10-minute break")
    expect(banner).to_be_visible()
    page.clock.fast_forward("09:00")
    expect(banner).to_be_visible()
    page.clock.fast_forward("01:01")
    expect(banner).to_be_hidden()


def test_the_projector_shows_it_in_large_type(quick, chromium_browser, live_server, td_user):
    tournament, _tables = tournament_with(NAMES, td_user)
    announcements.announce(tournament=tournament, actor=td_user, text="Level 2 seating is up")
    context = chromium_browser.new_context(viewport={"width": 1920, "height": 1080})
    try:
        page = context.new_page()
        for path in ("projector/tables/", "projector/standings/"):
            page.goto(f"{live_server.url}/t/{tournament.pk}/{path}")
            text = page.locator(".announcement-text")
            expect(text).to_have_text("Level 2 seating is up")
            size = text.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
            assert size >= 28, (path, size)
    finally:
        context.close()
    with td_page(chromium_browser, live_server, 1920, 1080) as td:
        for path in ("levels/1/projector/", "standings/projector/"):
            td.goto(f"{live_server.url}/td/{tournament.pk}/{path}")
            text = td.locator(".announcement-text")
            expect(text).to_have_text("Level 2 seating is up")
            assert text.evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 28, path


def test_an_announcement_put_up_above_does_not_move_what_the_phone_reads(
    quick, phone_page, live_server, td_user
):
    """A phone scrolled down its table's score card: the announcement the TD puts up (and
    takes down) above it moved the card 128 px under the reader's eyes at the next poll."""
    from tests.tournament.conftest import play

    tournament, tables = tournament_with(NAMES, td_user, min_hands=20)
    for number in range(12):
        play(tables[0], 3, -1, -2) if number % 2 else play(tables[0], -2, 5, -3)
    phone = phone_page
    phone.goto(f"{live_server.url}/t/{tournament.pk}/table/{tables[0].pk}/")
    row = phone.locator("table.score-card tbody tr").nth(8)
    row.scroll_into_view_if_needed()
    phone.evaluate("window.scrollBy(0, 40)")
    top = row.bounding_box()["y"]
    announcements.announce(tournament=tournament, actor=td_user, text="Dinner at 19:00 " * 8)
    expect(phone.locator(".announcement")).to_have_count(1, timeout=10_000)
    phone.wait_for_timeout(300)  # the swap's scroll
    assert abs(row.bounding_box()["y"] - top) <= 2
    announcements.withdraw_announcement(tournament=tournament, actor=td_user)
    expect(phone.locator(".announcement")).to_have_count(0, timeout=10_000)
    phone.wait_for_timeout(300)
    assert abs(row.bounding_box()["y"] - top) <= 2
