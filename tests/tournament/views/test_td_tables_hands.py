"""The TD's own hand entry (the paper fallback) and corrections on the table page."""

import html as htmllib
import re
import uuid
from datetime import UTC, datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournament.conftest import play_named, positions, single_table, totals
from tournament.models import AuditEntry, Hand, HandVersion
from tournament.services import draws, hands

pytestmark = pytest.mark.django_db

ANNA = {"front": "Qs Qh 7d", "middle": "Ks Kh 9d 8c 2s", "back": "As Ah Ad 3c 3s"}
BO = {"front": "2c 3d 4h", "middle": "5s 6d 8h 9h Jc", "back": "Tc Td 4c 4d 5c"}
CIA = {"front": "Kc Kd 5h", "middle": "Jd Js 6c 6h 7c", "back": "8d 9c Ts Jh 2d"}


def text(response):
    html = re.sub(r"<[^>]+>", " ", response.content.decode())
    return " ".join(htmllib.unescape(html).split())


def table_url(tournament, table):
    return reverse("td:table", args=[tournament.pk, table.pk])


def new_url(tournament, table, mode=None):
    url = reverse("td:hand_new", args=[tournament.pk, table.pk])
    return f"{url}?mode={mode}" if mode else url


def correct_url(tournament, table, number, mode=None):
    url = reverse("td:hand_correct", args=[tournament.pk, table.pk, number])
    return f"{url}?mode={mode}" if mode else url


def messages_of(response):
    return [str(m) for m in response.wsgi_request._messages]


def points_post(hand_number, *, cia, anna, bo, fantasyland=(), key=None):
    data = {
        "hand_number": str(hand_number),
        "idempotency_key": str(key or uuid.uuid4()),
        "points_0": str(cia),
        "points_1": str(anna),
        "points_2": str(bo),
    }
    for position in fantasyland:
        data[f"fantasyland_{position}"] = "on"
    return data


def cards_post(hand_number, boards, key=None):
    """boards: position -> {"front": ..., "middle": ..., "back": ...}."""
    data = {"hand_number": str(hand_number), "idempotency_key": str(key or uuid.uuid4())}
    for position, board in boards.items():
        for row, cards in board.items():
            data[f"{row}_{position}"] = cards
    return data


# ---------------------------------------------------------------- refusals before anything


def test_hand_actions_refuse_anonymous_and_non_staff(client, outsider, three):
    tournament, table = three
    hand_urls = [
        new_url(tournament, table),
        reverse("td:penalty_new", args=[tournament.pk, table.pk]),
        reverse("td:tie", args=[tournament.pk, table.pk]),
        reverse("td:call_clear", args=[tournament.pk, table.pk]),
        correct_url(tournament, table, 1),
        reverse("td:penalty_rescind", args=[tournament.pk, 1]),
    ]
    for url in hand_urls:
        response = client.post(url, {})
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client.force_login(outsider)
    for url in hand_urls:
        assert client.post(url, {}).status_code == 403, url
    assert not Hand.objects.exists()


def test_a_table_of_another_tournament_is_404_for_every_action(td_client, three, make_tournament):
    tournament, table = three
    other = make_tournament(2, name="Other cup")
    play_named(table, {"Anna": 1, "Bo": 0, "Cia": -1})
    for url in [
        new_url(other, table),
        reverse("td:penalty_new", args=[other.pk, table.pk]),
        reverse("td:tie", args=[other.pk, table.pk]),
        reverse("td:call_clear", args=[other.pk, table.pk]),
        correct_url(other, table, 1),
    ]:
        assert td_client.post(url, points_post(2, cia=1, anna=0, bo=-1)).status_code == 404, url
    assert td_client.get(correct_url(tournament, table, 7)).status_code == 404  # no hand 7
    assert Hand.objects.count() == 1


def test_a_get_of_the_entry_url_goes_to_the_table_page(td_client, three):
    tournament, table = three
    response = td_client.get(new_url(tournament, table))
    assert response.status_code == 302 and response["Location"] == table_url(tournament, table)


# ---------------------------------------------------------------- points


