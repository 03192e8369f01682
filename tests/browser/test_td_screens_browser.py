"""The TD's screens as issue 34 §4 found them, in a real browser at the sizes a TD uses.

- The live dashboard at 1366x768 and 1280x800, with an announcement, two calls and the
  automatic backup's long path: the rows of the tables that need the TD are whole on the
  first screen (the backup's path on two lines, the tournament's name twice, the sound
  switch, the announcement and the Alerts box came first and pushed them below it).
- The TD's table page with a 34-letter name: "Correct" whole (it was cut to "Corre"), no
  Dealer column (the dealer's points carry the D, as on the players' card), and at 360 px
  no sideways scroll box (the card sat in a 694 px one).
- The alerts bar of the TD's other pages is there at first paint: nothing moves under the
  pointer when the page has loaded (it came 1-2 s later and pushed the page 90 px down).
"""

import pytest

from tests.browser.helpers import td_page, tournament_with
from tests.browser.public_scenes import BOARDS, record
from tests.tournament.conftest import play
from tournament.backups import automatic
from tournament.services import announcements, calls

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAME = "SM i Pineapple OFC 2026 Göteborg"
PLAYERS = [
    "Anna Andersson",
    "Bo Berg",
    "Cia Carlsson",
    "Dan Dahl",
    "Eva Ek",
    "Filip Fors",
    "Gun Gran",
    "Hugo Holm",
    "Ida Ilve",
    "Jon Jakobsson",
    "Kim Karlsson",
    "Lo Lind",
]
# 34 letters and no space: nowhere to break it.
LONG = "Vesterlundqvistakerbyfredriksdotte"
WORDS = {
    "en": {
        "table": "Table {}",
        "where": "Where it is",
        "correct": "Correct hand {}",
        "card": "Score card, table 1",
    },
    "sv": {
        "table": "Bord {}",
        "where": "Var den ligger",
        "correct": "Rätta hand {}",
        "card": "Protokoll, bord 1",
    },
}


def in_language(page, live_server, language):
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )


def row_of(page, table_label):
    return page.get_by_role("row").filter(has=page.get_by_role("rowheader", name=table_label))


def sideways(page):
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


@pytest.mark.parametrize(
    "width,height,language", [(1366, 768, "en"), (1280, 800, "sv"), (1366, 768, "sv")]
)
def test_the_tables_that_need_the_td_are_on_the_first_screen(
    chromium_browser, live_server, td_user, settings, tmp_path, width, height, language
):
    settings.BACKUP_DIR = str(tmp_path / "srv" / "pofc" / "var" / "backups" / "venue-laptop")
    tournament, tables = tournament_with(PLAYERS, td_user, name=NAME, min_hands=20)
    for table in tables:
        play(table, 3, -1, -2)
    backup = automatic.write_backup(tournament)
    calls.call_td(table=tables[1], kind="dispute", note="Who won the back row?")
    calls.call_td(table=tables[3], kind="dispute")
    announcements.announce(
        tournament=tournament,
        actor=td_user,
        text="Lunch break after this level: the room closes for 30 minutes, back at 13:00.",
    )
    words = WORDS[language]
    with td_page(chromium_browser, live_server, width, height) as page:
        in_language(page, live_server, language)
        page.goto(f"{live_server.url}/td/{tournament.pk}/")
        # The two tables with a call come first, each row whole above the screen's bottom.
        for number in (2, 4):
            box = row_of(page, words["table"].format(number)).bounding_box()
            assert box is not None and box["y"] >= 0, number
            assert box["y"] + box["height"] <= height, (number, box)
        # And the one after them starts on it too: the first screen is the tables'.
        assert row_of(page, words["table"].format(1)).bounding_box()["y"] < height
        # The tournament's name once; the backup's path only when asked for.
        # (The page's h1 is for a screen reader: the bar above names the tournament.)
        shown = [e.bounding_box() for e in page.get_by_text(NAME, exact=True).all()]
        assert [box["width"] > 1 for box in shown].count(True) == 1, shown
        path = page.get_by_text(str(backup))
        assert not path.is_visible()
        page.get_by_text(words["where"]).click()
        assert path.is_visible()
        assert sideways(page) <= 0


def correct_links_whole(page, label):
    """Every "Correct" link of the card: whole in its cell and inside the card's box."""
    return page.evaluate(
        """(label) => {
          const wrap = document.querySelector(".score-card-wrap").getBoundingClientRect();
          return [...document.querySelectorAll(".score-card a")]
            .filter((a) => (a.getAttribute("aria-label") || "").startsWith(label))
            .map((a) => {
              const own = a.getBoundingClientRect(), cell = a.closest("td").getBoundingClientRect();
              return {
                text: a.innerText.trim(),
                whole: a.scrollWidth <= a.clientWidth + 0.5 && own.right <= cell.right + 0.5
                  && own.right <= wrap.right + 0.5 && own.width > 0,
                width: own.width, height: own.height,
              };
            });
        }""",
        label,
    )


