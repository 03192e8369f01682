"""The revisor's score card on a 360 × 740 phone, at tables of 30-character names.

Nothing is wider than the screen (the card fresh, in play and over; the code page); the
entry is on the first screen with the running totals above it and the last hands, every
player in them, below; "Hand N recorded ✓" is in view after recording, with and without
JavaScript; the last player's points fill in from the others; a negative number needs no
extra tap; the TD settling a tie changes the whole card; the table confirms points when
the tournament says so; touch targets; the Swedish header on one line.
"""

import re

import pytest

from tests.browser.helpers import tournament_with
from tests.browser.layout import OVERFLOW
from tests.tournament.conftest import play, positions, totals
from tournament.models import Hand
from tournament.services import hands

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

KARL = "Karl-Erik Lindqvist-Söderström"  # 30 characters
ANNA = "Anna-Karin Westerberg-Åkerlund"  # 30
PER = "Perolofjohanssongyllenhammarsö"  # 30 letters in one word: nowhere to break it
NAMES = (KARL, ANNA, PER)
WIDTH, HEIGHT = 360, 740

# [text, width, height] of every visible button, link and checkbox of the card and of the
# site header above it smaller than its least: the card's primary actions (its submit
# buttons) 44 px high, every other button, link and checkbox (the header's language switch
# and home link too) 24 px each way (WCAG 2.2 target size).
SMALL = """() => {
  const small = [];
  const targets = "main button, main a[href], main input[type=checkbox], "
    + "header.site-header a[href], header.site-header button";
  for (const el of document.querySelectorAll(targets)) {
    const box = el.getBoundingClientRect();
    if (!box.width || el.closest("[hidden]")) continue;
    const least = el.matches("main button[type=submit]") ? 44 : 24;
    if (box.height < least || box.width < 24) {
      small.push([el.innerText || el.name, Math.round(box.width), Math.round(box.height)]);
    }
  }
  return small;
}"""


def fits(page):
    found = page.evaluate(OVERFLOW)
    assert found["scroll"] <= WIDTH and not found["out"], found


def box(locator):
    return locator.bounding_box()


def in_view(locator):
    where = box(locator)
    return where is not None and where["y"] >= 0 and where["y"] + where["height"] <= HEIGHT


def open_card(page, live_server, table):
    page.goto(f"{live_server.url}/r/{table.revisor_key}/")
    page.wait_for_url(re.compile(r".*/r/card/$"))


def by_seat(table, points_by_name):
    pos = positions(table)
    return [points_by_name[name] for name in sorted(pos, key=pos.get)]


@pytest.fixture
def table(td_user):
    _tournament, (table,) = tournament_with(NAMES, td_user, min_hands=5, name="Phone Cup")
    return table


@pytest.fixture
def confirming(td_user):
    from tournament.models import Tournament

    _tournament, (table,) = tournament_with(NAMES, td_user, min_hands=5, name="Readback Cup")
    Tournament.objects.filter(pk=table.level.tournament_id).update(table_confirms_points=True)
    return table


def test_the_card_fits_the_phone_fresh_in_play_and_over(phone_page, live_server, table):
    page = phone_page
    page.goto(f"{live_server.url}/r/")  # the code page, before the device is bound
    page.get_by_role("heading", name="Open your table's score card").wait_for()
    fits(page)
    open_card(page, live_server, table)
    fits(page)
    for points in ((8, -5, -3), (-2, 12, -10), (1, 1, -2)):
        play(table, *points)
    page.reload()
    fits(page)
    # The last hands show every player, the third included, on the screen.
    last = page.locator("table.last-hands")
    for name in NAMES:
        row = last.get_by_role("row", name=re.compile(re.escape(name)))
        for cell in row.locator("th, td").all():
            where = box(cell)
            assert where["x"] >= 0 and where["x"] + where["width"] <= WIDTH, (name, where)
    play(table, 8, -5, -3)
    play(table, 8, -5, -3)
    page.reload()
    page.get_by_text("The table is over after 5 hands").wait_for()
    fits(page)