def test_the_td_records_a_hand_as_points(td_client, three, td_user):
    tournament, table = three
    response = td_client.post(
        new_url(tournament, table), points_post(1, cia=-3, anna=5, bo=-2, fantasyland=[1])
    )
    assert response.status_code == 302
    assert response["Location"] == table_url(tournament, table)
    table.refresh_from_db()
    assert totals(table) == {"Cia": -3, "Anna": 5, "Bo": -2}
    assert table.hands_played == 1 and table.fantasyland_hands == 1 and table.required_hands == 4
    version = HandVersion.objects.get()
    assert version.created_by == td_user and version.mode == "points"
    page = td_client.get(response["Location"])
    assert "Hand 1 recorded." in text(page)
    assert "In Fantasyland next hand: Anna." in text(page)


def test_the_next_hands_form_is_empty_and_the_browser_may_not_refill_it(td_client, three):
    """After Back, a browser restored the last hand's points into the next hand's form."""
    tournament, table = three
    td_client.post(new_url(tournament, table), points_post(1, cia=-3, anna=5, bo=-2))
    html = td_client.get(table_url(tournament, table)).content.decode()
    form = re.search(r'<form[^>]*id="hand-form"[^>]*>', html).group(0)
    assert 'autocomplete="off"' in form
    assert "Record hand 2" in html
    for position in range(3):
        field = re.search(rf'<input[^>]*name="points_{position}"[^>]*>', html).group(0)
        assert "value=" not in field


def test_points_not_adding_up_are_refused_in_place_with_the_typed_values_kept(td_client, three):
    tournament, table = three
    response = td_client.post(new_url(tournament, table), points_post(1, cia=-3, anna=5, bo=-1))
    assert response.status_code == 400
    page = text(response)
    assert "The points must add up to zero; they add up to +1." in page
    html = response.content.decode()
    assert 'role="alert"' in html
    assert 'name="points_0" value="-3"' in html
    assert 'name="points_1" value="5"' in html
    assert 'name="points_2" value="-1"' in html
    assert not Hand.objects.exists()


def test_a_missing_or_non_numeric_points_field_is_shown_next_to_it(td_client, three):
    tournament, table = three
    data = points_post(1, cia="abc", anna=5, bo="")
    response = td_client.post(new_url(tournament, table), data)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'value="abc"' in html and 'name="points_1" value="5"' in html
    assert "Points for Cia" in text(response) and "Points for Bo" in text(response)
    assert not Hand.objects.exists()


def test_a_replayed_submission_records_one_hand_and_says_so(td_client, three):
    tournament, table = three
    data = points_post(1, cia=-3, anna=5, bo=-2)
    first = td_client.post(new_url(tournament, table), data)
    second = td_client.post(new_url(tournament, table), data, follow=True)
    assert first.status_code == 302 and second.status_code == 200
    assert Hand.objects.count() == 1 and HandVersion.objects.count() == 1
    assert "Hand 1 was already recorded from this form: nothing was recorded twice." in text(second)
    table.refresh_from_db()
    assert totals(table) == {"Cia": -3, "Anna": 5, "Bo": -2}


def test_a_stale_hand_number_shows_the_conflict_and_the_fresh_card(td_client, three):
    tournament, table = three
    page = td_client.get(table_url(tournament, table)).content.decode()
    assert 'name="hand_number" value="1"' in page
    # Meanwhile the revisor records hand 1 from the tablet.
    play_named(table, {"Anna": 2, "Bo": -1, "Cia": -1})
    response = td_client.post(new_url(tournament, table), points_post(1, cia=-3, anna=5, bo=-2))
    assert response.status_code == 400
    page = text(response)
    recorded = HandVersion.objects.get()
    at = timezone.localtime(recorded.created_at).strftime("%H:%M")
    assert (
        f"Hand 1 was recorded meanwhile, at {at}: it is on the score card below. "
        "Correct it there if it is wrong, or enter the next hand."
    ) in page
    assert "the TD can correct it" not in page  # the revisor's words, not the TD's
    html = response.content.decode()
    assert 'id="hand-1"' in html  # the fresh card, with the revisor's hand
    assert 'name="points_1" value="5"' in html  # what the TD typed, kept
    assert "Correct hand 1" in page and "Enter hand 2 instead" in page
    assert Hand.objects.count() == 1
    table.refresh_from_db()
    assert totals(table) == {"Anna": 2, "Bo": -1, "Cia": -1}


def test_a_finished_table_refuses_another_hand(td_client, make_tournament, td_user):
    tournament = make_tournament(3, min_hands=1)
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 2, "Bo": -1, "Cia": -1})
    response = td_client.post(new_url(tournament, table), points_post(2, cia=1, anna=0, bo=-1))
    assert response.status_code == 400
    assert "Table 1 is over: its 1 hand is played." in text(response)
    assert "Record hand" not in text(response)
    assert Hand.objects.count() == 1


