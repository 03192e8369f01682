"""The public pages' live regions, by the one polling mechanism: an unchanged poll costs one
indexed query and answers 204 with no body (no session, no user), a proxy may keep it for a
moment; a changed one gets the fresh region, rendered once per revision and shared; polling
stops where nothing more can change."""

import uuid
import warnings

import pytest
from django.core.cache import cache
from django.core.cache.backends.base import CacheKeyWarning
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournament.conftest import play, single_table
from tests.tournament.views.conftest import live_pages, with_rev
from tournament.models import Player, Table
from tournament.selectors.public import public_tournament
from tournament.selectors.tokens import revision_token
from tournament.services import draws, hands, penalties

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

HTMX = {"HX-Request": "true"}


def test_the_token_read_with_the_tournament_is_the_revision_token(two_tables, td_user):
    tournament, first, second = two_tables
    play(first, 2, -1, -1)
    play(second, 3, -3, 0)
    loaded = public_tournament(tournament.pk)
    assert loaded.token == revision_token(tournament.pk)
    assert public_tournament(tournament.pk + 1000) is None
    # Beyond a bigint: no such row, and never the database's range error.
    assert public_tournament(2**63) is None
    assert revision_token(tournament.pk, first.pk) == (
        f"{loaded.revision}.{Table.objects.get(pk=first.pk).revision}"
    )
    assert revision_token(tournament.pk + 1000, first.pk) is None


def test_an_unchanged_poll_is_204_after_one_query(
    client, two_tables, django_assert_num_queries, td_user
):
    tournament, first, _ = two_tables
    play(first, 2, -1, -1)
    for url, token in live_pages(tournament, first):
        with django_assert_num_queries(1):
            response = client.get(with_rev(url, token), headers=HTMX)
        assert response.status_code == 204, url
        assert response.content == b""
        assert response["Cache-Control"] == "public, max-age=2"
        assert "HX-Request" in response["Vary"]
        assert "Cookie" not in response.get("Vary", "")  # no session was touched
        assert not response.cookies


def test_an_unchanged_poll_reads_no_session_or_user_even_when_logged_in(
    td_client, two_tables, django_assert_num_queries
):
    tournament, first, _ = two_tables
    for url, token in live_pages(tournament, first):
        with django_assert_num_queries(1):
            response = td_client.get(with_rev(url, token), headers=HTMX)
        assert response.status_code == 204, url


def token_queries(tournament, table):
    """The SQL `revision_token` runs for the tournament's token and the table's."""
    with CaptureQueriesContext(connection) as context:
        revision_token(tournament.pk)
        revision_token(tournament.pk, table.pk)
    return {query["sql"] for query in context.captured_queries}


def test_every_live_page_reads_its_token_by_the_one_selector(client, td_client, two_tables):
    """The players' pages, the big screens and the TD's live pages poll with the token of
    `revision_token`: the one query an unchanged public poll runs is that one, the table's
    score card's too (it used to be an ORM query of its own, four times the cost). Where a
    process keeps tokens a second, they come in one read with every table's of the
    tournament (`room_tokens`, tests/tournament/views/test_public_recent_token.py)."""
    tournament, first, _ = two_tables
    play(first, 2, -1, -1)
    expected = token_queries(tournament, first)
    assert len(expected) == 2
    for url, token in live_pages(tournament, first):
        with CaptureQueriesContext(connection) as context:
            response = client.get(with_rev(url, token), headers=HTMX)
        assert response.status_code == 204, url
        assert [query["sql"] for query in context.captured_queries] in (
            [sql] for sql in expected
        ), url
    td_pages = [
        reverse("td:live", args=[tournament.pk]),
        reverse("td:table", args=[tournament.pk, first.pk]),
        reverse("td:standings", args=[tournament.pk]),
        reverse("td:standings_projector", args=[tournament.pk]),
    ]
    for url in td_pages:
        with CaptureQueriesContext(connection) as context:
            response = td_client.get(with_rev(url, "0.0"), headers=HTMX)
        assert response.status_code == 200, url
        assert expected & {query["sql"] for query in context.captured_queries}, url


def test_a_search_is_kept_per_text_searched(client, two_tables, django_assert_num_queries):
    """ "Where do I sit?" is kept like every live page: a room types the same few names. Each
    text searched has its own; any text makes a short cache key (80 letters of "Å" make a
    URL of 500 characters, twice what a cache key may be)."""
    tournament, *_ = two_tables
    find = reverse("public:find", args=[tournament.pk])
    anna = client.get(f"{find}?q=anna")
    assert anna.status_code == 200 and "Anna" in anna.content.decode()
    with django_assert_num_queries(1):  # another phone: the token alone
        again = client.get(f"{find}?q=anna")
    assert again.content == anna.content
    bo = client.get(f"{find}?q=bo")
    assert "Bo" in bo.content.decode() and bo.content != anna.content
    long = "Å" * 80
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheKeyWarning)
        first = client.get(find, {"q": long})
        with django_assert_num_queries(1):
            second = client.get(find, {"q": long})
    assert first.status_code == 200 and second.content == first.content
    assert f"No player found for “{long}”" in first.content.decode()


