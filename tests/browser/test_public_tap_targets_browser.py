"""Every link and button a player taps on the public pages is a tap target of at least
40 x 40 CSS px on a 360 x 740 phone (WCAG 2.2's 24 px is not enough for a thumb at a card
table), with names of 30 characters and more, in English and Swedish ("Bord" is short):
the header, the tournament's navigation and its levels, every table's and seat's link, the
share links, the standings' names, a player's tables, the search's results, the follow
buttons, a redone draw's "The tables now". No target overlaps another (a tap would hit the
wrong one), none is cut off, and the page never scrolls sideways.

No exemption: every link is made a target of its own, even the few that sit in a line of
text, so none relies on WCAG's inline exception. The big screen (projector) views have no
link or button, and the phone's rules are scoped to body.public, which they do not carry.
"""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser import public_scenes
from tests.browser.helpers import tournament_with
from tournament.models import Level, Player, Table
from tournament.services import draws

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = 360
LEAST = 40
TARGETS = "a[href], button, summary"

# Every visible target smaller than `least` px either way, cut off (its content wider or
# taller than its box), outside the screen sideways, or overlapping another target:
# "problem: tag: text (width x height)".
TAP_PROBLEMS = """([selector, least, width]) => {
  const found = [];
  const targets = [];
  const name = (el, box) => el.tagName.toLowerCase() + ": "
    + (el.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 40)
    + " (" + Math.round(box.width) + " x " + Math.round(box.height) + ")";
  for (const el of document.querySelectorAll(selector)) {
    if (!el.getClientRects().length) continue;  // display: none, or [hidden]
    const style = getComputedStyle(el);
    if (style.visibility === "hidden") continue;
    const box = el.getBoundingClientRect();
    targets.push([el, box]);
    if (box.width < least || box.height < least) found.push("small: " + name(el, box));
    if (box.left < -0.5 || box.right > width + 0.5) found.push("off the screen: " + name(el, box));
    if (style.display !== "inline"
        && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1))
      found.push("cut off: " + name(el, box));
  }
  for (let i = 0; i < targets.length; i++) {
    for (let j = i + 1; j < targets.length; j++) {
      const [a, p] = targets[i], [b, q] = targets[j];
      if (a.contains(b) || b.contains(a)) continue;
      const across = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const down = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (across > 0.5 && down > 0.5)
        found.push("overlaps: " + name(a, p) + " / " + name(b, q));
    }
  }
  return found;
}"""

# A row that names one player (or tournament) is its link's target from end to end: a seat
# with its total, a standings row with its points, the score card's players, a tournament's
# card. The rows (row, its link) a tap at either end of which misses the link: "row: text".
ROWS = [
    [".pseats li", "a"],
    [".card-players li", "a"],
    [".standings tbody tr", "th a"],
    [".tournament-row", "a.tournament-name"],
]
ROW_MISSES = """(rows) => {
  const found = [];
  for (const [rowSelector, linkSelector] of rows) {
    for (const row of document.querySelectorAll(rowSelector)) {
      const link = row.querySelector(linkSelector);
      if (!link || !row.getClientRects().length) continue;
      row.scrollIntoView({block: "center"});
      const box = row.getBoundingClientRect();
      for (const x of [box.left + 2, box.right - 2]) {
        const hit = document.elementFromPoint(x, box.top + box.height / 2);
        if (!hit || hit.closest("a") !== link)
          found.push(rowSelector + ": "
            + row.textContent.trim().replace(/\\s+/g, " ").slice(0, 40));
      }
    }
  }
  return found;
}"""

# "My table" (static/js/my-table.js), by its hooks rather than its words, which the tests
# of "My table" check in both languages.
FOLLOW, STOP, MY_TABLE = "[data-follow-start]", "[data-follow-stop]", "[data-my-table-link]"


def redone(actor=None):
    """Level 1 drawn, then drawn again: the first draw's table pages say "The tables now"."""
    tournament, old_tables = tournament_with(
        public_scenes.LONG_NAMES[:6], actor, name="Malmö Redo", seed="tap targets"
    )
    level = Level.objects.get(tournament=tournament, number=1)
    draws.redraw_level(level=level, actor=actor, reason="a player came late", seed="again")
    tournament.refresh_from_db()
    player = old_tables[0].seats.select_related("player").first().player
    return public_scenes.Scene(tournament, old_tables[0], player)