def test_a_closed_level_refuses_a_hand(td_client, make_tournament, td_user):
    tournament = make_tournament(3, min_hands=1)
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 2, "Bo": -1, "Cia": -1})
    draws.advance(tournament=tournament, actor=td_user)
    response = td_client.post(new_url(tournament, table), points_post(2, cia=1, anna=0, bo=-1))
    assert response.status_code == 400
    assert "This level is closed: its results are final." in text(response)
    assert Hand.objects.count() == 1


def test_a_redrawn_table_refuses_a_hand(td_client, three, td_user):
    tournament, table = three
    draws.redraw_level(level=table.level, actor=td_user, reason="Wrong list")
    response = td_client.post(new_url(tournament, table), points_post(1, cia=1, anna=0, bo=-1))
    assert response.status_code == 400
    assert "This table was redrawn; use the new table." in text(response)
    assert not Hand.objects.exists()


# ---------------------------------------------------------------- cards


def test_the_entry_switches_between_points_and_cards(td_client, three):
    tournament, table = three
    page = td_client.get(table_url(tournament, table)).content.decode()
    assert f'href="{table_url(tournament, table)}?mode=cards"' in page
    assert 'name="points_0"' in page and 'name="front_0"' not in page
    cards = td_client.get(table_url(tournament, table), {"mode": "cards"}).content.decode()
    assert 'name="front_0"' in cards and 'name="points_0"' not in cards
    assert 'aria-current="page"' in cards
    assert "Cia: front (3 cards)" in cards and "Anna: back (5 cards)" in cards
    assert f'action="{new_url(tournament, table, "cards")}"' in cards


def test_a_points_only_tournament_has_no_cards_form_and_a_cards_only_one_no_points_form(
    td_client, make_tournament, td_user
):
    points_only = make_tournament(3, name="Points cup", entry_mode="points")
    table = single_table(points_only, td_user)
    page = td_client.get(table_url(points_only, table), {"mode": "cards"}).content.decode()
    assert 'name="points_0"' in page and 'name="front_0"' not in page
    assert 'class="mode-tabs' not in page
    cards_only = make_tournament(["Åsa", "Örjan", "Ulf"], name="Cards cup", entry_mode="cards")
    table = single_table(cards_only, td_user, seed="other")
    page = td_client.get(table_url(cards_only, table)).content.decode()
    assert 'name="front_0"' in page and 'name="points_0"' not in page


def test_the_td_records_a_hand_as_cards_typed_in_every_way(td_client, three):
    tournament, table = three
    boards = {
        1: {"front": "Q♠Q♥7♦", "middle": "ks kh 9d 8c 2s", "back": "As, Ah, Ad 3c 3s"},
        2: {"front": "2c 3d 4h", "middle": "5s 6d 8h 9h Jc", "back": "10c Td 4c 4d 5c"},
        0: CIA,
    }
    response = td_client.post(new_url(tournament, table, "cards"), cards_post(1, boards))
    assert response.status_code == 302
    assert response["Location"] == table_url(tournament, table) + "?mode=cards"
    table.refresh_from_db()
    # Worked out by hand: Anna scoops Bo (+6) and gets her royalties 7 + 6 = 13 from him:
    # +19; Cia fouled: Anna +6 + 13 = 19, Bo +6. Anna 38, Bo -19 + 6 = -13, Cia -25.
    assert totals(table) == {"Anna": 38, "Bo": -13, "Cia": -25}
    version = HandVersion.objects.get()
    assert version.mode == "cards"
    anna = version.results.get(seat__player__name="Anna")
    assert (anna.front, anna.back, anna.royalties, anna.fantasyland_next) == (
        "Qs Qh 7d",
        "As Ah Ad 3c 3s",
        13,
        True,
    )
    assert version.results.get(seat__player__name="Cia").fouled is True


def test_a_card_twice_is_refused_with_the_typed_cards_kept(td_client, three):
    tournament, table = three
    boards = {1: ANNA, 2: dict(BO, front="Qs 3d 4h"), 0: CIA}  # Q♠ is Anna's too
    response = td_client.post(new_url(tournament, table, "cards"), cards_post(1, boards))
    assert response.status_code == 400
    page = text(response)
    assert "Q♠" in page and "twice" in page
    assert "Anna" in page and "Bo" in page
    assert 'value="Qs 3d 4h"' in response.content.decode()
    assert not Hand.objects.exists()


