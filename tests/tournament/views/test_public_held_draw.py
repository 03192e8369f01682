"""A held draw as the winners read it (issue 34 §2): while the TD holds the next level's
seating, a table's winner still reads that he won it and waits for the draw, on his page,
its poll, the search and the standings, as before the level closed; the tournament page
keeps polling and shows the new level at the release; a penalty given at a held table says
nothing of that table until then. English and Swedish."""

import html
import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.tournament.conftest import play
from tournament.models import Player, Table
from tournament.selectors.standings import standings
from tournament.services import draws, penalties

pytestmark = pytest.mark.django_db

# 12 players: level 1 is 4 tables of 3; seat 0 of each wins its 1 hand (+6 -3 -3), so level
# 2 seats the 4 winners at 2 tables of 2.
NAMES = ["Anna", "Bo", "Cia", "Dan", "Eva", "Filip", "Gun", "Hugo", "Ida", "Jon", "Kim", "Lo"]
HTMX = {"HX-Request": "true"}

WORDS = {
    "en": {
        "waiting": (
            "Won table {table} at level 1. You won your table: wait for the next draw. Next:"
            " the draw of level 2, which the TD makes once every table of this level is over."
        ),
        "found": (
            "Won table {table} at level 1. Next: the draw of level 2, which the TD makes once"
            " every table of this level is over."
        ),
        "out": "You are out of the tournament.",
        "still in": "still in",
        "held penalty": "Slow play (warning) · warning 1 · no points deducted · level 2, before"
        " the first hand",
        "released penalty": "Slow play (warning) · warning 1 · no points deducted · level 2,"
        " table {table}, before the first hand",
        "level 2": "Level 2",
    },
    "sv": {
        "waiting": (
            "Vann bord {table} på nivå 1. Du vann ditt bord: vänta på nästa lottning. Härnäst:"
            " lottningen till nivå 2, som TL gör när alla bord på den här nivån är klara."
        ),
        "found": (
            "Vann bord {table} på nivå 1. Härnäst: lottningen till nivå 2, som TL gör när alla"
            " bord på den här nivån är klara."
        ),
        "out": "Du är ute ur turneringen.",
        "still in": "kvar",
        "held penalty": "Långsamt spel (varning) · varning 1 · inga poängavdrag · nivå 2, före"
        " första handen",
        "released penalty": "Långsamt spel (varning) · varning 1 · inga poängavdrag · nivå 2,"
        " bord {table}, före första handen",
        "level 2": "Nivå 2",
    },
}


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def text(body):
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def state(body):
    return re.search(r'data-my-state="([^"]*)"', body).group(1)


def news(body):
    return html.unescape(re.search(r"<p hidden data-my-news>(.*?)</p>", body).group(1))


def region(body):
    """The live region's HTML: what a poll swaps in."""
    return re.search(r'<section id="live".*?</section>', body, re.S).group(0)


def level_one_over(make_tournament, td_user):
    """Level 1 released and played out, not closed yet: (tournament, level 1, the winners
    as (player, their table's number))."""
    tournament = make_tournament(NAMES, min_hands=1, release_draws_at_once=False)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="held-winners")
    draws.release_draw(level=level, actor=td_user)
    winners = []
    for table in Table.objects.current().filter(level=level).order_by("number"):
        play(table, 6, -3, -3)
        winners.append((table.seats.get(position=0).player, table.number))
    return tournament, level, winners


def get(client, url, language, poll=False):
    if poll:
        response = client.get(f"{url}?rev=0.0&lang={language}", headers=HTMX)
    else:
        response = client.get(url, headers={"Accept-Language": language})
    assert response.status_code == 200, url
    return response.content.decode()


@pytest.mark.parametrize("language", ["en", "sv"])
def test_a_winner_reads_through_the_hold_what_he_read_before_the_close(
    client, make_tournament, td_user, language
):
    words = WORDS[language]
    tournament, _level, winners = level_one_over(make_tournament, td_user)
    player, table = winners[1]
    url = reverse("public:player", args=[tournament.pk, player.pk])
    before, before_poll = get(client, url, language), get(client, url, language, poll=True)
    assert words["waiting"].format(table=table) in text(before)

    draws.advance(tournament=tournament, actor=td_user)  # level 2 drawn and held
    during, during_poll = get(client, url, language), get(client, url, language, poll=True)
    assert text(region(during)) == text(region(before))
    assert text(during_poll) == text(before_poll)
    assert state(during) == state(before) == "waiting-1"  # a phone following him: no news
    assert news(during) == news(before)
    assert words["out"] not in text(during) and words["out"] not in text(during_poll)

    # At the release his page says where he sits now.
    draws.release_draw(level=tournament.levels.get(number=2), actor=td_user)
    released = get(client, url, language)
    assert state(released).startswith("seated-2-")


