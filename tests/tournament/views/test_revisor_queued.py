"""Hands a card queued offline, sent when the network is back (POST /r/card/queued/):
recorded once by their keys, or refused with why and held for the TD (docs/offline.md).

Expected values by hand from rules.md: three players, 3 hands required (+1 per hand after
which someone goes to Fantasyland), the button moves clockwise to the next seat."""

import json
import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournament.conftest import play, totals
from tournament.errors import NotAllowed
from tournament.models import AuditEntry, Hand, HandVersion, HeldHand, Table
from tournament.services import held_hands

pytestmark = pytest.mark.django_db

CARD = reverse("revisor:card")
QUEUED = reverse("revisor:queued")


def token_of(client):
    page = client.get(CARD).content.decode()
    return re.search(r'data-token="([^"]+)"', page).group(1)


def send(client, token, hand, points, *, fantasyland=(), expect, key=None, after=None):
    body = {
        "token": token,
        "hand": hand,
        "key": str(key or uuid.uuid4()),
        "entry": {"mode": "points", "points": points, "fantasyland": list(fantasyland)},
        "expect": expect,
        "after_refused": after,
    }
    response = client.post(QUEUED, json.dumps(body), content_type="application/json")
    return response.status_code, response.json(), body["key"]


def before_first(table, **changes):
    """What the card expects before hand 1: everybody plays, nobody in Fantasyland, the
    first dealer deals, every total 0."""
    expect = {
        "playing": [0, 1, 2],
        "fantasyland": [],
        "dealer": table.first_dealer_position,
        "totals": {"0": 0, "1": 0, "2": 0},
    }
    return {**expect, **changes}


@pytest.fixture
def card(client, three):
    """A device bound to the table (Cia 0, Anna 1, Bo 2) and the token of its card."""
    _tournament, table = three
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    return client, table, token_of(client)


def test_queued_hands_are_recorded_in_order_once_each_by_their_keys(card):
    client, table, token = card
    status, answer, key = send(
        client, token, 1, {"0": 5, "1": -2, "2": -3}, fantasyland=[0], expect=before_first(table)
    )
    assert (status, answer["status"], answer["hand"]) == (200, "recorded", 1)
    # Hand 2: Cia in Fantasyland (so 4 hands required), the button one seat on.
    expect = {
        "playing": [0, 1, 2],
        "fantasyland": [0],
        "dealer": (table.first_dealer_position + 1) % 3,
        "totals": {"0": 5, "1": -2, "2": -3},
    }
    status, second, _key = send(client, token, 2, {"0": -1, "1": 1, "2": 0}, expect=expect)
    assert second["status"] == "recorded"
    # The first sent again (its answer was lost on the way): nothing twice.
    again = client.post(
        QUEUED,
        json.dumps(
            {
                "token": token,
                "hand": 1,
                "key": key,
                "entry": {"mode": "points", "points": {"0": 5, "1": -2, "2": -3}},
                "expect": before_first(table),
            }
        ),
        content_type="application/json",
    ).json()
    assert again == {"status": "already", "hand": 1, "reason": "", "kept": True}
    assert Hand.objects.filter(table=table).count() == 2
    assert HandVersion.objects.get(idempotency_key=key).hand.number == 1
    assert totals(table) == {"Cia": 4, "Anna": -1, "Bo": -3}
    table.refresh_from_db()
    assert table.required_hands == 4
    assert not HeldHand.objects.exists()


def test_a_hand_recorded_meanwhile_from_another_device_is_held_with_why(card):
    client, table, token = card
    play(table, 1, 2, -3)  # another device recorded hand 1
    status, answer, key = send(
        client, token, 1, {"0": 5, "1": -2, "2": -3}, expect=before_first(table)
    )
    assert answer == {
        "status": "refused",
        "hand": 1,
        "reason": "Hand 1 was recorded meanwhile (by the TD or from another device).",
        "kept": True,
    }
    held = HeldHand.objects.get()
    assert (held.number, held.idempotency_key, held.held_by_label) == (
        1,
        uuid.UUID(key),
        "Revisor, table 1",
    )
    assert held.entry["points"] == {"0": 5, "1": -2, "2": -3}
    assert AuditEntry.objects.filter(action="hand.held").count() == 1
    # Sent again: the same answer, one held hand.
    _s, again, _k = send(
        client, token, 1, {"0": 5, "1": -2, "2": -3}, expect=before_first(table), key=key
    )
    assert again["status"] == "refused" and HeldHand.objects.count() == 1
    assert Hand.objects.filter(table=table).count() == 1


