import pytest

from tests.tournament.conftest import play, single_table
from tournament.services import draws

pytestmark = pytest.mark.django_db


def test_home_lists_tournaments_running_first_each_linking_to_its_page(
    client, make_tournament, td_user, django_assert_num_queries
):
    finished = make_tournament(["Anna", "Bo"], name="Finished Cup", min_hands=1)
    play(single_table(finished, td_user), 4, -4)
    draws.advance(tournament=finished, actor=td_user)
    running = make_tournament(3, name="Running Cup")
    single_table(running, td_user)
    make_tournament(3, name="Open Cup")
    with django_assert_num_queries(2):
        response = client.get("/")
    html = response.content.decode()
    # Running first, then not started, then finished (newest first within each).
    assert html.index("Running Cup") < html.index("Open Cup") < html.index("Finished Cup")
    finished.refresh_from_db()
    assert f"Champion: {finished.champion.name}" in html
    assert "in play: level 1, 0 of 1 table finished" in html
    assert "registration open, 3 players" in html
    assert f'<a class="tournament-name" href="/t/{running.pk}/">Running Cup</a>' in html


def test_home_without_tournaments(client):
    assert "No tournaments yet." in client.get("/").content.decode()
