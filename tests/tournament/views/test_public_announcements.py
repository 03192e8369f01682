"""The TD's announcement as a banner in the live region of every players' page and every
projector view (the public ones and the TD's): shown at the next poll after it is made,
gone at the next poll after it is withdrawn, left out once its end time passed; the same
query counts with one standing; Swedish."""

import datetime

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from tests.tournament.views.test_public_queries import EXPECTED, HTMX, as_a_fresh_process
from tests.tournament.views.test_public_queries import urls as public_urls
from tournament.models import Announcement, Table
from tournament.selectors.tokens import revision_token
from tournament.services import announcements, draws

pytestmark = pytest.mark.django_db

TEXT = "Level 2 seating is up"


@pytest.fixture
def tournament(make_tournament, td_user):
    tournament = make_tournament(players=6)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="banner")
    return tournament


def live_urls(tournament):
    """Every page with the banner: the players' pages, the projectors, the TD's projectors."""
    pages = {name: url for name, url in public_urls(tournament).items() if name != "poster"}
    pages["td_level_projector"] = reverse("td:level_projector", args=[tournament.pk, 1])
    pages["td_standings_projector"] = reverse("td:standings_projector", args=[tournament.pk])
    return pages


def get(client, url, **headers):
    cache.clear()
    response = client.get(url, headers=headers)
    assert response.status_code == 200, url
    return response.content.decode()


def test_every_page_shows_it_after_it_is_made_and_not_after_it_is_withdrawn(
    td_client, tournament, td_user
):
    for url in live_urls(tournament).values():
        assert 'class="announcement"' not in get(td_client, url)
    announcements.announce(tournament=tournament, actor=td_user, text=TEXT)
    for url in live_urls(tournament).values():
        html = get(td_client, url)
        assert 'class="announcement"' in html and TEXT in html, url
        assert "data-ends-at" not in html  # until withdrawn: nothing for the clock to do
    announcements.withdraw_announcement(tournament=tournament, actor=td_user)
    for url in live_urls(tournament).values():
        assert TEXT not in get(td_client, url), url


def test_a_poll_brings_it_and_then_takes_it_away(client, tournament, td_user):
    url = reverse("public:standings", args=[tournament.pk])
    rev = revision_token(tournament.pk)
    assert client.get(url, {"rev": rev}, headers=HTMX).status_code == 204
    announcements.announce(tournament=tournament, actor=td_user, text=TEXT)
    polled = client.get(url, {"rev": rev}, headers=HTMX)
    assert polled.status_code == 200 and TEXT in polled.content.decode()
    new_rev = revision_token(tournament.pk)
    assert new_rev != rev
    assert f'data-poll-rev="{new_rev}"' in polled.content.decode()
    announcements.withdraw_announcement(tournament=tournament, actor=td_user)
    polled = client.get(url, {"rev": new_rev}, headers=HTMX)
    assert polled.status_code == 200 and TEXT not in polled.content.decode()


def test_an_end_time_is_given_to_the_page_and_an_ended_one_is_left_out(client, tournament, td_user):
    ends = timezone.now() + datetime.timedelta(minutes=10)
    announcements.announce(tournament=tournament, actor=td_user, text=TEXT, ends_at=ends)
    url = reverse("public:tournament", args=[tournament.pk])
    html = get(client, url)
    local = timezone.localtime(ends)
    assert f'data-ends-at="{local.isoformat()}"' in html
    assert f"(until {local:%H:%M})" in html
    assert "js/announcement.js" in html
    # Its end passes (moved back rather than waited for): a region rendered now leaves it out.
    Announcement.objects.update(ends_at=timezone.now() - datetime.timedelta(seconds=1))
    assert TEXT not in get(client, url)


def test_the_banner_in_swedish(client, tournament, td_user):
    ends = timezone.now() + datetime.timedelta(minutes=10)
    announcements.announce(tournament=tournament, actor=td_user, text="Paus", ends_at=ends)
    html = get(
        client, reverse("public:standings", args=[tournament.pk]), **{"Accept-Language": "sv"}
    )
    assert "Meddelande:</strong>" in html
    assert f"(till {timezone.localtime(ends):%H:%M})" in html


def test_the_text_is_shown_as_text(client, tournament, td_user):
    announcements.announce(tournament=tournament, actor=td_user, text="<b>Break</b> & tea")
    html = get(client, reverse("public:tournament", args=[tournament.pk]))
    assert "&lt;b&gt;Break&lt;/b&gt; &amp; tea" in html and "<b>Break</b>" not in html


@pytest.mark.parametrize("players", [9, 300])
def test_the_query_counts_stay_with_an_announcement_standing(
    client, make_tournament, td_user, django_assert_num_queries, players
):
    """No query more for the banner: it is read with the tournament (EXPECTED as pinned)."""
    tournament = make_tournament(players=[f"Pa {n:03}" for n in range(players)])
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="count")
    ends = timezone.now() + datetime.timedelta(minutes=10)
    announcements.announce(tournament=tournament, actor=td_user, text=TEXT, ends_at=ends)
    assert Table.objects.filter(level__tournament=tournament).count() == players // 3
    for name, url in public_urls(tournament).items():
        if name == "poster":
            continue
        for headers in ({}, HTMX):
            as_a_fresh_process()
            with django_assert_num_queries(EXPECTED[name]):
                response = client.get(url, headers=headers)
            assert response.status_code == 200 and TEXT in response.content.decode(), name
