"""Every public page reads a fixed number of queries whatever the tournament's size: the same
at 9 players as at 300 (no query per table, seat or row), and no session or user."""

import uuid

import pytest
from django.urls import reverse

from tournament.demo.autoplay import simulate
from tournament.live import kept, regions
from tournament.models import Penalty, Player, Table
from tournament.selectors.tokens import revision_token
from tournament.services import draws, hands, penalties, registration

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}

# Queries per page, worked out from the selectors: the token (1), the tournament (1), then
#   tournament, tables projector: the levels (1), the seats with tables and players (1)
#   tables projector: the hand times of the tables playing, for the level's end (1)
#   standings, standings projector: standings (3)
#   player: standings (3), the player (1), his seats (1), his penalties (1);
#     his record kept in the process, his table's token (1) instead of the last three
#   table: the table (1), score_card (5: its seats, hands' versions, their results,
#     the players' penalties, the open call; the tie settlement only while its lead is tied)
#   find: standings (3), the seats of the players found (1)
# The poster reads the tournament alone.
EXPECTED = {
    "tournament": 4,
    "tables_projector": 5,
    "standings": 5,
    "standings_projector": 5,
    "player": 8,
    "find": 6,
    "table": 8,
    "poster": 1,
}
# Live pages are kept whole for visitors without a session: a second visit reads the token
# alone (a search too, per text searched).
KEPT = set(EXPECTED) - {"poster"}


def urls(tournament):
    table = Table.objects.current().filter(level__tournament=tournament).order_by("-pk").first()
    player = table.seats.order_by("position").first().player
    return {
        "tournament": reverse("public:tournament", args=[tournament.pk]),
        "tables_projector": reverse("public:tables_projector", args=[tournament.pk]),
        "standings": reverse("public:standings", args=[tournament.pk]),
        "standings_projector": reverse("public:standings_projector", args=[tournament.pk]),
        "player": reverse("public:player", args=[tournament.pk, player.pk]),
        "find": reverse("public:find", args=[tournament.pk]) + "?q=a",
        "table": reverse("public:table", args=[tournament.pk, table.pk]),
        "poster": reverse("public:poster", args=[tournament.pk]),
    }


def as_a_fresh_process():
    """Nothing kept: no region in the cache, no standings or player's record in this
    process."""
    kept.forget_kept()


def assert_counts(client, tournament, django_assert_num_queries):
    for name, url in urls(tournament).items():
        for headers in ({}, HTMX):  # the whole page, and its region alone for htmx
            as_a_fresh_process()
            with django_assert_num_queries(EXPECTED[name]):
                response = client.get(url, headers=headers)
            assert response.status_code == 200, url
            if name in KEPT:
                with django_assert_num_queries(1):
                    again = client.get(url, headers=headers)
                assert again.content == response.content, url
        # A changed poll whose region another phone fetched already: the token alone.
        if name != "poster":
            with django_assert_num_queries(1):
                response = client.get(url + ("&" if "?" in url else "?") + "rev=x", headers=HTMX)
            assert response.status_code == 200, url
    url = urls(tournament)["tournament"] + f"?rev={revision_token(tournament.pk)}"
    with django_assert_num_queries(1):
        response = client.get(url, headers=HTMX)
    assert response.status_code == 204


def test_nine_players_a_level_closed_and_the_next_in_play(
    client, td_user, django_assert_num_queries
):
    outcome = simulate(players=9, seed="public", stop_after_level=1, actor=td_user)
    tournament = outcome.tournament
    assert Player.objects.filter(tournament=tournament).count() == 9
    assert_counts(client, tournament, django_assert_num_queries)


def test_three_hundred_players(client, td_user, django_assert_num_queries):
    tournament = registration.create_tournament(actor=td_user, name="SM 300", min_hands=2)
    for number in range(300):
        registration.register_player(
            tournament=tournament, actor=td_user, name=f"Åsa Spelare {number}"
        )
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="three hundred")
    tables = list(Table.objects.current().filter(level=level).order_by("number"))
    assert len(tables) == 100
    # A few hands here and there, a Fantasyland, a finished table and a penalty.
    for table in tables[:5]:
        for number in (1, 2):
            hands.record_hand(
                table=table,
                hand_number=number,
                idempotency_key=uuid.uuid4(),
                points={0: 4, 1: -1, 2: -3},
                fantasyland={0} if number == 1 and table.number == 2 else (),
                actor=td_user,
            )
    victim = tables[-1].seats.order_by("position").first().player
    penalties.give_penalty(tournament=tournament, player=victim, kind="timeout", actor=td_user)
    assert Penalty.objects.filter(tournament=tournament).count() == 1
    assert_counts(client, tournament, django_assert_num_queries)
    # The page holds every table: 100 of them, 300 players.
    body = client.get(reverse("public:tournament", args=[tournament.pk])).content.decode()
    assert body.count('class="ptable') == 100
    assert body.count(f'href="/t/{tournament.pk}/player/') == 300 + 4  # and 4 winners
    assert len(body) < 60_000  # about 150 bytes a player


def test_a_loader_loads_once_and_keeps_no_failure():
    calls = []

    def load(value):
        calls.append(value)
        if len(calls) == 1:
            raise Player.DoesNotExist
        return value * 2

    once = regions.loader(load, 21)
    with pytest.raises(Player.DoesNotExist):
        once()
    assert once() == 42
    assert once() == 42
    assert calls == [21, 21]
