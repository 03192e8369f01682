"""The revisor's hand pages on a 360 × 740 phone, at a 3-player table of 30+-character names:
the entry by cards (the picker), its check (the scored hand read out to the table), a refusal,
and "Fix hand" by cards (through the picker, a check and a confirm; in Swedish too) and by
points. None is wider than the screen or cuts a number off, and every primary action is
>= 44 px high, every link and checkbox >= 24 px."""

import re
import uuid

import pytest

from tests.browser.layout import OVERFLOW
from tests.tournament.conftest import positions, totals
from tournament.models import HandVersion, Tournament
from tournament.services import draws, hands, registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

KARL = "Karl-Erik Lindqvist-Söderström"  # 30 characters
ANNA = "Anna-Karin Westerberg-Åkerlund"  # 30
PER = "Per-Olof Johansson-Gyllenhammar"  # 31
NAMES = (KARL, ANNA, PER)
# The hand of tests/tournament/views/test_revisor_cards.py: Karl +36, Anna -9, Per -27.
BOARDS = {
    KARL: {"front": "Qs Qh 2c", "middle": "Ks Kh 9d 8c 7s", "back": "As Ad Ac 3c 3s"},
    ANNA: {"front": "4s 4h 2d", "middle": "Js Jh 5d 4c 3d", "back": "9s Th Jd Qc Kc"},
    PER: {"front": "5s 6h 7d", "middle": "Tc 9h 2s 3h 4d", "back": "8s 8h 8d 7c 6c"},
}

SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SUIT_KEYS = {"s": "spades ♠", "h": "hearts ♥", "d": "diamonds ♦", "c": "clubs ♣"}

# Targets too small: [text, width, height] of every visible button, link and checkbox in the
# page's main part (the site header is another page's).
SMALL = """([primary, other]) => {
  const small = [];
  const main = document.querySelector("main");
  for (const el of main.querySelectorAll("button, a[href], input[type=checkbox]")) {
    const box = el.getBoundingClientRect();
    if (!box.width || el.closest("[hidden]")) continue;
    const isPrimary = el.matches("button[type=submit]");
    const least = isPrimary ? primary : other;
    if (box.height < least || box.width < Math.min(least, 24)) {
      small.push([el.innerText || el.name, Math.round(box.width), Math.round(box.height)]);
    }
  }
  return small;
}"""


def fits(page, shot=None):
    if shot:
        page.screenshot(path=f"/tmp/h2b/{shot}.png", full_page=True)
    found = page.evaluate(OVERFLOW)
    assert found["scroll"] <= 360 and not found["out"], found


def targets_are_large(page):
    assert page.evaluate(SMALL, [44, 24]) == []


@pytest.fixture
def table(django_user_model):
    td = django_user_model.objects.create_user("td", password="x-td-pass-1", is_staff=True)
    tournament = registration.create_tournament(
        actor=td, name="Phone Cup", min_hands=20, entry_mode=Tournament.EntryMode.EITHER
    )
    for name in NAMES:
        registration.register_player(tournament=tournament, actor=td, name=name)
    level = draws.draw_first_level(tournament=tournament, actor=td, seed="phone")
    return level.tables.get()


def bind(page, live_server, table):
    page.goto(f"{live_server.url}/r/{table.revisor_key}/")
    page.wait_for_url(re.compile(r".*/r/card/$"))


def record(table, number, **content):
    hands.record_hand(table=table, hand_number=number, idempotency_key=uuid.uuid4(), **content)


def by_position(table, boards):
    pos = positions(table)
    return {pos[name]: board for name, board in boards.items()}


def test_the_entry_by_cards_its_refusal_and_its_check_fit_a_phone(phone_page, live_server, table):
    page = phone_page
    bind(page, live_server, table)
    page.goto(f"{live_server.url}/r/card/cards/")
    page.locator("[data-picker]:not([hidden])").wait_for()
    fits(page)
    targets_are_large(page)
    for name, board in BOARDS.items():
        for row, text in board.items():
            page.get_by_label(f"{name}: {row}").fill(text)
    # A card twice: the refusal names both long names, in place.
    page.get_by_label(f"{PER}: front").fill("Qs 6h 7d")
    page.get_by_role("button", name="Check the hand").click()
    page.get_by_text("appears twice").first.wait_for()
    fits(page, "refused")
    targets_are_large(page)
    page.get_by_label(f"{PER}: front").fill("5s 6h 7d")
    page.get_by_role("button", name="Check the hand").click()
    page.get_by_text("Hand 1: announce it, then confirm").wait_for()
    fits(page, "check")
    targets_are_large(page)
    # The points read out are whole, each on the screen: "+36", "-9", "-27".
    for name, points in ((KARL, "+36"), (ANNA, "-9"), (PER, "-27")):
        head = page.get_by_role("heading", name=f"{name} {points}")
        assert head.locator(".scored-points").inner_text() == points
        box = head.locator(".scored-points").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360


