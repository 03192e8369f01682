"""The TD's dashboard: hands held from a card that was offline (a decision each), and a
table whose card has not been heard from for 3 minutes ("Card offline since 14:02")."""

import datetime
import uuid
import zoneinfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournament.conftest import play, totals
from tournament.models import AuditEntry, Hand, HeldHand, Table
from tournament.services import held_hands

pytestmark = pytest.mark.django_db

STOCKHOLM = zoneinfo.ZoneInfo("Europe/Stockholm")


def home(tournament):
    return reverse("td:tournament", args=[tournament.pk])


@pytest.fixture
def held(three):
    """Hand 1 came from offline after hand 1 was recorded: held. Cia 0, Anna 1, Bo 2."""
    tournament, table = three
    play(table, 1, 2, -3)
    table.refresh_from_db()
    answer = held_hands.receive_queued_hand(
        table=table,
        number=1,
        key=uuid.uuid4(),
        entry={"mode": "points", "points": {"0": 4, "1": -4, "2": 0}, "fantasyland": []},
        expect=held_hands.Expected(playing=(0, 1, 2)),
        actor_label="Revisor, table 1",
    )
    assert answer.status == "refused"
    return tournament, table, HeldHand.objects.get()


def test_the_dashboard_shows_a_hand_waiting_for_a_decision(td_client, held):
    tournament, _table, _held = held
    page = td_client.get(home(tournament)).content.decode()
    assert "1 hand waiting for a decision" in page
    assert "Table 1 (level 1), hand 1 as the card gave it" in page
    assert "Hand 1 was recorded meanwhile (by the TD or from another device)." in page
    assert "Record it as hand 2 at table 1 after all" in page


def test_recording_it_after_all_from_the_dashboard(td_client, held):
    tournament, table, hand = held
    url = reverse("td:held_record", args=[tournament.pk, hand.pk])
    response = td_client.post(url, {"submission_key": str(uuid.uuid4())}, follow=True)
    page = response.content.decode()
    assert "Table 1: recorded as hand 2." in page
    assert "waiting for a decision" not in page
    assert Hand.objects.filter(table=table).count() == 2
    assert totals(table) == {"Cia": 5, "Anna": -2, "Bo": -3}


def test_discarding_needs_a_reason_and_keeps_the_hand(td_client, held):
    tournament, table, hand = held
    url = reverse("td:held_discard", args=[tournament.pk, hand.pk])
    refused = td_client.post(url, {"submission_key": str(uuid.uuid4()), "reason": ""}, follow=True)
    assert "The held hand was not discarded" in refused.content.decode()
    assert HeldHand.objects.get().decision == ""
    done = td_client.post(
        url, {"submission_key": str(uuid.uuid4()), "reason": "Same hand twice"}, follow=True
    )
    assert "Table 1: held hand 1 discarded, and kept." in done.content.decode()
    kept = HeldHand.objects.get()
    assert (kept.decision, kept.decision_reason) == ("discarded", "Same hand twice")
    assert Hand.objects.filter(table=table).count() == 1
    assert AuditEntry.objects.filter(action="held.discard").count() == 1


def test_a_get_of_a_decision_goes_back_to_the_dashboard(td_client, held):
    tournament, _table, hand = held
    response = td_client.get(reverse("td:held_record", args=[tournament.pk, hand.pk]))
    assert response.status_code == 302 and response["Location"].startswith(home(tournament))
    assert HeldHand.objects.get().decision == ""


def test_a_card_not_heard_from_for_3_minutes_is_offline_since_then(td_client, three):
    tournament, table = three
    seen = datetime.datetime(2026, 6, 6, 14, 2, tzinfo=STOCKHOLM)
    Table.objects.filter(pk=table.pk).update(card_seen_at=seen)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(timezone, "now", lambda: seen + datetime.timedelta(minutes=3, seconds=30))
        page = td_client.get(home(tournament)).content.decode()
        assert "Card offline since 14:02" in page
        patch.setattr(timezone, "now", lambda: seen + datetime.timedelta(minutes=2, seconds=50))
        assert "Card offline" not in td_client.get(home(tournament)).content.decode()


def test_a_table_whose_card_never_opened_is_not_called_offline(td_client, three):
    tournament, _table = three
    assert "Card offline" not in td_client.get(home(tournament)).content.decode()


def test_the_cards_poll_keeps_when_it_was_seen_at_most_once_a_minute(three):
    _tournament, table = three
    device = Client()
    device.get(reverse("revisor:link", args=[table.revisor_key]))
    device.get(reverse("revisor:card"))
    first = Table.objects.get(pk=table.pk).card_seen_at
    assert first is not None
    device.get(reverse("revisor:summary"), {"rev": "x"})
    assert Table.objects.get(pk=table.pk).card_seen_at == first  # within the minute
    table.refresh_from_db()
    assert held_hands.card_seen(table, now=first + datetime.timedelta(seconds=61)) is True
    assert Table.objects.get(pk=table.pk).card_seen_at == first + datetime.timedelta(seconds=61)


def test_the_dashboard_in_swedish(td_client, held):
    tournament, table, _held = held
    Table.objects.filter(pk=table.pk).update(
        card_seen_at=timezone.now() - datetime.timedelta(minutes=4)
    )
    td_client.cookies["django_language"] = "sv"
    page = td_client.get(home(tournament)).content.decode()
    assert "1 hand väntar på ett beslut" in page
    assert "Registrera den ändå som hand 2 vid bord 1" in page
    assert "Hand 1 registrerades under tiden (av TL eller från en annan enhet)." in page
    assert "Protokollet utan anslutning sedan" in page
