"""Every revisor screen, a whole table through, on a 360 × 740 phone in English and Swedish,
at a table of 30-letter names: at each step nothing is wider than the screen and axe-core
finds no critical or serious fault (tests/browser/axe.py). The steps: the code page (a wrong
code), the card by points (a refusal), the entry by cards, the check with every badge (a
foul, Fantasyland going, played and staying, no longer going, a scoop), the card after the
confirm, the fix by cards and its check, the points with the table confirming them and a
fix by points, "Call the TD" (refused without a reason, then the open call), the 10-second
count and "acted in time", the table over, and the station after the final."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.axe import assert_no_serious_axe_violations
from tests.browser.layout import assert_fits
from tests.tournament.conftest import play_named, positions, totals
from tournament.models import RevisorStation, TableCall, Tournament
from tournament.services import calls, draws, registration
from tournament.services.revisor_stations import create_stations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

KARL = "Karl-Erik Lindqvist-Söderström"  # 30 characters
ANNA = "Anna-Karin Westerberg-Åkerlund"  # 30
PER = "Perolofjohanssongyllenhammarsö"  # 30 letters in one word: nowhere to break it

# Hand 1, worked out from the rules (1-6, SM royalties):
# Per: KK front (8, Fantasyland), trip nines (2), jack-high diamond flush (4): 14.
# Anna: QQ front (7, Fantasyland), jacks and fours, 7-J straight (2): 9.
# Karl: AA front over a middle of queens: fouled.
# Per v Anna: front, middle and back Per's: 3 + 3 for the scoop, royalties 14 - 9: Per +11.
# Per v Karl: 6 + 14 = 20; Anna v Karl: 6 + 9 = 15.
# Per 11 + 20 = +31, Anna -11 + 15 = +4, Karl -20 - 15 = -35.
HAND_1 = {
    PER: {"front": "Ks Kh 2c", "middle": "9s 9h 9d 4c 5c", "back": "6d 7d 8d Td Jd"},
    ANNA: {"front": "Qs Qh 3c", "middle": "Js Jh 4d 4h 6c", "back": "7s 8c 9c Tc Jc"},
    KARL: {"front": "Ac Ad 2d", "middle": "Qc Qd 3d 2h 5h", "back": "Kc Kd 7c 7h 2s"},
}
POINTS_1 = {PER: "+31", ANNA: "+4", KARL: "-35"}
# Hand 2, Per and Anna in Fantasyland: Per stays (trips in front), Anna does not.
HAND_2 = {
    PER: {"front": "2s 2h 2d", "middle": "3s 3h 3d 4s 4h", "back": "5s 5h 5d 5c Ac"},
    ANNA: {"front": "6s 7s 8s", "middle": "9h Th Jh Qh 6h", "back": "Kc Kd Ks 7c 7d"},
    KARL: {"front": "8h 9c Tc", "middle": "Jc Jd 4c 4d 6c", "back": "Qc Qd Qs Ah Ad"},
}

WORDS = {
    "en": {
        "code": "Table code",
        "open": "Open the score card",
        "points": "Points for {name}",
        "fl": "{name} goes to Fantasyland",
        "check_points": "Check hand {hand}",
        "by_cards": "Enter hand {hand} by cards",
        "row": "{name}: {row}",
        "rows": {"front": "front", "middle": "middle", "back": "back"},
        "check": "Check the hand",
        "confirm": "Confirm hand {hand}",
        "recorded": "Hand {hand} recorded ✓",
        "fix": "Fix hand {hand} (until the next hand is recorded)",
        "reason": "Reason",
        "check_fix": "Check the fix",
        "confirm_fix": "Confirm the fix of hand {hand}",
        "back": "Back to the score card",
        "call": "Call the TD",
        "why_missing": "Choose why you call the TD.",
        "dispute": "Dispute",
        "called": "The TD was called at",
        "player": "Player",
        "count": "Start the 10-second count",
        "acted": "Acted in time",
        "no_call": "No call",
        "over": "The table is over after 5 hands",
        "finished": "The tournament is finished",
        "badges": [
            "fouled: loses every row, no royalties",
            "goes to Fantasyland",
            "played in Fantasyland",
            "stays in Fantasyland",
            "no longer goes to Fantasyland",
        ],
        "scoop": "scoop +3",
    },
    "sv": {
        "code": "Bordskod",
        "open": "Öppna protokollet",
        "points": "Poäng för {name}",
        "fl": "{name} går till Fantasyland",
        "check_points": "Kontrollera hand {hand}",
        "by_cards": "Registrera hand {hand} med kort",
        "row": "{name}: {row}",
        "rows": {"front": "toppen", "middle": "mitten", "back": "botten"},
        "check": "Kontrollera handen",
        "confirm": "Bekräfta hand {hand}",
        "recorded": "Hand {hand} registrerad ✓",
        "fix": "Rätta hand {hand} (tills nästa hand är registrerad)",
        "reason": "Motivering",
        "check_fix": "Kontrollera rättelsen",
        "confirm_fix": "Bekräfta rättelsen av hand {hand}",
        "back": "Tillbaka till protokollet",
        "call": "Tillkalla TL",
        "why_missing": "Välj varför du tillkallar TL.",
        "dispute": "Tvist",
        "called": "TL tillkallades kl.",
        "player": "Spelare",
        "count": "Starta nedräkningen på 10 sekunder",
        "acted": "Agerade i tid",
        "no_call": "Ingen tillkallning",
        "over": "Bordet är klart efter 5 händer",
        "finished": "Turneringen är avslutad",
        "badges": [
            "bust: förlorar alla rader, inga royalties",
            "går till Fantasyland",
            "spelade i Fantasyland",
            "stannar i Fantasyland",
            "går inte längre till Fantasyland",
        ],
        "scoop": "scoop +3",
    },
}


def screen_is_right(page):
    """The page as it is now fits the phone and passes axe (critical and serious)."""
    assert_fits(page)
    assert_no_serious_axe_violations(page)


def whole_on_screen(locator):
    box = locator.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360, box


@pytest.fixture
def table(td_user):
    tournament = registration.create_tournament(
        actor=td_user,
        name="Phone Cup",
        min_hands=2,
        entry_mode=Tournament.EntryMode.EITHER,
        table_confirms_points=True,
    )
    for name in (KARL, ANNA, PER):
        registration.register_player(tournament=tournament, actor=td_user, name=name)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="screens")
    create_stations(tournament=tournament, actor=td_user)
    return level.tables.get()


def enter_cards(page, words, boards):
    for name, board in boards.items():
        for row, cards in board.items():
            label = words["row"].format(name=name, row=words["rows"][row])
            page.get_by_label(re.compile(rf"^{re.escape(label)}")).fill(cards)


@pytest.mark.parametrize("language", ["en", "sv"])
def test_every_revisor_screen_fits_and_passes_axe(
    phone_page, live_server, table, td_user, language
):
    words = WORDS[language]
    page = phone_page
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )

    # The code page, and a wrong code typed.
    page.goto(f"{live_server.url}/r/")
    screen_is_right(page)
    page.get_by_label(words["code"]).fill("ZZZZ-ZZZZ")
    page.get_by_role("button", name=words["open"]).click()
    expect(page.locator(".error, .error-summary").first).to_be_visible()
    screen_is_right(page)

    # The card by points, and a refusal (the points do not add up).
    page.goto(f"{live_server.url}/r/{table.revisor_key}/")
    page.wait_for_url(re.compile(r".*/r/card/$"))
    screen_is_right(page)
    for name, points in ((KARL, "5"), (ANNA, "-1"), (PER, "-1")):
        page.get_by_label(words["points"].format(name=name)).fill(points)
    page.get_by_role("button", name=words["check_points"].format(hand=1)).click()
    expect(page.locator(".error-summary")).to_be_visible()
    screen_is_right(page)

    # Hand 1 by cards: the entry, then the check with a foul, Fantasyland and a scoop.
    page.get_by_role("link", name=words["by_cards"].format(hand=1)).click()
    page.locator("[data-picker]:not([hidden])").wait_for()
    screen_is_right(page)
    enter_cards(page, words, HAND_1)
    page.get_by_role("button", name=words["check"]).click()
    preview = page.locator("#cards-preview")
    expect(preview).to_be_visible()
    screen_is_right(page)
    for name, points in POINTS_1.items():
        shown = page.get_by_role("article", name=name).locator(".scored-points")
        expect(shown).to_have_text(points)  # "-35" whole, never "-3"
        whole_on_screen(shown)
    text = preview.inner_text()
    assert words["badges"][0] in text and words["badges"][1] in text and words["scoop"] in text
    for badge in page.locator(".badges .badge").all():
        whole_on_screen(badge)
    page.get_by_role("button", name=words["confirm"].format(hand=1)).click()
    expect(page.get_by_text(words["recorded"].format(hand=1))).to_be_visible()
    screen_is_right(page)
    assert totals(table) == {PER: 31, ANNA: 4, KARL: -35}

    # Fix hand 1 by cards: Anna's QQ front becomes 33, so she no longer goes to Fantasyland.
    page.get_by_role("link", name=words["fix"].format(hand=1)).click()
    page.locator("[data-picker]:not([hidden])").wait_for()
    screen_is_right(page)
    label = words["row"].format(name=ANNA, row=words["rows"]["front"])
    page.get_by_label(re.compile(rf"^{re.escape(label)}")).fill("Qs 3h 3c")
    page.get_by_label(words["reason"]).fill("Anna-Karins topp var fel")
    page.get_by_role("button", name=words["check_fix"]).click()
    expect(page.locator("#fix-preview")).to_be_visible()
    assert words["badges"][4] in page.locator("#fix-preview").inner_text()
    screen_is_right(page)
    page.get_by_role("link", name=words["back"]).click()
    page.wait_for_url(re.compile(r".*/r/card/$"))

    # Hand 2 by cards, Per and Anna playing in Fantasyland: Per stays, Anna does not.
    page.get_by_role("link", name=words["by_cards"].format(hand=2)).click()
    page.locator("[data-picker]:not([hidden])").wait_for()
    screen_is_right(page)  # the Fantasyland notes above the rows
    enter_cards(page, words, HAND_2)
    page.get_by_role("button", name=words["check"]).click()
    expect(page.locator("#cards-preview")).to_be_visible()
    text = page.locator("#cards-preview").inner_text()
    assert words["badges"][2] in text and words["badges"][3] in text
    screen_is_right(page)
    page.get_by_role("button", name=words["confirm"].format(hand=2)).click()
    expect(page.get_by_text(words["recorded"].format(hand=2))).to_be_visible()
    screen_is_right(page)

    # Hand 3 by points, read out first (the table confirms points), then fixed by points.
    for name, points in ((PER, "6"), (ANNA, "-2"), (KARL, "-4")):
        page.get_by_label(words["points"].format(name=name)).fill(points)
    page.get_by_label(words["fl"].format(name=PER)).check()
    page.get_by_role("button", name=words["check_points"].format(hand=3)).click()
    expect(page.locator("#points-readback")).to_be_visible()
    screen_is_right(page)
    page.get_by_role("button", name=words["confirm"].format(hand=3)).click()
    expect(page.get_by_text(words["recorded"].format(hand=3))).to_be_visible()
    page.get_by_role("link", name=words["fix"].format(hand=3)).click()
    page.get_by_label(words["points"].format(name=ANNA)).wait_for()
    screen_is_right(page)
    page.get_by_label(words["points"].format(name=ANNA)).fill("-4")
    page.get_by_label(words["points"].format(name=KARL)).fill("-2")
    page.get_by_label(words["reason"]).fill("Anna-Karin och Karl-Erik förväxlade")
    page.get_by_role("button", name=words["check_fix"]).click()
    expect(page.locator("#fix-readback")).to_be_visible()
    screen_is_right(page)
    page.get_by_role("button", name=words["confirm_fix"].format(hand=3)).click()
    page.wait_for_url(re.compile(r".*/r/card/$"))

    # "Call the TD": refused without a reason, then called for a dispute.
    call_form = page.locator("form.call-form")
    call_form.get_by_role("button", name=words["call"]).click()
    expect(page.get_by_text(words["why_missing"])).to_be_visible()
    screen_is_right(page)
    assert not TableCall.objects.exists()
    page.locator("form.call-form").get_by_role("radio", name=words["dispute"]).check()
    page.locator("form.call-form").get_by_role("button", name=words["call"]).click()
    expect(page.get_by_text(words["called"])).to_be_visible()
    screen_is_right(page)
    assert TableCall.objects.get().kind == "dispute"
    calls.clear_call(table=table, actor=td_user)

    # The 10-second count, and "acted in time".
    page.reload()
    page.get_by_label(words["player"], exact=True).select_option(label=ANNA)
    page.get_by_role("button", name=words["count"]).click()
    expect(page.get_by_role("timer")).to_be_visible()
    screen_is_right(page)
    page.get_by_role("button", name=words["acted"]).click()
    expect(page.get_by_role("button", name=words["no_call"])).to_be_visible()
    screen_is_right(page)
    page.get_by_role("button", name=words["no_call"]).click()

    # The table over (hands 4 and 5 from another device; 5 required after two Fantasylands).
    pos = positions(table)
    assert sorted(pos, key=pos.get)  # the three seats
    play_named(table, {PER: 3, ANNA: -1, KARL: -2})
    play_named(table, {PER: 3, ANNA: -1, KARL: -2})
    page.goto(f"{live_server.url}/r/card/")
    expect(page.get_by_text(words["over"])).to_be_visible()
    screen_is_right(page)

    # A station's tablet once the final is over: the tournament is finished.
    station = RevisorStation.objects.get(tournament=table.level.tournament, number=1)
    assert draws.advance(tournament=table.level.tournament, actor=td_user) is None
    page.goto(f"{live_server.url}/r/s/{station.key}/")
    expect(page.get_by_role("heading", name=words["finished"])).to_be_visible()
    screen_is_right(page)


FOCUSED = """() => {
  const el = document.activeElement;
  const style = getComputedStyle(el);
  return {text: el.innerText, visible: el.matches(":focus-visible"), outline: style.outlineStyle,
          width: style.outlineWidth, color: style.outlineColor, shadow: style.boxShadow};
}"""


def test_the_primary_buttons_show_the_products_focus_ring(phone_page, live_server, table):
    """Reached by the keyboard, "Check hand 1" (green, where the browser's own thin ring is
    hard to see) has a 3 px dark ring and a yellow halo."""
    page = phone_page
    page.goto(f"{live_server.url}/r/{table.revisor_key}/")
    page.wait_for_url(re.compile(r".*/r/card/$"))
    page.get_by_label(f"Points for {PER}").focus()
    for _ in range(12):  # on through the ticks and the +/- keys to the button
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.innerText") == "Check hand 1":
            break
    focused = page.evaluate(FOCUSED)
    assert focused["text"] == "Check hand 1" and focused["visible"], focused
    assert (focused["outline"], focused["width"]) == ("solid", "3px")
    assert focused["color"] == "rgb(27, 31, 36)"  # --fg
    assert "rgb(255, 215, 94)" in focused["shadow"]
