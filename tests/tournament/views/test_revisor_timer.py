"""The revisor's "Time a player" (issue 19 §2): a timeout call naming the player, once."""

import uuid

import pytest
from django.urls import reverse
from django.utils import translation

from tournament.models import Player, TableCall
from tournament.services import calls

pytestmark = pytest.mark.django_db

CARD = reverse("revisor:card")
CALL = reverse("revisor:call")


def bo(table):
    return Player.objects.get(tournament=table.level.tournament, name="Bo")


def test_the_card_offers_to_time_each_player_of_the_hand(revisor, table):
    page = revisor.get(CARD).content.decode()
    assert "Time a player" in page and "Start the 10-second count" in page
    assert "Call the TD: the player timed out" in page  # the form without JavaScript
    for name in ("Anna", "Bo", "Cia"):
        assert f">{name}</option>" in page
    assert 'src="/static/js/timeout-timer.js"' in page


def test_a_timeout_call_names_the_player_and_the_card_says_so(revisor, table):
    data = {"kind": "timeout", "player": bo(table).pk, "submission_key": uuid.uuid4()}
    response = revisor.post(CALL, data)
    assert response.status_code == 302
    call = TableCall.objects.get()
    assert (call.kind, call.player, call.called_by_label) == (
        "timeout",
        bo(table),
        "Revisor, table 1",
    )
    page = revisor.get(CARD).content.decode()
    assert "The TD has been called" in page and "The call names Bo." in page
    assert "Time a player" not in page  # one open call at a time: the TD is on the way


def test_the_same_post_twice_makes_one_call_even_after_the_td_cleared_it(revisor, table, td_user):
    data = {"kind": "timeout", "player": bo(table).pk, "submission_key": uuid.uuid4()}
    revisor.post(CALL, data)
    calls.clear_call(table=table, actor=td_user)
    response = revisor.post(CALL, data)
    assert response.status_code == 302
    assert TableCall.objects.count() == 1
    assert "This call was already made" in revisor.get(CARD).content.decode()


def test_no_player_chosen_says_so_next_to_the_field_and_calls_nobody(revisor, table):
    key = uuid.uuid4()
    response = revisor.post(CALL, {"kind": "timeout", "player": "", "submission_key": key})
    assert response.status_code == 400
    page = response.content.decode()
    assert "The TD was not called:" in page and "Choose the player." in page
    assert str(key) in page  # the same key is sent again once a player is chosen
    assert not TableCall.objects.exists()


def test_a_player_of_no_hand_here_is_refused(revisor, table, make_tournament):
    other = Player.objects.get(tournament=make_tournament(["Ulf"], name="Cup 2"))
    response = revisor.post(CALL, {"kind": "timeout", "player": other.pk})
    assert response.status_code == 400
    assert "Player: choose one of the options." in response.content.decode()
    assert not TableCall.objects.exists()


def test_acted_in_time_can_still_call_for_a_warning_naming_the_player(revisor, table):
    note = "Acted in time after being timed: a warning?"
    assert note in revisor.get(CARD).content.decode()  # the JavaScript form's hidden note
    data = {"kind": "other", "note": note, "player": bo(table).pk, "submission_key": uuid.uuid4()}
    assert revisor.post(CALL, data).status_code == 302
    call = TableCall.objects.get()
    assert (call.kind, call.player, call.note) == ("other", bo(table), note)


def test_the_timer_speaks_swedish(revisor, table):
    with translation.override("sv"):
        page = revisor.get(CARD, HTTP_ACCEPT_LANGUAGE="sv").content.decode()
    assert "Ta tid på en spelare" in page and "Starta nedräkningen på 10 sekunder" in page
    assert "Agerade i tid" in page and "Tillkalla TL för en varning" in page


def test_the_timer_names_the_player_in_swedish_too(revisor, table):
    with translation.override("sv"):
        page = revisor.get(CARD, HTTP_ACCEPT_LANGUAGE="sv").content.decode()
    # The JavaScript puts the player's name in place of %(name)s.
    assert 'data-label="Nedräkning för %(name)s"' in page
    assert 'data-label="%(name)s agerade i tid. TL kan ändå ge en varning."' in page
