"""The revisor's card: state of play, points entry, replays, conflicts, calls."""

import uuid

import pytest
from django.urls import reverse

from tests.tournament.conftest import play, positions, single_table, totals
from tournament.models import Hand, HandVersion, TableCall
from tournament.services import draws, hands

pytestmark = pytest.mark.django_db

CARD = reverse("revisor:card")
HAND = reverse("revisor:hand")


@pytest.fixture
def table(make_tournament, td_user):
    return single_table(make_tournament(["Anna", "Bo", "Cia"], min_hands=3), td_user)


@pytest.fixture
def revisor(client, table):
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    return client


def points_post(table, by_name, number, key=None, fantasyland=()):
    pos = positions(table)
    data = {f"points_{pos[name]}": str(value) for name, value in by_name.items()}
    data.update({f"fantasyland_{pos[name]}": "on" for name in fantasyland})
    data.update({"hand_number": str(number), "idempotency_key": str(key or uuid.uuid4())})
    return data


def test_the_card_shows_the_hand_to_play_and_who_deals(revisor, table):
    page = revisor.get(CARD).content.decode()
    assert "Table 1 · level 1" in page and "Hand 1 of 3" in page
    dealer = table.seats.get(position=table.first_dealer_position).player.name
    assert f"{dealer} deals this hand." in page
    assert 'name="points_0"' in page and "Record hand 1" in page


def test_recording_by_points_updates_the_card(revisor, table):
    response = revisor.post(HAND, points_post(table, {"Anna": 4, "Bo": -1, "Cia": -3}, 1))
    assert response.status_code == 302 and response["Location"] == CARD
    assert totals(table) == {"Anna": 4, "Bo": -1, "Cia": -3}
    version = HandVersion.objects.get()
    assert version.entered_by_label == "Revisor, table 1" and version.created_by is None
    page = revisor.get(CARD).content.decode()
    assert "Hand 1 recorded." in page and "Hand 2 of 3" in page


def test_points_not_adding_up_are_refused_and_kept_in_the_inputs(revisor, table):
    response = revisor.post(HAND, points_post(table, {"Anna": 4, "Bo": -1, "Cia": -2}, 1))
    assert response.status_code == 400
    page = response.content.decode()
    assert "The points must add up to zero; they add up to +1." in page
    pos = positions(table)
    assert f'name="points_{pos["Anna"]}" value="4"' in page
    assert not Hand.objects.exists()


def test_a_replayed_submission_records_one_hand_and_says_so(revisor, table):
    data = points_post(table, {"Anna": 2, "Bo": -1, "Cia": -1}, 1)
    revisor.post(HAND, data)
    again = revisor.post(HAND, data, follow=True)
    assert "Hand 1 was already recorded (the same entry arrived twice)." in again.content.decode()
    assert Hand.objects.count() == 1 and totals(table)["Anna"] == 2


def test_another_device_recorded_the_hand_first(revisor, table):
    play(table, 1, 0, -1)  # the TD, on paper, recorded hand 1
    response = revisor.post(
        HAND, points_post(table, {"Anna": 5, "Bo": -5, "Cia": 0}, 1), follow=True
    )
    page = response.content.decode()
    assert "Hand 1 is already recorded at table 1." in page and "Hand 2 of 3" in page
    assert Hand.objects.count() == 1


def test_htmx_entry_swaps_the_fresh_card_in_place(revisor, table):
    response = revisor.post(
        HAND, points_post(table, {"Anna": 2, "Bo": -1, "Cia": -1}, 1), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and "HX-Request" in response["Vary"]
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="revisor-main">')
    assert "Hand 1 recorded." in page and "Hand 2 of 3" in page


def test_a_table_over_takes_no_more_hands(revisor, table):
    for _ in range(3):
        play(table, 3, -1, -2)
    page = revisor.get(CARD).content.decode()
    assert "Anna wins and advances" in page or "wins and advances" in page
    assert "Record hand" not in page
    response = revisor.post(
        HAND, points_post(table, {"Anna": 1, "Bo": 0, "Cia": -1}, 4), follow=True
    )
    assert "is over" in response.content.decode()
    assert Hand.objects.count() == 3


def test_the_summary_poll_answers_204_until_something_changes(revisor, table):
    summary = reverse("revisor:summary")
    first = revisor.get(summary, {"rev": "nothing"})
    assert first.status_code == 200
    table.refresh_from_db()
    assert revisor.get(summary, {"rev": str(table.revision)}).status_code == 204
    play(table, 1, 0, -1)
    assert revisor.get(summary, {"rev": str(table.revision)}).status_code == 200


def test_calling_the_td_flags_the_table(revisor, table):
    response = revisor.post(reverse("revisor:call"), {"kind": "dispute", "note": "Back row?"})
    assert response.status_code == 302
    call = TableCall.objects.get()
    assert (call.table_id, call.kind, call.note) == (table.pk, "dispute", "Back row?")
    assert "The TD has been called" in revisor.get(CARD).content.decode()


def test_the_card_needs_a_bound_device(client, table):
    assert (
        client.post(HAND, points_post(table, {"Anna": 1, "Bo": 0, "Cia": -1}, 1)).status_code == 302
    )
    assert not Hand.objects.exists()


def test_a_device_bound_to_a_redrawn_table_records_nothing(make_tournament, td_user, client):
    level = draws.draw_first_level(tournament=make_tournament(3), actor=td_user, seed="r")
    table = level.tables.get()
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    draws.redraw_level(level=level, actor=td_user, reason="Wrong seats")
    data = points_post(table, dict(zip(positions(table), (1, 0, -1), strict=True)), 1)
    response = client.post(HAND, data)
    assert response.status_code == 302 and response["Location"] == reverse("revisor:code")
    assert not Hand.objects.exists()
    assert hands  # the service module is what the page calls


def test_a_device_writes_only_to_the_table_it_is_bound_to(client, make_tournament, td_user):
    level = draws.draw_first_level(tournament=make_tournament(6), actor=td_user, seed="two")
    first, second = level.tables.order_by("number")
    client.get(reverse("revisor:link", args=[first.revisor_key]))
    # Whatever the post says (another table's id among the fields), it lands at the bound table.
    data = {"points_0": "2", "points_1": "-1", "points_2": "-1", "hand_number": "1"}
    data.update({"idempotency_key": str(uuid.uuid4()), "table": str(second.pk)})
    client.post(HAND, data)
    assert Hand.objects.filter(table=first).count() == 1
    assert not Hand.objects.filter(table=second).exists()
    # The second table's card is not reachable from this device without its own link.
    page = client.get(CARD).content.decode()
    assert "Table 1 · level 1" in page and "Table 2 · level 1" not in page


def test_revisor_pages_have_no_td_login_link(revisor, client):
    login = reverse("login")
    for url in (CARD, reverse("revisor:code"), reverse("revisor:cards")):
        response = revisor.get(url)
        assert response.status_code == 200, url
        page = response.content.decode()
        assert f'href="{login}' not in page and "TD login" not in page, url
    # The other pages keep it.
    assert f'href="{login}"' in client.get(reverse("public:home")).content.decode()
