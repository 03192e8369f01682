"""Entering a hand by cards with the touch card picker on a 360 × 740 phone, counting taps."""

import re

import pytest
from playwright.sync_api import expect

from tests.tournament.conftest import totals
from tournament.models import Hand, HandVersion
from tournament.services import draws, registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The hand worked out in tests/tournament/views/test_revisor_cards.py: Anna +36, Bo -9, Cia -27.
BOARDS = {
    "Anna": {"front": "Qs Qh 2c", "middle": "Ks Kh 9d 8c 7s", "back": "As Ad Ac 3c 3s"},
    "Bo": {"front": "4s 4h 2d", "middle": "Js Jh 5d 4c 3d", "back": "9s Th Jd Qc Kc"},
    "Cia": {"front": "5s 6h 7d", "middle": "Tc 9h 2s 3h 4d", "back": "8s 8h 8d 7c 6c"},
}
SUIT_KEYS = {"s": "spades ♠", "h": "hearts ♥", "d": "diamonds ♦", "c": "clubs ♣"}
ROW_LABEL = {"front": "Front", "middle": "Middle", "back": "Back"}


@pytest.fixture
def table(django_user_model):
    td = django_user_model.objects.create_user("td", password="x-td-pass-1", is_staff=True)
    tournament = registration.create_tournament(
        actor=td, name="Phone Cup", min_hands=20, entry_mode="cards"
    )
    for name in ("Anna", "Bo", "Cia"):
        registration.register_player(tournament=tournament, actor=td, name=name)
    level = draws.draw_first_level(tournament=tournament, actor=td, seed="phone")
    return level.tables.get()


def seat_order(table):
    return [s.player.name for s in table.seats.select_related("player").order_by("position")]


def open_cards(page, live_server, table):
    page.goto(f"{live_server.url}/r/{table.revisor_key}/")
    page.wait_for_url(re.compile(r".*/r/card/$"))
    page.get_by_role("link", name="Enter hand 1 by cards").click()
    page.wait_for_url(re.compile(r".*/r/card/cards/$"))
    page.locator("[data-picker]:not([hidden])").wait_for()


class Taps:
    """Taps the picker's keys rank first, as a revisor reading a row left to right would,
    and counts every tap. The picker keeps a rank selected after a card is placed, so the
    next card of the same rank is one tap (its suit)."""

    def __init__(self, page):
        self.page = page
        self.count = 0
        self.rank = None

    def tap(self, locator):
        locator.click()
        self.count += 1

    def key(self, rank):
        name = "10" if rank == "T" else rank
        return self.page.locator("[data-picker]").get_by_role("button", name=name, exact=True)

    def card(self, code):
        rank, suit = code[0], code[1]
        if self.rank != rank:
            self.tap(self.key(rank))
            self.rank = rank
        self.tap(self.page.get_by_role("button", name=SUIT_KEYS[suit], exact=True))

    def button(self, name):
        self.tap(self.page.get_by_role("button", name=name, exact=True))


