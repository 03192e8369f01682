"""A player's region and a search's are rendered from their template only when what they
show has moved: a hand at another table moves the room's token (the region's data-poll-rev)
and nothing else of his page, so the process writes the new token into its last rendering.
What it sends is always what a fresh process would render."""

import re
from unittest import mock

import pytest
from django.urls import reverse

from tests.tournament.conftest import play_named
from tests.tournament.views.conftest import page_and_calls
from tournament.live import kept, regions
from tournament.models import Seat
from tournament.selectors.public import player_record
from tournament.selectors.score_card import score_card
from tournament.selectors.tokens import revision_token
from tournament.services import registration

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

POLL_REV = re.compile(r'data-poll-rev="([^"]*)"')


def page_and_renderings(client, url):
    """The player's page, and how many times a region's template was rendered for it."""
    return page_and_calls(client, url, regions, "render_to_string")


def fresh_page(client, url):
    """The page as a process that keeps nothing renders it."""
    kept.forget_kept()
    page, renderings = page_and_renderings(client, url)
    assert renderings == 1
    return page


@pytest.fixture
def anna(two_tables):
    """Anna's page, her table and the other one (names by seat: seed "poll")."""
    tournament, first, second = two_tables
    seat = Seat.objects.select_related("table").get(player__name="Anna", table__in=[first, second])
    other = second if seat.table_id == first.pk else first
    url = reverse("public:player", args=[tournament.pk, seat.player_id])
    return tournament, seat.table, other, url


def names_at(table):
    return sorted(table.seats.values_list("player__name", flat=True))


def test_a_hand_at_another_table_writes_the_new_token_into_the_kept_rendering(client, anna):
    tournament, mine, other, url = anna
    _, renderings = page_and_renderings(client, url)
    assert renderings == 1

    first, second, third = names_at(other)
    play_named(other, {first: 4, second: -2, third: -2})
    page, renderings = page_and_renderings(client, url)
    assert renderings == 0
    token = revision_token(tournament.pk)
    assert POLL_REV.findall(page) == [token]
    assert "<live-token>" not in page
    assert page == fresh_page(client, url)


def test_a_move_in_the_standings_alone_renders_it_again(client, anna):
    """Anna goes out third at her table with -4, below everyone still playing: 6th of 6.
    When the other table ends, its third player goes out with -6, below her (rules.md
    section 6: place at the table, then points): she moves up to 5th while her record (her
    table, her seats, her penalties) stays as it was read."""
    tournament, mine, other, url = anna
    me, *others = ["Anna", *(name for name in names_at(mine) if name != "Anna")]
    for _ in range(2):
        play_named(mine, {me: -2, others[0]: 3, others[1]: -1})
    play_named(mine, {me: 0, others[0]: 0, others[1]: 0})
    page, _ = page_and_renderings(client, url)
    assert "Out at level 1: place 6 in the standings." in page
    assert "Place 3 at table" in page and "with -4 points." in page

    first, second, third = names_at(other)
    for _ in range(2):
        play_named(other, {first: 3, second: -1, third: -2})
    page, renderings = page_and_renderings(client, url)
    assert renderings == 0  # the other table plays on: she is still 6th
    assert "place 6 in the standings" in page

    play_named(other, {first: 3, second: -1, third: -2})  # the other table ends
    with mock.patch.object(kept, "player_record", wraps=player_record) as reads:
        page, renderings = page_and_renderings(client, url)
    assert (reads.call_count, renderings) == (0, 1)
    assert "Out at level 1: place 5 in the standings." in page
    assert page == fresh_page(client, url)


def test_a_name_that_reads_like_the_mark_is_shown_as_typed(client, anna, td_user):
    tournament, mine, other, url = anna
    anna_player = Seat.objects.get(table=mine, player__name="Anna").player
    registration.rename_player(player=anna_player, actor=td_user, name="<live-token>")
    page_and_renderings(client, url)
    first, second, third = names_at(other)
    play_named(other, {first: 4, second: -2, third: -2})
    page, renderings = page_and_renderings(client, url)
    assert renderings == 0
    assert "<h1>&lt;live-token&gt; " in page
    assert POLL_REV.findall(page) == [revision_token(tournament.pk)]


def test_a_search_is_rendered_again_only_when_someone_found_has_moved(client, anna):
    """Anna's seat and the others' stay as they were while the other table plays; when her
    own table ends with her third, the search shows her out."""
    tournament, mine, other, url = anna
    search = reverse("public:find", args=[tournament.pk]) + "?q=anna"
    page, renderings = page_and_renderings(client, search)
    assert renderings == 1 and '<p class="where seated">' in page

    first, second, third = names_at(other)
    play_named(other, {first: 4, second: -2, third: -2})
    page, renderings = page_and_renderings(client, search)
    assert renderings == 0
    assert POLL_REV.findall(page) == [revision_token(tournament.pk)]
    assert page == fresh_page(client, search)

    me, *others = ["Anna", *(name for name in names_at(mine) if name != "Anna")]
    for _ in range(3):
        play_named(mine, {me: -2, others[0]: 3, others[1]: -1})
    page, renderings = page_and_renderings(client, search)
    assert renderings == 1
    assert "Out at level 1: place 6 in the standings." in page
    assert page == fresh_page(client, search)


def test_a_tables_card_is_read_once_per_token_for_every_language(client, anna):
    """After a hand, a table's region is rendered for each language its phones read, from
    one reading of its score card; the next hand there reads it again."""
    tournament, mine, other, url = anna
    card = reverse("public:table", args=[tournament.pk, mine.pk])

    def page_and_reads(language):
        with mock.patch.object(kept, "score_card", wraps=score_card) as reads:
            response = client.get(card, headers={"Accept-Language": language})
        assert response.status_code == 200
        return response.content.decode(), reads.call_count

    assert page_and_reads("en")[1] == 1
    page, reads = page_and_reads("sv")
    assert reads == 0 and 'lang="sv"' in page and 'id="hand-1"' not in page

    me, *others = ["Anna", *(name for name in names_at(mine) if name != "Anna")]
    play_named(mine, {me: 4, others[0]: -2, others[1]: -2})
    page, reads = page_and_reads("sv")
    assert reads == 1 and 'id="hand-1"' in page
    page, reads = page_and_reads("en")
    assert reads == 0 and 'id="hand-1"' in page
    assert page == fresh_page_in(client, card, "en")


def fresh_page_in(client, url, language):
    kept.forget_kept()
    return client.get(url, headers={"Accept-Language": language}).content.decode()
