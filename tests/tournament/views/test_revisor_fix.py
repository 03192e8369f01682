"""The revisor fixes the last hand until the next is recorded; then only the TD can.

A hand entered as points is fixed as points; a hand entered as cards goes through the same
picker, check and confirm as a new hand by cards.
"""

import html
import re
import uuid
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from tests.tournament.conftest import play, positions, single_table, totals
from tournament.models import Hand, HandResult, HandVersion
from tournament.services import hands

pytestmark = pytest.mark.django_db

FIX = reverse("revisor:fix")


@pytest.fixture
def table(make_tournament, td_user):
    return single_table(make_tournament(["Anna", "Bo", "Cia"]), td_user)


@pytest.fixture
def revisor(client, table):
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    return client


def fix_post(table, by_name, number, reason="Signs swapped", version=1):
    pos = positions(table)
    data = {f"points_{pos[name]}": str(value) for name, value in by_name.items()}
    data.update(
        {
            "hand_number": str(number),
            "version": str(version),
            "idempotency_key": str(uuid.uuid4()),
            "reason": reason,
        }
    )
    return data


# 07:41 UTC on 9 May 2026 is 09:41 at the venue (Stockholm, summer time: UTC+2).
AT_0941 = datetime(2026, 5, 9, 7, 41, tzinfo=UTC)


def td_corrects(td_user, by_position, reason="TD's count", **entry):
    """The TD corrects hand 1 (from its version 1) at 09:41, venue time."""
    hands.correct_hand(
        hand=Hand.objects.get(number=1),
        actor=td_user,
        reason=reason,
        based_on_version=1,
        **({"points": by_position} if by_position is not None else entry),
    )
    HandVersion.objects.filter(version=2).update(created_at=AT_0941)


CHANGED = (
    "Hand 1 was changed at 09:41 by director after you opened this fix. "
    "Here it is as it stands now: fix it again if it is still wrong."
)


def test_the_fix_page_shows_the_last_hand_prefilled(revisor, table):
    play(table, 3, -1, -2)
    page = revisor.get(FIX).content.decode()
    assert "Fix hand 1 at table 1" in page
    assert 'name="points_0" value="3"' in page and 'name="points_2" value="-2"' in page
    assert '<input type="hidden" name="version" value="1"' in page  # the version shown


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


def test_a_fix_that_changes_nothing_is_refused_in_place(revisor, table):
    """The fix page opens with the last hand filled in: saved as it is, it would only mark
    the hand as corrected on every page."""
    play(table, 3, -1, -2)  # by seat position
    at = {position: name for name, position in positions(table).items()}
    same = {at[0]: 3, at[1]: -1, at[2]: -2}
    response = revisor.post(FIX, fix_post(table, same, 1))
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    assert "Hand 1 already says this: change what is wrong, or leave it as it is." in page
    assert 'name="reason"' in page and "Signs swapped" in page  # the form, as typed
    assert HandVersion.objects.count() == 1