def test_a_changed_poll_gets_the_fresh_region_with_its_new_revision(client, two_tables):
    tournament, first, _ = two_tables
    old = revision_token(tournament.pk)
    play(first, 5, -2, -3)
    new = revision_token(tournament.pk)
    assert new != old
    url = reverse("public:tournament", args=[tournament.pk])
    response = client.get(with_rev(url, old), headers=HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.startswith('\n<section id="live"') or body.lstrip().startswith('<section id="live"')
    assert "<html" not in body and "<form" not in body and "csrf" not in body
    assert f'data-poll-rev="{new}"' in body
    assert '<span class="total">5</span>' in body
    assert response["Cache-Control"] == "public, max-age=2"
    assert "HX-Request" in response["Vary"]
    assert not response.cookies


def test_the_region_is_rendered_once_per_revision_and_shared(
    client, two_tables, django_assert_num_queries
):
    tournament, first, _ = two_tables
    old = revision_token(tournament.pk)
    play(first, 5, -2, -3)
    url = with_rev(reverse("public:tournament", args=[tournament.pk]), old)
    first_answer = client.get(url, headers=HTMX)
    # The next phone with the same old revision: the token's query, the kept region.
    with django_assert_num_queries(1):
        second_answer = client.get(url, headers=HTMX)
    assert second_answer.content == first_answer.content


def test_a_hand_at_another_table_leaves_a_score_card_alone(client, two_tables):
    tournament, first, second = two_tables
    url = reverse("public:table", args=[tournament.pk, first.pk])
    token = revision_token(tournament.pk, first.pk)
    play(second, 2, -1, -1)
    assert client.get(with_rev(url, token), headers=HTMX).status_code == 204
    play(first, 2, -1, -1)
    response = client.get(with_rev(url, token), headers=HTMX)
    assert response.status_code == 200
    assert "Hand 2 of 3" in response.content.decode()
    # A penalty moves the tournament's own revision: the card is fetched again.
    token = revision_token(tournament.pk, first.pk)
    anna = Player.objects.get(tournament=tournament, name="Anna")
    penalties.give_penalty(tournament=tournament, player=anna, kind="slow", actor=None)
    assert client.get(with_rev(url, token), headers=HTMX).status_code == 200


def test_a_poll_of_an_unknown_tournament_or_table_is_404(client, two_tables):
    tournament, first, _ = two_tables
    url = reverse("public:tournament", args=[tournament.pk + 1000])
    assert client.get(with_rev(url, "0.0"), headers=HTMX).status_code == 404
    url = reverse("public:table", args=[tournament.pk, first.pk + 1000])
    assert client.get(with_rev(url, "0.0"), headers=HTMX).status_code == 404


def test_a_plain_visit_with_rev_gets_the_whole_page(client, two_tables):
    tournament, first, _ = two_tables
    url = reverse("public:tournament", args=[tournament.pk])
    response = client.get(with_rev(url, revision_token(tournament.pk)))
    assert response.status_code == 200
    assert "<html" in response.content.decode()


def test_a_poll_is_answered_in_the_language_it_names(client, two_tables):
    tournament, first, _ = two_tables
    url = reverse("public:tournament", args=[tournament.pk])
    response = client.get(f"{url}?rev=old&lang=sv", headers=HTMX)
    body = response.content.decode()
    assert "Nivå 1" in body and "lang=sv" in body
    response = client.get(f"{url}?rev=old&lang=en", headers={**HTMX, "Accept-Language": "sv"})
    assert "Level 1" in response.content.decode()


def test_polling_stops_once_the_tournament_is_over(client, make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo"], min_hands=1)
    table = single_table(tournament, td_user)
    hands.record_hand(
        table=table, hand_number=1, idempotency_key=uuid.uuid4(), points={0: 4, 1: -4}
    )
    anna = Player.objects.get(tournament=tournament, name="Anna")
    urls = [
        reverse("public:tournament", args=[tournament.pk]),
        reverse("public:standings", args=[tournament.pk]),
        reverse("public:player", args=[tournament.pk, anna.pk]),
        reverse("public:find", args=[tournament.pk]) + "?q=bo",
        reverse("public:table", args=[tournament.pk, table.pk]),
        reverse("public:tables_projector", args=[tournament.pk]),
        reverse("public:standings_projector", args=[tournament.pk]),
    ]
    for url in urls:
        assert "data-poll-stop" not in client.get(url).content.decode(), url
    draws.advance(tournament=tournament, actor=td_user)
    for url in urls:
        body = client.get(url).content.decode()
        assert "data-poll-url=" in body and "data-poll-stop" in body, url


def test_the_poll_interval_can_be_shortened_by_a_setting(client, two_tables, settings):
    tournament, *_ = two_tables
    settings.PUBLIC_POLL_SECONDS = 0.5
    body = client.get(reverse("public:tournament", args=[tournament.pk])).content.decode()
    assert 'data-poll-every="0.5"' in body
    del settings.PUBLIC_POLL_SECONDS
    cache.clear()
    body = client.get(reverse("public:tournament", args=[tournament.pk])).content.decode()
    assert 'data-poll-every="5"' in body
