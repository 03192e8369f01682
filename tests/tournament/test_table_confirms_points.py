"""The tournament setting "the table confirms points": the TD's form, the service, the backup."""

import copy
import json
import uuid

import pytest
from django.urls import reverse

from tests.tournament.commands.test_backup import empty_database
from tournament.backups import export_tournament, import_tournament
from tournament.errors import InvalidEntry
from tournament.models import AuditEntry, Tournament
from tournament.services import draws, registration

pytestmark = pytest.mark.django_db

SM_SETTINGS = {
    "name": "SM 2026",
    "min_hands": "20",
    "entry_mode": "either",
    "royalties": "us",
    "scoring_method": "1-6",
    "fantasyland_repeat": "unlimited",
}


def post(client, url, **changes):
    return client.post(url, {**SM_SETTINGS, "submission_key": str(uuid.uuid4()), **changes})


def test_the_setting_is_off_unless_the_td_turns_it_on(td_user):
    assert (
        registration.create_tournament(actor=td_user, name="Plain").table_confirms_points is False
    )


def test_the_td_turns_it_on_in_the_settings_with_help_about_the_table(td_client, td_user):
    page = td_client.get(reverse("td:tournament_create")).content.decode()
    assert 'name="table_confirms_points"' in page
    assert 'aria-describedby="id_table_confirms_points_helptext"' in page
    assert "read out to the table" in page
    response = post(td_client, reverse("td:tournament_create"), table_confirms_points="on")
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.table_confirms_points is True
    entry = AuditEntry.objects.get(action="tournament.create")
    assert entry.actor == td_user and entry.after["table_confirms_points"] is True


def test_the_td_can_turn_it_off_again_before_the_first_draw(td_client, td_user):
    tournament = registration.create_tournament(
        actor=td_user, name="SM 2026", table_confirms_points=True
    )
    response = post(td_client, reverse("td:settings", args=[tournament.pk]))
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.table_confirms_points is False


def test_the_locked_settings_say_yes_or_no(td_client, td_user, make_tournament):
    tournament = make_tournament(3, table_confirms_points=True)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="x")
    page = td_client.get(reverse("td:settings", args=[tournament.pk])).content.decode()
    assert "The table confirms points" in page
    assert ">True<" not in page and "Yes" in page


@pytest.mark.parametrize("value", ["maybe", 2, None])
def test_the_service_refuses_what_is_not_yes_or_no(td_user, value):
    with pytest.raises(InvalidEntry, match="The table confirms points"):
        registration.create_tournament(actor=td_user, name="Cup", table_confirms_points=value)
    assert not Tournament.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_backup_keeps_the_setting(td_user, django_user_model, make_tournament):
    tournament = make_tournament(3, name="Kept", table_confirms_points=True)
    data = json.loads(json.dumps(export_tournament(tournament)))
    assert data["settings"]["table_confirms_points"] is True
    empty_database(django_user_model)
    assert import_tournament(data).table_confirms_points is True


@pytest.mark.django_db(transaction=True)
def test_a_backup_from_before_the_setting_imports_with_it_off(
    td_user, django_user_model, make_tournament
):
    tournament = make_tournament(3, name="Older")
    data = json.loads(json.dumps(export_tournament(tournament)))
    older = copy.deepcopy(data)
    del older["settings"]["table_confirms_points"]
    empty_database(django_user_model)
    assert import_tournament(older).table_confirms_points is False
