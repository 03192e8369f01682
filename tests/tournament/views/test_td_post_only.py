"""The TD's form-only URLs (give a penalty, clear a call, a new revisor link, station cards, a
new station link, withdraw the announcement): a GET, as when the TD reloads the page a
refused form was shown on, goes back to the page the form is on and changes nothing; a
PUT is refused; access is checked first."""

import pytest
from django.urls import reverse

from tests.tournament.conftest import single_table
from tournament.models import AuditEntry, FormSubmission
from tournament.services import announcements, revisor_stations

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(make_tournament, td_user):
    """A table in play, station cards made, an announcement standing."""
    tournament = make_tournament(3)
    table = single_table(tournament, td_user)
    revisor_stations.create_stations(tournament=tournament, actor=td_user)
    announcements.announce(tournament=tournament, actor=td_user, text="Break until 14:00")
    return tournament, table


def form_urls(tournament, table):
    """(the form's URL, the page it is on)."""
    t, tb = tournament.pk, table.pk
    table_page = reverse("td:table", args=[t, tb])
    stations = reverse("td:station_cards", args=[t])
    return [
        (reverse("td:penalty_new", args=[t, tb]), table_page),
        (reverse("td:call_clear", args=[t, tb]), table_page),
        (
            reverse("td:table_access_regenerate", args=[t, tb]),
            reverse("td:table_access", args=[t, tb]),
        ),
        (reverse("td:stations_create", args=[t]), stations),
        (reverse("td:station_regenerate", args=[t, 1]), stations),
        (reverse("td:announcement_withdraw", args=[t]), reverse("td:announcement", args=[t])),
    ]


def test_a_get_goes_back_to_the_forms_page_and_changes_nothing(td_client, room):
    tournament, table = room
    logged = AuditEntry.objects.count()
    for url, page in form_urls(tournament, table):
        response = td_client.get(url)
        assert (response.status_code, response["Location"]) == (302, page), url
        assert td_client.get(page).status_code == 200, page
        assert td_client.put(url).status_code == 405, url
    assert AuditEntry.objects.count() == logged
    assert not FormSubmission.objects.exists()
    tournament.refresh_from_db()
    assert tournament.announcements.get().withdrawn_at is None


def test_access_is_checked_before_the_way_back(client, outsider, room):
    tournament, table = room
    for url, _page in form_urls(tournament, table):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(
            reverse("login") + "?next="
        ), url
    client.force_login(outsider)
    for url, _page in form_urls(tournament, table):
        assert client.get(url).status_code == 403, url