def test_after_the_next_hand_only_the_td_corrects(revisor, table):
    play(table, 3, -1, -2)
    stale = fix_post(table, {"Anna": -3, "Bo": 1, "Cia": 2}, 1)
    play(table, 0, 0, 0)  # hand 2 recorded meanwhile
    response = revisor.post(FIX, stale)
    # Back to the card (the fix page of hand 2 with hand 1's fix typed in led round in a
    # loop), saying what was typed, for the TD.
    assert response.status_code == 302 and response["Location"] == reverse("revisor:card")
    page = html.unescape(revisor.get(response["Location"]).content.decode())
    typed = {"Anna": "-3", "Bo": "+1", "Cia": "+2"}
    in_seat_order = ", ".join(
        f"{name} {typed[name]}" for name in sorted(typed, key=positions(table).get)
    )
    assert (
        "Hand 1 is no longer the last hand: only the TD can correct it now. "
        f"Your fix, to tell the TD: {in_seat_order}." in page
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


# ---------------------------------------------------------------- the table confirms points
# With the tournament setting on, a fix by points is read back first, as a new hand by
# points is: each player's points beside what they were, nothing changed before "Confirm".


@pytest.fixture
def confirming(make_tournament, td_user):
    tournament = make_tournament(
        ["Anna", "Bo", "Cia"], name="Read back", table_confirms_points=True
    )
    return single_table(tournament, td_user)


@pytest.fixture
def confirming_revisor(client, confirming):
    client.get(reverse("revisor:link", args=[confirming.revisor_key]))
    return client


def play_by_name(table, by_name):
    pos = positions(table)
    play(table, *[by_name[name] for name in sorted(pos, key=pos.get)])


def seated(table, by_name):
    """`by_name`'s items in the order of the seats (the order the readback lists them)."""
    pos = positions(table)
    return [by_name[name] for name in sorted(pos, key=pos.get)]


def readback_lines(page):
    """(name, points, was/now) of each line read back, in seat order."""
    return re.findall(
        r'<li><span class="name">([^<]*)</span> <strong class="points[^"]*">([^<]*)</strong>\s*'
        r'<span class="scored-was">([^<]*)</span>',
        page,
    )


def test_with_the_table_confirming_a_fix_by_points_is_checked_first(confirming_revisor, confirming):
    play_by_name(confirming, {"Anna": 3, "Bo": -1, "Cia": -2})
    page = confirming_revisor.get(FIX).content.decode()
    assert "Check the fix" in page and "Save the fixed hand 1" not in page
    data = fix_post(confirming, {"Anna": -3, "Bo": 1, "Cia": 2}, 1)
    data[f"fantasyland_{positions(confirming)['Bo']}"] = "on"
    response = confirming_revisor.post(FIX, {**data, "step": "check"})
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert HandVersion.objects.count() == 1  # nothing changed yet
    assert totals(confirming) == {"Anna": 3, "Bo": -1, "Cia": -2}
    assert "Hand 1 fixed: announce it, then confirm" in page
    assert "Nothing is changed yet." in page
    assert readback_lines(page) == seated(
        confirming,
        {
            "Anna": ("Anna", "-3", "was +3, now -3"),
            "Bo": ("Bo", "+1", "was -1, now +1"),
            "Cia": ("Cia", "+2", "was -2, now +2"),
        },
    )
    assert page.count("goes to Fantasyland") == 1
    assert "Reason: Signs swapped" in page
    assert 'name="version" value="1"' in page
    assert f'name="idempotency_key" value="{data["idempotency_key"]}"' in page
    assert "Confirm the fix of hand 1" in page and "Change the points" in page

    # Confirmed with what the readback carried: saved once, even when tapped twice.
    confirmed = {**data, "version": "1", "step": "confirm"}
    for _ in range(2):
        response = confirming_revisor.post(FIX, confirmed)
        assert response.status_code == 302 and response["Location"] == reverse("revisor:card")
    assert totals(confirming) == {"Anna": -3, "Bo": 1, "Cia": 2}
    new = HandVersion.objects.get(superseded_at__isnull=True)
    assert (new.version, new.reason) == (2, "Signs swapped")
    assert HandVersion.objects.count() == 2
    bo = HandResult.objects.get(version=new, seat__player__name="Bo")
    assert bo.fantasyland_next is True


def test_change_the_points_brings_the_fix_back_as_typed(confirming_revisor, confirming):
    play_by_name(confirming, {"Anna": 3, "Bo": -1, "Cia": -2})
    data = fix_post(confirming, {"Anna": -3, "Bo": 1, "Cia": 2}, 1, reason="Typo")
    response = confirming_revisor.post(FIX, {**data, "version": "1", "step": "change"})
    assert response.status_code == 200
    page = response.content.decode()
    pos = positions(confirming)
    assert f'name="points_{pos["Anna"]}" value="-3"' in page
    assert "Typo" in page and "Check the fix" in page
    assert HandVersion.objects.count() == 1


def test_a_fix_by_points_read_back_is_not_saved_over_the_tds_correction(
    confirming_revisor, confirming, td_user, settings
):
    settings.TIME_ZONE = "Europe/Stockholm"
    play_by_name(confirming, {"Anna": 3, "Bo": -1, "Cia": -2})
    data = fix_post(confirming, {"Anna": -3, "Bo": 1, "Cia": 2}, 1)
    pos = positions(confirming)
    td_corrects(td_user, {pos["Anna"]: 6, pos["Bo"]: -3, pos["Cia"]: -3})
    response = confirming_revisor.post(FIX, {**data, "version": "1", "step": "confirm"})
    assert response.status_code == 409
    page = response.content.decode()
    assert CHANGED in html.unescape(page)
    assert f'name="points_{pos["Anna"]}" value="6"' in page  # the hand as it stands now
    assert '<input type="hidden" name="version" value="2"' in page
    assert HandVersion.objects.get(superseded_at__isnull=True).reason == "TD's count"
    assert HandVersion.objects.count() == 2
    assert totals(confirming) == {"Anna": 6, "Bo": -3, "Cia": -3}


def test_a_fix_by_points_is_not_read_back_against_a_hand_corrected_meanwhile(
    confirming_revisor, confirming, td_user, settings
):
    """Typed against version 1, checked after the TD's correction: the readback would say
    "was +6" of points the revisor never saw. Refused at the check already."""
    settings.TIME_ZONE = "Europe/Stockholm"
    play_by_name(confirming, {"Anna": 3, "Bo": -1, "Cia": -2})
    data = fix_post(confirming, {"Anna": -3, "Bo": 1, "Cia": 2}, 1)
    pos = positions(confirming)
    td_corrects(td_user, {pos["Anna"]: 6, pos["Bo"]: -3, pos["Cia"]: -3})
    response = confirming_revisor.post(FIX, {**data, "step": "check"})
    assert response.status_code == 409
    page = html.unescape(response.content.decode())
    assert CHANGED in page and "announce it, then confirm" not in page
    assert f'name="points_{pos["Anna"]}" value="6"' in page
    assert HandVersion.objects.count() == 2


def test_the_fix_by_points_is_read_back_in_swedish(confirming_revisor, confirming):
    play_by_name(confirming, {"Anna": 3, "Bo": -1, "Cia": -2})
    confirming_revisor.cookies["django_language"] = "sv"
    assert "Kontrollera rättelsen" in confirming_revisor.get(FIX).content.decode()
    data = fix_post(confirming, {"Anna": -3, "Bo": 1, "Cia": 2}, 1)
    page = html.unescape(confirming_revisor.post(FIX, {**data, "step": "check"}).content.decode())
    assert "Hand 1 rättad: läs upp den, bekräfta den sedan" in page
    assert [line[2] for line in readback_lines(page)] == seated(
        confirming, {"Anna": "var +3, nu -3", "Bo": "var -1, nu +1", "Cia": "var -2, nu +2"}
    )
    assert "Bekräfta rättelsen av hand 1" in page


def test_without_the_setting_a_fix_by_points_saves_at_once(revisor, table):
    play(table, 3, -1, -2)
    assert "Save the fixed hand 1" in revisor.get(FIX).content.decode()
    response = revisor.post(FIX, {**fix_post(table, {"Anna": -3, "Bo": 1, "Cia": 2}, 1)})
    assert response.status_code == 302
    assert HandVersion.objects.count() == 2


def test_a_fix_by_points_saved_at_once_is_not_saved_over_the_tds_correction(
    revisor, table, td_user, settings
):
    """The fix page open (version 1) while the TD corrects the hand: saving the fix would
    silently replace the TD's correction. Refused; the hand as it stands now is shown."""
    settings.TIME_ZONE = "Europe/Stockholm"
    play(table, 3, -1, -2)
    page = revisor.get(FIX).content.decode()
    assert '<input type="hidden" name="version" value="1"' in page
    pos = positions(table)
    td_corrects(td_user, {pos["Anna"]: 6, pos["Bo"]: -3, pos["Cia"]: -3})
    response = revisor.post(FIX, fix_post(table, {"Anna": -3, "Bo": 1, "Cia": 2}, 1))
    assert response.status_code == 409
    text = html.unescape(response.content.decode())
    assert CHANGED in text
    assert f'name="points_{pos["Anna"]}" value="6"' in text  # the hand as it stands now
    assert '<input type="hidden" name="version" value="2"' in text
    current = HandVersion.objects.get(superseded_at__isnull=True)
    assert (current.version, current.reason) == (2, "TD's count")
    assert HandVersion.objects.count() == 2
    assert totals(table) == {"Anna": 6, "Bo": -3, "Cia": -3}
    # Fixed again from version 2, as the page now shows it: saved.
    again = fix_post(table, {"Anna": -6, "Bo": 3, "Cia": 3}, 1, version=2)
    assert revisor.post(FIX, again).status_code == 302
    assert totals(table) == {"Anna": -6, "Bo": 3, "Cia": 3}
    assert HandVersion.objects.get(superseded_at__isnull=True).version == 3


# ---------------------------------------------------------------- a hand entered by cards
# Fixed as a new hand is entered by cards: the picker prefilled, check (nothing changes),
# confirm. The hands are those of test_revisor_cards.py, worked out by hand (1-6, SM):
#   BOARDS: Anna QQ2 / KK987 / AAA33 (royalties 7 + 6 = 13), Bo 442 / JJ543 / 9-K straight
#   (2), Cia 765 / T9432 / 888 76 (0): Anna +36, Bo -9, Cia -27; Anna goes to Fantasyland.
#   SWAPPED: Anna's middle and back swapped on the card (AAA33 middle over a KK back): she
#   fouls, no royalties, no Fantasyland. Bo against Anna 6 + 2, Cia against Anna 6 + 0,
#   Bo against Cia 6 + 2 (as above): Anna -14, Bo +16, Cia -2.

BOARDS = {
    "Anna": {"front": "Qs Qh 2c", "middle": "Ks Kh 9d 8c 7s", "back": "As Ad Ac 3c 3s"},
    "Bo": {"front": "4s 4h 2d", "middle": "Js Jh 5d 4c 3d", "back": "9s Th Jd Qc Kc"},
    "Cia": {"front": "5s 6h 7d", "middle": "Tc 9h 2s 3h 4d", "back": "8s 8h 8d 7c 6c"},
}
SWAPPED = {
    **BOARDS,
    "Anna": {**BOARDS["Anna"], "middle": BOARDS["Anna"]["back"], "back": BOARDS["Anna"]["middle"]},
}
CARD = reverse("revisor:card")


def check_url():
    return reverse("revisor:fix_check")


def confirm_url():
    return reverse("revisor:fix_confirm")


def record_cards(table, boards_by_name, number=None):
    table.refresh_from_db()
    pos = positions(table)
    return hands.record_hand(
        table=table,
        hand_number=number or table.hands_played + 1,
        idempotency_key=uuid.uuid4(),
        boards={pos[name]: board for name, board in boards_by_name.items()},
    )


def cards_fix_post(table, boards_by_name, number=1, *, version=1, key=None, reason="Rows swapped"):
    pos = positions(table)
    data = {
        f"{row}_{pos[name]}": text
        for name, board in boards_by_name.items()
        for row, text in board.items()
    }
    data.update(
        {
            "hand_number": str(number),
            "version": str(version),
            "idempotency_key": str(key or uuid.uuid4()),
            "reason": reason,
        }
    )
    return data


def text_of(response):
    """The page as a person reads it: entities decoded, tags out, spaces squeezed."""
    page = re.sub(r"<[^>]+>", " ", response.content.decode())
    return " ".join(html.unescape(page).split())


def value_of(response, name):
    match = re.search(rf'name="{name}"[^>]*value="([^"]*)"', response.content.decode())
    if match is None:  # a textarea
        match = re.search(rf'name="{name}"[^>]*>([^<]*)</textarea>', response.content.decode())
    return html.unescape(match.group(1)).strip() if match else None


def test_a_cards_hand_is_fixed_in_the_picker_prefilled_with_its_cards(revisor, table):
    record_cards(table, SWAPPED)
    response = revisor.get(FIX)
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    text = text_of(response)
    assert "Fix hand 1 at table 1" in text and "Hand 1: the cards as they should be" in text
    pos = positions(table)
    assert value_of(response, f"middle_{pos['Anna']}") == "As Ad Ac 3c 3s"
    assert value_of(response, f"back_{pos['Anna']}") == "Ks Kh 9d 8c 7s"
    assert value_of(response, f"front_{pos['Cia']}") == "5s 6h 7d"
    assert value_of(response, "version") == "1" and value_of(response, "hand_number") == "1"
    # The same picker as a new hand by cards; nothing saves at once: it is checked first.
    assert re.search(r'<div class="picker" data-picker hidden', page)
    assert page.count('class="key rank"') == 13
    assert "Check the fix" in text and "Save the fixed hand" not in text
    assert 'action="/r/card/fix/check/"' in page
    assert HandVersion.objects.count() == 1


def test_checking_a_fix_shows_it_scored_beside_the_old_points_and_changes_nothing(revisor, table):
    record_cards(table, SWAPPED)
    key = uuid.uuid4()
    response = revisor.post(check_url(), cards_fix_post(table, BOARDS, key=key))
    assert response.status_code == 200
    text = text_of(response)
    assert "Hand 1 fixed: announce it, then confirm" in text
    assert "Nothing is changed yet." in text
    assert "Anna +36 was -14, now +36 goes to Fantasyland" in text
    assert "Bo -9 was +16, now -9" in text
    assert "Cia -27 was -2, now -27" in text
    assert "Anna wins 17 from Bo." in text and "Plays the next hand in Fantasyland: Anna." in text
    assert "Reason: Rows swapped" in text
    # The Confirm form carries the same cards, reason, version and key.
    pos = positions(table)
    assert value_of(response, f"back_{pos['Anna']}") == "As Ad Ac 3c 3s"
    assert value_of(response, "reason") == "Rows swapped"
    assert value_of(response, "version") == "1" and value_of(response, "idempotency_key") == str(
        key
    )
    assert "Confirm the fix of hand 1" in text
    assert 'action="/r/card/fix/confirm/"' in response.content.decode()
    assert HandVersion.objects.count() == 1 and totals(table) == {"Anna": -14, "Bo": 16, "Cia": -2}


def test_a_fix_that_takes_fantasyland_away_says_so(revisor, table):
    record_cards(table, BOARDS)
    text = text_of(revisor.post(check_url(), cards_fix_post(table, SWAPPED)))
    assert "Anna -14 was +36, now -14 fouled: loses every row, no royalties" in text
    assert "no longer goes to Fantasyland" in text
    assert "No one plays the next hand in Fantasyland." in text


def test_confirming_a_fix_adds_a_version_and_keeps_the_old_one(revisor, table):
    record_cards(table, SWAPPED)
    data = cards_fix_post(table, BOARDS)
    response = revisor.post(confirm_url(), data)
    assert response.status_code == 302 and response["Location"] == CARD
    assert totals(table) == {"Anna": 36, "Bo": -9, "Cia": -27}
    new = HandVersion.objects.get(superseded_at__isnull=True)
    assert (new.version, new.mode, new.reason, new.entered_by_label) == (
        2,
        HandVersion.Mode.CARDS,
        "Rows swapped",
        "Revisor, table 1",
    )
    assert str(new.idempotency_key) == data["idempotency_key"]
    old = HandVersion.objects.get(superseded_at__isnull=False)
    assert old.version == 1 and old.results.get(seat__player__name="Anna").points == -14
    table.refresh_from_db()
    assert table.required_hands == 21  # 20 + 1: Anna goes to Fantasyland now
    assert "Hand 1 corrected." in text_of(revisor.get(CARD))


def test_a_double_tap_on_confirm_saves_one_fix(revisor, table):
    record_cards(table, SWAPPED)
    data = cards_fix_post(table, BOARDS)
    revisor.post(confirm_url(), data)
    again = revisor.post(confirm_url(), data, follow=True)
    assert "This correction of hand 1 was already saved." in text_of(again)
    assert HandVersion.objects.count() == 2 and totals(table)["Anna"] == 36


def test_a_fix_made_stale_by_the_tds_correction_is_not_saved_over_it(
    revisor, table, td_user, settings
):
    settings.TIME_ZONE = "Europe/Stockholm"
    record_cards(table, SWAPPED)
    pos = positions(table)
    stale = cards_fix_post(table, BOARDS)  # checked against version 1
    # Meanwhile the TD corrects the hand: Bo and Cia's fronts were the other way round.
    td_boards = {**SWAPPED, "Bo": {**SWAPPED["Bo"], "front": "5s 6h 7d"}}
    td_boards["Cia"] = {**SWAPPED["Cia"], "front": "4s 4h 2d"}
    td_corrects(
        td_user,
        None,
        reason="Fronts swapped",
        boards={pos[name]: board for name, board in td_boards.items()},
    )
    for url in (check_url(), confirm_url()):
        response = revisor.post(url, stale)
        assert response.status_code == 409
        text = text_of(response)
        assert CHANGED in text
        assert value_of(response, f"front_{pos['Bo']}") == "5s 6h 7d"  # as it stands now
        assert value_of(response, "version") == "2"
    assert HandVersion.objects.get(superseded_at__isnull=True).reason == "Fronts swapped"
    assert HandVersion.objects.count() == 2


def test_after_the_next_hand_a_checked_fix_goes_to_the_td(revisor, table):
    record_cards(table, SWAPPED)
    data = cards_fix_post(table, BOARDS)
    play(table, 1, 0, -1)  # hand 2, from another device
    response = revisor.post(confirm_url(), data, follow=True)
    assert "Hand 1 is no longer the last hand: only the TD can correct it now." in text_of(response)
    assert HandVersion.objects.filter(hand__number=1).count() == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"Bo": {**BOARDS["Bo"], "front": "Qs 4h 2d"}}, "Card Q♠ appears twice"),
        ({"Cia": {**BOARDS["Cia"], "back": "8s 8h 8d 7c"}}, "Cia's back has 4 cards; it needs 5"),
        ({}, "Reason must not be empty."),
    ],
)
def test_a_bad_fix_is_refused_in_place_with_everything_kept(revisor, table, change, message):
    record_cards(table, SWAPPED)
    reason = "" if not change else "Rows swapped"
    data = cards_fix_post(table, {**BOARDS, **change}, reason=reason)
    for url in (check_url(), confirm_url()):
        response = revisor.post(url, data)
        assert response.status_code == 400
        text = text_of(response)
        assert message in text and "Check the fix" in text
        pos = positions(table)
        for name, board in {**BOARDS, **change}.items():
            assert value_of(response, f"back_{pos[name]}") == board["back"]
        assert value_of(response, "reason") == reason
        assert value_of(response, "idempotency_key") == data["idempotency_key"]
    assert HandVersion.objects.count() == 1