SCENES = {
    "in play": public_scenes.in_play,
    "finished": public_scenes.finished,
    "redone": redone,
}
# The links that sit in a line of text, each measured on at least one page: (page, selector).
IN_TEXT = {
    "in play": [("player", ".player-levels a"), ("find results", ".where a")],
    "finished": [("level 1", ".advanced a"), ("tournament", ".champion-banner a")],
    "redone": [("table", ".status.notice a"), ("poster", ".no-print a")],
}


def phone_pages(scene):
    """Every public page a phone opens, by name: the scene's own first (its player's page,
    where the test starts following him), then every level's tables, table and player."""
    tournament = scene.tournament
    pk = tournament.pk
    urls = {
        name: url
        for name, url in scene.public_urls().items()
        if "projector" not in name  # the big screen: no link or button, not for phones
    }
    urls = {"player": urls.pop("player"), **urls}
    for level in Level.objects.filter(tournament=tournament).order_by("number"):
        urls[f"level {level.number}"] = reverse("public:tournament", args=[pk]) + (
            f"?level={level.number}"
        )
    for table in Table.objects.filter(level__tournament=tournament).order_by("pk"):
        urls[f"table {table.pk}"] = reverse("public:table", args=[pk, table.pk])
    for player in Player.objects.filter(tournament=tournament).order_by("pk"):
        urls[f"player {player.name}"] = reverse("public:player", args=[pk, player.pk])
    return urls


def open_everything(page):
    """Unfold what is folded (the share links, a hand's cards and history): tapped too."""
    for details in page.locator("details:not([open])").all():
        if details.is_visible():
            details.locator("summary").first.click()


@pytest.mark.parametrize("language", ["en", "sv"])
@pytest.mark.parametrize("state", SCENES)
def test_every_link_and_button_of_a_public_page_is_a_40_px_tap_target(
    state, language, phone_page, live_server, td_user
):
    scene = SCENES[state](td_user)
    if language != "en":
        phone_page.context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
    checked = 0
    problems = {}
    for name, url in phone_pages(scene).items():
        phone_page.goto(live_server.url + url)
        assert phone_page.locator("html").get_attribute("lang") == language, name
        open_everything(phone_page)
        if phone_page.evaluate("document.documentElement.scrollWidth") > WIDTH:
            problems.setdefault(name, []).append("scrolls sideways")
        problems.setdefault(name, []).extend(
            phone_page.evaluate(TAP_PROBLEMS, [TARGETS, LEAST, WIDTH])
        )
        problems[name].extend("misses: " + row for row in phone_page.evaluate(ROW_MISSES, ROWS))
        checked += phone_page.locator(TARGETS).count()
        for page_name, selector in IN_TEXT[state]:
            if page_name == name:
                assert phone_page.locator(selector).first.is_visible(), (name, selector)
        if name == "player":
            # Follow him: his page shows "Stop following", every page the nav's "My table".
            phone_page.locator(FOLLOW).click()
            expect(phone_page.locator(STOP)).to_be_visible()
            expect(phone_page.locator(MY_TABLE)).to_be_visible()
            problems[name].extend(phone_page.evaluate(TAP_PROBLEMS, [TARGETS, LEAST, WIDTH]))
    assert {name: found for name, found in problems.items() if found} == {}
    assert checked > 100


def test_the_big_screen_keeps_its_layout(chromium_browser, live_server, td_user):
    """The projector views (1920 x 1080) have nothing to tap, and none of the phone's
    tap-target rules reaches them: no box made 44 px, no row made a link's target."""
    scene = public_scenes.in_play(td_user)
    context = chromium_browser.new_context(viewport={"width": 1920, "height": 1080})
    try:
        page = context.new_page()
        for name, url in scene.public_urls().items():
            if "projector" not in name:
                continue
            page.goto(live_server.url + url)
            assert page.locator("body.projector").count() == 1, name
            assert page.locator(TARGETS).count() == 0, name
            grown = page.evaluate(
                """() => Array.from(document.querySelectorAll("body *")).filter((el) => {
                  const style = getComputedStyle(el);
                  return style.minHeight === "44px" || style.position === "relative"
                    && el.matches(".pseats li, tr");
                }).map((el) => el.tagName + "." + el.className)"""
            )
            assert grown == [], name
    finally:
        context.close()
