"""The revisor fixes the last hand until the next is recorded; then only the TD can."""

import uuid

import pytest
from django.urls import reverse

from tests.tournament.conftest import play, positions, single_table, totals
from tournament.models import HandVersion

pytestmark = pytest.mark.django_db

FIX = reverse("revisor:fix")


@pytest.fixture
def table(make_tournament, td_user):
    return single_table(make_tournament(["Anna", "Bo", "Cia"]), td_user)


@pytest.fixture
def revisor(client, table):
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    return client


def fix_post(table, by_name, number, reason="Signs swapped"):
    pos = positions(table)
    data = {f"points_{pos[name]}": str(value) for name, value in by_name.items()}
    data.update(
        {"hand_number": str(number), "idempotency_key": str(uuid.uuid4()), "reason": reason}
    )
    return data


def test_the_fix_page_shows_the_last_hand_prefilled(revisor, table):
    play(table, 3, -1, -2)
    page = revisor.get(FIX).content.decode()
    assert "Fix hand 1 at table 1" in page
    assert 'name="points_0" value="3"' in page and 'name="points_2" value="-2"' in page


def test_fixing_the_last_hand_keeps_the_old_version_with_the_reason(revisor, table):
    play(table, 3, -1, -2)
    response = revisor.post(FIX, fix_post(table, {"Anna": -3, "Bo": 1, "Cia": 2}, 1))
    assert response.status_code == 302
    assert totals(table) == {"Anna": -3, "Bo": 1, "Cia": 2}
    new = HandVersion.objects.get(superseded_at__isnull=True)
    assert (new.version, new.reason, new.entered_by_label) == (
        2,
        "Signs swapped",
        "Revisor, table 1",
    )
    assert HandVersion.objects.filter(superseded_at__isnull=False).count() == 1


def test_a_fix_needs_a_reason_and_points_adding_up(revisor, table):
    play(table, 3, -1, -2)
    response = revisor.post(FIX, fix_post(table, {"Anna": -3, "Bo": 1, "Cia": 1}, 1, reason=""))
    assert response.status_code == 400
    page = response.content.decode()
    assert "they add up to -1" in page
    assert HandVersion.objects.count() == 1


def test_after_the_next_hand_only_the_td_corrects(revisor, table):
    play(table, 3, -1, -2)
    stale = fix_post(table, {"Anna": -3, "Bo": 1, "Cia": 2}, 1)
    play(table, 0, 0, 0)  # hand 2 recorded meanwhile
    response = revisor.post(FIX, stale)
    assert response.status_code == 400
    assert "Hand 1 is no longer the last hand: only the TD can correct it now." in (
        response.content.decode()
    )
    assert HandVersion.objects.count() == 2  # nothing corrected


def test_nothing_to_fix_before_the_first_hand(revisor):
    response = revisor.get(FIX, follow=True)
    assert "No hand is recorded yet at this table." in response.content.decode()


def test_once_the_table_is_over_only_the_td_corrects(revisor, make_tournament, td_user):
    tournament = make_tournament(["Dan", "Eva"], name="Short", min_hands=1)
    table = single_table(tournament, td_user)
    revisor.get(reverse("revisor:link", args=[table.revisor_key]))
    play(table, 4, -4)
    page = revisor.get(reverse("revisor:card")).content.decode()
    assert "Fix hand 1" not in page
    response = revisor.post(FIX, fix_post(table, {"Dan": -4, "Eva": 4}, 1), follow=True)
    assert "The table is over: only the TD can correct its hands now." in response.content.decode()
    assert HandVersion.objects.filter(hand__table=table).count() == 1