def test_change_the_cards_brings_the_fix_back_with_all_it_carried(revisor, table):
    record_cards(table, SWAPPED)
    data = cards_fix_post(table, BOARDS, reason="Anna's rows")
    response = revisor.post(FIX, data)  # "Change the cards" on the check
    assert response.status_code == 200 and "Check the fix" in text_of(response)
    pos = positions(table)
    assert value_of(response, f"back_{pos['Anna']}") == "As Ad Ac 3c 3s"  # as checked
    assert value_of(response, "reason") == "Anna's rows"
    assert value_of(response, "idempotency_key") == data["idempotency_key"]
    assert HandVersion.objects.count() == 1


def test_htmx_check_and_confirm_of_a_fix_swap_the_main_part(revisor, table):
    record_cards(table, SWAPPED)
    data = cards_fix_post(table, BOARDS)
    checked = revisor.post(check_url(), data, HTTP_HX_REQUEST="true")
    assert checked.status_code == 200 and "HX-Request" in checked["Vary"]
    assert checked.content.decode().lstrip().startswith('<div id="revisor-main"')
    confirmed = revisor.post(confirm_url(), data, HTTP_HX_REQUEST="true")
    assert confirmed.status_code == 200 and confirmed["HX-Push-Url"] == CARD
    assert "Hand 1 corrected." in text_of(confirmed)
    assert HandVersion.objects.count() == 2