def test_an_unknown_card_is_shown_next_to_its_row(td_client, three):
    tournament, table = three
    boards = {1: dict(ANNA, front="Qs Qx 7d"), 2: BO, 0: CIA}
    response = td_client.post(new_url(tournament, table, "cards"), cards_post(1, boards))
    assert response.status_code == 400
    assert "Qx" in text(response)
    assert 'value="Qs Qx 7d"' in response.content.decode()
    assert not Hand.objects.exists()


# ---------------------------------------------------------------- corrections


def test_the_correction_page_shows_the_hand_prefilled_and_its_history(td_client, three, td_user):
    tournament, table = three
    play_named(table, {"Anna": 4, "Bo": -1, "Cia": -3}, ["Anna"], actor=td_user)
    response = td_client.get(correct_url(tournament, table, 1))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="points_0" value="-3"' in html
    assert 'name="points_1" value="4"' in html
    assert 'name="points_2" value="-1"' in html
    assert re.search(r'name="fantasyland_1"[^>]*checked', html)
    assert 'name="hand_number" value="1"' in html
    page = text(response)
    assert "Correct hand 1 at table 1" in page
    assert "Version 1 current (points), by director" in page
    assert "Reason" in page and "Save the correction of hand 1" in page


def test_a_correction_replaces_the_hand_keeps_the_old_one_and_shows_its_history(
    td_client, three, td_user
):
    tournament, table = three
    play_named(table, {"Anna": 4, "Bo": -1, "Cia": -3}, actor=td_user)
    play_named(table, {"Anna": 1, "Bo": 1, "Cia": -2}, actor=td_user)
    data = points_post(1, cia=-3, anna=2, bo=1)
    data["reason"] = "Bo had a royalty"
    data["version"] = "1"  # the version the page showed
    response = td_client.post(correct_url(tournament, table, 1), data)
    assert response.status_code == 302
    assert response["Location"] == table_url(tournament, table)
    hand = Hand.objects.get(number=1)
    assert list(hand.versions.order_by("version").values_list("version", "reason")) == [
        (1, ""),
        (2, "Bo had a royalty"),
    ]
    assert hand.versions.get(version=1).superseded_at is not None
    table.refresh_from_db()
    # Cia -3 - 2 = -5; Anna 2 + 1 = 3; Bo 1 + 1 = 2.
    assert totals(table) == {"Cia": -5, "Anna": 3, "Bo": 2}
    assert AuditEntry.objects.filter(action="hand.correct").count() == 1
    page = text(td_client.get(response["Location"]))
    assert "Hand 1 corrected." in page
    assert "History of hand 1 (2 versions)" in page
    assert "Reason: Bo had a royalty" in page
    assert "Cia -3, Anna +4, Bo -1" in page and "Cia -3, Anna +2, Bo +1" in page


@pytest.mark.parametrize(
    ("anna", "bo", "reason", "message", "swedish"),
    [
        (2, 1, "   ", "Reason must not be empty.", "Motivering saknas."),
        # The very points recorded: a version that changes nothing.
        (
            4,
            -1,
            "Checked against the paper card",
            "Hand 1 already says this: change what is wrong, or leave it as it is.",
            "Hand 1 säger redan detta: ändra det som är fel, eller låt den vara.",
        ),
    ],
)
def test_a_refused_correction_is_shown_in_place_with_what_was_typed(
    td_client, three, td_user, anna, bo, reason, message, swedish
):
    tournament, table = three
    play_named(table, {"Anna": 4, "Bo": -1, "Cia": -3}, actor=td_user)
    data = points_post(1, cia=-3, anna=anna, bo=bo)
    data["reason"] = reason
    data["version"] = "1"  # the version the page showed
    response = td_client.post(correct_url(tournament, table, 1), data)
    assert response.status_code == 400
    assert message in text(response)
    # Not "The hand was not recorded", which read as if hand 1 were gone.
    assert "The correction was not saved; the hand stays as it was:" in text(response)
    assert "not recorded" not in text(response)
    assert f'name="points_1" value="{anna}"' in response.content.decode()
    assert reason in response.content.decode()
    assert HandVersion.objects.count() == 1
    td_client.cookies["django_language"] = "sv"
    swedish_page = text(td_client.post(correct_url(tournament, table, 1), data))
    assert swedish in swedish_page
    assert "Rättelsen sparades inte; handen är som förut:" in swedish_page