def test_a_hand_entered_by_taps_is_checked_and_recorded(phone_page, live_server, table):
    page = phone_page
    open_cards(page, live_server, table)
    names = seat_order(table)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # Every key of the picker is a large target (the deck, for tablets, is not shown).
    for box in page.locator("[data-picker] button.key").evaluate_all(
        "keys => keys.map(k => k.getBoundingClientRect()).map(r => [r.width, r.height])"
    ):
        assert box[0] >= 44 and box[1] >= 44, box
    first = names[0]
    status = page.locator("[data-picker-status]")
    assert f"Next card: {first} · Front, 1 of 3." in status.inner_text()

    taps = Taps(page)
    for name in names:
        for row in ("front", "middle", "back"):
            for code in BOARDS[name][row].split():
                taps.card(code)
                if code == "Qh":
                    # Q stays selected; the queens used are greyed out and cannot be picked.
                    assert taps.key("Q").get_attribute("aria-pressed") == "true"
                    for suit in ("s", "h"):
                        assert page.get_by_role("button", name=SUIT_KEYS[suit]).is_disabled()
                    assert page.get_by_role("button", name=SUIT_KEYS["d"]).is_enabled()
            assert page.get_by_label(f"{name}: {row}").input_value() == BOARDS[name][row]
    assert taps.count == 69  # instead of 78 with two taps a card
    assert "All 39 cards are placed: check the hand." in status.inner_text()
    assert page.get_by_role("button", name="hearts ♥", exact=True).is_disabled()

    taps.button("Check the hand")
    page.get_by_text("Hand 1: announce it, then confirm").wait_for()
    assert "Anna wins 17 from Bo." in page.content()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert not Hand.objects.exists()
    taps.button("Confirm hand 1")
    page.get_by_text("Hand 1 recorded ✓").wait_for()
    assert taps.count == 71  # 39 cards by the picker: 69 taps, + Check + Confirm
    page.wait_for_url(re.compile(r".*/r/card/$"))
    assert totals(table) == {"Anna": 36, "Bo": -9, "Cia": -27}
    assert HandVersion.objects.get().mode == HandVersion.Mode.CARDS
    assert "Enter hand 2 by cards" in page.content()


def test_typing_tapping_removing_and_undo_mix(phone_page, live_server, table):
    page = phone_page
    open_cards(page, live_server, table)
    first = seat_order(table)[0]
    front = page.get_by_label(f"{first}: front")
    front.fill("Q♠Q♥")  # typed: the slots show them and the cursor stays on the front
    picker = page.locator("[data-picker]")
    assert "1 of 3" not in page.locator("[data-picker-status]").inner_text()
    assert "3 of 3" in page.locator("[data-picker-status]").inner_text()
    picker.get_by_role("button", name="10", exact=True).click()
    page.get_by_role("button", name="hearts ♥", exact=True).click()
    assert front.input_value() == "Qs Qh Th"
    # Tap a placed card to take it out; "Undo" takes back the last card placed.
    page.get_by_role("button", name=f"Remove Q♥ from {first} · Front").click()
    assert front.input_value() == "Qs Th"
    picker.get_by_role("button", name="Undo the last card").click()
    assert front.input_value() == "Qs"
    # The suit first: it stays selected and each rank is one tap (a flush).
    # The ten placed a card: tapped again it would start the next one; once more, it lets go.
    ten = picker.get_by_role("button", name="10", exact=True)
    ten.click()
    assert ten.get_attribute("aria-pressed") == "true"
    ten.click()
    assert ten.get_attribute("aria-pressed") == "false"
    page.get_by_role("button", name="clubs ♣", exact=True).click()
    for rank in ("A", "K"):
        picker.get_by_role("button", name=rank, exact=True).click()
    assert front.input_value() == "Qs Ac Kc"
    assert page.get_by_label(f"{first}: middle").input_value() == ""
    picker.get_by_role("button", name="J", exact=True).click()
    assert page.get_by_label(f"{first}: middle").input_value() == "Jc"
    # What was typed or tapped survives a reload (the draft on the device).
    page.reload()
    page.locator("[data-picker]:not([hidden])").wait_for()
    assert page.get_by_label(f"{first}: front").input_value() == "Qs Ac Kc"
    assert page.get_by_label(f"{first}: middle").input_value() == "Jc"
    assert f"{first} · Middle, 2 of 5" in page.locator("[data-picker-status]").inner_text()


