import pytest

from tests.tournament.conftest import play, single_table
from tournament.services import draws

pytestmark = pytest.mark.django_db


def test_home_lists_tournaments_with_champion(client, make_tournament, td_user):
    finished = make_tournament(["Anna", "Bo"], name="Finished Cup", min_hands=1)
    play(single_table(finished, td_user), 4, -4)
    draws.advance(tournament=finished, actor=td_user)
    make_tournament(3, name="Open Cup")
    html = client.get("/").content.decode()
    assert "Finished Cup" in html and "Open Cup" in html
    finished.refresh_from_db()
    assert f"Champion: {finished.champion.name}" in html
    assert "in play" in html


def test_home_without_tournaments(client):
    assert "No tournaments yet." in client.get("/").content.decode()