def test_a_replayed_correction_makes_one_version(td_client, three, td_user):
    tournament, table = three
    play_named(table, {"Anna": 4, "Bo": -1, "Cia": -3}, actor=td_user)
    data = points_post(1, cia=-3, anna=2, bo=1)
    data["reason"] = "typo"
    data["version"] = "1"  # the version the page showed
    assert td_client.post(correct_url(tournament, table, 1), data).status_code == 302
    again = td_client.post(correct_url(tournament, table, 1), data, follow=True)
    assert "This correction of hand 1 was already saved." in text(again)
    assert HandVersion.objects.count() == 2


def test_a_correction_for_another_hand_number_is_refused(td_client, three, td_user):
    tournament, table = three
    play_named(table, {"Anna": 4, "Bo": -1, "Cia": -3}, actor=td_user)
    play_named(table, {"Anna": 1, "Bo": 1, "Cia": -2}, actor=td_user)
    data = points_post(2, cia=-3, anna=2, bo=1)  # the form of hand 2, sent to hand 1's URL
    data["reason"] = "typo"
    data["version"] = "1"  # the version the page showed
    response = td_client.post(correct_url(tournament, table, 1), data)
    assert response.status_code == 400
    assert "This form was for another hand; reload the page." in text(response)
    assert HandVersion.objects.count() == 2


def hidden_value(html, name):
    match = re.search(rf'<input type="hidden" name="{name}" value="([^"]*)"', html)
    return match.group(1) if match else None


def test_a_correction_made_in_another_tab_meanwhile_is_not_overwritten(
    td_client, three, td_user, settings
):
    """Hand 1's correction page open in two tabs (both show version 1): tab B saves; tab A,
    still showing the old points, is refused with who changed the hand and when, its typed
    values kept; B's version stays the hand's."""
    settings.TIME_ZONE = "Europe/Stockholm"
    tournament, table = three
    play_named(table, {"Anna": 4, "Bo": -1, "Cia": -3}, actor=td_user)
    tab_a = td_client.get(correct_url(tournament, table, 1)).content.decode()
    tab_b = td_client.get(correct_url(tournament, table, 1)).content.decode()
    assert hidden_value(tab_a, "version") == hidden_value(tab_b, "version") == "1"

    data_b = points_post(1, cia=-3, anna=2, bo=1)
    data_b.update({"reason": "Bo had a royalty", "version": hidden_value(tab_b, "version")})
    assert td_client.post(correct_url(tournament, table, 1), data_b).status_code == 302
    # 07:41 UTC on 9 May 2026: 09:41 at the venue (Stockholm, summer time).
    HandVersion.objects.filter(version=2).update(created_at=datetime(2026, 5, 9, 7, 41, tzinfo=UTC))

    data_a = points_post(1, cia=-6, anna=5, bo=1)
    data_a.update({"reason": "Cia's foul", "version": hidden_value(tab_a, "version")})
    response = td_client.post(correct_url(tournament, table, 1), data_a)
    assert response.status_code == 409
    page = text(response)
    assert "The correction was not saved; the hand stays as it was:" in page
    assert (
        "Hand 1 was changed at 09:41 by director after this page was opened: "
        "reload to see it, then correct it again." in page
    )
    assert 'name="points_0" value="-6"' in response.content.decode()  # as typed
    assert "Cia's foul" in page
    hand = Hand.objects.get(number=1)
    assert list(hand.versions.order_by("version").values_list("version", "reason")) == [
        (1, ""),
        (2, "Bo had a royalty"),
    ]
    table.refresh_from_db()
    assert totals(table) == {"Cia": -3, "Anna": 2, "Bo": 1}  # tab B's
    assert AuditEntry.objects.filter(action="hand.correct").count() == 1

    # Reloaded, the page shows version 2; corrected from it, the correction is saved.
    fresh = td_client.get(correct_url(tournament, table, 1)).content.decode()
    assert hidden_value(fresh, "version") == "2" and 'name="points_1" value="2"' in fresh
    data_a.update({"version": "2", "idempotency_key": str(uuid.uuid4())})
    assert td_client.post(correct_url(tournament, table, 1), data_a).status_code == 302
    table.refresh_from_db()
    assert totals(table) == {"Cia": -6, "Anna": 5, "Bo": 1}
    assert hand.versions.get(superseded_at=None).version == 3


