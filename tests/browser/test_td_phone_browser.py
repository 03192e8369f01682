"""The TD's pages of a level in play on a 360 px phone, with names of 30 characters (one a single
word of 30 letters): nothing is wider than the screen, in English and in Swedish.

The TD runs the room from a laptop, but walks it with a phone: the table's page (score card,
penalties, the paper-fallback hand form), the level's seating and cards, the dashboard."""

import pytest
from django.urls import reverse

from tests.browser import public_scenes
from tests.browser.helpers import log_in
from tests.browser.test_public_phone_browser import WIDTH, in_language
from tournament.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def td_pages(scene):
    pk = scene.tournament.pk
    urls = {
        "dashboard": reverse("td:tournament", args=[pk]),
        "players": reverse("td:players", args=[pk]),
        "level": reverse("td:level", args=[pk, 1]),
        "table cards": reverse("td:table_cards", args=[pk, 1]),
        "standings": reverse("td:standings", args=[pk]),
        "audit log": reverse("td:audit", args=[pk]),
    }
    for table in Table.objects.filter(level__tournament=scene.tournament).order_by("pk"):
        urls[f"table {table.number}"] = reverse("td:table", args=[pk, table.pk])
        urls[f"table {table.number} access"] = reverse("td:table_access", args=[pk, table.pk])
    return urls


@pytest.mark.parametrize("language", ["en", "sv"])
def test_no_td_page_of_a_level_in_play_is_wider_than_a_phone(
    language, phone_page, live_server, td_user
):
    scene = public_scenes.in_play(td_user)
    assert "Maximiliansströmåkerblomqvists" in public_scenes.LONG_NAMES  # 30 letters, no break
    log_in(phone_page, live_server)
    in_language(phone_page, live_server, language)
    for name, url in td_pages(scene).items():
        response = phone_page.goto(live_server.url + url)
        assert response.status == 200, name
        assert phone_page.locator("html").get_attribute("lang") == language, name
        assert phone_page.evaluate("document.documentElement.scrollWidth") <= WIDTH, name


@pytest.mark.parametrize("language", ["en", "sv"])
def test_the_players_pages_between_the_draw_and_the_first_hand_fit_a_phone(
    language, phone_page, live_server, td_user
):
    """Level 1 drawn, no hand yet: the players page with its notice and its longer buttons
    ("Add player and draw level 1 again"), and a withdrawal's confirmation."""
    from tournament.services import draws, registration

    tournament = registration.create_tournament(actor=td_user, name="Late field")
    for name in public_scenes.LONG_NAMES:
        registration.register_player(tournament=tournament, actor=td_user, name=name)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="late-phone")
    longest = tournament.players.get(name="Maximiliansströmåkerblomqvists")
    log_in(phone_page, live_server)
    in_language(phone_page, live_server, language)
    for url in (
        reverse("td:players", args=[tournament.pk]),
        reverse("td:player_withdraw", args=[tournament.pk, longest.pk]),
    ):
        response = phone_page.goto(live_server.url + url)
        assert response.status == 200, url
        assert phone_page.locator(".notice.warning").first.is_visible(), url
        assert phone_page.evaluate("document.documentElement.scrollWidth") <= WIDTH, url


# Every visible word of 4 to 15 letters that the page breaks inside: "word in .class".
BROKEN_WORDS = r"""() => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    const parent = text.parentElement;
    if (!parent || !parent.getClientRects().length) continue;
    if (getComputedStyle(parent).position === "absolute") continue;  // for screen readers
    const word = /(?<![\p{L}\p{N}])[\p{L}\p{N}]{4,15}(?![\p{L}\p{N}])/gu;  // whole words
    for (const match of text.data.matchAll(word)) {
      const range = document.createRange();
      range.setStart(text, match.index);
      range.setEnd(text, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].filter((b) => b.width)
        .map((b) => Math.round(b.top)));
      if (lines.size > 1) found.push(match[0] + " in ." + parent.className);
    }
  }
  return found;
}"""


def test_on_a_laptop_no_name_or_word_is_broken_inside(chromium_browser, live_server, td_user):
    """At 1366 px a table squeezed a name's column into "Anderss/o/n" and "Wilhelmin/a":
    from a tablet up a word breaks only where it cannot fit."""
    scene = public_scenes.in_play(td_user)
    context = chromium_browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    try:
        log_in(page, live_server)
        for name, url in td_pages(scene).items():
            page.goto(live_server.url + url)
            assert page.evaluate(BROKEN_WORDS) == [], name
    finally:
        context.close()


# Every badge that sticks out of its table cell: "text (px past the cell)".
CLIPPED_BADGES = r"""() => [...document.querySelectorAll("td .badge")]
  .map((badge) => [badge.textContent.trim(), badge.getBoundingClientRect().right
    - badge.closest("td").getBoundingClientRect().right])
  .filter(([text, past]) => past > 0.5)
  .map(([text, past]) => text + " (" + Math.round(past) + " px)")"""


def test_on_a_laptop_the_dashboards_status_names_the_winner_whole(
    chromium_browser, live_server, td_user
):
    """At 1366 px in Swedish the status "Klart: Maja Fors vinner" was cut off at "vin": a
    badge there wraps between its words, inside its column."""
    from tests.tournament.conftest import play
    from tournament.services import draws, registration

    tournament = registration.create_tournament(actor=td_user, name="Malmö Open", min_hands=1)
    for name in public_scenes.LONG_NAMES[:6]:
        registration.register_player(tournament=tournament, actor=td_user, name=name)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="x")
    for table in level.tables.all():
        play(table, 9, -4, -5, actor=td_user)
    context = chromium_browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    try:
        log_in(page, live_server)
        in_language(page, live_server, "sv")
        page.goto(live_server.url + reverse("td:tournament", args=[tournament.pk]))
        assert "vinner" in page.locator(".dash-tables .badge").first.inner_text()
        assert page.evaluate(CLIPPED_BADGES) == []
    finally:
        context.close()
