"""The table page in a real browser: no sideways scroll at 360 px, the score card updates
by itself, and the TD enters a hand and gives a penalty by the labels and roles alone."""

import os
import uuid

import pytest
from playwright.sync_api import expect

from tests.tournament.conftest import positions
from tournament.models import Penalty, Player
from tournament.services import draws, hands, registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("TABLE_SHOTS")  # a folder: save screenshots there (for a look)
LONG = ["Anna-Karin Långnamnsson-Östergren", "Örjan Åkesson", "Élodie Ström"]


@pytest.fixture
def td_page(chromium_browser, live_server, td_user, client):
    def open_page(width, height=800):
        client.force_login(td_user)
        context = chromium_browser.new_context(viewport={"width": width, "height": height})
        cookie = client.cookies["sessionid"]
        context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
        page = context.new_page()
        page.problems = []
        page.on("pageerror", lambda error: page.problems.append(str(error)))
        page.on(
            "console",
            # A refused form answers 400, which the browser logs: not a problem of the page.
            lambda msg: (
                msg.type == "error"
                and "status of 400" not in msg.text
                and page.problems.append(msg.text)
            ),
        )
        return page

    return open_page


def long_table(td_user, hands_as_cards=True):
    tournament = registration.create_tournament(actor=td_user, name="SM 2026 Göteborg")
    for name in LONG:
        registration.register_player(tournament=tournament, actor=td_user, name=name)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="browser")
    table = level.tables.get()
    pos = positions(table)
    a, b, c = (pos[name] for name in LONG)
    boards = {
        a: {"front": "Qs Qh 7d", "middle": "Ks Kh 9d 8c 2s", "back": "As Ah Ad 3c 3s"},
        b: {"front": "2c 3d 4h", "middle": "5s 6d 8h 9h Jc", "back": "Tc Td 4c 4d 5c"},
        c: {"front": "Kc Kd 5h", "middle": "Jd Js 6c 6h 7c", "back": "8d 9c Ts Jh 2d"},
    }
    if hands_as_cards:
        hands.record_hand(
            table=table, hand_number=1, idempotency_key=uuid.uuid4(), boards=boards, actor=td_user
        )
    return tournament, table


def scroll_width(page):
    return page.evaluate("document.documentElement.scrollWidth")


@pytest.mark.parametrize("width", [360, 1366])
def test_the_page_fits_without_sideways_scroll(td_page, live_server, td_user, width):
    tournament, table = long_table(td_user)
    page = td_page(width)
    page.goto(f"{live_server.url}/td/{tournament.pk}/tables/{table.pk}/")
    expect(page.get_by_role("heading", name="Table 1")).to_be_visible()
    assert scroll_width(page) <= width
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/table-{width}.png", full_page=True)
        page.goto(f"{live_server.url}/td/{tournament.pk}/tables/{table.pk}/?mode=cards")
        page.screenshot(path=f"{SHOTS}/table-cards-{width}.png", full_page=True)
        assert scroll_width(page) <= width
    assert page.problems == []


def test_the_score_card_updates_itself_when_the_revisor_records_a_hand(
    td_page, live_server, td_user
):
    tournament, table = long_table(td_user)
    page = td_page(1366)
    page.goto(f"{live_server.url}/td/{tournament.pk}/tables/{table.pk}/")
    expect(page.locator("#hand-1")).to_be_visible()
    expect(page.locator("#hand-2")).to_have_count(0)
    pos = positions(table)
    hands.record_hand(
        table=table,
        hand_number=2,
        idempotency_key=uuid.uuid4(),
        points={pos[LONG[0]]: 3, pos[LONG[1]]: -1, pos[LONG[2]]: -2},
        actor=td_user,
    )
    expect(page.locator("#hand-2")).to_be_visible(timeout=15000)
    assert page.problems == []


def test_the_td_enters_a_hand_and_gives_a_penalty_by_labels(td_page, live_server, td_user):
    tournament, table = long_table(td_user, hands_as_cards=False)
    page = td_page(1366)
    page.goto(f"{live_server.url}/td/{tournament.pk}/tables/{table.pk}/")
    page.get_by_label(f"Points for {LONG[0]}").fill("6")
    page.get_by_label(f"Points for {LONG[1]}").fill("-2")
    page.get_by_label(f"Points for {LONG[2]}").fill("-3")
    page.get_by_role("button", name="Record hand 1").click()
    expect(
        page.get_by_text("The points must add up to zero; they add up to +1.").first
    ).to_be_visible()
    expect(page.get_by_label(f"Points for {LONG[0]}")).to_have_value("6")
    page.get_by_label(f"Points for {LONG[2]}").fill("-4")
    page.get_by_label(f"{LONG[0]} goes to Fantasyland").check()
    page.get_by_role("button", name="Record hand 1").click()
    expect(page.get_by_text("Hand 1 recorded.")).to_be_visible()
    expect(page.get_by_text(f"In Fantasyland next hand: {LONG[0]}.")).to_be_visible()

    page.get_by_label("Player", exact=True).select_option(label=LONG[1])
    page.get_by_label("Kind of penalty").select_option("timeout")
    page.get_by_role("button", name="Review the penalty").click()
    expect(page.get_by_text("1st warning: 10 points")).to_be_visible()
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/confirm.png", full_page=True)
    assert not Penalty.objects.exists()
    page.get_by_role("button", name="Give penalty").click()
    expect(page.get_by_text(f"Penalty given to {LONG[1]}: 1st warning: 10 points.")).to_be_visible()
    penalty = Penalty.objects.get()
    assert penalty.player == Player.objects.get(name=LONG[1]) and penalty.points == 10
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/after-penalty.png", full_page=True)
    assert page.problems == []
