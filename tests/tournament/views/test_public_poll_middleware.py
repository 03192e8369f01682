"""tournament.live.middleware.LivePollMiddleware: a public page's poll that needs nothing rendered
(204, or the region kept for every phone) is answered before the session, the user and the
rest of the middleware, with the security headers all the same, gzipped for a phone that
takes it; anything else goes the whole way down, reading the token once."""

import gzip

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.tournament.conftest import play
from tests.tournament.views.conftest import live_pages, with_rev
from tournament.selectors.tokens import revision_token

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

HTMX = {"HX-Request": "true"}
GZIP = {**HTMX, "Accept-Encoding": "gzip, deflate, br"}


def went_down(response):
    """Whether the request went through the session middleware (and so the view's way)."""
    return hasattr(response.wsgi_request, "session")


def rev_of(body):
    return body.split('data-poll-rev="', 1)[1].split('"', 1)[0]


def test_an_unchanged_poll_is_answered_before_the_session_and_the_user(
    td_client, two_tables, django_assert_num_queries
):
    tournament, first, _ = two_tables
    play(first, 2, -1, -1)
    for url, token in live_pages(tournament, first):
        with django_assert_num_queries(1):
            response = td_client.get(with_rev(url, token), headers=HTMX)
        assert response.status_code == 204, url
        assert not went_down(response), url
        assert not hasattr(response.wsgi_request, "user")
        assert response.content == b""
        assert not response.cookies  # the TD's session is neither read nor sent again
        assert response["Cache-Control"] == "public, max-age=2"
        assert response["Vary"] == "HX-Request"
        # The security and Content-Security-Policy middleware come first: their headers.
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["Referrer-Policy"] == "same-origin"
        assert "script-src 'self'" in response["Content-Security-Policy"]


def test_a_poll_of_a_kept_region_gets_it_there_gzipped(
    client, two_tables, clock, django_assert_num_queries
):
    tournament, first, _ = two_tables
    url = reverse("public:tournament", args=[tournament.pk])
    start = revision_token(tournament.pk)
    rendered = client.get(with_rev(url, "x"), headers=HTMX)  # renders and keeps the region
    assert went_down(rendered)
    assert rev_of(rendered.content.decode()) == start
    play(first, 5, -2, -3)
    clock.now += 4.9

    # A phone showing something older: the region kept at `start`, the token's query alone.
    with django_assert_num_queries(1):
        response = client.get(with_rev(url, "0.0"), headers=GZIP)
    assert response.status_code == 200
    assert not went_down(response)
    assert response["Content-Encoding"] == "gzip"
    assert int(response["Content-Length"]) == len(response.content)
    assert gzip.decompress(response.content) == rendered.content
    assert response["Content-Language"] == "en"
    assert response["Cache-Control"] == "public, max-age=2"
    assert set(response["Vary"].split(", ")) == {"HX-Request", "Accept-Encoding"}
    assert "script-src 'self'" in response["Content-Security-Policy"]
    # Without gzip, the same region as it is; in Swedish, the Swedish one, rendered below.
    plain = client.get(with_rev(url, "0.0"), headers=HTMX)
    assert "Content-Encoding" not in plain and plain.content == rendered.content
    swedish = client.get(with_rev(url, "0.0", "sv"), headers=HTMX)
    assert went_down(swedish) and "Nivå 1" in swedish.content.decode()
    # A phone showing the kept region: 204, there too.
    response = client.get(with_rev(url, start), headers=GZIP)
    assert response.status_code == 204 and not went_down(response)

    # At 5 s the kept region is no longer served: the view renders the hand.
    clock.now += 0.1
    response = client.get(with_rev(url, start), headers=GZIP)
    assert response.status_code == 200 and went_down(response)
    body = gzip.decompress(response.content).decode()
    assert '<span class="total">5</span>' in body
    assert rev_of(body) == revision_token(tournament.pk)


def test_a_poll_whose_region_is_rendered_reads_the_token_once(
    client, two_tables, django_assert_num_queries
):
    tournament, _, _ = two_tables
    url = reverse("public:tournament", args=[tournament.pk])
    # The token, the tournament, its levels, the seats with tables and players: as a
    # poll without its language (tests/tournament/views/test_public_queries.py).
    with django_assert_num_queries(4):
        response = client.get(with_rev(url, "x"), headers=HTMX)
    assert response.status_code == 200 and went_down(response)
    cache.clear()
    with django_assert_num_queries(4):
        response = client.get(with_rev(url, "x", lang=None), headers=HTMX)
    assert response.status_code == 200


def test_a_poll_without_its_language_is_answered_by_the_view(client, two_tables):
    tournament, first, _ = two_tables
    url = reverse("public:table", args=[tournament.pk, first.pk])
    token = revision_token(tournament.pk, first.pk)
    for lang in (None, "xx"):
        response = client.get(with_rev(url, token, lang), headers=HTMX)
        assert response.status_code == 204
        assert went_down(response)


def test_an_unknown_tournament_or_table_goes_down_to_the_404_page(client, two_tables):
    tournament, first, _ = two_tables
    for url in (
        reverse("public:tournament", args=[tournament.pk + 1000]),
        reverse("public:table", args=[tournament.pk, first.pk + 1000]),
        reverse("public:table", args=[tournament.pk + 1000, first.pk]),
    ):
        response = client.get(with_rev(url, "1.1"), headers=HTMX)
        assert response.status_code == 404, url
        assert went_down(response)


def test_a_host_not_allowed_is_refused(client, two_tables):
    tournament, *_ = two_tables
    url = reverse("public:standings", args=[tournament.pk])
    token = revision_token(tournament.pk)
    response = client.get(with_rev(url, token), headers={**HTMX, "Host": "evil.example"})
    assert response.status_code == 400


def test_polls_of_other_pages_are_left_to_them(client, two_tables):
    tournament, *_ = two_tables
    url = reverse("td:live", args=[tournament.pk])
    response = client.get(with_rev(url, "1.1"), headers=HTMX)
    assert response.status_code == 302  # the TD's live region: log in first
    assert response["Location"].startswith(reverse("login"))
    # Not a GET, or not htmx: the view's way.
    url = reverse("public:standings", args=[tournament.pk])
    token = revision_token(tournament.pk)
    assert went_down(client.head(with_rev(url, token), headers=HTMX))
    response = client.get(with_rev(url, token))
    assert response.status_code == 200 and "<html" in response.content.decode()


def test_a_whole_page_kept_is_gzipped_for_visitors_who_take_it(td_client, two_tables):
    tournament, *_ = two_tables
    url = reverse("public:standings", args=[tournament.pk])
    first = Client().get(url, headers={"Accept-Encoding": "gzip"})
    again = Client().get(url, headers={"Accept-Encoding": "gzip"})
    plain = Client().get(url)
    assert first["Content-Encoding"] == again["Content-Encoding"] == "gzip"
    assert gzip.decompress(first.content) == gzip.decompress(again.content) == plain.content
    assert "<html" in plain.content.decode() and "Accept-Encoding" in first["Vary"]
    # A page of one's own (a TD's, with its CSRF token) is never compressed: BREACH.
    own = td_client.get(url, headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in own
    assert "csrfmiddlewaretoken" in own.content.decode()
