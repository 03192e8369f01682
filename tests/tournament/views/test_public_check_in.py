"""Before the first draw the room sees how many are checked in: "checked in 2 of 3"."""

import pytest
from django.urls import reverse

from tournament.services import checkin, draws, registration

pytestmark = pytest.mark.django_db


def pages(client, tournament):
    for name in ("public:tournament", "public:tables_projector"):
        yield client.get(reverse(name, args=[tournament.pk])).content.decode()


def test_the_count_shows_once_anyone_is_checked_in(client, td_user, make_tournament):
    tournament = make_tournament(["Anna", "Bo", "Cia", "Dan"])
    for page in pages(client, tournament):
        assert "checked in" not in page  # check-in not used (yet)
    checkin.check_in(player=tournament.players.get(name="Anna"), actor=td_user)
    checkin.check_in(player=tournament.players.get(name="Bo"), actor=td_user)
    registration.withdraw_player(player=tournament.players.get(name="Dan"), actor=td_user)
    for page in pages(client, tournament):
        assert '<p class="checked-in-count">checked in 2 of 3</p>' in page


def test_the_count_goes_with_the_draw(client, td_user, make_tournament):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    for player in tournament.players.all():
        checkin.check_in(player=player, actor=td_user)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="a")
    for page in pages(client, tournament):
        assert "checked in" not in page


def test_the_count_in_swedish(client, td_user, make_tournament):
    tournament = make_tournament(["Anna", "Bo"])
    checkin.check_in(player=tournament.players.get(name="Bo"), actor=td_user)
    url = reverse("public:tournament", args=[tournament.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="sv").content.decode()
    assert "incheckade 1 av 2" in page
