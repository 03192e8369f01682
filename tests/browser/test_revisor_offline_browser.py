"""The revisor's card when the Wi-Fi drops (docs/offline.md): hands recorded offline are
kept on the device, in order, the card goes on to the next hand as the rules say, and
they are sent by themselves when the connection is back: once each. A hand the server
refuses is shown on the card with why and kept, held on the TD's dashboard.

Expected values by hand (rules.md): 3 players, 20 hands required, one more for each hand
after which someone goes to Fantasyland; the button moves one seat clockwise."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import log_in
from tests.tournament.conftest import positions, totals
from tournament.models import Hand, HandVersion, HeldHand
from tournament.services import draws, registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(django_user_model):
    td = django_user_model.objects.create_user("td", password="x-td-pass-1", is_staff=True)
    tournament = registration.create_tournament(
        actor=td, name="Wi-Fi Cup", min_hands=20, entry_mode="either"
    )
    for name in ("Anna", "Bo", "Cia"):
        registration.register_player(tournament=tournament, actor=td, name=name)
    level = draws.draw_first_level(tournament=tournament, actor=td, seed="offline")
    return level.tables.get()


@pytest.fixture
def tablet(chromium_browser):
    context = chromium_browser.new_context(viewport={"width": 800, "height": 1100})
    yield context
    context.close()


@pytest.fixture
def second_tablet(chromium_browser):
    context = chromium_browser.new_context(viewport={"width": 800, "height": 1100})
    yield context
    context.close()


@pytest.fixture
def laptop(chromium_browser):
    context = chromium_browser.new_context(viewport={"width": 1280, "height": 900})
    yield context
    context.close()


def open_card(context, live_server, table):
    page = context.new_page()
    page.goto(f"{live_server.url}/r/{table.revisor_key}/")
    page.wait_for_url(re.compile(r".*/r/card/$"))
    return page


def record(page, by_name, hand, fantasyland=()):
    for name, value in by_name.items():
        page.get_by_label(f"Points for {name}").fill(str(value))
    for name in fantasyland:
        page.get_by_label(f"{name} goes to Fantasyland").check()
    page.get_by_role("button", name=f"Record hand {hand}").click()


# Hand 3 by cards: Anna's is a valid hand without royalties; Bo and Cia foul.
BOARDS = {
    "Anna": ("2c 3d 5h", "7c 8d 9h Js Kc", "Ac Ad 4c 6d 8h"),
    "Bo": ("Qs Qh 2d", "3s 4s 6c 9c Th", "5c 7h Jh Kh As"),
    "Cia": ("Kd Ks 3h", "4d 6h 7s 9s Jd", "2s 5s 7d Tc Qc"),
}


def dealer_name(table, hand):
    """Who deals `hand` (no Fantasyland button rule in the default settings): the first
    dealer, then one seat on each hand."""
    by_position = {position: name for name, position in positions(table).items()}
    return by_position[(table.first_dealer_position + hand - 1) % 3]


def test_three_hands_offline_are_sent_in_order_once_each(tablet, second_tablet, live_server, table):
    page = open_card(tablet, live_server, table)
    other = open_card(second_tablet, live_server, table)  # a second device, online
    expect(page.locator(".hand-count")).to_have_text("Hand 1 of 20")
    tablet.set_offline(True)
    page.locator("#connection-banner").wait_for(state="visible")

    record(page, {"Anna": 6, "Bo": -2, "Cia": -4}, 1, fantasyland=["Anna"])
    queue = page.locator("#card-queue")
    expect(queue.locator("#card-queue-count")).to_have_text("1 hand waits to be sent.")
    # Anna goes to Fantasyland: hand 2 of 21, Anna in Fantasyland, the button one seat on.
    expect(page.locator(".hand-count")).to_have_text("Hand 2 of 21")
    expect(page.locator("#card-queue-fl")).to_have_text("In Fantasyland this hand: Anna.")
    expect(page.locator("#card-summary .dealer")).to_have_text(
        f"{dealer_name(table, 2)} deals this hand."
    )
    expect(page.locator("#points-title")).to_have_text("Hand 2: points")

    record(page, {"Anna": 10, "Bo": -5, "Cia": -5}, 2)
    # Running totals on the device: Anna 6+10, Bo -2-5, Cia -4-5.
    expect(page.locator("#card-summary tr", has_text="Anna").locator("td.num")).to_have_text("16")
    # Hand 3 by cards, typed with no connection: checked when sent.
    cards = page.locator("#offline-cards")
    expect(cards.locator("#offline-cards-title")).to_have_text("Hand 3 by cards, offline")
    for name, rows in BOARDS.items():
        for row, text in zip(("Front", "Middle", "Back"), rows, strict=True):
            cards.get_by_label(f"{name}: {row}").fill(text)
    cards.get_by_role("button", name="Keep this hand on the device").click()
    expect(queue.locator("#card-queue-count")).to_have_text("3 hands wait to be sent.")
    expect(queue.locator("#card-queue-list li")).to_have_count(3)
    expect(queue.locator("#card-queue-list li").first).to_contain_text("Anna +6 FL")
    expect(queue.locator("#card-queue-list li").last).to_have_text(
        "Hand 3, not yet recorded: by cards (checked when sent)"
    )
    expect(page.locator(".hand-count")).to_have_text(
        "Hand 4 (the hands required are known when the cards are sent)"
    )
    assert not Hand.objects.filter(table=table).exists()

    tablet.set_offline(False)
    expect(page.locator("#card-queue")).to_be_hidden(timeout=15000)
    expect(page.locator(".hand-count")).to_have_text("Hand 4 of 21")
    expect(page.get_by_role("button", name="Record hand 4")).to_be_visible()
    numbers = list(
        Hand.objects.filter(table=table).order_by("number").values_list("number", flat=True)
    )
    assert numbers == [1, 2, 3]
    assert HandVersion.objects.filter(hand__table=table).count() == 3
    # Hand 3: Bo and Cia fouled (their middles are weaker than their fronts), so Anna
    # wins 6 from each and they score 0 between them: Anna +12, Bo -6, Cia -6.
    assert totals(table) == {"Anna": 28, "Bo": -13, "Cia": -15}
    assert HandVersion.objects.get(hand__table=table, hand__number=3).mode == "cards"
    table.refresh_from_db()
    assert table.required_hands == 21 and table.fantasyland_hands == 1
    # The other device follows by its poll.
    expect(other.locator(".hand-count")).to_have_text("Hand 4 of 21", timeout=15000)
    page.close()
    other.close()


def test_a_hand_recorded_meanwhile_from_another_device_is_shown_and_kept(
    tablet, second_tablet, laptop, live_server, table
):
    page = open_card(tablet, live_server, table)
    tablet.set_offline(True)
    record(page, {"Anna": 2, "Bo": -1, "Cia": -1}, 1)
    expect(page.locator("#card-queue-count")).to_have_text("1 hand waits to be sent.")
    # Meanwhile a second device on the table, online, records hand 1.
    other = open_card(second_tablet, live_server, table)
    record(other, {"Anna": 5, "Bo": -5, "Cia": 0}, 1)
    other.get_by_text("Hand 1 recorded ✓").wait_for()
    tablet.set_offline(False)
    refused = page.locator("#card-queue-refused li")
    expect(refused).to_have_count(1, timeout=15000)
    expect(refused).to_contain_text(
        "Hand 1 was not recorded: Hand 1 was recorded meanwhile (by the TD or from another device)."
    )
    assert Hand.objects.filter(table=table).count() == 1
    assert totals(table) == {"Anna": 5, "Bo": -5, "Cia": 0}
    held = HeldHand.objects.get()
    assert held.number == 1 and held.decision == ""
    # The card shows the table as the server has it, and what it kept.
    expect(page.locator(".hand-count")).to_have_text("Hand 2 of 20")
    page.reload()
    expect(page.locator("#card-queue-refused li")).to_have_count(1)
    # The TD sees it on the dashboard, as a hand waiting for a decision.
    td = laptop.new_page()
    log_in(td, live_server, username="td", password="x-td-pass-1")
    td.goto(f"{live_server.url}/td/{table.level.tournament_id}/")
    expect(td.get_by_text("1 hand waiting for a decision")).to_be_visible()
    expect(
        td.get_by_role("button", name="Record it as hand 2 at table 1 after all")
    ).to_be_visible()
    page.close()
    other.close()
    td.close()
