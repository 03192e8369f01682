"""A process answers the players' polls with the token it read last for up to
`PUBLIC_TOKEN_SECONDS` (1 s; 0 in tests elsewhere): a room polling one page reads its token
once a second per process, not once a poll, and a phone is sent the fresh region at its
first poll after that second."""

import pytest
from django.urls import reverse

from tests.tournament.conftest import play
from tournament import selectors
from tournament.views.public import common

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def memo(settings, clock):
    settings.PUBLIC_TOKEN_SECONDS = 1
    common._recent_tokens.clear()
    yield clock
    common._recent_tokens.clear()


def poll(client, url, rev):
    return client.get(f"{url}?rev={rev}&lang=en", headers=HTMX)


def rev_of(response):
    return response.content.decode().split('data-poll-rev="', 1)[1].split('"', 1)[0]


def test_one_read_a_second_for_every_page_of_the_tournament(
    client, two_tables, memo, django_assert_num_queries
):
    tournament, first, _ = two_tables
    token = selectors.revision_token(tournament.pk)
    pages = [
        reverse("public:tournament", args=[tournament.pk]),
        reverse("public:standings", args=[tournament.pk]),
        reverse("public:tables_projector", args=[tournament.pk]),
    ]
    with django_assert_num_queries(1):  # the first poll reads the token
        assert poll(client, pages[0], token).status_code == 204
    for url in pages:  # every other poll of the second: nothing read
        with django_assert_num_queries(0):
            assert poll(client, url, token).status_code == 204
    memo.now += 1
    with django_assert_num_queries(1):
        assert poll(client, pages[1], token).status_code == 204


def test_a_hand_reaches_the_phone_at_its_first_poll_after_the_second(client, two_tables, memo):
    tournament, first, _ = two_tables
    url = reverse("public:table", args=[tournament.pk, first.pk])
    before = selectors.revision_token(tournament.pk, first.pk)
    assert poll(client, url, before).status_code == 204  # read at 0 s
    play(first, 5, -2, -3)
    memo.now += 0.9
    assert poll(client, url, before).status_code == 204  # the token read 0.9 s ago
    memo.now += 0.1
    fresh = poll(client, url, before)
    assert fresh.status_code == 200
    assert rev_of(fresh) == selectors.revision_token(tournament.pk, first.pk) != before
    assert "+5" in fresh.content.decode()


def test_a_table_s_token_is_its_own(client, two_tables, memo, django_assert_num_queries):
    """Each subject is kept apart: a table's poll does not take the tournament's token."""
    tournament, first, second = two_tables
    tournament_page = reverse("public:tournament", args=[tournament.pk])
    assert poll(client, tournament_page, "x").status_code == 200
    for table in (first, second):
        url = reverse("public:table", args=[tournament.pk, table.pk])
        token = selectors.revision_token(tournament.pk, table.pk)
        with django_assert_num_queries(1):
            assert poll(client, url, token).status_code == 204


def test_never_longer_than_the_render_bound_and_an_unknown_page_is_not_kept(
    client, two_tables, settings, memo, django_assert_num_queries
):
    tournament, *_ = two_tables
    url = reverse("public:tournament", args=[tournament.pk])
    token = selectors.revision_token(tournament.pk)
    settings.PUBLIC_RENDER_SECONDS = 0  # every change at once: the token too
    for _ in range(2):
        with django_assert_num_queries(1):
            assert poll(client, url, token).status_code == 204
    settings.PUBLIC_RENDER_SECONDS = 5
    missing = reverse("public:tournament", args=[tournament.pk + 1000])
    for _ in range(2):
        response = poll(client, missing, token)
        assert response.status_code == 404
    assert (selectors.revision_token, (tournament.pk + 1000,)) not in common._recent_tokens
