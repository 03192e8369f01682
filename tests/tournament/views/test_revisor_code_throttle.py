"""Wrong short codes at /r/ pause the device that typed them, not the room behind one address.

Ceilings (docs/revisor-access.md): 10 different wrong codes per device and 100 per
client address in 15 minutes. Every test client here comes from 127.0.0.1, as the
phones of a venue do behind its Wi-Fi's NAT; each Client is one phone (its session).
"""

from datetime import timedelta
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournament.conftest import single_table
from tournament.models import RevisorCodeAttempt

pytestmark = pytest.mark.django_db

CODE = reverse("revisor:code")
CARD = reverse("revisor:card")
# Different wrong codes, of the right shape (the table's own code is checked to differ).
WRONG = [f"ZZZ{a}{b}{c}" for a in "23456789" for b in "23456789" for c in "23456789"]


@pytest.fixture
def table(make_tournament, td_user):
    table = single_table(make_tournament(3), td_user)
    assert table.revisor_code not in WRONG
    return table


def text(response):
    return unescape(response.content.decode())


def type_code(phone, code):
    return phone.post(CODE, {"code": code})


def type_wrong_codes(phone, count, start=0):
    for code in WRONG[start : start + count]:
        assert type_code(phone, code).status_code == 400


def pause_began(minutes_ago):
    """Move every wrong code so far to a whole minute `minutes_ago`: the pause then ends 15
    minutes after it. The clock time the page must name, worked out by hand."""
    moment = (timezone.now() - timedelta(minutes=minutes_ago)).replace(second=0, microsecond=0)
    RevisorCodeAttempt.objects.update(at=moment)
    return timezone.localtime(moment + timedelta(minutes=15)).strftime("%H:%M")


def test_ten_wrong_codes_pause_that_phone_even_for_the_right_code(client, table):
    type_wrong_codes(client, 10)
    ends = pause_began(minutes_ago=3)
    response = type_code(client, table.revisor_code)
    assert response.status_code == 429
    assert (
        f"Too many wrong codes from this device: try again after {ends}, or scan the QR code "
        "on your table's card."
    ) in text(response)
    assert client.get(CARD)["Location"] == CODE  # not bound


def test_another_phone_behind_the_same_address_goes_on(client, table):
    type_wrong_codes(client, 10)
    assert type_code(client, table.revisor_code).status_code == 429
    other_phone = Client()  # same address (127.0.0.1), its own session
    response = type_code(other_phone, table.revisor_code)
    assert response.status_code == 302 and response["Location"] == CARD


def test_nine_wrong_codes_leave_the_phone_free(client, table):
    type_wrong_codes(client, 9)
    assert type_code(client, table.revisor_code).status_code == 302


def test_the_same_wrong_code_typed_again_counts_once(client, table):
    for _ in range(12):
        assert type_code(client, WRONG[0]).status_code == 400
    type_wrong_codes(client, 8, start=1)  # 9 different wrong codes in all
    assert type_code(client, table.revisor_code).status_code == 302


def test_a_code_of_the_wrong_shape_is_refused_in_place_and_not_counted(client, table):
    for typed in ("ZZZZZ", "ZZZZZZZ", "ZZZZZ0", "OOOOOO", "ILILIL"):
        response = type_code(client, typed)
        assert response.status_code == 400
        assert (
            "A table code is 6 letters and digits, without O, 0, I, L or 1. Check the card "
            "and try again."
        ) in text(response)
        assert f'value="{typed}"' in response.content.decode()  # what was typed stays
    assert not RevisorCodeAttempt.objects.exists()


def test_the_pause_ends_fifteen_minutes_after_the_wrong_codes(client, table):
    type_wrong_codes(client, 10)
    pause_began(minutes_ago=15)
    assert type_code(client, table.revisor_code).status_code == 302


def test_the_pause_ends_when_the_oldest_code_leaves_the_window(client, table):
    type_wrong_codes(client, 9)
    ends = pause_began(minutes_ago=14)  # nine codes a while ago...
    type_wrong_codes(client, 1, start=9)  # ...and a tenth now: the first nine set the end
    assert f"try again after {ends}," in text(type_code(client, table.revisor_code))


def test_the_right_code_does_not_reset_the_count(client, table):
    """A player knows their own table's code: it must not buy more guesses."""
    type_wrong_codes(client, 9)
    assert type_code(client, table.revisor_code).status_code == 302
    type_wrong_codes(client, 1, start=9)
    assert type_code(client, table.revisor_code).status_code == 429


def test_a_hundred_wrong_codes_from_one_address_pause_every_phone_there(client, table):
    for phone_number in range(10):  # ten phones at one address, ten different codes each
        type_wrong_codes(Client(), 10, start=phone_number * 10)
    ends = pause_began(minutes_ago=5)
    response = type_code(Client(), table.revisor_code)
    assert response.status_code == 429
    assert (
        f"Too many wrong codes from this network: try again after {ends}, or scan the QR code "
        "on your table's card."
    ) in text(response)
    # Another address is not held up.
    elsewhere = Client(REMOTE_ADDR="10.1.2.3")
    assert type_code(elsewhere, table.revisor_code).status_code == 302


def test_ninety_nine_wrong_codes_from_one_address_leave_a_new_phone_free(client, table):
    for phone_number in range(10):
        type_wrong_codes(Client(), 10 if phone_number < 9 else 9, start=phone_number * 10)
    assert type_code(Client(), table.revisor_code).status_code == 302


def test_the_private_link_is_never_paused(client, table):
    type_wrong_codes(client, 10)
    response = client.get(reverse("revisor:link", args=[table.revisor_key]))
    assert response.status_code == 302 and response["Location"] == CARD


def test_the_pause_is_said_in_swedish(client, table):
    client.cookies["django_language"] = "sv"
    type_wrong_codes(client, 10)
    ends = pause_began(minutes_ago=1)
    assert (
        f"För många felaktiga koder från den här enheten: försök igen efter kl. {ends}, eller "
        "skanna QR-koden på ditt bordskort."
    ) in text(type_code(client, table.revisor_code))