def test_fix_hand_by_cards_goes_through_the_picker_a_check_and_a_confirm(
    phone_page, live_server, table
):
    # Recorded with Karl-Erik's middle and back swapped: he fouls, no royalties. Anna
    # against him 6 + 2 (her straight), Per 6 + 0, Anna against Per 6 + 2 (as above):
    # Karl -14, Anna +16, Per -2. The fix brings back BOARDS: Karl +36, Anna -9, Per -27.
    swapped = {**BOARDS, KARL: {**BOARDS[KARL], "middle": BOARDS[KARL]["back"]}}
    swapped[KARL]["back"] = BOARDS[KARL]["middle"]
    record(table, 1, boards=by_position(table, swapped))
    assert totals(table) == {KARL: -14, ANNA: 16, PER: -2}
    page = phone_page
    bind(page, live_server, table)
    page.get_by_role("link", name="Fix hand 1").click()
    page.locator("[data-picker]:not([hidden])").wait_for()
    # The picker shows the cards as recorded, every one placed.
    assert page.get_by_label(f"{KARL}: middle").input_value() == "As Ad Ac 3c 3s"
    status = page.locator("[data-picker-status]")
    assert "All 39 cards are placed. To change one, tap it" in status.inner_text()
    fits(page)
    targets_are_large(page)
    # Take his back and middle out by tapping the cards, then pick them again.
    for row, label in (("back", "Back"), ("middle", "Middle")):
        for code in swapped[KARL][row].split():
            shown = ("10" if code[0] == "T" else code[0]) + SYMBOLS[code[1]]
            page.get_by_role("button", name=f"Remove {shown} from {KARL} · {label}").click()
    assert page.get_by_label(f"{KARL}: middle").input_value() == ""
    picker, rank = page.locator("[data-picker]"), None
    for code in (BOARDS[KARL]["middle"] + " " + BOARDS[KARL]["back"]).split():
        if code[0] != rank:  # a rank tapped stays selected for the next card
            picker.get_by_role("button", name=code[0], exact=True).click()
            rank = code[0]
        picker.get_by_role("button", name=SUIT_KEYS[code[1]], exact=True).click()
    assert page.get_by_label(f"{KARL}: middle").input_value() == BOARDS[KARL]["middle"]
    assert page.get_by_label(f"{KARL}: back").input_value() == BOARDS[KARL]["back"]
    page.get_by_label("Reason").fill("Karl-Erik's middle and back were swapped on the card")
    page.get_by_role("button", name="Check the fix").click()
    page.get_by_text("Hand 1 fixed: announce it, then confirm").wait_for()
    fits(page)
    targets_are_large(page)
    # Read out to the table: each player's new points beside the old, whole on the screen.
    for name, line in ((KARL, "was -14, now +36"), (ANNA, "was +16, now -9")):
        was = page.get_by_role("article", name=name).locator(".scored-was")
        assert was.inner_text() == line
        box = was.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert totals(table) == {KARL: -14, ANNA: 16, PER: -2}  # nothing changed yet
    page.get_by_role("button", name="Confirm the fix of hand 1").click()
    page.get_by_text("Hand 1 corrected.").wait_for()
    page.wait_for_url(re.compile(r".*/r/card/$"))
    assert totals(table) == {KARL: 36, ANNA: -9, PER: -27}
    assert HandVersion.objects.filter(hand__table=table).count() == 2


def test_a_dropped_confirm_of_a_fix_is_sent_again_and_fixes_once(phone_page, live_server, table):
    record(table, 1, boards=by_position(table, BOARDS))
    page = phone_page
    bind(page, live_server, table)
    page.goto(f"{live_server.url}/r/card/fix/")
    page.get_by_label(f"{PER}: front").fill("7d 6h 5s")  # the same cards, in another order
    page.get_by_label("Reason").fill("Per-Olof's front in order")
    page.get_by_role("button", name="Check the fix").click()
    page.get_by_text("Hand 1 fixed: announce it, then confirm").wait_for()
    dropped = []

    def drop_first_response(route):
        if not dropped:
            route.fetch()  # the server saves the fix...
            dropped.append(True)
            route.abort("connectionfailed")  # ...and the answer never arrives
        else:
            route.continue_()

    page.route(re.compile(r".*/r/card/fix/confirm/$"), drop_first_response)
    page.get_by_role("button", name="Confirm the fix of hand 1").click()
    page.locator("#connection-banner").wait_for(state="visible")
    assert HandVersion.objects.filter(hand__table=table).count() == 2
    page.get_by_role("button", name="Confirm the fix of hand 1").click()  # the same key
    page.get_by_text("This correction of hand 1 was already saved.").wait_for()
    assert HandVersion.objects.filter(hand__table=table).count() == 2


def test_fix_hand_by_points_fits_a_phone(phone_page, live_server, table):
    record(table, 1, points=by_position(table, {KARL: 8, ANNA: -5, PER: -3}))
    page = phone_page
    bind(page, live_server, table)
    page.get_by_role("link", name="Fix hand 1").click()
    page.get_by_label(f"Points for {KARL}").wait_for()
    fits(page, "fixpoints")
    targets_are_large(page)
    page.get_by_label(f"Points for {KARL}").fill("9")
    page.get_by_role("button", name="Save the fixed hand 1").click()
    page.get_by_text("they add up to +1").first.wait_for()
    fits(page)
    targets_are_large(page)


def test_the_fix_by_cards_and_its_check_fit_a_phone_in_swedish(phone_page, live_server, table):
    record(table, 1, boards=by_position(table, BOARDS))
    page = phone_page
    page.context.add_cookies([{"name": "django_language", "value": "sv", "url": live_server.url}])
    bind(page, live_server, table)
    page.goto(f"{live_server.url}/r/card/fix/")
    page.locator("[data-picker]:not([hidden])").wait_for()
    fits(page)
    targets_are_large(page)
    page.get_by_label("Motivering").fill("Fel ordning i Per-Olofs topp")
    page.get_by_role("button", name="Kontrollera rättelsen").click()
    page.get_by_text("Hand 1 rättad: läs upp den, bekräfta den sedan").wait_for()
    fits(page)
    targets_are_large(page)
    was = page.get_by_role("article", name=KARL).locator(".scored-was")
    assert was.inner_text() == "var +36, nu +36"