def test_the_entry_is_on_the_first_screen_between_totals_and_last_hands(
    phone_page, live_server, table
):
    page = phone_page
    for points in ((8, -5, -3), (-2, 12, -10)):
        play(table, *points)
    open_card(page, live_server, table)
    totals_table = page.locator("table.totals")
    form = page.locator("#points-form")
    last = page.locator("table.last-hands")
    record = page.get_by_role("button", name="Record hand 3")
    assert in_view(totals_table) and in_view(record)
    for name in NAMES:
        assert in_view(page.get_by_label(f"Points for {name}"))
        assert in_view(page.get_by_label(f"{name} goes to Fantasyland"))
    assert box(totals_table)["y"] + box(totals_table)["height"] <= box(form)["y"]
    assert box(form)["y"] + box(form)["height"] <= box(last)["y"]


def test_recorded_is_said_where_the_revisor_looks(phone_page, live_server, table):
    page = phone_page
    open_card(page, live_server, table)
    page.get_by_label(f"Points for {KARL}").fill("8")
    page.get_by_label(f"Points for {ANNA}").fill("-5")
    page.get_by_label(f"Points for {PER}").fill("-3")
    # The revisor has scrolled down to the button, and a bit further.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.get_by_role("button", name="Record hand 1").click()
    said = page.get_by_text("Hand 1 recorded ✓")
    said.wait_for()
    page.wait_for_timeout(100)
    assert in_view(said)
    assert in_view(page.get_by_label(f"Points for {KARL}"))  # the next hand's entry, too
    assert page.get_by_role("button", name="Record hand 2").is_visible()


def test_recorded_is_in_view_without_javascript(chromium_browser, live_server, table):
    context = chromium_browser.new_context(
        viewport={"width": WIDTH, "height": HEIGHT}, java_script_enabled=False
    )
    try:
        page = context.new_page()
        open_card(page, live_server, table)
        for name, points in ((KARL, "8"), (ANNA, "-5"), (PER, "-3")):
            field = page.get_by_label(f"Points for {name}")
            assert field.get_attribute("type") == "number"  # a keyboard with a minus sign
            assert page.get_by_role("button", name=f"Minus for {name}").count() == 0  # no use
            field.fill(points)
        page.get_by_role("button", name="Record hand 1").click()
        said = page.get_by_text("Hand 1 recorded ✓")
        said.wait_for()
        assert in_view(said)
        assert totals(table) == {KARL: 8, ANNA: -5, PER: -3}
    finally:
        context.close()


def test_the_last_players_points_fill_in_and_stay_editable(phone_page, live_server, table):
    page = phone_page
    open_card(page, live_server, table)
    karl, anna, per = (page.get_by_label(f"Points for {name}") for name in NAMES)
    karl.fill("8")
    assert per.input_value() == "" and anna.input_value() == ""
    anna.fill("-5")
    assert per.input_value() == "-3"
    assert page.locator("#points-sum").inner_text() == f"{PER}: filled in from the others."
    anna.fill("-6")  # changed: the filled-in points follow
    assert per.input_value() == "-2"
    per.fill("-1")  # typed over: the revisor's own now
    assert page.locator("#points-sum").inner_text() == (
        "The points add up to +1; they must add up to 0."
    )
    anna.fill("-7")
    assert per.input_value() == "-1"
    per.fill("")
    assert per.input_value() == "-1"  # the only one left empty: filled in again
    page.get_by_role("button", name="Record hand 1").click()
    page.get_by_text("Hand 1 recorded ✓").wait_for()
    assert totals(table) == {KARL: 8, ANNA: -7, PER: -1}


def test_heads_up_the_second_is_minus_the_first(phone_page, live_server, td_user):
    _tournament, (table,) = tournament_with([KARL, ANNA], td_user, min_hands=5, name="Duel")
    page = phone_page
    open_card(page, live_server, table)
    page.get_by_label(f"Points for {ANNA}").fill("12")
    assert page.get_by_label(f"Points for {KARL}").input_value() == "-12"