@pytest.mark.parametrize("language", ["en", "sv"])
def test_the_search_and_the_standings_keep_the_winners_still_in(
    client, td_client, make_tournament, td_user, language
):
    words = WORDS[language]
    tournament, _level, winners = level_one_over(make_tournament, td_user)
    draws.advance(tournament=tournament, actor=td_user)
    for player, table in winners:
        found = get(
            client, reverse("public:find", args=[tournament.pk]) + f"?q={player.name}", language
        )
        assert words["found"].format(table=table) in text(found)
    # The standings: the 4 winners still in, first (tied: 6 points at place 1 of level 1),
    # then the 8 others, out at level 1 (place 2, -3 each).
    rows = standings(tournament)
    assert [(row.player.name, row.status, row.rank) for row in rows[:4]] == [
        (player.name, "in", 1) for player, _table in sorted(winners, key=lambda w: w[0].number)
    ]
    assert {(row.status, row.rank, row.place, row.points) for row in rows[4:]} == {
        ("out", 5, 2, -3)
    }
    page = text(get(client, reverse("public:standings", args=[tournament.pk]), language))
    for player, _table in winners:
        assert f"{player.name} {words['still in']}" in page
    csv = td_client.get(reverse("td:standings_csv", args=[tournament.pk])).content.decode()
    still = {line.split(",")[2] for line in csv.splitlines() if "Still playing" in line}
    assert still == {player.name for player, _table in winners}


def test_the_tournament_page_polls_through_the_hold_and_shows_the_level_at_the_release(
    client, make_tournament, td_user
):
    tournament, _level, _winners = level_one_over(make_tournament, td_user)
    draws.advance(tournament=tournament, actor=td_user)
    url = reverse("public:tournament", args=[tournament.pk])
    held = client.get(url).content.decode()
    assert "data-poll-stop" not in held
    rev = re.search(r'data-poll-rev="([^"]+)"', held).group(1)
    assert client.get(f"{url}?rev={rev}&lang=en", headers=HTMX).status_code == 204
    draws.release_draw(level=tournament.levels.get(number=2), actor=td_user)
    fresh = client.get(f"{url}?rev={rev}&lang=en", headers=HTMX)
    assert fresh.status_code == 200
    body = text(fresh.content.decode())
    assert "Level 2 0 of 2 tables finished, 4 players." in body
    assert "data-poll-stop" not in fresh.content.decode()


@pytest.mark.parametrize("language", ["en", "sv"])
def test_a_penalty_at_a_held_table_names_no_table_until_the_release(
    client, make_tournament, td_user, language
):
    words = WORDS[language]
    tournament, _level, winners = level_one_over(make_tournament, td_user)
    draws.advance(tournament=tournament, actor=td_user)
    player = winners[0][0]
    penalties.give_penalty(tournament=tournament, player=player, kind="slow", actor=td_user)
    url = reverse("public:player", args=[tournament.pk, player.pk])
    for body in (get(client, url, language), get(client, url, language, poll=True)):
        shown = text(body)
        assert words["held penalty"] in shown
        assert not re.search(r"(level|nivå) 2, (table|bord)", shown)
    draws.release_draw(level=tournament.levels.get(number=2), actor=td_user)
    table = Table.objects.current().get(level__number=2, seats__player=player).number
    for body in (get(client, url, language), get(client, url, language, poll=True)):
        assert words["released penalty"].format(table=table) in text(body)


def test_a_winner_disqualified_during_the_hold_is_disqualified_everywhere(
    client, make_tournament, td_user
):
    """Three warnings at his held table: disqualified on his page and in the standings,
    without his new table."""
    tournament, _level, winners = level_one_over(make_tournament, td_user)
    draws.advance(tournament=tournament, actor=td_user)
    player = winners[0][0]
    for _ in range(3):
        penalties.give_penalty(tournament=tournament, player=player, kind="slow", actor=td_user)
    assert Player.objects.get(pk=player.pk).disqualified
    page = text(get(client, reverse("public:player", args=[tournament.pk, player.pk]), "en"))
    assert "Disqualified." in page and "level 2, before the first hand" in page
    assert not re.search(r"level 2, table", page)
    standing = {row.player.pk: row for row in standings(tournament)}[player.pk]
    assert (standing.status, standing.rank) == ("disqualified", None)
