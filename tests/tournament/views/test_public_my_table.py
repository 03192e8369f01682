""" "My table" (issue 19 section 6): a player's page says where he sits now, his table's
totals and what comes next, and carries the state a phone that follows him compares across
polls (data-my-state) with the news its banner then shows; the public nav has the "My table"
link that static/js/my-table.js shows to a phone that follows someone."""

import html as htmllib
import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.tournament.conftest import play, positions
from tournament.models import Player, Table
from tournament.services import draws

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Bo", "Cia", "Dan", "Eva", "Filip"]


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def page(client, tournament, name, language="en"):
    player = Player.objects.get(tournament=tournament, name=name)
    response = client.get(
        reverse("public:player", args=[tournament.pk, player.pk]),
        headers={"Accept-Language": language},
    )
    assert response.status_code == 200
    return response.content.decode()


def state(body):
    return re.search(r'data-my-state="([^"]*)"', body).group(1)


def news(body):
    return htmllib.unescape(re.search(r"<p hidden data-my-news>(.*?)</p>", body).group(1))


def text(body):
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def totals(body):
    """The table's totals of "My table", as (name, points) in the page's order."""
    block = re.search(r'<ol class="my-table-totals">(.*?)</ol>', body, re.S).group(1)
    return [
        (htmllib.unescape(name), points)
        for name, points in re.findall(
            r'<span class="name">([^<]+)</span> <span class="total">([^<]+)</span>', block
        )
    ]


def test_registered_waits_for_the_draw_and_can_be_followed(client, make_tournament):
    tournament = make_tournament(NAMES, min_hands=2)
    body = page(client, tournament, "Anna")
    assert state(body) == "registered"
    assert news(body) == ""
    assert "Next: the draw. This page shows the seat as soon as it is made." in text(body)
    assert "my-table-totals" not in body
    assert "data-follow-start hidden>Follow me on this phone</button>" in body
    assert "data-follow-stop hidden>Stop following</button>" in body
    assert 'data-my-banner role="alert" hidden' in body  # outside the polled region
    assert body.index("data-my-banner") < body.index('id="live"')


def test_a_no_show_withdrawn_after_the_draw_is_told_so(client, make_tournament, td_user):
    """Filip was drawn, then withdrawn before play (level 1 drawn again without him): his
    page, which a phone may follow, no longer says he is seated, nor that the draw is still
    to come; the news banner says why his seat went away."""
    from tournament.services import registration

    tournament = make_tournament(NAMES, min_hands=2)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="my-table")
    assert state(page(client, tournament, "Filip")).startswith("seated-1-")
    filip = Player.objects.get(tournament=tournament, name="Filip")
    registration.withdraw_player(player=filip, actor=td_user)
    cache.clear()  # the page's region is kept a few seconds: read it as a later poll does
    body = page(client, tournament, "Filip")
    assert state(body) == "withdrawn"
    assert news(body) == "You are withdrawn: not in the draw."
    shown = text(body)
    assert "Withdrawn: not in the draw." in shown
    assert "If you are here to play, tell the TD." in shown
    assert "Next:" not in shown
    assert "Registered: the draw is not made yet" not in shown
    sv = text(page(client, tournament, "Filip", language="sv"))
    assert "Struken: inte med i lottningen." in sv


def test_seated_shows_the_seat_the_tables_totals_and_what_comes_next(
    client, make_tournament, td_user
):
    tournament = make_tournament(NAMES, min_hands=2)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="my-table")
    first, second = Table.objects.current().filter(level=level).order_by("number")
    by_seat = sorted(positions(first), key=positions(first).get)  # names in seat order
    play(first, -2, 6, -4)

    body = page(client, tournament, by_seat[1])
    assert state(body) == "seated-1-1-2"
    assert news(body) == "New seat: level 1, table 1, seat 2."
    assert "At table 1 now" in text(body)
    # The 3 players of table 1 (none of table 2), numbered by their totals, the leader
    # first (in seat order, the numbers read as a ranking that was not one).
    assert totals(body) == [
        (by_seat[1], "6 points"),
        (by_seat[0], "-2 points"),
        (by_seat[2], "-4 points"),
    ]
    assert '<li class="me"><span class="name">' + by_seat[1] in body
    assert (
        "Next: play until the table is over: its winner goes on to the next level's draw."
        in text(body)
    )


def test_the_winner_waits_and_the_loser_is_out(client, make_tournament, td_user):
    tournament = make_tournament(NAMES, min_hands=2)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="my-table")
    first = Table.objects.current().filter(level=level).order_by("number").first()
    by_seat = sorted(positions(first), key=positions(first).get)
    play(first, 6, -2, -4)
    play(first, 1, 1, -2)  # over: seat 1 wins with 7

    body = page(client, tournament, by_seat[0])
    assert state(body) == "waiting-1"
    assert news(body) == "You won your table: wait for the next draw."
    # What comes next, said once (issue 34 §5: it was said twice, "Next:" both times).
    shown = text(body)
    assert shown.count("Next:") == 1
    assert (
        "Won table 1 at level 1. You won your table: wait for the next draw. Next: the draw of"
        " level 2, which the TD makes once every table of this level is over. Follow me" in shown
    )
    body = page(client, tournament, by_seat[2])
    assert state(body) == "out"
    assert news(body) == "You are out of the tournament."
    # Nothing comes next: no "Next: nothing" (issue 34 §5).
    assert "Next:" not in text(body)
    assert "Out at level 1: place " in text(body)
    assert "my-table-totals" not in body


def test_in_swedish(client, make_tournament, td_user):
    tournament = make_tournament(NAMES, min_hands=2)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="my-table")
    first = Table.objects.current().filter(level=level).order_by("number").first()
    by_seat = sorted(positions(first), key=positions(first).get)
    body = page(client, tournament, by_seat[2], "sv")
    assert news(body) == "Ny plats: nivå 1, bord 1, plats 3."
    assert "Vid bord 1 nu" in text(body)
    assert "Följ mig på den här telefonen" in body
    assert "Sluta följa" in body
    assert "Mitt bord" in body  # the nav's link
    play(first, 6, -2, -4)
    play(first, 1, 1, -2)
    body = page(client, tournament, by_seat[2], "sv")
    assert news(body) == "Du är ute ur turneringen."


@pytest.mark.parametrize("name", ["tournament", "find", "standings"])
def test_every_public_page_has_the_my_table_link_for_the_script(client, make_tournament, name):
    tournament = make_tournament(NAMES)
    body = client.get(reverse(f"public:{name}", args=[tournament.pk])).content.decode()
    prefix = f"/t/{tournament.pk}/player/"
    assert re.search(
        rf'<a data-my-table-link data-tournament="{tournament.pk}" '
        rf'data-player-prefix="{prefix}" hidden>My table</a>',
        body,
    )
    assert '<script src="/static/js/my-table.js" defer></script>' in body
