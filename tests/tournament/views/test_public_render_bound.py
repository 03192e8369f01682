"""A room's phones cost one rendering of a live region per few seconds, not one per hand:
a rendered region is served for `PUBLIC_RENDER_SECONDS` although the tournament moved on,
never older than what a phone shows; and a whole page is kept for visitors without a
session, whose language switch then needs no CSRF token."""

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse

from tests.tournament.conftest import play
from tournament.live import tokens
from tournament.selectors.tokens import revision_token

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def poll(client, tournament, rev):
    url = reverse("public:tournament", args=[tournament.pk])
    return client.get(f"{url}?rev={rev}&lang=en", headers=HTMX)


def rev_of(response):
    body = response.content.decode()
    return body.split('data-poll-rev="', 1)[1].split('"', 1)[0]


def test_a_region_is_served_for_five_seconds_after_the_tournament_moved_on(
    client, two_tables, clock, django_assert_num_queries
):
    tournament, first, _ = two_tables
    start = revision_token(tournament.pk)
    shown = poll(client, tournament, "x")  # a phone opens the page: rendered at `start`
    assert rev_of(shown) == start
    play(first, 5, -2, -3)
    assert revision_token(tournament.pk) != start

    # 4.9 s later the kept region is still served: the phone showing it gets 204 after
    # the token's one query, nothing rendered.
    clock.now += 4.9
    with django_assert_num_queries(1):
        response = poll(client, tournament, start)
    assert response.status_code == 204
    # A phone showing something older gets the kept region as it is, total 0.
    response = poll(client, tournament, "0.0")
    assert response.status_code == 200
    assert rev_of(response) == start
    assert '<span class="total">5</span>' not in response.content.decode()

    # At 5 s the region is rendered again, with the hand.
    clock.now += 0.1
    response = poll(client, tournament, start)
    assert response.status_code == 200
    assert rev_of(response) == revision_token(tournament.pk)
    assert '<span class="total">5</span>' in response.content.decode()


def test_a_phone_is_never_sent_a_region_older_than_the_one_it_shows(
    client, two_tables, clock, django_assert_num_queries
):
    tournament, first, second = two_tables
    kept = rev_of(poll(client, tournament, "x"))  # this process keeps the region at `kept`
    play(first, 5, -2, -3)
    newer = revision_token(tournament.pk)  # another process sent a phone this one
    play(second, 1, -1, 0)
    assert kept != newer != revision_token(tournament.pk)
    clock.now += 1
    with django_assert_num_queries(1):
        response = poll(client, tournament, newer)
    assert response.status_code == 204
    assert response.content == b""


def test_the_first_rendering_of_a_region_is_at_the_current_token(client, two_tables, clock):
    tournament, first, _ = two_tables
    poll(client, tournament, "x")
    play(first, 5, -2, -3)
    # Another region of the same tournament (another language) was never rendered.
    url = reverse("public:tournament", args=[tournament.pk])
    response = client.get(f"{url}?rev=x&lang=sv", headers=HTMX)
    assert rev_of(response) == revision_token(tournament.pk)


def test_the_bound_can_be_switched_off(client, two_tables, settings):
    tournament, first, _ = two_tables
    settings.PUBLIC_RENDER_SECONDS = 0
    start = rev_of(poll(client, tournament, "x"))
    play(first, 5, -2, -3)
    response = poll(client, tournament, start)
    assert response.status_code == 200
    assert '<span class="total">5</span>' in response.content.decode()


def test_the_tokens_order_and_a_forged_one_gets_the_region(client, two_tables):
    assert tokens.token_order("12.345") == (12, 345)
    assert tokens.token_order("2.10") > tokens.token_order("2.9")
    assert tokens.token_order("3.0") > tokens.token_order("2.999")
    for forged in ("", "x", "1", "1.2.3", "-1.2", "1.٣", "9" * 30 + ".1"):
        assert tokens.token_order(forged) is None, forged
        assert not tokens.shows_already(forged, "1.2")
    assert tokens.shows_already("1.2", "1.2")
    assert tokens.shows_already("1.3", "1.2")
    assert not tokens.shows_already("1.1", "1.2")
    tournament, *_ = two_tables
    assert poll(client, tournament, "1.2.3").status_code == 200


def test_a_page_is_kept_whole_for_visitors_without_a_session(
    client, two_tables, django_assert_num_queries
):
    tournament, first, _ = two_tables
    url = reverse("public:tournament", args=[tournament.pk])
    first_visit = client.get(url)
    body = first_visit.content.decode()
    assert 'action="/t/language/"' in body
    assert "csrfmiddlewaretoken" not in body and "X-CSRFToken" not in body
    assert "csrftoken" not in first_visit.cookies
    with django_assert_num_queries(1):  # the token; the page as it was kept
        again = Client().get(url)
    assert again.content == first_visit.content
    # Another address asks for another page (its short link names the host).
    other = Client().get(url, headers={"Host": "localhost"})
    assert "localhost/t/" in other.content.decode()
    # A hand: the page is built again, with the new total.
    play(first, 5, -2, -3)
    assert '<span class="total">5</span>' in Client().get(url).content.decode()