def test_a_negative_number_takes_no_extra_tap(phone_page, live_server, table):
    page = phone_page
    open_card(page, live_server, table)
    field = page.get_by_label(f"Points for {ANNA}")
    # Digits keypad (no minus key on an iPhone): the sign is the key beside the field.
    assert field.get_attribute("inputmode") == "numeric" and field.get_attribute("type") == "text"
    page.get_by_role("button", name=f"Minus for {ANNA}").click()  # instead of a tap on the field
    page.keyboard.type("5")  # the cursor is there: the digits follow
    assert field.input_value() == "-5"
    page.get_by_role("button", name=f"Plus for {ANNA}").click()
    assert field.input_value() == "5"
    page.get_by_role("button", name=f"Minus for {ANNA}").click()
    page.keyboard.type("2")
    assert field.input_value() == "-52"


@pytest.mark.parametrize("language", ["en", "sv"])
def test_targets_are_large_enough(phone_page, live_server, table, language):
    page = phone_page
    if language == "sv":
        page.context.add_cookies(
            [{"name": "django_language", "value": "sv", "url": live_server.url}]
        )
    play(table, 8, -5, -3)
    open_card(page, live_server, table)
    assert page.locator("html").get_attribute("lang") == language
    assert page.locator("header.site-header a[href], header.site-header button").count() >= 2
    assert page.evaluate(SMALL) == []
    checkbox = box(page.locator("main input[type=checkbox]").first)
    assert checkbox["width"] >= 24 and checkbox["height"] >= 24


def test_the_swedish_revisor_header_is_one_line(phone_page, live_server, table):
    page = phone_page
    page.context.add_cookies([{"name": "django_language", "value": "sv", "url": live_server.url}])
    open_card(page, live_server, table)
    page.get_by_role("heading", name=re.compile("Bord 1")).wait_for()
    header = box(page.locator("header.site-header"))
    brand = box(page.locator("header .brand"))
    assert header["height"] < 2 * brand["height"], (header, brand)
    assert page.get_by_role("link", name="TL-inloggning").count() == 0
    fits(page)
    # In play, with the last hands of three long names: the Swedish card fits too.
    for points in ((8, -5, -3), (-2, 12, -10)):
        play(table, *points)
    page.reload()
    page.get_by_role("button", name="Registrera hand 3").wait_for()
    fits(page)


def test_the_td_settling_the_tie_changes_the_whole_card(phone_page, live_server, table, td_user):
    page = phone_page
    for points in ((8, -5, -3), (-2, 12, -10), (1, 1, -2), (0, 0, 0), (0, -1, 1)):
        play(table, *points)
    table.refresh_from_db()
    assert sorted(totals(table).values()) == [-14, 7, 7]
    open_card(page, live_server, table)
    page.get_by_text("Hand 6, tie-break after the 5 required").wait_for()
    page.get_by_label(f"Points for {KARL}").fill("3")  # the revisor starts typing
    winner = table.seats.get(player__name=ANNA).player
    hands.settle_tie(table=table, actor=td_user, winner=winner, reason="Card draw")
    # At the next poll (every 5 s) the whole card changes: no form for hand 6 is left.
    page.get_by_text("the TD settled the tie for first between").wait_for(timeout=12_000)
    over = page.locator(".status.over").inner_text()
    assert f"{ANNA} wins the final table and is the champion." in over
    assert page.get_by_role("button", name="Record hand 6").count() == 0
    assert page.get_by_label(f"Points for {KARL}").count() == 0
    assert Hand.objects.filter(table=table).count() == 5
    fits(page)  # the card that says who won, and why, fits the phone too
    page.reload()
    page.get_by_text("the TD settled the tie for first between").wait_for()
    fits(page)


