"""A hand entry sent with the key of another change (another hand's recording, a
correction): refused as such, with a message, nothing written. Never "recorded, already"
for a hand other than the one asked for. The same entry sent again is still answered
"already recorded", once."""

import uuid

import pytest

from tests.tournament.conftest import positions, row_counts, single_table
from tournament.errors import KeyInUse
from tournament.models import Hand, HandVersion
from tournament.services import hands

pytestmark = pytest.mark.django_db

POINTS = {"Anna": 4, "Bo": -1, "Cia": -3}
OTHER = {"Anna": -2, "Bo": 5, "Cia": -3}


@pytest.fixture
def table(make_tournament, td_user):
    """Two hands recorded (keys KEYS[1] and KEYS[2])."""
    table = single_table(make_tournament(3), td_user)
    table.keys = {}
    for number in (1, 2):
        table.keys[number] = uuid.uuid4()
        record(table, number, POINTS, table.keys[number])
    return table


def record(table, number, points, key):
    pos = positions(table)
    return hands.record_hand(
        table=table,
        hand_number=number,
        idempotency_key=key,
        points={pos[name]: value for name, value in points.items()},
    )


def correct(table, number, points, key, version=1, actor=None):
    pos = positions(table)
    return hands.correct_hand(
        hand=Hand.objects.get(table=table, number=number),
        actor=actor,
        reason="Points swapped",
        based_on_version=version,
        points={pos[name]: value for name, value in points.items()},
        idempotency_key=key,
    )


def refused(call, message):
    before = (row_counts(), list(HandVersion.objects.values_list("pk", "superseded_at")))
    with pytest.raises(KeyInUse) as caught:
        call()
    assert caught.value.message == message
    assert (row_counts(), list(HandVersion.objects.values_list("pk", "superseded_at"))) == before


def used_for(change):
    return (
        f"This entry's key was already used for {change}: nothing was changed now. Reload the "
        "page and send it again."
    )


def test_hand_2_corrected_with_hand_1s_recording_key_is_refused(table, td_user):
    """The hostile case: today's answer was Recorded(hand=1, created=False)."""
    refused(
        lambda: correct(table, 2, OTHER, table.keys[1], actor=td_user),
        used_for("hand 1 as recorded"),
    )
    assert Hand.objects.get(table=table, number=2).versions.count() == 1


def test_a_hand_recorded_with_another_hands_key_is_refused(table):
    refused(lambda: record(table, 3, OTHER, table.keys[1]), used_for("hand 1 as recorded"))
    assert not Hand.objects.filter(table=table, number=3).exists()


def test_a_hand_corrected_with_its_own_recording_key_is_refused(table, td_user):
    refused(
        lambda: correct(table, 1, OTHER, table.keys[1], actor=td_user),
        used_for("hand 1 as recorded"),
    )


def test_a_correction_key_used_for_a_later_correction_or_a_new_hand_is_refused(table, td_user):
    key = uuid.uuid4()
    assert correct(table, 1, OTHER, key, actor=td_user).created
    # Sent again, as it was (a double click): the same correction, once.
    again = correct(table, 1, OTHER, key, actor=td_user)
    assert (again.created, again.hand.number) == (False, 1)
    # The same key for a correction made from version 2, for hand 2, for hand 3: no.
    said = used_for("hand 1 as corrected (version 2)")
    refused(lambda: correct(table, 1, POINTS, key, version=2, actor=td_user), said)
    refused(lambda: correct(table, 2, OTHER, key, actor=td_user), said)
    refused(lambda: record(table, 3, OTHER, key), said)


def test_the_same_hand_sent_again_is_still_recorded_once(table):
    again = record(table, 2, POINTS, table.keys[2])
    assert (again.created, again.hand.number) == (False, 2)
    assert Hand.objects.filter(table=table).count() == 2