def test_a_table_changed_since_the_card_went_offline_holds_the_hand(card):
    """A penalty (10 points) was given meanwhile: the totals are not what the card counted on."""
    client, table, token = card
    expect = before_first(table, totals={"0": 0, "1": -10, "2": 0})
    _s, answer, _k = send(client, token, 1, {"0": 1, "1": 0, "2": -1}, expect=expect)
    assert answer["status"] == "refused"
    assert "not what the card counted on" in answer["reason"]
    assert not Hand.objects.exists()


def test_who_plays_changed_by_a_penalty_holds_the_hand(card):
    client, table, token = card
    expect = before_first(table, playing=[0, 2])
    _s, answer, _k = send(client, token, 1, {"0": 1, "2": -1}, expect=expect)
    assert answer["reason"] == (
        "A penalty changed who plays at this table since the card went offline."
    )


def test_hands_queued_after_a_refused_one_are_held_too(card):
    client, table, token = card
    _s, answer, _k = send(
        client, token, 1, {"0": 1, "1": 0, "2": -1}, expect=before_first(table), after=7
    )
    assert answer["reason"] == (
        "Sent after hand 7, which was refused: it was worked out on that hand."
    )
    assert not Hand.objects.exists() and HeldHand.objects.count() == 1


def test_a_device_no_longer_bound_has_its_hands_held_not_recorded(card, three):
    _client, table, token = card
    other = Client()  # the session is gone (cut off), the card's token is not
    _s, answer, _k = send(other, token, 1, {"0": 1, "1": 0, "2": -1}, expect=before_first(table))
    assert answer["status"] == "refused" and answer["kept"] is True
    assert answer["reason"] == "This device no longer keeps this table."
    assert not Hand.objects.exists()


def test_a_forged_token_keeps_nothing(card):
    client, table, _token = card
    status, answer, _k = send(
        client, "forged", 1, {"0": 1, "1": 0, "2": -1}, expect=before_first(table)
    )
    assert (status, answer["status"], answer["kept"]) == (403, "refused", False)
    assert not HeldHand.objects.exists()


def test_junk_is_refused_as_json_never_a_500(card):
    client, _table, _token = card
    response = client.post(QUEUED, "not json", content_type="application/json")
    assert response.status_code == 400 and response.json()["status"] == "refused"


def held_hand_1(client, table, token):
    play(table, 1, 2, -3)
    send(client, token, 1, {"0": 5, "1": -2, "2": -3}, fantasyland=[1], expect=before_first(table))
    return HeldHand.objects.get()


def test_the_td_records_a_held_hand_after_all_as_the_next_hand(card, three, td_user):
    client, table, token = card
    tournament, _table = three
    held = held_hand_1(client, table, token)
    held_hands.record_held_hand(tournament=tournament, held_id=held.pk, actor=td_user)
    held.refresh_from_db()
    # Recorded as hand 2 (hand 1 is taken), with its own key; Anna goes to Fantasyland.
    assert held.decision == "recorded" and held.recorded_hand.number == 2
    assert held.decided_by == td_user and held.decided_at is not None
    assert HandVersion.objects.get(idempotency_key=held.idempotency_key).hand.number == 2
    assert totals(table) == {"Cia": 6, "Anna": 0, "Bo": -6}
    assert Table.objects.get(pk=table.pk).required_hands == 4
    entry = AuditEntry.objects.get(action="held.record")
    assert entry.params == {"level": 1, "table": 1, "held": 1, "hand": 2}
    with pytest.raises(NotAllowed):
        held_hands.record_held_hand(tournament=tournament, held_id=held.pk, actor=td_user)


