"""The standings page and its projector view: champion first, rules.md section 6, live."""

import re

import pytest
from django.urls import reverse

from tests.tournament.conftest import play_named
from tournament.demo.autoplay import simulate
from tournament.models import Player, Table
from tournament.services import draws, penalties

pytestmark = pytest.mark.django_db


def url(name, tournament, *args):
    return reverse(name, args=[tournament.pk, *args])


def rows(html):
    """(rank, player, level, place, points, status) per row of the standings table."""
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    result = []
    for status, cells in re.findall(r"<tr class=\"status-(\w+)\">(.*?)</tr>", body, re.S):
        values = [
            re.sub(r"<[^>]+>", "", c).strip()
            for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", cells, re.S)
        ]
        result.append((*values[:5], status))
    return result


def rev_of(html):
    """The revision the standings region shows (the page's alerts bar polls its own)."""
    return re.search(r'<div id="standings"[^>]*data-poll-rev="([^"]+)"', html).group(1)


def tables(tournament, level):
    return {
        t.number: t
        for t in Table.objects.current().filter(level__tournament=tournament, level__number=level)
    }


@pytest.fixture
def with_dq(make_tournament, td_user):
    """4 players; seed "dq" seats (Cia, Bo) and (Dan, Anna); Anna gets 3 warnings."""
    tournament = make_tournament(4, min_hands=1)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="dq")
    anna = Player.objects.get(tournament=tournament, name="Anna")
    for _ in range(3):
        penalties.give_penalty(tournament=tournament, player=anna, kind="conduct", actor=td_user)
    return tournament


def test_disqualified_players_come_last_and_marked(td_client, td_user, with_dq):
    tournament = with_dq
    play_named(tables(tournament, 1)[1], {"Cia": 4, "Bo": -4}, actor=td_user)
    html = td_client.get(url("td:standings", tournament)).content.decode()
    # Cia won table 1 and Dan table 2 (Anna left it): both in; Bo out; Anna last, no rank,
    # her 2nd warning's 25 points on her score.
    assert rows(html) == [
        ("1", "Cia", "1", "1", "4", "in"),
        ("2", "Dan", "1", "1", "0", "in"),
        ("3", "Bo", "1", "2", "-4", "out"),
        ("–", "Anna", "1", "–", "-25", "disqualified"),
    ]
    assert '<span class="badge alert">Disqualified</span>' in html
    assert "The tournament is in play" in html and "data-poll-stop" not in html

    draws.advance(tournament=tournament, actor=td_user, seed="final")
    play_named(tables(tournament, 2)[1], {"Dan": 3, "Cia": -3}, actor=td_user)
    assert draws.advance(tournament=tournament, actor=td_user) is None
    html = td_client.get(url("td:standings", tournament)).content.decode()
    assert re.search(r'<strong class="champion-name">Dan</strong>', html)
    assert rows(html) == [
        ("1", "Dan", "2", "1", "3", "champion"),
        ("2", "Cia", "2", "2", "-3", "out"),
        ("3", "Bo", "1", "2", "-4", "out"),
        ("–", "Anna", "1", "–", "-25", "disqualified"),
    ]
    assert "data-poll-stop" in html


def test_before_the_draw_everyone_is_in(td_client, make_tournament):
    tournament = make_tournament(3)
    html = td_client.get(url("td:standings", tournament)).content.decode()
    assert rows(html) == [
        ("1", "Anna", "–", "–", "–", "in"),
        ("1", "Bo", "–", "–", "–", "in"),
        ("1", "Cia", "–", "–", "–", "in"),
    ]


def test_the_page_links_to_the_csv_and_the_projector(td_client, make_tournament):
    tournament = make_tournament(3)
    html = td_client.get(url("td:standings", tournament)).content.decode()
    assert f'href="{url("td:standings_csv", tournament)}"' in html
    assert "Download the standings (CSV)" in html
    assert f'href="{url("td:standings_projector", tournament)}"' in html
    assert 'class="td-nav"' in html  # the TD's page keeps its navigation


@pytest.mark.parametrize("name", ["td:standings", "td:standings_projector"])
def test_the_standings_poll_and_update_themselves(td_client, td_user, with_dq, name):
    tournament = with_dq
    address = url(name, tournament)
    html = td_client.get(address).content.decode()
    rev = rev_of(html)
    assert f'data-poll-url="{address}"' in html
    poll = td_client.get(address, {"rev": rev}, headers={"HX-Request": "true"})
    assert poll.status_code == 204 and "HX-Request" in poll["Vary"]
    play_named(tables(tournament, 1)[1], {"Cia": 4, "Bo": -4}, actor=td_user)
    fresh = td_client.get(address, {"rev": rev}, headers={"HX-Request": "true"})
    body = fresh.content.decode()
    assert fresh.status_code == 200 and "HX-Request" in fresh["Vary"]
    assert body.lstrip().startswith('<div id="standings"') and "<html" not in body
    assert rev_of(body) != rev
    assert rows(body)[0] == ("1", "Cia", "1", "1", "4", "in")


def test_the_projector_has_large_type_no_navigation_and_pages_itself(td_client, td_user, with_dq):
    tournament = with_dq
    html = td_client.get(url("td:standings_projector", tournament)).content.decode()
    assert 'class="projector"' in html and "css/projector.css" in html
    assert "<nav" not in html and "<form" not in html and "<a " not in html
    assert '<table class="standings" data-pager data-pager-seconds="8">' in html
    assert "js/pager.js" in html and "data-pager-status" in html
    assert [r[1] for r in rows(html)] == ["Bo", "Cia", "Dan", "Anna"]


def test_the_pager_script_pages_without_inline_styles():
    from pathlib import Path

    script = (Path(__file__).resolve().parents[3] / "static/js/pager.js").read_text()
    assert "item.hidden" in script and ".style" not in script and "eval(" not in script
    assert "htmx.onLoad" in script  # a fresh fragment from a poll pages on by itself


def standings_queries(td_client, td_user, players, django_assert_num_queries):
    tournament = simulate(players=players, seed="s", min_hands=2, actor=td_user).tournament
    assert tournament.finished_at is not None
    for name in ("td:standings", "td:standings_projector"):
        # session, user, revision token, tournament, players, seats, champion; on the TD's
        # page, its alerts bar: the dashboard's 7 and its token (the projector has none).
        with django_assert_num_queries(15 if name == "td:standings" else 7):
            response = td_client.get(url(name, tournament))
        assert response.status_code == 200
        assert len(rows(response.content.decode())) == players
        # A poll that finds nothing new: session, user, revision token.
        rev = rev_of(response.content.decode())
        with django_assert_num_queries(3):
            poll = td_client.get(
                url(name, tournament), {"rev": rev}, headers={"HX-Request": "true"}
            )
        assert poll.status_code == 204


def test_the_standings_cost_the_same_at_9_and_60_players(
    td_client, td_user, django_assert_num_queries
):
    standings_queries(td_client, td_user, 9, django_assert_num_queries)
    standings_queries(td_client, td_user, 60, django_assert_num_queries)
