"""Every public page on a 360 x 740 phone, with names of 30 characters and more, in play (hands
by points and by cards, a correction, penalties) and finished: nothing wider than the screen,
nothing scrolling sideways inside it (every player's points and running total on the score
card readable without swiping), and every link and button large enough to tap."""

import pytest
from django.urls import reverse

from tests.browser import public_scenes
from tournament.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCENES = {"in play": public_scenes.in_play, "finished": public_scenes.finished}
WIDTH = 360

# The visible elements that stick out of the screen sideways, and those that scroll sideways
# inside it (a box wider than the page with its own scroll bar): "tag.class: text".
SIDEWAYS = """(width) => {
  const found = [];
  const name = (el) => el.tagName.toLowerCase() + (el.className ? "." + el.className : "")
    + ": " + (el.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 40);
  for (const el of document.body.querySelectorAll("*")) {
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue;  // hidden, or visually hidden
    if (box.left < -0.5 || box.right > width + 0.5) found.push("sticks out: " + name(el));
    const overflow = getComputedStyle(el).overflowX;
    if ((overflow === "auto" || overflow === "scroll") && el.scrollWidth > el.clientWidth + 1)
      found.push("scrolls sideways: " + name(el));
  }
  return found;
}"""

# Every visible link, button, summary and checkbox that is smaller than `least` px in either
# direction: "tag: text (width x height)".
SMALL_TARGETS = """([selector, least]) => {
  const found = [];
  for (const el of document.querySelectorAll(selector)) {
    const box = el.getBoundingClientRect();
    if (!el.getClientRects().length || getComputedStyle(el).visibility === "hidden") continue;
    if (box.width < least || box.height < least)
      found.push(el.tagName.toLowerCase() + ": " + (el.textContent || el.value || "").trim()
        .replace(/\\s+/g, " ").slice(0, 40) + " (" + Math.round(box.width) + " x "
        + Math.round(box.height) + ")");
  }
  return found;
}"""
TARGETS = "a[href], button, summary, input[type=checkbox], input[type=radio]"
PRIMARY = "button[type=submit]:not(.link)"  # a form's action ("Find my seat")


def in_language(page, live_server, language):
    """The pages that follow in `language` (the language cookie, as the switcher sets it)."""
    if language != "en":
        page.context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )


def pages(scene):
    """Every public page of the scene and the score card of every table of the tournament."""
    urls = scene.public_urls()
    for table in Table.objects.filter(level__tournament=scene.tournament).order_by("pk"):
        urls[f"table {table.pk}"] = reverse("public:table", args=[scene.tournament.pk, table.pk])
    return urls


@pytest.mark.parametrize("language", ["en", "sv"])
@pytest.mark.parametrize("state", SCENES)
def test_no_public_page_is_wider_than_a_phone_with_long_names(
    state, language, phone_page, live_server, td_user
):
    """In English and in Swedish, whose words are often longer."""
    scene = SCENES[state](td_user)
    in_language(phone_page, live_server, language)
    for name, url in pages(scene).items():
        phone_page.goto(live_server.url + url)
        assert phone_page.locator("html").get_attribute("lang") == language, name
        assert phone_page.evaluate("document.documentElement.scrollWidth") <= WIDTH, name
        assert phone_page.evaluate(SIDEWAYS, WIDTH) == [], name


@pytest.mark.parametrize("language", ["en", "sv"])
def test_every_points_and_running_total_of_the_score_card_is_on_the_screen(
    language, phone_page, live_server, td_user
):
    """A 3-player table with hands by points and by cards, a correction and a penalty: each
    of its 3 players' points and running totals of every line is within the 360 px."""
    scene = public_scenes.in_play(td_user)
    in_language(phone_page, live_server, language)
    phone_page.goto(live_server.url + scene.public_urls()["table"])
    assert phone_page.locator("html").get_attribute("lang") == language
    card = phone_page.locator("table.score-card")
    # Hands 1 and 2, the timeout's line and the totals: 3 players each.
    assert card.locator("tbody td.points").count() == 3 * 3
    assert card.locator("tbody td.running").count() == 3 * 3
    assert card.locator("tfoot td.total").count() == 3
    for cell in card.locator("td.points, td.running, td.total").all():
        box = cell.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, cell.inner_text()
    # Seat 1's running totals, worked by hand: hand 1 corrected to +12, hand 2 by cards +36.
    running = [cell.inner_text() for cell in card.locator("tbody td.running").all()]
    assert running[:3] == ["12", "-4", "-8"]
    assert running[3:6] == ["48", "-13", "-35"]
    assert running[6:] == ["48", "-23", "-35"]  # seat 2's timeout: -10
    assert phone_page.evaluate(SIDEWAYS, WIDTH) == []


@pytest.mark.parametrize("language", ["en", "sv"])
@pytest.mark.parametrize("state", SCENES)
def test_every_link_and_button_of_a_public_page_is_large_enough_to_tap(
    state, language, phone_page, live_server, td_user
):
    """Every link, button and checkbox at least 40 x 40 px (a thumb at a card table, well
    past WCAG 2.2's 24 px; test_public_tap_targets_browser.py checks each page in more
    detail); a form's action (the primary one) at least 44 px high; in English and in
    Swedish."""
    scene = SCENES[state](td_user)
    in_language(phone_page, live_server, language)
    for name, url in pages(scene).items():
        phone_page.goto(live_server.url + url)
        assert phone_page.locator("html").get_attribute("lang") == language, name
        for details in phone_page.locator("details").all():
            details.locator("summary").click()  # what is folded away is tapped too
        assert phone_page.evaluate(SMALL_TARGETS, [TARGETS, 40]) == [], name
        for button in phone_page.locator(PRIMARY).all():
            if button.is_visible():
                assert button.bounding_box()["height"] >= 44, (name, button.inner_text())


# Every visible number or badge one of whose texts (a total, a word) runs over more than one
# line: "class: text".
BROKEN_NUMBERS = r"""() => {
  const found = [];
  for (const el of document.querySelectorAll(".total:not(th), .num:not(th), .badge")) {
    if (!el.getClientRects().length) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      // Words for screen readers only (visually hidden: positioned out of the line).
      // A phrase (a penalty's breakdown) may wrap between its words; a word or number not.
      const word = text.data.trim();
      if (!word || /\s/.test(word) && !el.classList.contains("badge")) continue;
      if (getComputedStyle(text.parentElement).position === "absolute") continue;
      const range = document.createRange();
      range.selectNodeContents(text);
      const lines = new Set();
      for (const box of range.getClientRects()) if (box.width) lines.add(Math.round(box.top));
      if (lines.size > 1) found.push(el.className + ": " + text.data.trim());
    }
  }
  return found;
}"""


@pytest.mark.parametrize("language", ["en", "sv"])
def test_no_total_or_badge_breaks_over_two_lines_on_a_320_px_phone(
    language, phone_page, live_server, td_user
):
    """A total of 78 showed as 7 over 8, and "advances" as "advanc" over "es", beside
    30-character names: a player read another score."""
    scene = public_scenes.in_play(td_user)
    in_language(phone_page, live_server, language)
    phone_page.set_viewport_size({"width": 320, "height": 640})
    for name, url in pages(scene).items():
        phone_page.goto(live_server.url + url)
        assert phone_page.evaluate(BROKEN_NUMBERS) == [], name