def test_a_fantasyland_hand_is_fixed_with_its_own_fantasyland(revisor, table):
    # Hand 1: Anna's queens send her to Fantasyland. Hand 2, in Fantasyland, recorded with
    # the same cards (QQ2: she would not stay), fixed to QQQ front and KKK middle (a stay):
    # front QQQ 20, middle trips 2, back full house 6 = 28. Anna wins every row from both:
    # 6 + 28 - 2 = 32 from Bo, 6 + 28 from Cia -> +66; Bo -32 + 8 = -24; Cia -34 - 8 = -42.
    record_cards(table, BOARDS)
    record_cards(table, BOARDS)
    fixed = {
        **BOARDS,
        "Anna": {"front": "Qs Qh Qd", "middle": "Ks Kh Kd 8c 7s", "back": "As Ad Ac 3c 3s"},
    }
    text = text_of(revisor.post(check_url(), cards_fix_post(table, fixed, 2)))
    assert "Anna +66 was +36, now +66 played in Fantasyland stays in Fantasyland" in text
    assert "Bo -24 was -9, now -24" in text and "Cia -42 was -27, now -42" in text
    assert revisor.post(confirm_url(), cards_fix_post(table, fixed, 2)).status_code == 302
    anna = HandResult.objects.get(
        seat__player__name="Anna", version__hand__number=2, version__superseded_at__isnull=True
    )
    assert (anna.in_fantasyland, anna.fantasyland_next, anna.points) == (True, True, 66)
    table.refresh_from_db()
    assert table.required_hands == 22  # 20 + 1 for each hand after which she is in Fantasyland


def test_the_fix_by_cards_in_swedish(revisor, table):
    record_cards(table, SWAPPED)
    revisor.cookies["django_language"] = "sv"
    entry = text_of(revisor.get(FIX))
    assert "Hand 1: korten som de ska vara" in entry and "Kontrollera rättelsen" in entry
    text = text_of(revisor.post(check_url(), cards_fix_post(table, BOARDS)))
    assert "Hand 1 rättad: läs upp den, bekräfta den sedan" in text
    assert "Anna +36 var -14, nu +36" in text and "Bekräfta rättelsen av hand 1" in text
    stale = revisor.post(confirm_url(), cards_fix_post(table, BOARDS, version=7))
    assert stale.status_code == 409 and "Kontrollera rättelsen" in text_of(stale)
