"""The dashboard's pace in a real browser (issue 19 §1): the level's clock and estimated
end on a 360 px phone without sideways scroll, the table behind the pace first, and the
order toggle (a plain link, no JS) kept by the live region's poll."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.tournament.conftest import play
from tests.tournament.views.test_td_dashboard_browser import scroll_width, td_page  # noqa: F401
from tests.tournament.views.test_td_dashboard_pace import HANDS
from tournament.models import Draw, Hand, Table
from tournament.services import draws, registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Karl-Erik Lindqvist-Söderström"  # 30 characters


def minutes_after_noon(clock):
    hours, minutes = (int(p) for p in clock.split(":"))
    return (hours - 12) * 60 + minutes


def paced_room(td_user):
    """The room of test_td_dashboard_pace, 40 minutes after its draw, in real time."""
    tournament = registration.create_tournament(actor=td_user, name="SM 2026 Göteborg")
    for n in range(9):
        registration.register_player(tournament=tournament, actor=td_user, name=f"{LONG[:28]} {n}")
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="pace")
    drawn = timezone.now() - timedelta(minutes=40)
    Draw.objects.filter(level__tournament=tournament).update(created_at=drawn, released_at=drawn)
    tables = {t.number: t for t in Table.objects.current().filter(level__tournament=tournament)}
    for number, clocks in HANDS.items():
        table = tables[number]
        for hand, clock in enumerate(clocks, start=1):
            play(table, 2, -1, -1)
            Hand.objects.filter(table=table, number=hand).update(
                created_at=drawn + timedelta(minutes=minutes_after_noon(clock))
            )
    return tournament


@pytest.mark.parametrize("width,height", [(360, 740), (1366, 768)])
def test_the_clock_and_the_order_on_a_phone_and_a_laptop(
    td_page,  # noqa: F811
    live_server,
    td_user,
    width,
    height,
):
    tournament = paced_room(td_user)
    page = td_page(width, height)
    page.goto(f"{live_server.url}/td/{tournament.pk}/")
    clock = page.locator(".dash-clock")
    expect(clock).to_contain_text("Level clock")
    expect(clock).to_contain_text("min since the draw at")
    expect(clock).to_contain_text("Level ends")
    rows = page.locator("tr.dash-row")
    assert rows.first.get_attribute("id") == "table-3"  # behind the pace: needs a look
    expect(rows.first).to_contain_text("Behind the pace")
    expect(rows.first).to_contain_text("12 hands/h")
    assert scroll_width(page) <= width
    by_number = page.get_by_role("link", name="By table number")
    assert by_number.bounding_box()["height"] >= 24
    by_number.click()
    expect(rows.first).to_have_attribute("id", "table-1")
    assert [rows.nth(i).get_attribute("id") for i in range(3)] == ["table-1", "table-2", "table-3"]
    region = page.locator("#live")
    assert region.get_attribute("data-poll-url").endswith("?order=number")
    page.get_by_role("link", name="Needs a look first").click()
    expect(rows.first).to_have_attribute("id", "table-3")
    assert page.problems == []
    page.context.close()


def test_the_clock_in_swedish(td_page, live_server, td_user):  # noqa: F811
    tournament = paced_room(td_user)
    page = td_page(360, 740)
    page.context.add_cookies([{"name": "django_language", "value": "sv", "url": live_server.url}])
    page.goto(f"{live_server.url}/td/{tournament.pk}/")
    clock = page.locator(".dash-clock")
    expect(clock).to_contain_text("Nivåns klocka")
    expect(clock).to_contain_text("Nivån slutar")
    expect(page.locator("tr.dash-row").first).to_contain_text("Efter i tempot")
    page.get_by_role("link", name="Efter bordsnummer").click()
    expect(page.locator("tr.dash-row").first).to_have_attribute("id", "table-1")
    assert scroll_width(page) <= 360
    page.context.close()


ENDS = {
    "en": ("This level ends about", "This table ends about"),
    "sv": ("Nivån slutar omkring", "Bordet slutar omkring"),
}


@pytest.mark.parametrize("language", ["en", "sv"])
def test_the_players_see_the_estimated_ends(chromium_browser, live_server, td_user, language):
    """The big screen at 1920 x 1080 shows the level's end, a table's page on a 360 px
    phone its own, neither with sideways scroll; in English and Swedish."""
    level_ends, table_ends = ENDS[language]
    cookie = [{"name": "django_language", "value": language, "url": live_server.url}]
    tournament = paced_room(td_user)
    screen = chromium_browser.new_context(viewport={"width": 1920, "height": 1080})
    screen.add_cookies(cookie)
    page = screen.new_page()
    page.goto(f"{live_server.url}/t/{tournament.pk}/projector/tables/")
    expect(page.locator(".projector-end")).to_contain_text(level_ends)
    assert scroll_width(page) <= 1920
    screen.close()
    phone = chromium_browser.new_context(viewport={"width": 360, "height": 740})
    phone.add_cookies(cookie)
    page = phone.new_page()
    table = Table.objects.current().get(level__tournament=tournament, number=3)
    page.goto(f"{live_server.url}/t/{tournament.pk}/table/{table.pk}/")
    expect(page.locator(".card-end")).to_contain_text(table_ends)
    assert scroll_width(page) <= 360
    phone.close()
