"""The TD's announcement page: TD only, one announcement per form sent, bad input told in
the form with nothing lost, withdraw; English and Swedish."""

import datetime
import re
import uuid

import pytest
from django.urls import reverse
from django.utils import timezone

from tournament.models import Announcement, AuditEntry, FormSubmission

pytestmark = pytest.mark.django_db

# 12:00 in Stockholm (the project's TIME_ZONE) on a winter day: 11:00 UTC. In the future, as
# the database's own clock (which reads what stands for the pages) is not faked.
NOON = datetime.datetime(2099, 1, 14, 11, 0, tzinfo=datetime.UTC)


@pytest.fixture
def clock(monkeypatch, td_client, td_user):
    """timezone.now() is NOON; the TD logged in again (a session from before would have
    expired by then)."""
    monkeypatch.setattr(timezone, "now", lambda: NOON)
    td_client.force_login(td_user)


@pytest.fixture
def tournament(make_tournament):
    return make_tournament(players=2)


def page_url(tournament):
    return reverse("td:announcement", args=[tournament.pk])


def withdraw_url(tournament):
    return reverse("td:announcement_withdraw", args=[tournament.pk])


def key(client, tournament, prefix=""):
    """The one-time key of the page's form (the withdraw form's with its prefix)."""
    html = client.get(page_url(tournament)).content.decode()
    name = f"{prefix}-submission_key" if prefix else "submission_key"
    return re.search(rf'name="{name}" value="([0-9a-f-]+)"', html).group(1)


def test_only_the_td_gets_the_page(client, outsider, tournament):
    for url in (page_url(tournament), withdraw_url(tournament)):
        response = client.post(url, {"text": "Hi"})
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(outsider)
    assert client.get(page_url(tournament)).status_code == 403
    assert client.post(page_url(tournament), {"text": "Hi"}).status_code == 403
    assert client.post(withdraw_url(tournament)).status_code == 403
    assert not Announcement.objects.exists()


def test_the_form_has_its_labels_and_the_dashboard_links_it(td_client, tournament):
    html = td_client.get(page_url(tournament)).content.decode()
    for label in ("Message", "Show for (minutes)", "Or until (time of day)"):
        assert f">{label}</label>" in html
    assert ">Announce</button>" in html and "No announcement is shown." in html
    dashboard = td_client.get(reverse("td:tournament", args=[tournament.pk])).content.decode()
    assert f'href="{page_url(tournament)}"' in dashboard
    assert "Announce something to the room" in dashboard


def test_announcing_for_some_minutes_once_however_often_it_is_sent(
    td_client, td_user, tournament, clock
):
    data = {
        "text": "10-minute break",
        "minutes": "10",
        "submission_key": key(td_client, tournament),
    }
    first = td_client.post(page_url(tournament), data)
    again = td_client.post(page_url(tournament), data)  # a double click

    assert first.status_code == 302 and first["Location"] == page_url(tournament)
    assert again.status_code == 302
    made = Announcement.objects.get()
    assert made.text == "10-minute break" and made.created_by == td_user
    assert made.ends_at == NOON + datetime.timedelta(minutes=10)
    assert AuditEntry.objects.filter(action="announcement.make").count() == 1
    html = td_client.get(page_url(tournament)).content.decode()
    assert "10-minute break" in html and "Until 12:10" in html
    dashboard = td_client.get(reverse("td:tournament", args=[tournament.pk])).content.decode()
    assert "10-minute break" in dashboard and "Change or withdraw the announcement" in dashboard


def test_announcing_until_a_time_of_day(td_client, tournament, clock):
    data = {
        "text": "Level 2 at half past",
        "until": "12:30",
        "submission_key": key(td_client, tournament),
    }
    assert td_client.post(page_url(tournament), data).status_code == 302
    assert Announcement.objects.get().ends_at == datetime.datetime(
        2099, 1, 14, 11, 30, tzinfo=datetime.UTC
    )


def test_announcing_until_withdrawn(td_client, tournament):
    data = {"text": "Level 2 seating is up", "submission_key": key(td_client, tournament)}
    assert td_client.post(page_url(tournament), data).status_code == 302
    assert Announcement.objects.get().ends_at is None


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"text": ""}, "Message must not be empty."),
        ({"text": "x" * 201}, "Message can have at most 200 characters (it has 201)."),
        ({"text": "\u202eevil"}, "changes the direction of the text"),
        ({"text": "Break", "minutes": "10", "until": "12:30"}, "not both"),
        ({"text": "Break", "until": "11:59"}, "11:59 has passed already today"),
        ({"text": "Break", "minutes": "0"}, "Show for (minutes) must be from 1 to 1440, not 0."),
        ({"text": "Break", "minutes": "ten"}, "Show for (minutes) must be a whole number."),
    ],
)
def test_bad_input_is_told_in_the_form_and_what_was_typed_stays(
    td_client, tournament, clock, data, message
):
    response = td_client.post(
        page_url(tournament), {**data, "submission_key": key(td_client, tournament)}
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert 'class="error-summary"' in html and message in html.replace("&#x27;", "'")
    assert 'class="errorlist"' in html  # next to its field too
    if data["text"]:
        assert data["text"][:50] in html  # kept in the form
    assert not Announcement.objects.exists() and not FormSubmission.objects.exists()


def test_withdraw_takes_it_down(td_client, tournament):
    td_client.post(
        page_url(tournament), {"text": "Break", "submission_key": key(td_client, tournament)}
    )
    data = {"withdraw-submission_key": key(td_client, tournament, "withdraw")}
    response = td_client.post(withdraw_url(tournament), data, follow=True)
    assert "The announcement is withdrawn." in response.content.decode()
    assert Announcement.objects.get().withdrawn_at is not None
    assert "No announcement is shown." in response.content.decode()
    # Sent again (a double click): nothing more happens.
    td_client.post(withdraw_url(tournament), data)
    assert AuditEntry.objects.filter(action="announcement.withdraw").count() == 1


def test_withdraw_with_nothing_standing_says_so(td_client, tournament):
    data = {"withdraw-submission_key": str(uuid.uuid4())}  # a page opened while one stood
    response = td_client.post(withdraw_url(tournament), data, follow=True)
    assert "There is no announcement to withdraw" in response.content.decode()
    assert response.status_code == 200


def test_the_page_in_swedish(td_client, tournament, clock):
    td_client.cookies["django_language"] = "sv"
    data = {
        "text": "Paus i 10 minuter",
        "minutes": "10",
        "submission_key": key(td_client, tournament),
    }
    td_client.post(page_url(tournament), data)
    html = td_client.get(page_url(tournament)).content.decode()
    assert "Meddelande till salen" in html and ">Meddelande</label>" in html
    assert "Till 12:10" in html and ">Ta bort meddelandet</button>" in html
    bad = td_client.post(
        page_url(tournament),
        {
            "text": "Paus",
            "minutes": "5",
            "until": "13:00",
            "submission_key": key(td_client, tournament),
        },
    )
    assert "Ange antingen minuterna eller klockslaget, inte båda." in bad.content.decode()