def test_the_td_discards_a_held_hand_with_the_reason_kept(card, three, td_user):
    client, table, token = card
    tournament, _table = three
    held = held_hand_1(client, table, token)
    held_hands.discard_held_hand(
        tournament=tournament, held_id=held.pk, reason="Entered twice", actor=td_user
    )
    held.refresh_from_db()
    assert (held.decision, held.decision_reason, held.decided_by) == (
        "discarded",
        "Entered twice",
        td_user,
    )
    assert Hand.objects.filter(table=table).count() == 1
    assert AuditEntry.objects.get(action="held.discard").params["reason"] == "Entered twice"
    assert HeldHand.objects.count() == 1  # kept


def test_the_card_carries_the_fold_state_the_device_goes_on_from(card):
    client, table, _token = card
    play(table, 4, -4, 0, fantasyland=[1])
    page = client.get(CARD).content.decode()
    state = json.loads(
        re.search(r'id="card-device" type="application/json">(.*?)</script>', page).group(1)
    )
    assert state["hands_played"] == 1 and state["fantasyland_hands"] == 1
    assert state["min_hands"] == 3 and state["last_dealer"] == table.first_dealer_position
    seats = {seat["position"]: seat for seat in state["seats"]}
    assert seats[1]["in_fl"] is True and seats[1]["streak"] == 1 and seats[0]["total"] == 4


def test_the_service_worker_is_offered_over_https_only(card, settings):
    client, _table, _token = card
    assert client.get("/r/sw.js").status_code == 404  # plain HTTP: browsers allow none
    assert "data-sw=" not in client.get(CARD).content.decode()
    response = client.get("/r/sw.js", secure=True)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/r/"
    assert 'var CARD = "/r/card/";' in response.content.decode()
    assert 'data-sw="/r/sw.js"' in client.get(CARD, secure=True).content.decode()
    settings.REVISOR_SERVICE_WORKER = False
    assert client.get("/r/sw.js", secure=True).status_code == 404


def cards_fields(boards):
    """The rows as the card's offline form names them, by seat position."""
    return {
        f"{row}_{p}": text
        for p, rows in boards.items()
        for row, text in zip(("front", "middle", "back"), rows, strict=True)
    }


def send_cards(client, token, hand, fields, expect):
    body = {
        "token": token,
        "hand": hand,
        "key": str(uuid.uuid4()),
        "entry": {"mode": "cards", "fields": fields},
        "expect": expect,
    }
    return client.post(QUEUED, json.dumps(body), content_type="application/json").json()


def test_a_hand_by_cards_kept_offline_is_scored_when_sent(card):
    """Cia's hand is valid without royalties; Anna and Bo foul (middle weaker than front):
    Cia wins 6 from each, the two fouled score 0 between them (rules.md)."""
    client, table, token = card
    fields = cards_fields(
        {
            0: ("2c 3d 5h", "7c 8d 9h Js Kc", "Ac Ad 4c 6d 8h"),
            1: ("Qs Qh 2d", "3s 4s 6c 9c Th", "5c 7h Jh Kh As"),
            2: ("Kd Ks 3h", "4d 6h 7s 9s Jd", "2s 5s 7d Tc Qc"),
        }
    )
    answer = send_cards(client, token, 1, fields, before_first(table))
    assert answer["status"] == "recorded"
    assert totals(table) == {"Cia": 12, "Anna": -6, "Bo": -6}
    assert HandVersion.objects.get(hand__table=table).mode == "cards"


def test_a_hand_by_cards_that_cannot_be_read_is_held_with_why(card):
    client, table, token = card
    fields = cards_fields({0: ("Qs Qs", "", ""), 1: ("", "", ""), 2: ("", "", "")})
    answer = send_cards(client, token, 1, fields, before_first(table))
    assert answer["status"] == "refused" and answer["kept"] is True
    held = HeldHand.objects.get()
    assert held.entry["fields"]["front_0"] == "Qs Qs" and held.reason == answer["reason"]
    assert not Hand.objects.exists()
