"""A whole small tournament run through the TD's draw pages: drawn, redrawn with a reason,
locked by the first hand, advanced level by level to the champion and the standings."""

import re
import uuid

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from tests.tournament.conftest import play_named
from tournament.models import Draw, Level, Table, Tournament
from tournament.services import draws

pytestmark = pytest.mark.django_db


def url(name, tournament, *args):
    return reverse(name, args=[tournament.pk, *args])


def form_key(html, action, name="submission_key"):
    """The one-time key (or another hidden field) of the form that posts to `action`."""
    form = html[html.index(f'action="{action}"') :]
    return re.search(rf'name="{name}" value="([^"]+)"', form).group(1)


def confirm_close(td_client, tournament, button):
    """From the level page's link to the confirmation page, and its button (checked) sent."""
    level = tournament.levels.order_by("-number").first().number
    page = td_client.get(url("td:level", tournament, level)).content.decode()
    assert f'href="{url("td:advance", tournament)}"' in page
    confirm = td_client.get(url("td:advance", tournament)).content.decode()
    assert button in confirm
    fields = {"submission_key": form_key(confirm, url("td:advance", tournament))}
    return td_client.post(url("td:advance", tournament), fields | {"level": level, "confirm": 1})


def tables_of(tournament, level):
    return {
        t.number: t
        for t in Table.objects.current().filter(level__tournament=tournament, level__number=level)
    }


def standings_rows(html):
    """(rank, player, level, place, points, status) per row of the standings table."""
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    rows = []
    for row in re.findall(r"<tr class=\"status-(\w+)\">(.*?)</tr>", body, re.S):
        status, cells = row
        values = [
            re.sub(r"<[^>]+>", "", c).strip()
            for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", cells, re.S)
        ]
        rows.append((*values[:5], status))
    return rows


def test_seven_players_from_the_draw_to_the_champion(
    td_client, td_user, make_tournament, monkeypatch
):
    # Every draw service takes a seed before it checks anything, refused calls too.
    seeds = ["seed-one", "seed-two", "(stale redraw)", "(early advance)", "seed-three", "(end)"]
    monkeypatch.setattr(draws, "new_seed", lambda: seeds.pop(0))
    tournament = make_tournament(7, min_hands=1)  # Anna 1, Bo 2, ... Gun 7

    # The draw page: 7 players, one table of 3 and two heads-up tables.
    page = td_client.get(url("td:draw", tournament)).content.decode()
    assert "7 players → 3 tables" in page
    response = td_client.post(
        url("td:draw", tournament), {"submission_key": form_key(page, url("td:draw", tournament))}
    )
    assert response["Location"] == url("td:level", tournament, 1)

    # Redo it with a reason: seed-two seats (Gun, Filip, Eva), (Cia, Dan), (Bo, Anna).
    page = td_client.get(url("td:level", tournament, 1)).content.decode()
    assert '<code class="seed">seed-one</code>' in page
    redraw = url("td:redraw", tournament, 1)
    response = td_client.post(
        redraw,
        {
            "submission_key": form_key(page, redraw),
            "draw": form_key(page, redraw, "draw"),
            "reason": "Two players sat wrong",
        },
    )
    assert response.status_code == 302
    level1 = Level.objects.get(tournament=tournament, number=1)
    assert [(d.number, d.seed, d.reason, d.superseded_at is None) for d in level1.draws.all()] == [
        (1, "seed-one", "", False),
        (2, "seed-two", "Two players sat wrong", True),
    ]
    page = td_client.get(url("td:level", tournament, 1)).content.decode()
    stale = {"submission_key": form_key(page, redraw), "draw": form_key(page, redraw, "draw")}

    # The first hand locks the draw.
    tables = tables_of(tournament, 1)
    play_named(tables[1], {"Gun": 5, "Filip": -1, "Eva": -4}, actor=td_user)
    page = td_client.get(url("td:level", tournament, 1)).content.decode()
    assert "The draw is locked: the first hand of this level is recorded" in page
    response = td_client.post(redraw, {**stale, "reason": "Again"})
    assert response.status_code == 400
    assert level1.draws.count() == 2

    # Standings while level 1 plays: Gun has won table 1; Filip and Eva are out.
    html = td_client.get(url("td:standings", tournament)).content.decode()
    assert standings_rows(html) == [
        ("1", "Gun", "1", "1", "5", "in"),
        ("2", "Anna", "1", "1", "0", "in"),
        ("2", "Bo", "1", "1", "0", "in"),
        ("2", "Cia", "1", "1", "0", "in"),
        ("2", "Dan", "1", "1", "0", "in"),
        ("6", "Filip", "1", "2", "-1", "out"),
        ("7", "Eva", "1", "3", "-4", "out"),
    ]
    assert "data-poll-stop" not in html

    # Closing the level too early: the confirmation page says which tables still play.
    response = td_client.post(
        url("td:advance", tournament),
        {"submission_key": str(uuid.uuid4()), "level": "1", "confirm": "1"},
    )
    assert response.status_code == 400
    assert "Not every table is over yet (still playing: tables 2, 3)." in response.content.decode()

    play_named(tables[2], {"Cia": -3, "Dan": 3}, actor=td_user)
    play_named(tables[3], {"Bo": 2, "Anna": -2}, actor=td_user)
    response = confirm_close(td_client, tournament, ">Close level 1 and draw level 2</button>")
    assert response["Location"] == url("td:level", tournament, 2)

    # Level 2: Gun, Dan and Bo at one table; seed-three seats (Bo, Gun, Dan), Gun deals first.
    page = td_client.get(url("td:level", tournament, 2)).content.decode()
    assert '<code class="seed">seed-three</code>' in page
    final = tables_of(tournament, 2)[1]
    assert [s.player.name for s in final.seats.order_by("position")] == ["Bo", "Gun", "Dan"]
    assert final.first_dealer_position == 1
    play_named(final, {"Dan": 6, "Gun": 1, "Bo": -7}, actor=td_user)
    response = confirm_close(td_client, tournament, ">Close level 2 and name the champion</button>")
    assert response["Location"] == url("td:standings", tournament)
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "The tournament is finished. Champion: Dan."
    ]
    tournament = Tournament.objects.get(pk=tournament.pk)
    assert tournament.champion.name == "Dan" and tournament.finished_at is not None
    assert Draw.objects.filter(level__tournament=tournament).count() == 3

    # The standings: champion; the last table by points; then level 1 by place, then points.
    html = td_client.get(url("td:standings", tournament)).content.decode()
    assert re.search(r'class="champion-name">Dan<', html)
    assert standings_rows(html) == [
        ("1", "Dan", "2", "1", "6", "champion"),
        ("2", "Gun", "2", "2", "1", "out"),
        ("3", "Bo", "2", "3", "-7", "out"),
        ("4", "Filip", "1", "2", "-1", "out"),
        ("5", "Anna", "1", "2", "-2", "out"),
        ("6", "Cia", "1", "2", "-3", "out"),
        ("7", "Eva", "1", "3", "-4", "out"),
    ]
    assert "data-poll-stop" in html  # nothing changes any more