def test_a_visitor_with_a_session_gets_a_page_of_his_own(td_client, two_tables):
    tournament, *_ = two_tables
    url = reverse("public:tournament", args=[tournament.pk])
    Client().get(url)  # kept for visitors without a session
    body = td_client.get(url).content.decode()
    assert "X-CSRFToken" in body and "csrfmiddlewaretoken" in body
    assert 'action="/i18n/setlang/"' in body
    assert "Log out" in body


def test_the_language_switch_of_a_kept_page_needs_no_csrf_token(two_tables):
    tournament, *_ = two_tables
    client = Client(enforce_csrf_checks=True)
    page = reverse("public:tournament", args=[tournament.pk])
    response = client.post(reverse("public:language"), {"language": "sv", "next": page})
    assert response.status_code == 302
    assert response["Location"] == page
    assert response.cookies[django_settings.LANGUAGE_COOKIE_NAME].value == "sv"
    assert "Bord" in client.get(page).content.decode()
    # Anywhere else goes home, and an unknown language changes nothing.
    response = client.post(
        reverse("public:language"), {"language": "xx", "next": "https://evil.example/"}
    )
    assert response["Location"] == "/"
    assert client.get(page).content.decode().count('lang="sv"') >= 1


def test_a_hand_renders_its_own_table_again_not_the_others(client, two_tables):
    from tournament.views.public.pages import table_article

    tournament, first, _ = two_tables
    table_article.cache_clear()
    url = reverse("public:tournament", args=[tournament.pk])
    client.get(url)
    assert table_article.cache_info().misses == 2  # two tables, rendered once each
    Client().get(url, headers={"Accept-Language": "sv"})
    assert table_article.cache_info().misses == 4  # and once each in Swedish
    play(first, 5, -2, -3)
    body = client.get(url).content.decode()
    assert table_article.cache_info().misses == 5  # table 1 again; table 2 as it was
    assert '<span class="total">5</span>' in body
    assert body.count('<article class="ptable') == 2


def standings_poll(client, url, rev):
    return client.get(f"{url}?rev={rev}&lang=en", headers=HTMX)


def test_the_standings_are_worked_out_once_per_bound_and_a_page_built_on_them_shows_their_token(
    client, two_tables, clock, django_assert_num_queries
):
    """A player's page (one phone each, polling every 5 s) does not work out the whole room's
    standings at each poll: it takes those worked out less than 5 s ago, and shows their
    token, so that it is sent the fresh ones at its first poll after the bound."""
    tournament, first, _ = two_tables
    standings_url = reverse("public:standings", args=[tournament.pk])
    before = rev_of(standings_poll(client, standings_url, "x"))  # worked out at `before`
    play(first, 5, -2, -3)
    after = revision_token(tournament.pk)
    anna = tournament.players.get(name="Anna")
    player_url = reverse("public:player", args=[tournament.pk, anna.pk])
    clock.now += 4.9
    # The token, the tournament, the player, his seats, his penalties: no standings read.
    with django_assert_num_queries(5):
        kept = standings_poll(client, player_url, "x")
    assert rev_of(kept) == before != after
    clock.now += 0.1
    # The token, the tournament, the standings (3) worked out again, and her table's token
    # (1): her record, read at the first visit, is kept while her table has not moved.
    with django_assert_num_queries(6):
        fresh = standings_poll(client, player_url, before)
    assert fresh.status_code == 200 and rev_of(fresh) == after


def test_a_finished_tournament_shows_its_final_standings_at_once(
    client, make_tournament, td_user, clock
):
    """Its pages stop polling: a page built after the end never takes standings from before
    it, however recent."""
    from tests.tournament.conftest import single_table
    from tournament.services import draws

    tournament = make_tournament(["Anna", "Bo", "Cia"], min_hands=1)
    table = single_table(tournament, td_user)
    standings_url = reverse("public:standings", args=[tournament.pk])
    before = rev_of(standings_poll(client, standings_url, "x"))  # worked out at `before`
    play(table, 5, -2, -3)
    draws.advance(tournament=tournament, actor=td_user)  # the +5 is the champion
    clock.now += 1
    tournament.refresh_from_db()
    champion = tournament.champion
    final = standings_poll(client, reverse("public:player", args=[tournament.pk, champion.pk]), "x")
    body = final.content.decode()
    assert rev_of(final) == revision_token(tournament.pk) != before
    assert "data-poll-stop" in body and "champion" in body.lower()


def test_standings_of_the_current_token_are_as_current_as_if_worked_out_now(
    client, two_tables, clock, django_assert_num_queries
):
    """Standings kept from a while ago but still of the token: a page built on them is served
    its full 5 s, not 5 s from when they were worked out."""
    tournament, first, _ = two_tables
    standings_poll(client, reverse("public:standings", args=[tournament.pk]), "x")
    anna = tournament.players.get(name="Anna")
    player_url = reverse("public:player", args=[tournament.pk, anna.pk])
    clock.now += 4.9
    built = rev_of(standings_poll(client, player_url, "x"))  # nothing moved: still current
    play(first, 5, -2, -3)
    clock.now += 1.1  # 6 s after the standings, 1.1 s after the page was built
    with django_assert_num_queries(1):  # the token; the page as it was kept
        kept = standings_poll(client, player_url, "x")
    assert kept.status_code == 200 and rev_of(kept) == built
