"""A player's page on a 360 px phone says what comes next once, and nothing of "Next:" to a
player with no more tables (issue 34 §5): it said "Next:" twice to a winner ("Nästa" then
"Härnäst" in Swedish), and "Next: nothing: no more tables to play" to the champion and to a
disqualified player. The public score card's headers break names at spaces and hyphens
only ("Fredriksso / n-" no more)."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import tournament_with
from tests.tournament.conftest import play
from tournament.models import Player, Table
from tournament.services import draws, penalties

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Anna Fredriksson-Lindqvist", "Bo Lind", "Cia Berg", "Dan Holm", "Eva Ek", "Filip Ås"]
NEXT = {"en": ("Next:",), "sv": ("Härnäst:", "Nästa:")}
WORDS = {
    "en": {
        "next": "Next: the draw of level 2, which the TD makes once every table of this level"
        " is over.",
        "champion": "Champion!",
        "disqualified": "Disqualified.",
    },
    "sv": {
        "next": "Härnäst: lottningen till nivå 2, som TL gör när alla bord på den här nivån"
        " är klara.",
        "champion": "Mästare!",
        "disqualified": "Utesluten.",
    },
}


def said(page, words):
    text = " ".join(page.locator("main").inner_text().split())
    return sum(text.count(word) for word in words)


@pytest.mark.parametrize("language", ["en", "sv"])
def test_what_comes_next_is_said_once_or_not_at_all(phone_page, live_server, td_user, language):
    words = WORDS[language]
    tournament, tables = tournament_with(NAMES, td_user, min_hands=1)
    for table in tables:
        play(table, 6, -3, -3)
    winner = tables[0].seats.get(position=0).player
    cheat = tables[0].seats.get(position=1).player
    for _ in range(3):  # 3 warnings: disqualified
        penalties.give_penalty(tournament=tournament, player=cheat, kind="conduct", actor=td_user)
    phone = phone_page
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )

    def visit(player):
        phone.goto(f"{live_server.url}/t/{tournament.pk}/player/{player.pk}/")
        expect(phone.get_by_role("heading", level=1)).to_contain_text(player.name)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360

    visit(winner)
    expect(phone.locator("main")).to_contain_text(words["next"])
    assert said(phone, NEXT[language]) == 1

    visit(cheat)
    expect(phone.locator("main")).to_contain_text(words["disqualified"])
    assert said(phone, NEXT[language]) == 0

    draws.advance(tournament=tournament, actor=td_user)
    (final,) = Table.objects.current().filter(level__number=2)
    play(final, 3, -3)
    draws.advance(tournament=tournament, actor=td_user)
    tournament.refresh_from_db()
    visit(Player.objects.get(pk=tournament.champion_id))
    expect(phone.locator("main")).to_contain_text(words["champion"])
    assert said(phone, NEXT[language]) == 0


# Column heads that may break only at their spaces and hyphens: none is one word longer
# than a column of a 3-player card holds at its smallest type.
CARD_NAMES = [
    ["Anna Fredriksson-Lindqvist", "Per-Olof Bergström-Järvenpäässon", "Eva-Lotta Sjöholm"],
    ["Lars-Göran Öhman-Vesterlundqvist", "Eva-Lotta Fredriksdotter Sjöholm", "Bo Ek"],
    ["Karl-Erik Lindqvist-Söderström", "Anna-Karin Östergren-Wallenberg", "Ingrid-Maria Stål"],
    ["Anna Fredriksson-Lindqvist", "Lars-Göran Öhman-Vesterlundqvist"],
]

# Each head's name, cut where a line breaks inside a word: "Fredriksso|n-Lindqvist".
BROKEN_WORDS = """() => [...document.querySelectorAll('.player-head')].map(th => {
  const node = th.firstChild, text = node.textContent, cuts = [];
  let top = null;
  for (let i = 0; i < text.length; i += 1) {
    if (!text[i].trim()) continue;
    const range = document.createRange();
    range.setStart(node, i);
    range.setEnd(node, i + 1);
    const now = range.getClientRects()[0].top;
    if (top !== null && now > top + 2 && text[i - 1].trim() && text[i - 1] !== '-') {
      cuts.push(text.slice(0, i).trim() + '|' + text.slice(i).trim());
    }
    top = now;
  }
  return cuts;
}).flat()"""


@pytest.mark.parametrize("names", CARD_NAMES, ids=["fredriksson", "vesterlund", "long", "two"])
def test_the_score_cards_heads_break_names_at_spaces_and_hyphens(
    phone_page, live_server, td_user, names
):
    tournament, (table,) = tournament_with(names, td_user, min_hands=3)
    play(table, *((6, -3, -3) if len(names) == 3 else (3, -3)))
    phone_page.goto(f"{live_server.url}/t/{tournament.pk}/table/{table.pk}/")
    heads = phone_page.get_by_role("columnheader").filter(has_text=names[0])
    expect(heads).to_have_count(1)
    assert phone_page.evaluate(BROKEN_WORDS) == []
    sizes = phone_page.locator(".player-head").evaluate_all(
        "heads => heads.map(h => parseFloat(getComputedStyle(h).fontSize))"
    )
    assert len(set(sizes)) == 1 and sizes[0] >= 8.8  # one size for all, .55rem at least
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 360
