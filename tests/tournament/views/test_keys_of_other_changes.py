"""A form sent with a one-time key that already made another change (a page brought back
with Back and changed, a key copied, another hand's entry): refused as such, the message
in the page where it was sent, nothing changed. "Already done" is answered only to the
same submission sent again."""

import json
import uuid

import pytest
from django.urls import reverse

from tests.tournament.commands.test_backup import fresh_keys
from tests.tournament.conftest import play_named, single_table
from tests.tournament.views.test_revisor_card import HAND, points_post
from tests.tournament.views.test_td_exports import import_post
from tests.tournament.views.test_td_tables_penalties import confirm, player, review
from tournament.backups import export_tournament
from tournament.models import Announcement, FormSubmission, Hand, Penalty, TableCall, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(make_tournament, td_user):
    """Anna, Bo, Cia at one table after one hand: a tournament to penalize and to export."""
    tournament = make_tournament(3, min_hands=3)
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 4, "Bo": -1, "Cia": -3}, actor=td_user)
    return tournament, table


FORM_KEY_USED = (
    "This form&#x27;s key was already used for another change, which was made: nothing was "
    "changed now. Reload the page and send it again."
)


def test_a_revisors_hand_sent_with_the_key_of_the_hand_before_is_refused_in_its_form(
    revisor, table
):
    key = uuid.uuid4()
    assert (
        revisor.post(HAND, points_post(table, {"Anna": 4, "Bo": -1, "Cia": -3}, 1, key)).status_code
        == 302
    )
    typed = {"Anna": -2, "Bo": 5, "Cia": -3}
    response = revisor.post(HAND, points_post(table, typed, 2, key))
    assert response.status_code == 400
    page = response.content.decode()
    assert (
        "This entry&#x27;s key was already used for hand 1 as recorded: nothing was changed "
        "now. Reload the page and send it again."
    ) in page
    assert 'value="-2"' in page and 'value="5"' in page  # what was typed stays
    assert list(Hand.objects.values_list("number", flat=True)) == [1]


def test_a_penalty_confirmed_with_the_key_of_one_given_is_refused(td_client, played):
    tournament, table = played
    key = uuid.uuid4()
    given = review(td_client, tournament, table, "Anna", "slow", key=key)
    assert confirm(td_client, tournament, table, given).status_code == 302
    # The same confirmation sent again: already given, once.
    again = confirm(td_client, tournament, table, given)
    assert again.status_code == 302
    # Back to the page, Bo chosen this time, the old key still in the form.
    other = review(td_client, tournament, table, "Bo", "slow", key=key)
    response = confirm(td_client, tournament, table, other)
    assert response.status_code == 400
    assert FORM_KEY_USED in response.content.decode()
    assert list(Penalty.objects.values_list("player__name", flat=True)) == ["Anna"]
    assert not Penalty.objects.filter(player=player(tournament, "Bo")).exists()


def test_an_announcement_sent_again_with_other_words_is_refused_not_already_done(
    td_client, make_tournament
):
    tournament = make_tournament(players=2)
    url = reverse("td:announcement", args=[tournament.pk])
    key = str(uuid.uuid4())
    assert td_client.post(url, {"text": "Break", "submission_key": key}).status_code == 302
    assert td_client.post(url, {"text": "Break", "submission_key": key}).status_code == 302
    response = td_client.post(url, {"text": "Lunch until 13:00", "submission_key": key})
    assert response.status_code == 400
    page = response.content.decode()
    assert FORM_KEY_USED in page
    assert "Lunch until 13:00" in page  # what was typed stays
    assert list(Announcement.objects.values_list("text", flat=True)) == ["Break"]


def test_a_call_with_the_key_of_a_tds_form_is_refused(revisor, table, td_client):
    key = str(uuid.uuid4())
    url = reverse("td:announcement", args=[table.level.tournament_id])
    assert td_client.post(url, {"text": "Break", "submission_key": key}).status_code == 302
    response = revisor.post(
        reverse("revisor:call"), {"kind": "dispute", "note": "Row?", "submission_key": key}
    )
    assert response.status_code == 400
    assert FORM_KEY_USED in response.content.decode()
    assert not TableCall.objects.exists()


def test_a_second_backup_imported_with_the_key_of_the_first_is_refused(td_client, played):
    key = uuid.uuid4()
    first = json.loads(json.dumps(fresh_keys(export_tournament(played[0]), "Kopia")))
    assert import_post(td_client, first, key=key).status_code == 302
    # The same upload sent again: imported already, nothing twice.
    assert import_post(td_client, first, key=key).status_code == 302
    second = json.loads(json.dumps(fresh_keys(export_tournament(played[0]), "Kopia 2")))
    response = import_post(td_client, second, key=key)
    assert response.status_code == 400
    assert FORM_KEY_USED in response.content.decode()
    assert not Tournament.objects.filter(name="Kopia 2").exists()
    assert FormSubmission.objects.count() == 1


def test_a_call_sent_without_its_key_is_refused_as_an_old_form(revisor, table):
    """Every form that changes state carries a key, the revisor's call too."""
    response = revisor.post(reverse("revisor:call"), {"kind": "dispute", "note": "Row?"})
    assert response.status_code == 400
    assert "This form is out of date: reload the page and send it again." in (
        response.content.decode()
    )
    assert not TableCall.objects.exists()
