"""The players page between the first draw and level 1's first hand: a late player can be
added and a no-show withdrawn (or brought back); the page says first that each change
draws level 1 again, and the draw is redone with the change."""

import html as htmllib
import re
import uuid

import pytest
from django.urls import reverse

from tests.tournament.conftest import play
from tests.tournament.views.test_td_players import add, paste, statuses, url
from tournament.models import Draw, Seat, Table
from tournament.services import draws

pytestmark = pytest.mark.django_db


def text(response):
    page = re.sub(r"<[^>]+>", " ", response.content.decode())
    return " ".join(htmllib.unescape(page).split())


def seated(level):
    tables = Table.objects.current().filter(level=level)
    return sorted(Seat.objects.filter(table__in=tables).values_list("player__name", flat=True))


def current_reason(level):
    return Draw.objects.current().get(level=level).reason


@pytest.fixture
def drawn(make_tournament, td_user):
    """Anna, Bo, Cia, Dan drawn into two heads-up tables; no hand recorded."""
    tournament = make_tournament(["Anna", "Bo", "Cia", "Dan"])
    return tournament, draws.draw_first_level(tournament=tournament, actor=td_user, seed="l")


def test_the_page_says_a_change_draws_level_1_again(td_client, drawn):
    tournament, level = drawn
    response = td_client.get(url("players", tournament))
    page, html = text(response), response.content.decode()
    assert "Level 1 is drawn, but no hand is recorded yet." in page
    assert "Each change draws level 1 again at once: every table's seating is new" in page
    assert "Once the first hand is recorded, the field is closed." in page
    assert f'href="{reverse("td:level", args=[tournament.pk, 1])}">Level 1\'s seating</a>' in html
    assert ">Add player and draw level 1 again</button>" in html
    assert ">Register the list and draw level 1 again</button>" in html
    assert statuses(html) == {"Anna": "in", "Bo": "in", "Cia": "in", "Dan": "in"}
    for player in tournament.players.all():
        assert url("player_withdraw", tournament, player.pk) in html


def test_a_late_player_added_is_drawn_in(td_client, drawn):
    tournament, level = drawn
    response = add(td_client, tournament, "Eva Sen")
    assert response.status_code == 302
    page = text(td_client.get(response["Location"]))
    assert "Eva Sen registered with start number 5." in page
    assert "Level 1 is drawn again with the change: every table's seating is new" in page
    assert seated(level) == ["Anna", "Bo", "Cia", "Dan", "Eva Sen"]
    assert current_reason(level) == "Late registration: Eva Sen (no. 5)"


def test_a_pasted_list_is_drawn_in_once(td_client, drawn):
    tournament, level = drawn
    response = paste(td_client, tournament, "Eva\nFia")
    assert response.status_code == 302
    assert seated(level) == ["Anna", "Bo", "Cia", "Dan", "Eva", "Fia"]
    assert Draw.objects.filter(level=level).count() == 2
    page = text(td_client.get(response["Location"]))
    assert "Level 1 is drawn again with the change" in page


def test_a_no_show_withdrawn_is_drawn_out_after_a_confirmation(td_client, drawn):
    tournament, level = drawn
    dan = tournament.players.get(name="Dan")
    target = url("player_withdraw", tournament, dan.pk)
    confirm = td_client.get(target)
    assert "Level 1 is drawn again at once, without him" in text(confirm)
    assert ">Withdraw Dan and draw level 1 again</button>" in confirm.content.decode()
    assert seated(level) == ["Anna", "Bo", "Cia", "Dan"]  # asking changes nothing
    done = td_client.post(target, {"submission_key": str(uuid.uuid4())}, follow=True)
    assert "Dan has withdrawn." in text(done)
    assert "Level 1 is drawn again with the change" in text(done)
    assert seated(level) == ["Anna", "Bo", "Cia"]
    assert current_reason(level) == "Withdrawn before play: Dan (no. 4)"

    back = url("player_reinstate", tournament, dan.pk)
    assert back in td_client.get(url("players", tournament)).content.decode()
    assert ">Put Dan back and draw level 1 again</button>" in td_client.get(back).content.decode()
    td_client.post(back, {"submission_key": str(uuid.uuid4())})
    assert seated(level) == ["Anna", "Bo", "Cia", "Dan"]


def test_a_withdrawal_that_would_leave_one_player_is_refused_in_place(
    td_client, make_tournament, td_user
):
    tournament = make_tournament(["Anna", "Bo"])
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="two")
    bo = tournament.players.get(name="Bo")
    response = td_client.post(
        url("player_withdraw", tournament, bo.pk), {"submission_key": str(uuid.uuid4())}
    )
    assert response.status_code == 400
    assert "A draw needs at least 2 players." in text(response)
    bo.refresh_from_db()
    assert bo.withdrawn_at is None and Draw.objects.filter(level=level).count() == 1


def test_the_first_hand_closes_the_field(td_client, drawn):
    tournament, level = drawn
    play(Table.objects.current().get(level=level, number=1), 1, -1)
    response = td_client.get(url("players", tournament))
    page, html = text(response), response.content.decode()
    assert "Play has started: players can no longer be added or withdrawn." in page
    assert "Level 1 is drawn, but no hand is recorded yet." not in page
    assert 'id="add-player"' not in html and "/withdraw/" not in html


def test_the_late_field_in_swedish(td_client, drawn):
    tournament, level = drawn
    td_client.cookies["django_language"] = "sv"
    response = td_client.get(url("players", tournament))
    page, html = text(response), response.content.decode()
    assert "Nivå 1 är lottad, men ingen hand är registrerad än." in page
    assert ">Lägg till spelaren och lotta nivå 1 igen</button>" in html
    done = add(td_client, tournament, "Eva")
    assert "Nivå 1 är lottad igen med ändringen" in text(td_client.get(done["Location"]))
    assert current_reason(level) == "Sen anmälan: Eva (nr 5)"


def test_the_level_page_points_to_the_players_page_until_the_first_hand(td_client, drawn):
    tournament, level = drawn
    level_url = reverse("td:level", args=[tournament.pk, 1])
    pointer = "A late player, or one who has not come? Add or withdraw him on the players page"
    html = td_client.get(level_url).content.decode()
    assert pointer in html
    assert (
        f'instead: level 1 is drawn again with the change. <a href="{url("players", tournament)}"'
        in html
    )
    play(Table.objects.current().get(level=level, number=1), 1, -1)
    assert pointer not in td_client.get(level_url).content.decode()


def test_with_draws_held_the_new_draw_waits_for_the_release(td_client, make_tournament, td_user):
    """A TD who checks each draw before showing it: the late redraw is held too, and the
    message says where to release it."""
    tournament = make_tournament(["Anna", "Bo", "Cia", "Dan"], release_draws_at_once=False)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="held")
    draws.release_draw(level=level, actor=td_user)
    response = add(td_client, tournament, "Eva")
    page = text(td_client.get(response["Location"]))
    assert (
        "Level 1 is drawn again with the change, and held: only you see the new seating "
        "until you release it on the level's page." in page
    )
    assert Draw.objects.current().get(level=level).released_at is None