def test_a_correction_without_its_version_is_refused_in_place(td_client, three, td_user):
    tournament, table = three
    play_named(table, {"Anna": 4, "Bo": -1, "Cia": -3}, actor=td_user)
    data = points_post(1, cia=-3, anna=2, bo=1)
    data["reason"] = "typo"  # a page of before the version travelled with the form
    response = td_client.post(correct_url(tournament, table, 1), data)
    assert response.status_code == 400
    assert "The hand's version is missing; reload the page." in text(response)
    assert HandVersion.objects.count() == 1


def test_a_cards_hand_is_corrected_with_its_cards_prefilled(td_client, three, td_user):
    tournament, table = three
    pos = positions(table)
    hands.record_hand(
        table=table,
        hand_number=1,
        idempotency_key=uuid.uuid4(),
        boards={pos["Anna"]: ANNA, pos["Bo"]: BO, pos["Cia"]: CIA},
        actor=td_user,
    )
    response = td_client.get(correct_url(tournament, table, 1))
    html = response.content.decode()
    assert 'name="front_1" value="Qs Qh 7d"' in html
    assert 'name="back_0" value="8d 9c Ts Jh 2d"' in html
    # The revisor mixed up Cia's rows: she had a full house of jacks in the back.
    data = cards_post(
        1,
        {
            1: ANNA,
            2: BO,
            0: {"front": "9c Ts 2d", "middle": "Kc Kd 5h 7c 8d", "back": "Jd Js Jh 6c 6h"},
        },
    )
    data["reason"] = "Cia's rows were mixed up"
    data["version"] = "1"  # the version the page showed
    response = td_client.post(correct_url(tournament, table, 1), data)
    assert response.status_code == 302
    table.refresh_from_db()
    # By hand: Anna still scoops Bo with 13 royalties: +19. Anna v Cia: QQ > T high,
    # K-K-9 > K-K-8, aces full > jacks full: scoop +6, royalties 13 - 6: +13. Cia scoops
    # Bo: +6 and her 6 royalties: +12. Anna 19 + 13 = 32, Bo -19 - 12 = -31, Cia -13 + 12 = -1.
    assert totals(table) == {"Anna": 32, "Bo": -31, "Cia": -1}
    assert Hand.objects.get().versions.get(version=2).mode == "cards"
    # And once more as points (the TD may switch): the cards are gone, the points stay.
    data = points_post(1, cia=-20, anna=30, bo=-10)
    data["reason"] = "Scored by hand at the table"
    data["version"] = "2"  # the version the page showed
    response = td_client.post(correct_url(tournament, table, 1, "points"), data)
    assert response.status_code == 302
    table.refresh_from_db()
    assert totals(table) == {"Cia": -20, "Anna": 30, "Bo": -10}
    assert Hand.objects.get().versions.get(version=3).mode == "points"


def test_a_hand_of_a_closed_level_cannot_be_corrected(td_client, make_tournament, td_user):
    tournament = make_tournament(3, min_hands=1)
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 2, "Bo": -1, "Cia": -1}, actor=td_user)
    draws.advance(tournament=tournament, actor=td_user)
    page = text(td_client.get(correct_url(tournament, table, 1)))
    assert "its hands can no longer be corrected" in page
    data = points_post(1, cia=1, anna=0, bo=-1)
    data["reason"] = "late"
    data["version"] = "1"  # the version the page showed
    response = td_client.post(correct_url(tournament, table, 1), data)
    assert response.status_code == 400
    assert "This level is closed: its results are final." in text(response)
    assert HandVersion.objects.count() == 1


def test_a_hand_the_revisor_recorded_meanwhile_is_said_with_who_and_when(td_client, three, client):
    tournament, table = three
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    pos = positions(table)
    data = {f"points_{pos[n]}": str(p) for n, p in (("Anna", 2), ("Bo", -1), ("Cia", -1))}
    client.post(
        reverse("revisor:hand"),
        {**data, "hand_number": "1", "idempotency_key": str(uuid.uuid4())},
    )
    response = td_client.post(new_url(tournament, table), points_post(1, cia=-3, anna=5, bo=-2))
    assert response.status_code == 400
    at = timezone.localtime(HandVersion.objects.get().created_at).strftime("%H:%M")
    assert f"Hand 1 was recorded meanwhile, by Revisor, table 1 at {at}:" in text(response)
