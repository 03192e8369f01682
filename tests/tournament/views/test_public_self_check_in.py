"""The players' own check-in at the door (public:check_in): find your name, the code from
the sign (or its QR code), checked in once; closed when the TD closes it and after the
first draw; wrong codes paused per address."""

import re
import uuid

import pytest
from django.urls import reverse

from tournament.models import CheckIn, Tournament
from tournament.services import checkin, draws, registration

pytestmark = pytest.mark.django_db


def url(tournament, **query):
    base = reverse("public:check_in", args=[tournament.pk])
    return base + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


@pytest.fixture
def open_tournament(make_tournament, td_user):
    tournament = make_tournament(["Anna Åström", "Bo Ek", "Anders Berg"])
    checkin.set_self_check_in(tournament=tournament, actor=td_user, open=True)
    return Tournament.objects.get(pk=tournament.pk)


def send(client, tournament, player, code, key=None, q="an"):
    data = {"player": player.pk, "code": code, "submission_key": key or str(uuid.uuid4())}
    return client.post(url(tournament, q=q), data)


def test_find_your_name_without_accents(client, open_tournament):
    page = client.get(url(open_tournament, q="astrom")).content.decode()
    assert "Anna Åström" in page and "Bo Ek" not in page
    # One name found: chosen already, so the player only types the code.
    anna = open_tournament.players.get(name="Anna Åström")
    assert f'name="player" value="{anna.pk}" checked' in page
    page = client.get(url(open_tournament, q="an")).content.decode()
    assert "Anna Åström" in page and "Anders Berg" in page and " checked " not in page
    page = client.get(url(open_tournament, q="zzz")).content.decode()
    assert "No player found for “zzz”." in page


def test_the_code_from_the_qr_is_filled_in(client, open_tournament):
    code = open_tournament.check_in_code
    page = client.get(url(open_tournament, code=code)).content.decode()
    assert f'<input type="hidden" name="code" value="{code}">' in page  # kept by the search
    page = client.get(url(open_tournament, code=code, q="bo")).content.decode()
    assert re.search(rf'name="code" value="{code}"', page)


def test_checked_in_once(client, open_tournament):
    bo = open_tournament.players.get(name="Bo Ek")
    code = open_tournament.check_in_code
    response = send(client, open_tournament, bo, code.lower())
    assert response.status_code == 302
    assert response["Location"] == url(open_tournament, done=bo.pk)
    row = CheckIn.objects.get()
    assert (row.player, row.by_player, row.checked_in_by) == (bo, True, None)
    page = client.get(response["Location"]).content.decode()
    assert "Bo Ek, you are checked in." in page
    # A second attempt (another tap on a fresh page) says he is checked in already.
    response = send(client, open_tournament, bo, code, q="bo")
    assert response.status_code == 400
    assert "Bo Ek is already checked in." in response.content.decode()
    assert CheckIn.objects.count() == 1
    # The list marks him.
    page = client.get(url(open_tournament, q="bo")).content.decode()
    assert "(checked in)" in page


def test_the_same_submission_sent_again_is_made_once(client, open_tournament):
    bo = open_tournament.players.get(name="Bo Ek")
    key = str(uuid.uuid4())
    code = open_tournament.check_in_code
    first = send(client, open_tournament, bo, code, key=key)
    again = send(client, open_tournament, bo, code, key=key)  # a lost answer, sent again
    assert first.status_code == again.status_code == 302
    assert again["Location"] == url(open_tournament, done=bo.pk)
    assert CheckIn.objects.count() == 1


def test_a_wrong_code_is_said_where_it_was_typed(client, open_tournament):
    bo = open_tournament.players.get(name="Bo Ek")
    wrong = "ZZZZ" if open_tournament.check_in_code != "ZZZZ" else "YYYY"
    response = send(client, open_tournament, bo, wrong, q="bo")
    assert response.status_code == 400
    page = response.content.decode()
    assert "This is not the check-in code shown at the door." in page
    assert f'name="player" value="{bo.pk}" checked' in page  # his choice kept
    response = send(client, open_tournament, bo, "O0", q="bo")
    assert "The check-in code is 4 letters and digits, without O, 0, I, L or 1." in (
        response.content.decode()
    )
    response = send(client, open_tournament, bo, "", q="bo")
    assert "Type the check-in code shown at the door." in response.content.decode()
    response = client.post(url(open_tournament, q="bo"), {"code": open_tournament.check_in_code})
    assert response.status_code == 400
    assert "Choose your name in the list." in response.content.decode()
    assert CheckIn.objects.count() == 0