def test_a_dropped_confirm_is_sent_again_and_records_one_hand(phone_page, live_server, table):
    page = phone_page
    open_cards(page, live_server, table)
    for name, board in BOARDS.items():  # typed this time, symbols and tens as a phone types them
        for row, text in board.items():
            typed = text.replace("T", "10").replace("s", "♠").replace("h", "♥")
            page.get_by_label(f"{name}: {row}").fill(typed)
    page.get_by_role("button", name="Check the hand").click()
    page.get_by_text("Hand 1: announce it, then confirm").wait_for()
    dropped = []

    def drop_first_response(route):
        if not dropped:
            route.fetch()  # the server records the hand...
            dropped.append(True)
            route.abort("connectionfailed")  # ...and the answer never arrives
        else:
            route.continue_()

    page.route(re.compile(r".*/r/card/cards/confirm/$"), drop_first_response)
    page.get_by_role("button", name="Confirm hand 1").click()
    page.locator("#connection-banner").wait_for(state="visible")
    assert Hand.objects.filter(table=table).count() == 1
    page.get_by_role("button", name="Confirm hand 1").click()  # the same submission key
    page.get_by_text("Hand 1 was already recorded (the same entry arrived twice).").wait_for()
    assert Hand.objects.filter(table=table).count() == 1
    assert totals(table) == {"Anna": 36, "Bo": -9, "Cia": -27}


def test_rank_then_suit_for_every_card_places_a_pair_right(phone_page, live_server, table):
    """The plain habit, as the keypad's hint says: Q ♠ Q ♥ 7 ♦ is Q♠ Q♥ 7♦ (the Q kept
    selected after Q♠ used to let go at the second Q, and the row became Q♠ 7♥)."""
    page = phone_page
    open_cards(page, live_server, table)
    first = seat_order(table)[0]
    picker = page.locator("[data-picker]")
    for key in ("Q", "spades ♠", "Q", "hearts ♥", "7", "diamonds ♦"):
        picker.get_by_role("button", name=key, exact=True).click()
    assert page.get_by_label(f"{first}: front").input_value() == "Qs Qh 7d"
    # Suit first, the same: ♠ K ♠ 9 is K♠ 9♠ (after letting go of the 7, which stays
    # selected from 7♦: tapped twice, it starts no card and lets go).
    for key in ("7", "7", "spades ♠", "K", "spades ♠", "9"):
        picker.get_by_role("button", name=key, exact=True).click()
    assert page.get_by_label(f"{first}: middle").input_value() == "Ks 9s"


def test_after_a_hand_by_cards_the_card_can_still_time_a_player(phone_page, live_server, table):
    """The confirm swaps the score card into the cards page, whose head lacked the timer's
    script: "Time a player" fell back to calling the TD at once, without the count."""
    page = phone_page
    open_cards(page, live_server, table)
    for name, rows in BOARDS.items():
        for row, cards in rows.items():
            page.get_by_label(f"{name}: {row}").fill(cards)
    page.get_by_role("button", name="Check the hand").click()
    page.get_by_role("button", name="Confirm hand 1").click()
    page.get_by_text("Hand 1 recorded ✓").wait_for()
    # The timer's script sets the card up once htmx has swapped it in: waited for.
    expect(page.get_by_role("button", name="Start the 10-second count")).to_be_visible()
    expect(page.get_by_role("button", name="Call the TD: the player timed out")).to_be_hidden()


def test_back_from_the_check_returns_to_the_typed_cards(phone_page, live_server, table):
    """A tablet's Back (or swipe) on the check is "Change the cards": the cards come back as
    typed, and the hand is checked and recorded once. It used to leave for the score card."""
    page = phone_page
    open_cards(page, live_server, table)
    for name, board in BOARDS.items():
        for row, text in board.items():
            page.get_by_label(f"{name}: {row}").fill(text)
    page.get_by_role("button", name="Check the hand").click()
    expect(page.get_by_text("Hand 1: announce it, then confirm")).to_be_visible()

    page.go_back()
    expect(page.get_by_role("heading", name="Hand 1: the cards")).to_be_visible()
    assert re.search(r"/r/card/cards/$", page.url)
    for name, board in BOARDS.items():
        for row, text in board.items():
            expect(page.get_by_label(f"{name}: {row}")).to_have_value(text)
    assert not Hand.objects.exists()

    page.get_by_role("button", name="Check the hand").click()
    page.get_by_role("button", name="Confirm hand 1").click()
    expect(page.get_by_text("Hand 1 recorded ✓")).to_be_visible()
    assert Hand.objects.filter(table=table).count() == 1
    assert totals(table) == {"Anna": 36, "Bo": -9, "Cia": -27}
