"""The card picker on a tablet and on a phone. On a 768 px tablet the whole deck is on the
screen: one tap places a card in the row being filled, a card placed is greyed out and a tap
on it takes it back; a 3-player hand (39 cards) is then at most 45 taps from the score card
to "Confirm", a slip included. A 360 px phone keeps the rank and suit keys, every one a
44 px target. Without JavaScript both are hidden and the typed rows are the form."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.axe import assert_no_serious_axe_violations
from tests.tournament.conftest import totals
from tournament.models import Hand, HandVersion
from tournament.services import draws, registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Worked out from the rules (1-6, SM royalties), each pair on its own:
# Anna: front KK (8; Fantasyland), middle trip sevens (2), back Q-high straight (2): 12.
# Bo: front 55 (0), middle A-high club flush (8), back threes full of eights (6): 14.
# Cia: front QQ over a middle of jacks: fouled, no royalties.
# Anna v Bo: front Anna, middle Bo, back Bo: -1 row, royalties 12 - 14 = -2: Bo wins 3.
# Anna v Cia: 6 against a foul + 12 royalties: Anna wins 18. Bo v Cia: 6 + 14: Bo wins 20.
# Anna -3 + 18 = +15, Bo +3 + 20 = +23, Cia -18 - 20 = -38 (they add up to 0).
BOARDS = {
    "Anna": {"front": "Ks Kh 4d", "middle": "7c 7d 7h 2s 3c", "back": "8h 9s Ts Js Qd"},
    "Bo": {"front": "5s 5h Ad", "middle": "Ac Kc 9c 6c 4c", "back": "3s 3d 3h 8c 8d"},
    "Cia": {"front": "Qh Qc 2h", "middle": "Jh Jc 6d 5d 4h", "back": "As Kd Td 9d 6h"},
}
POINTS = {"Anna": 15, "Bo": 23, "Cia": -38}
SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
TABLET = {"width": 768, "height": 1024}
PHONE = {"width": 360, "height": 740}

# [name, width, height] of the visible buttons of the picker (and the rows' slots) smaller
# than 44 px either way.
SMALL_KEYS = """() => {
  const small = [];
  for (const el of document.querySelectorAll("[data-picker] button, .slots button")) {
    const box = el.getBoundingClientRect();
    if (!box.width || el.closest("[hidden]")) continue;
    if (box.width < 44 || box.height < 44) {
      small.push([el.getAttribute("aria-label") || el.innerText, box.width, box.height]);
    }
  }
  return small;
}"""


def shown(code):
    return ("10" if code[0] == "T" else code[0]) + SYMBOLS[code[1]]


@pytest.fixture
def table(django_user_model):
    td = django_user_model.objects.create_user("td", password="x-td-pass-1", is_staff=True)
    tournament = registration.create_tournament(
        actor=td, name="Tablet Cup", min_hands=20, entry_mode="cards"
    )
    for name in BOARDS:
        registration.register_player(tournament=tournament, actor=td, name=name)
    level = draws.draw_first_level(tournament=tournament, actor=td, seed="tablet")
    return level.tables.get()


@pytest.fixture
def device(chromium_browser, live_server, request):
    context = chromium_browser.new_context(viewport=request.param, is_mobile=True, has_touch=True)
    yield context.new_page()
    context.close()


def seat_order(table):
    return [s.player.name for s in table.seats.select_related("player").order_by("position")]


class Taps:
    """Taps by role, as a revisor would, each one counted."""

    def __init__(self, page):
        self.page = page
        self.count = 0

    def tap(self, locator):
        locator.click()
        self.count += 1

    def card(self, code):
        self.tap(self.deck_card(code))

    def deck_card(self, code):
        # A card's name is what it shows ("Q♠"); placed, it says where ("Q♠, placed in ...").
        deck = self.page.locator("[data-deck]")
        return deck.get_by_role("button", name=re.compile(rf"^{re.escape(shown(code))}(,|$)"))


@pytest.mark.parametrize("device", [TABLET], indirect=True)
def test_a_hand_on_the_tablet_deck_takes_at_most_45_taps(device, live_server, table):
    page = device
    page.goto(f"{live_server.url}/r/{table.revisor_key}/")
    page.wait_for_url(re.compile(r".*/r/card/$"))
    taps = Taps(page)
    taps.tap(page.get_by_role("link", name="Enter hand 1 by cards"))
    page.wait_for_url(re.compile(r".*/r/card/cards/$"))
    deck = page.locator("[data-deck]")
    expect(deck).to_be_visible()
    # The whole deck, and no rank or suit keys: one tap a card.
    assert deck.get_by_role("button").count() == 52
    expect(page.locator("[data-picker]").get_by_role("button", name="spades ♠")).to_be_hidden()
    assert page.evaluate(SMALL_KEYS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= TABLET["width"]
    names = seat_order(table)
    status = page.locator("[data-picker-status]")
    assert f"Next card: {names[0]} · Front, 1 of 3." in status.inner_text()
    assert "Tap the card in the deck" in status.inner_text()
    assert_no_serious_axe_violations(page)

    slipped = False
    for name in names:
        for row in ("front", "middle", "back"):
            for code in BOARDS[name][row].split():
                if not slipped:
                    # A slip: the 2♣ for the first card. Greyed out; a tap takes it back.
                    taps.card("2c")
                    placed = taps.deck_card("2c")
                    expect(placed).to_have_class(re.compile(r"\bplaced\b"))
                    expect(placed).to_have_accessible_name(
                        f"2♣, placed in {names[0]} · Front: tap to take it back"
                    )
                    assert page.get_by_label(f"{names[0]}: front").input_value() == "2c"
                    taps.card("2c")
                    assert page.get_by_label(f"{names[0]}: front").input_value() == ""
                    expect(taps.deck_card("2c")).not_to_have_class(re.compile(r"\bplaced\b"))
                    slipped = True
                taps.card(code)
            assert page.get_by_label(f"{name}: {row}").input_value() == BOARDS[name][row]
    assert "All 39 cards are placed: check the hand." in status.inner_text()
    # Every row full: a card not placed has nowhere to go; a placed one can still go back.
    expect(taps.deck_card("2c")).to_be_disabled()
    expect(taps.deck_card("Ks")).to_be_enabled()
    assert deck.locator(".placed").count() == 39
    assert_no_serious_axe_violations(page)  # the greyed-out cards are still readable

    taps.tap(page.get_by_role("button", name="Check the hand"))
    expect(page.get_by_role("heading", name="Hand 1: announce it, then confirm")).to_be_visible()
    for name, points in POINTS.items():
        expect(page.get_by_role("heading", name=f"{name} {points:+d}")).to_be_visible()
    text = page.locator("#cards-preview").inner_text()
    for line in ("Bo wins 3 from Anna.", "Anna wins 18 from Cia.", "Bo wins 20 from Cia."):
        assert line in text
    assert not Hand.objects.exists()
    taps.tap(page.get_by_role("button", name="Confirm hand 1"))
    expect(page.get_by_text("Hand 1 recorded ✓")).to_be_visible()
    # The link, 39 cards, the slip's two taps, Check and Confirm.
    assert taps.count == 1 + 39 + 2 + 2 == 44
    assert totals(table) == POINTS
    assert HandVersion.objects.get().mode == HandVersion.Mode.CARDS


@pytest.mark.parametrize("device", [TABLET], indirect=True)
def test_the_deck_takes_a_card_back_anywhere_and_refills_its_row(device, live_server, table):
    page = device
    page.goto(f"{live_server.url}/r/{table.revisor_key}/")
    page.goto(f"{live_server.url}/r/card/cards/")
    first, second = seat_order(table)[:2]
    taps = Taps(page)
    for code in ("Ks", "Kh", "4d", "7c"):
        taps.card(code)
    assert page.get_by_label(f"{first}: middle").input_value() == "7c"
    taps.card("Kh")  # taken back from the front: the next card goes there
    assert page.get_by_label(f"{first}: front").input_value() == "Ks 4d"
    status = page.locator("[data-picker-status]").inner_text()
    assert f"Next card: {first} · Front, 3 of 3." in status
    taps.card("Ah")
    assert page.get_by_label(f"{first}: front").input_value() == "Ks 4d Ah"
    assert page.get_by_label(f"{first}: middle").input_value() == "7c"
    # A typed row greys its cards out too; "Undo" takes back the last card placed.
    page.get_by_label(f"{second}: front").fill("Q♠ Q♥")
    expect(taps.deck_card("Qs")).to_have_class(re.compile(r"\bplaced\b"))
    page.locator("[data-picker]").get_by_role("button", name="Undo the last card").click()
    assert page.get_by_label(f"{first}: front").input_value() == "Ks 4d"


@pytest.mark.parametrize("device", [PHONE], indirect=True)
def test_the_phone_keeps_the_keys_every_one_a_44_px_target(device, live_server, table):
    page = device
    page.goto(f"{live_server.url}/r/{table.revisor_key}/")
    page.goto(f"{live_server.url}/r/card/cards/")
    picker = page.locator("[data-picker]")
    expect(picker).to_be_visible()
    expect(page.locator("[data-deck]")).to_be_hidden()  # 52 cards would not fit 44 px
    keys = picker.locator("button.key")
    assert keys.count() == 13 + 4 + 1  # ranks, suits, "Undo the last card"
    boxes = keys.evaluate_all("ks => ks.map(k => k.getBoundingClientRect().toJSON())")
    assert all(b["width"] >= 44 and b["height"] >= 44 for b in boxes), boxes
    assert page.evaluate(SMALL_KEYS) == []  # the rows' card slots too
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # The keys place cards as before: rank, then suit.
    picker.get_by_role("button", name="K", exact=True).click()
    picker.get_by_role("button", name="spades ♠", exact=True).click()
    assert page.get_by_label(f"{seat_order(table)[0]}: front").input_value() == "Ks"


def test_without_javascript_the_picker_stays_hidden_and_the_rows_are_the_form(
    chromium_browser, live_server, table
):
    context = chromium_browser.new_context(viewport=TABLET, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/r/{table.revisor_key}/")
        page.goto(f"{live_server.url}/r/card/cards/")
        expect(page.locator("[data-picker]")).to_be_hidden()
        for name, board in BOARDS.items():
            for row, cards in board.items():
                page.get_by_label(f"{name}: {row}").fill(cards)
        page.get_by_role("button", name="Check the hand").click()
        page.get_by_role("button", name="Confirm hand 1").click()
        expect(page.get_by_text("Hand 1 recorded ✓")).to_be_visible()
        assert totals(table) == POINTS
    finally:
        context.close()