def long_table(td_user):
    """A 34-letter name beside two long ones: 5 hands by points, one by cards, one corrected."""
    from tournament.models import Hand
    from tournament.services import hands

    tournament, (table,) = tournament_with(
        [LONG, "Karl-Erik Lindqvist-Söderström", "Anna-Karin Östergren-Wallenberg"],
        td_user,
        name="Malmö Open",
        min_hands=20,
    )
    for number in range(1, 6):
        record(table, number, points={0: 3, 1: -1, 2: -2}, actor=td_user)
    record(table, 6, boards=BOARDS, actor=td_user)
    hands.correct_hand(
        hand=Hand.objects.get(table=table, number=1),
        actor=td_user,
        reason="The revisor swapped two rows",
        based_on_version=1,
        points={0: 2, 1: -1, 2: -1},
    )
    return tournament, table


@pytest.mark.parametrize("width,height,language", [(1366, 768, "en"), (1280, 800, "sv")])
def test_the_table_page_keeps_correct_whole_and_has_no_dealer_column(
    chromium_browser, live_server, td_user, width, height, language
):
    tournament, table = long_table(td_user)
    words = WORDS[language]
    with td_page(chromium_browser, live_server, width, height) as page:
        in_language(page, live_server, language)
        page.goto(f"{live_server.url}/td/{tournament.pk}/tables/{table.pk}/")
        card = page.get_by_role("table", name=words["card"])
        assert card.count() == 1 and card.get_by_role("columnheader", name=LONG).count() == 1
        assert card.get_by_role("columnheader", name="Dealer").count() == 0
        links = correct_links_whole(page, words["correct"].format(""))
        assert len(links) == 6
        word = "Rätta" if language == "sv" else "Correct"
        assert all(link["text"] == word and link["whole"] for link in links), links
        for number in range(1, 7):
            assert page.get_by_role("link", name=words["correct"].format(number)).is_visible()
        # The dealer of each hand is marked in his own points, not named in a column.
        marks = page.locator(".score-card tbody .dealer-mark")
        assert marks.count() == 6
        assert page.locator(".score-card-wrap").evaluate("e => e.scrollWidth <= e.clientWidth")
        assert sideways(page) <= 0


@pytest.mark.parametrize("language", ["en", "sv"])
def test_the_table_page_on_a_phone_has_no_sideways_scroll_box(
    chromium_browser, live_server, td_user, language
):
    tournament, table = long_table(td_user)
    words = WORDS[language]
    with td_page(chromium_browser, live_server, 360, 740) as page:
        in_language(page, live_server, language)
        page.goto(f"{live_server.url}/td/{tournament.pk}/tables/{table.pk}/")
        wrap = page.locator(".score-card-wrap")
        assert wrap.evaluate("e => e.scrollWidth - e.clientWidth") <= 0
        assert sideways(page) <= 0
        # Each hand's correction is a 44 px target, named for its hand.
        links = correct_links_whole(page, words["correct"].format(""))
        assert len(links) == 6 and all(link["whole"] for link in links), links
        assert all(link["width"] >= 44 and link["height"] >= 44 for link in links), links
        page.get_by_role("link", name=words["correct"].format(6)).click()
        page.wait_for_url(f"**/tables/{table.pk}/hands/6/correct/")


# What the page's layout did after it was first painted: the layout shifts Chromium counts
# (not those right after a tap or a key, which the reader caused).
LAYOUT_SHIFTS = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (!entry.hadRecentInput) window.__shifts.push(entry.value);
  }
}).observe({ type: "layout-shift", buffered: true });
"""


@pytest.mark.parametrize("where", ["players", "table"])
def test_the_alerts_bar_is_there_at_first_paint(chromium_browser, live_server, td_user, where):
    tournament, tables = tournament_with(PLAYERS[:6], td_user, name="Malmö Open", min_hands=20)
    calls.call_td(table=tables[0], kind="dispute", note="Who won the back row?")
    calls.call_td(table=tables[1], kind="dispute")
    address = {
        "players": f"/td/{tournament.pk}/players/",
        "table": f"/td/{tournament.pk}/tables/{tables[0].pk}/",
    }[where]
    with td_page(chromium_browser, live_server, 1366, 768) as page:
        page.context.add_init_script(LAYOUT_SHIFTS)
        page.goto(live_server.url + address, wait_until="domcontentloaded")
        # In the page as it came: both alerts, before any script could have asked for them.
        assert page.locator("#td-alerts [data-alert-key]").count() == 2
        heading = page.get_by_role("heading", level=1)
        top = heading.bounding_box()["y"]
        page.wait_for_timeout(2500)  # the old bar's poll came within 1-2 s
        assert heading.bounding_box()["y"] == top
        assert page.evaluate("window.__shifts") == []
        assert page.get_by_role("region", name="2 alerts").is_visible()


@pytest.mark.parametrize("width,height", [(1366, 768), (360, 740)])
def test_the_dashboard_moves_nothing_once_loaded(
    chromium_browser, live_server, td_user, width, height
):
    """Its sound switch, shown by its script, has its place from the first paint (on a
    phone it has a line of its own, and pushed the tables down when it came)."""
    tournament, tables = tournament_with(PLAYERS, td_user, name=NAME, min_hands=20)
    calls.call_td(table=tables[1], kind="dispute")
    with td_page(chromium_browser, live_server, width, height) as page:
        page.context.add_init_script(LAYOUT_SHIFTS)
        page.goto(f"{live_server.url}/td/{tournament.pk}/", wait_until="domcontentloaded")
        page.wait_for_timeout(2000)
        assert page.evaluate("window.__shifts") == []
        assert page.get_by_label("Sound and notification for new alerts").is_visible()