def test_twenty_wrong_codes_pause_the_address(client, open_tournament):
    bo = open_tournament.players.get(name="Bo Ek")
    letters = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
    wrong = [f"Z{a}{b}Z" for a in letters for b in letters]
    wrong = [code for code in wrong if code != open_tournament.check_in_code][:20]
    for code in wrong:
        assert send(client, open_tournament, bo, code, q="bo").status_code == 400
    response = send(client, open_tournament, bo, open_tournament.check_in_code, q="bo")
    assert response.status_code == 429
    assert "Too many wrong codes from this network: try again after" in response.content.decode()
    assert CheckIn.objects.count() == 0
    # Another address (another network) checks in.
    response = client.post(
        url(open_tournament, q="bo"),
        {"player": bo.pk, "code": open_tournament.check_in_code, "submission_key": uuid.uuid4()},
        REMOTE_ADDR="10.9.9.9",
    )
    assert response.status_code == 302


def test_closed_by_the_td(client, td_user, open_tournament):
    checkin.set_self_check_in(tournament=open_tournament, actor=td_user, open=False)
    page = client.get(url(open_tournament, q="bo")).content.decode()
    assert "Self check-in is closed: check in with the TD at the door." in page
    assert 'name="player"' not in page
    bo = open_tournament.players.get(name="Bo Ek")
    response = send(client, open_tournament, bo, open_tournament.check_in_code, q="bo")
    assert response.status_code == 400
    assert CheckIn.objects.count() == 0


def test_closed_after_the_first_draw(client, td_user, open_tournament):
    draws.draw_first_level(tournament=open_tournament, actor=td_user, seed="a")
    page = client.get(url(open_tournament)).content.decode()
    assert "The first draw is made: check-in is closed." in page
    bo = open_tournament.players.get(name="Bo Ek")
    response = send(client, open_tournament, bo, open_tournament.check_in_code, q="bo")
    assert response.status_code == 400
    assert CheckIn.objects.count() == 0


def test_withdrawn_and_other_tournaments_players_are_not_offered(
    client, td_user, make_tournament, open_tournament
):
    bo = open_tournament.players.get(name="Bo Ek")
    registration.withdraw_player(player=bo, actor=td_user)
    page = client.get(url(open_tournament, q="bo")).content.decode()
    assert "No player found for “bo”." in page
    response = send(client, open_tournament, bo, open_tournament.check_in_code, q="bo")
    assert response.status_code == 400  # not a choice: "Choose your name in the list."
    stranger = make_tournament(["Cia"], name="Other").players.get()
    response = send(client, open_tournament, stranger, open_tournament.check_in_code, q="c")
    assert response.status_code == 400
    assert CheckIn.objects.count() == 0
    assert client.get(reverse("public:check_in", args=[99999])).status_code == 404
    assert client.put(url(open_tournament)).status_code == 405


def test_a_form_out_of_date_or_sent_without_its_search_is_said_so(client, open_tournament):
    bo = open_tournament.players.get(name="Bo Ek")
    code = open_tournament.check_in_code
    data = {"player": bo.pk, "code": code, "submission_key": "not-a-key"}
    response = client.post(url(open_tournament, q="bo"), data)
    assert response.status_code == 400
    assert "This form is out of date: reload the page and send it again." in (
        response.content.decode()
    )
    response = client.post(url(open_tournament), {"player": "x", "code": code})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Choose your name in the list." in page and "Find your name first." in page
    assert CheckIn.objects.count() == 0


LINK = "Here? Check yourself in with the code shown at the door"


def test_the_tournament_page_links_to_it_while_it_is_open(client, td_user, open_tournament):
    page = reverse("public:tournament", args=[open_tournament.pk])
    shown = client.get(page).content.decode()
    assert LINK in shown
    assert f'href="{url(open_tournament)}"' in shown
    checkin.set_self_check_in(tournament=open_tournament, actor=td_user, open=False)
    assert LINK not in client.get(page).content.decode()
    checkin.set_self_check_in(tournament=open_tournament, actor=td_user, open=True)
    assert LINK in client.get(page).content.decode()
    draws.draw_first_level(tournament=open_tournament, actor=td_user, seed="a")
    assert LINK not in client.get(page).content.decode()