def test_the_table_confirms_the_points_before_they_are_recorded(
    phone_page, live_server, confirming
):
    page = phone_page
    table = confirming
    open_card(page, live_server, table)
    page.get_by_label(f"Points for {KARL}").fill("8")
    page.get_by_label(f"Points for {ANNA}").fill("-5")
    page.get_by_label(f"{ANNA} goes to Fantasyland").check()
    page.get_by_role("button", name="Check hand 1").click()
    page.get_by_role("heading", name="Hand 1: read it out to the table").wait_for()
    fits(page)
    lines = [
        " ".join(line.split()) for line in page.locator(".readback-lines li").all_inner_texts()
    ]
    assert lines == [
        f"{name} {points}" + (" goes to Fantasyland" if name == ANNA else "")
        for name, points in zip(
            sorted(positions(table), key=positions(table).get),
            by_seat(table, {KARL: "+8", ANNA: "-5", PER: "-3"}),
            strict=True,
        )
    ]
    confirm = page.get_by_role("button", name="Confirm hand 1")
    assert in_view(confirm)
    assert not Hand.objects.filter(table=table).exists()
    # Change: back to the form with what was typed.
    page.get_by_role("button", name="Change the points").click()
    page.get_by_role("button", name="Check hand 1").wait_for()
    assert page.get_by_label(f"Points for {ANNA}").input_value() == "-5"
    page.get_by_label(f"Points for {PER}").fill("-4")
    page.get_by_label(f"Points for {ANNA}").fill("-4")
    page.get_by_role("button", name="Check hand 1").click()
    page.get_by_role("button", name="Confirm hand 1").dblclick()  # a double tap
    page.get_by_text("Hand 1 recorded ✓").wait_for()
    assert Hand.objects.filter(table=table).count() == 1
    assert totals(table) == {KARL: 8, ANNA: -4, PER: -4}


@pytest.mark.parametrize(("width", "height"), [(WIDTH, HEIGHT), (1366, 768)])
def test_the_tds_hand_form_has_fantasyland_boxes_of_24_px(
    chromium_browser, live_server, table, width, height
):
    from django.urls import reverse

    from tests.browser.helpers import td_page

    url = reverse("td:table", args=[table.level.tournament_id, table.pk])
    with td_page(chromium_browser, live_server, width, height) as page:
        page.goto(live_server.url + url)
        for name in NAMES:
            checkbox = box(page.get_by_label(f"{name} goes to Fantasyland"))
            assert checkbox["width"] >= 24 and checkbox["height"] >= 24, (name, checkbox)


def test_the_fix_by_points_is_read_back_on_the_phone(phone_page, live_server, confirming):
    """With the table confirming points, the revisor's fix by points is read back (was and
    now per player) on a screen that fits the phone, and saved once confirmed."""
    page = phone_page
    table = confirming
    play(table, *by_seat(table, {KARL: 8, ANNA: -5, PER: -3}))
    open_card(page, live_server, table)
    page.get_by_role("link", name="Fix hand 1").click()
    page.wait_for_url(re.compile(r".*/r/card/fix/$"))
    page.get_by_label(f"Points for {KARL}").fill("-8")
    page.get_by_label(f"Points for {ANNA}").fill("5")
    page.get_by_label(f"Points for {PER}").fill("3")
    page.get_by_label("Reason").fill("Signs swapped")
    page.get_by_role("button", name="Check the fix").click()
    page.get_by_role("heading", name="Hand 1 fixed: announce it, then confirm").wait_for()
    fits(page)
    lines = [
        " ".join(line.split()) for line in page.locator(".readback-lines li").all_inner_texts()
    ]
    assert lines == by_seat(
        table,
        {
            KARL: f"{KARL} -8 was +8, now -8",
            ANNA: f"{ANNA} +5 was -5, now +5",
            PER: f"{PER} +3 was -3, now +3",
        },
    )
    assert Hand.objects.get(table=table).versions.count() == 1
    page.get_by_role("button", name="Confirm the fix of hand 1").click()
    page.get_by_text("Hand 1 corrected.").wait_for()
    assert totals(table) == {KARL: -8, ANNA: 5, PER: 3}
