"""A shared public page is kept as it stands around its live region (its shell), per
tournament revision: a hand changes the region alone, and the page is its kept shell with
the new region in it; a change of the tournament (a renamed player, a redone draw) makes
the shell again."""

from unittest import mock

import pytest
from django.urls import reverse

from tests.tournament.conftest import play
from tests.tournament.views.conftest import live_pages, page_and_calls
from tournament.live import responses
from tournament.models import Player
from tournament.services import draws, registration

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def shells_rendered(client, url):
    """The page at `url`, and how many times its shell was rendered to answer it."""
    return page_and_calls(client, url, responses, "render_page")


def test_a_hand_changes_the_region_inside_the_kept_shell(client, two_tables):
    tournament, first, _ = two_tables
    url = reverse("public:table", args=[tournament.pk, first.pk])
    page, rendered = shells_rendered(client, url)
    assert rendered == 1 and "Hand 1 of 3" in page

    play(first, 5, -2, -3)
    page, rendered = shells_rendered(client, url)
    # Hand-worked: the first seat won 5 (2 + 3) of the hand just played.
    assert rendered == 0
    assert "Hand 2 of 3" in page and '<span class="total leads">5</span>' in page
    assert page.count('<section id="live"') == 1
    assert page.count("<html") == 1 and page.rstrip().endswith("</html>")


def test_every_live_page_is_its_shell_around_its_region(client, two_tables):
    """Each public page, its shell kept: a hand later, the page is whole and shows it."""
    tournament, first, _ = two_tables
    for url, _token in live_pages(tournament, first):
        shells_rendered(client, url)
    play(first, 5, -2, -3)
    for url, _token in live_pages(tournament, first):
        page, rendered = shells_rendered(client, url)
        assert rendered == 0, url
        assert page.count('<section id="live"') == 1, url
        assert page.count("<html") == 1 and page.rstrip().endswith("</html>"), url


def test_a_renamed_player_makes_the_shell_again(client, two_tables, td_user):
    """A player's name is his page's title, outside its region: the rename moves the
    tournament's revision, and the page is rendered whole with the new name."""
    tournament, _, _ = two_tables
    anna = Player.objects.get(tournament=tournament, name="Anna")
    url = reverse("public:player", args=[tournament.pk, anna.pk])
    page, _ = shells_rendered(client, url)
    assert "<title>Anna" in page

    registration.rename_player(player=anna, actor=td_user, name="Annika")
    page, rendered = shells_rendered(client, url)
    assert rendered == 1
    assert "<title>Annika" in page and "<title>Anna " not in page


def test_a_redone_draw_shows_on_the_old_tables_page(client, two_tables, td_user):
    tournament, first, _ = two_tables
    url = reverse("public:table", args=[tournament.pk, first.pk])
    page, _ = shells_rendered(client, url)
    assert "This draw was redone" not in page

    draws.redraw_level(level=first.level, actor=td_user, reason="wrong players", seed="again")
    page, rendered = shells_rendered(client, url)
    assert rendered == 1 and "This draw was redone" in page


def test_a_visitor_with_a_session_gets_the_page_rendered_for_him(td_client, two_tables):
    """A TD looking at a public page: his page holds his own CSRF token, never a kept one."""
    tournament, first, _ = two_tables
    url = reverse("public:table", args=[tournament.pk, first.pk])
    for _ in range(2):
        page, rendered = shells_rendered(td_client, url)
        assert rendered == 1


def test_a_page_without_a_shell_is_still_kept_for_everyone_without_a_csrf_token(client, two_tables):
    """Where no shell can be cut (a page not showing its region once), the page is rendered
    whole, and is still a shared page: no CSRF token in what every visitor gets."""
    tournament, first, _ = two_tables
    url = reverse("public:table", args=[tournament.pk, first.pk])
    with mock.patch.object(responses, "page_shell", return_value=None):
        page, rendered = shells_rendered(client, url)
    assert rendered == 1
    assert "csrfmiddlewaretoken" not in page and page.count('<section id="live"') == 1
    _, rendered = shells_rendered(client, url)  # kept whole for the next visitor
    assert rendered == 0
