"""The revisor enters a hand by cards: check (scored, nothing recorded), then confirm.

The hand-worked example is the one of tests/tournament/services/test_hands.py
(1-6 method, SM royalties):
  Anna: QQ2 front (7), KK pair middle, AAA33 full house back (6) -> royalties 13
  Bo:   442 front, JJ middle, 9-K straight back (2)             -> royalties 2
  Cia:  765 front, T9432 middle, 888 back (trips: no back royalty) -> 0
  Anna-Bo: Anna wins every row, scoop: 3 + 3 = 6, royalties 13 - 2 = 11 -> Anna +17
  Anna-Cia: 6 + 13 - 0 -> Anna +19
  Bo-Cia: 44 > 7 high, JJ > T high, straight > trips: 6 + 2 - 0 -> Bo +8
  Anna 17 + 19 = 36, Bo -17 + 8 = -9, Cia -19 - 8 = -27. Anna's QQ front enters Fantasyland.
"""

import html
import re
import uuid

import pytest
from django.urls import reverse

from tests.tournament.conftest import play, play_named, positions, single_table, totals
from tournament.models import Hand, HandResult, HandVersion
from tournament.services import hands

pytestmark = pytest.mark.django_db

CARD = reverse("revisor:card")
CARDS = reverse("revisor:cards")
CHECK = reverse("revisor:cards_preview")
CONFIRM = reverse("revisor:cards_confirm")

BOARDS = {
    "Anna": {"front": "Qs Qh 2c", "middle": "Ks Kh 9d 8c 7s", "back": "As Ad Ac 3c 3s"},
    "Bo": {"front": "4s 4h 2d", "middle": "Js Jh 5d 4c 3d", "back": "9s Th Jd Qc Kc"},
    "Cia": {"front": "5s 6h 7d", "middle": "Tc 9h 2s 3h 4d", "back": "8s 8h 8d 7c 6c"},
}


def cards_post(table, boards_by_name, number, key=None):
    pos = positions(table)
    data = {
        f"{row}_{pos[name]}": text
        for name, board in boards_by_name.items()
        for row, text in board.items()
    }
    data.update({"hand_number": str(number), "idempotency_key": str(key or uuid.uuid4())})
    return data


def text_of(response):
    """The page as a person reads it: entities decoded, tags out, spaces squeezed."""
    page = re.sub(r"<[^>]+>", " ", response.content.decode())
    return " ".join(html.unescape(page).split())


def value_of(response, name):
    match = re.search(rf'name="{name}"[^>]*value="([^"]*)"', response.content.decode())
    return html.unescape(match.group(1)) if match else None


def bound_table(make_tournament, td_user, client, **settings):
    """A table of Anna, Bo and Cia, and this client bound to it as its revisor."""
    table = single_table(make_tournament(["Anna", "Bo", "Cia"], min_hands=3, **settings), td_user)
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    return table


# ---------------------------------------------------------------- the entry page


def test_the_entry_page_has_three_rows_per_player_and_the_picker_keys(revisor, table):
    response = revisor.get(CARDS)
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    pos = positions(table)
    for name in ("Anna", "Bo", "Cia"):
        assert f'name="front_{pos[name]}"' in page and f'name="back_{pos[name]}"' in page
        assert f"{name}: front (3 cards)" in page and f"{name}: middle (5 cards)" in page
    # Without JavaScript the keys stay hidden and the text inputs are the form.
    assert re.search(r'<div class="picker" data-picker hidden', page)
    assert page.count('class="key rank"') == 13 and page.count('class="key suit') == 4
    assert 'class="key suit hearts"' in page and "♥" in page
    assert "Check the hand" in page and "Table 1 · hand 1 of 3" in page
    assert 'action="/r/card/cards/check/"' in page
    assert not Hand.objects.exists()


def test_the_card_links_to_the_entry_by_cards(revisor, table):
    page = revisor.get(CARD).content.decode()
    assert "Enter hand 1 by cards" in page and 'href="/r/card/cards/"' in page
    assert 'id="points-form"' in page  # "either": both ways


def test_a_cards_only_tournament_shows_no_points_form(make_tournament, td_user, client):
    bound_table(make_tournament, td_user, client, entry_mode="cards")
    page = client.get(CARD).content.decode()
    assert "Enter hand 1 by cards" in page and 'id="points-form"' not in page


# ---------------------------------------------------------------- check the hand


def test_checking_the_hand_shows_it_scored_and_records_nothing(revisor, table):
    response = revisor.post(CHECK, cards_post(table, BOARDS, 1))
    assert response.status_code == 200
    text = text_of(response)
    assert "Hand 1: announce it, then confirm" in text
    assert "Nothing is recorded yet." in text
    assert not Hand.objects.exists()
    # Each player's points, rows, royalties and Fantasyland.
    assert "Anna +36" in text and "Bo -9" in text and "Cia -27" in text
    assert "Front Q♠ Q♥ 2♣ pair +7" in text
    assert "Middle K♠ K♥ 9♦ 8♣ 7♠ pair 0" in text
    assert "Back A♠ A♦ A♣ 3♣ 3♠ full house +6 Royalties 13" in text
    assert "Back 9♠ 10♥ J♦ Q♣ K♣ straight +2 Royalties 2" in text
    assert "Back 8♠ 8♥ 8♦ 7♣ 6♣ three of a kind 0 Royalties 0" in text
    assert text.count("goes to Fantasyland") == 1
    assert "Plays the next hand in Fantasyland: Anna." in text
    # Pair by pair: who wins each row, the scoop, the royalties.
    assert (
        "Anna wins 17 from Bo. Front: Anna · Middle: Anna · Back: Anna "
        "rows +3, scoop +3, royalties 13 − 2 = +11"
    ) in text
    assert "Anna wins 19 from Cia." in text and "royalties 13 − 0 = +13" in text
    assert (
        "Bo wins 8 from Cia. Front: Bo · Middle: Bo · Back: Bo rows +3, scoop +3, "
        "royalties 2 − 0 = +2"
    ) in text
    # The Confirm form carries the same boards, hand number and key.
    pos = positions(table)
    assert value_of(response, f"back_{pos['Bo']}") == "9s Ts Jd Qc Kc".replace("Ts", "Th")
    assert value_of(response, "hand_number") == "1"
    assert (
        "Confirm hand 1" in text and 'action="/r/card/cards/confirm/"' in response.content.decode()
    )


def test_cards_typed_with_symbols_tens_and_no_spaces_are_read(revisor, table):
    typed = {
        "Anna": {"front": "Q♠Q♥2♣", "middle": "ks kh 9d 8c 7s", "back": "A♠ A♦ A♣ 3♣ 3♠"},
        "Bo": {"front": "4s,4h,2d", "middle": "JsJh5d4c3d", "back": "9s 10h Jd Qc Kc"},
        "Cia": BOARDS["Cia"],
    }
    key = uuid.uuid4()
    response = revisor.post(CHECK, cards_post(table, typed, 1, key))
    assert response.status_code == 200 and "Anna +36" in text_of(response)
    pos = positions(table)
    assert value_of(response, f"front_{pos['Anna']}") == "Qs Qh 2c"
    assert value_of(response, f"back_{pos['Bo']}") == "9s Th Jd Qc Kc"
    assert value_of(response, "idempotency_key") == str(key)


def test_a_duplicate_card_is_refused_in_place_with_the_cards_kept(revisor, table):
    boards = {**BOARDS, "Bo": {**BOARDS["Bo"], "front": "Qs 4h 2d"}}
    response = revisor.post(CHECK, cards_post(table, boards, 1))
    assert response.status_code == 400
    text = text_of(response)
    assert "Card Q♠ appears twice: Anna's front and Bo's front" in text
    assert "Check the hand" in text and "Confirm hand" not in text
    pos = positions(table)
    assert value_of(response, f"front_{pos['Bo']}") == "Qs 4h 2d"
    assert value_of(response, f"middle_{pos['Cia']}") == "Tc 9h 2s 3h 4d"
    assert not Hand.objects.exists()


@pytest.mark.parametrize(
    ("middle", "message"),
    [
        ("Ks Kh 9d 8c", "Anna's middle has 4 cards; it needs 5"),  # 12 cards in the board
        ("Ks Kh 9d 8c 7s 6d", "Anna's middle has 6 cards; it needs 5"),  # 14 cards
        ("Ks Kh 9d 8c 7x", 'Unknown card "7x" in Anna\'s middle'),
    ],
)
def test_a_board_of_12_or_14_cards_or_an_unknown_card_is_refused(revisor, table, middle, message):
    boards = {**BOARDS, "Anna": {**BOARDS["Anna"], "middle": middle}}
    response = revisor.post(CHECK, cards_post(table, boards, 1))
    assert response.status_code == 400
    assert message in text_of(response)
    assert value_of(response, f"middle_{positions(table)['Anna']}") == middle
    assert not Hand.objects.exists()


def test_a_fouled_hand_is_shown_as_fouled(make_tournament, td_user, client):
    table = single_table(make_tournament(["Anna", "Bo"], min_hands=3), td_user)
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    # Anna fouls: front QQ7 beats middle QQ654. Bo: 66 front (1), 9-high straight back (2).
    boards = {
        "Anna": {"front": "Qs Qh 7d", "middle": "Qd Qc 6d 5h 4c", "back": "As Ad Ks Kd 2c"},
        "Bo": {"front": "6s 6h 2d", "middle": "Js Jh 3d 4s 8c", "back": "5d 6c 7h 8d 9s"},
    }
    response = client.post(CHECK, cards_post(table, boards, 1))
    assert response.status_code == 200
    text = text_of(response)
    assert "Anna -9" in text and "Bo +9" in text
    assert "fouled: loses every row, no royalties" in text
    assert "Front Q♠ Q♥ 7♦ pair 0" in text  # a fouled board earns no royalty
    assert "Bo wins 9 from Anna. Front: Bo · Middle: Bo · Back: Bo" in text
    assert "Anna fouled: 6 for the rows, royalties 3 − 0 = +3" in text
    assert "No one plays the next hand in Fantasyland." in text


def test_checking_a_hand_already_recorded_elsewhere_shows_the_fresh_card(revisor, table):
    play(table, 1, 0, -1)  # another device recorded hand 1
    response = revisor.post(CHECK, cards_post(table, BOARDS, 1), follow=True)
    text = text_of(response)
    assert (
        "Hand 1 is already recorded at table 1, from another device" in text
        and "Hand 2 of 3" in text
    )
    assert Hand.objects.count() == 1


def test_checking_a_hand_number_ahead_is_refused_in_place(revisor, table):
    response = revisor.post(CHECK, cards_post(table, BOARDS, 3))
    assert response.status_code == 400
    assert "The next hand at this table is hand 1, not 3." in text_of(response)
    assert value_of(response, f"front_{positions(table)['Anna']}") == "Qs Qh 2c"


# ---------------------------------------------------------------- confirm


def test_confirming_records_the_hand_once(revisor, table):
    data = cards_post(table, BOARDS, 1)
    response = revisor.post(CONFIRM, data)
    assert response.status_code == 302 and response["Location"] == CARD
    assert totals(table) == {"Anna": 36, "Bo": -9, "Cia": -27}
    version = HandVersion.objects.get()
    assert version.mode == HandVersion.Mode.CARDS
    assert (version.entered_by_label, version.created_by) == ("Revisor, table 1", None)
    assert str(version.idempotency_key) == data["idempotency_key"]
    anna = HandResult.objects.get(seat__player__name="Anna")
    assert (anna.front, anna.royalties, anna.fantasyland_next) == ("Qs Qh 2c", 13, True)
    table.refresh_from_db()
    assert table.required_hands == 4  # 3 + 1: Anna goes to Fantasyland
    page = text_of(revisor.get(CARD))
    assert "Hand 1 recorded ✓" in page and "Hand 2 of 4" in page
    assert "Enter hand 2 by cards" in page


def test_a_replayed_confirm_records_one_hand_and_says_so(revisor, table):
    data = cards_post(table, BOARDS, 1)
    revisor.post(CONFIRM, data)
    again = revisor.post(CONFIRM, data, follow=True)
    assert "Hand 1 was already recorded (the same entry arrived twice)." in text_of(again)
    assert Hand.objects.count() == 1 and totals(table)["Anna"] == 36


def test_confirming_a_hand_another_device_recorded_shows_the_fresh_card(revisor, table):
    play_named(table, {"Anna": 1, "Bo": 0, "Cia": -1})  # the other device's hand 1
    response = revisor.post(CONFIRM, cards_post(table, BOARDS, 1), follow=True)
    text = text_of(response)
    assert (
        "Hand 1 is already recorded at table 1, from another device" in text
        and "Hand 2 of 3" in text
    )
    assert Hand.objects.count() == 1 and totals(table) == {"Anna": 1, "Bo": 0, "Cia": -1}


def test_confirming_bad_cards_is_refused_in_place(revisor, table):
    boards = {**BOARDS, "Cia": {**BOARDS["Cia"], "back": "8s 8h 8d 7c"}}
    response = revisor.post(CONFIRM, cards_post(table, boards, 1))
    assert response.status_code == 400
    assert "Cia's back has 4 cards; it needs 5" in text_of(response)
    assert value_of(response, f"back_{positions(table)['Cia']}") == "8s 8h 8d 7c"
    assert not Hand.objects.exists()


def test_htmx_check_and_confirm_swap_the_main_part(revisor, table):
    data = cards_post(table, BOARDS, 1)
    checked = revisor.post(CHECK, data, HTTP_HX_REQUEST="true")
    assert checked.status_code == 200 and "HX-Request" in checked["Vary"]
    assert checked.content.decode().lstrip().startswith('<div id="revisor-main"')
    assert "Confirm hand 1" in checked.content.decode()
    # The check is a step in the tablet's history: Back from it returns to the cards.
    assert checked["HX-Push-Url"] == CHECK
    refused = revisor.post(
        CHECK, {**data, f"front_{positions(table)['Bo']}": "Qs 4h 2d"}, HTTP_HX_REQUEST="true"
    )
    assert refused.status_code == 400 and "HX-Push-Url" not in refused
    confirmed = revisor.post(CONFIRM, data, HTTP_HX_REQUEST="true")
    assert confirmed.status_code == 200 and confirmed["HX-Push-Url"] == CARD
    page = confirmed.content.decode()
    assert page.lstrip().startswith('<div id="revisor-main"')
    assert "Hand 1 recorded ✓" in page and "Hand 2 of 4" in page
    assert Hand.objects.count() == 1


def test_change_the_cards_brings_the_entry_back_with_the_same_cards_and_key(revisor, table):
    data = cards_post(table, BOARDS, 1)
    response = revisor.post(CARDS, data)
    assert response.status_code == 200
    assert "Check the hand" in text_of(response)
    pos = positions(table)
    assert value_of(response, f"middle_{pos['Bo']}") == "Js Jh 5d 4c 3d"
    assert value_of(response, "idempotency_key") == data["idempotency_key"]
    assert not Hand.objects.exists()


# ---------------------------------------------------------------- Fantasyland


def test_a_fantasyland_player_enters_13_of_14_cards_and_stays_with_trips(revisor, table):
    hands.record_hand(
        table=table,
        hand_number=1,
        idempotency_key=uuid.uuid4(),
        boards={positions(table)[name]: board for name, board in BOARDS.items()},
    )
    page = text_of(revisor.get(CARDS))
    assert "In Fantasyland this hand: Anna." in page
    assert "Anna plays this hand in Fantasyland: 14 cards dealt. Enter the 13 placed" in page
    # Anna in Fantasyland: QQQ front (20), KKK middle (2), AAA33 back (6): she stays.
    boards = {
        **BOARDS,
        "Anna": {"front": "Qs Qh Qd", "middle": "Ks Kh Kd 8c 7s", "back": "As Ad Ac 3c 3s"},
    }
    checked = text_of(revisor.post(CHECK, cards_post(table, boards, 2)))
    assert "played in Fantasyland" in checked and "stays in Fantasyland" in checked
    assert "Front Q♠ Q♥ Q♦ three of a kind +20" in checked
    data = cards_post(table, boards, 2)
    assert revisor.post(CONFIRM, data).status_code == 302
    anna = HandResult.objects.get(seat__player__name="Anna", version__hand__number=2)
    assert (anna.in_fantasyland, anna.fantasyland_next, anna.royalties) == (True, True, 28)


def test_a_fantasyland_player_with_queens_again_does_not_stay(revisor, table):
    pos = positions(table)
    boards = {pos[name]: board for name, board in BOARDS.items()}
    hands.record_hand(table=table, hand_number=1, idempotency_key=uuid.uuid4(), boards=boards)
    checked = text_of(revisor.post(CHECK, cards_post(table, BOARDS, 2)))
    assert "played in Fantasyland" in checked
    assert "stays in Fantasyland" not in checked and "goes to Fantasyland" not in checked
    assert "No one plays the next hand in Fantasyland." in checked


# ---------------------------------------------------------------- refusals


def test_a_points_tournament_refuses_cards_with_a_message(make_tournament, td_user, client):
    table = bound_table(make_tournament, td_user, client, entry_mode="points")
    page = client.get(CARDS, follow=True)
    assert "This tournament records hands as points." in text_of(page)
    assert "Enter hand 1 by cards" not in text_of(client.get(CARD))
    for url in (CHECK, CONFIRM):
        response = client.post(url, cards_post(table, BOARDS, 1))
        assert response.status_code == 400
        assert "This tournament records hands as points." in text_of(response)
        assert value_of(response, f"front_{positions(table)['Anna']}") == "Qs Qh 2c"
    assert not Hand.objects.exists()


def test_a_table_over_takes_no_cards(revisor, table):
    for _ in range(3):
        play(table, 3, -1, -2)
    assert revisor.get(CARDS)["Location"] == CARD
    response = revisor.post(CHECK, cards_post(table, BOARDS, 4), follow=True)
    assert "Table 1 is over" in text_of(response)
    response = revisor.post(CONFIRM, cards_post(table, BOARDS, 4), follow=True)
    assert "is over" in text_of(response)
    assert Hand.objects.count() == 3


def test_the_pages_need_a_bound_device(client, table):
    for url in (CARDS, CHECK, CONFIRM):
        response = client.post(url, cards_post(table, BOARDS, 1))
        assert response.status_code == 302 and response["Location"] == reverse("revisor:code")
    assert client.get(CARDS)["Location"] == reverse("revisor:code")
    assert not Hand.objects.exists()


def test_a_get_of_check_or_confirm_goes_back_to_the_entry(revisor):
    assert revisor.get(CHECK)["Location"] == CARDS
    assert revisor.get(CONFIRM)["Location"] == CARDS


def test_the_check_in_swedish(revisor, table):
    revisor.cookies["django_language"] = "sv"
    entry = text_of(revisor.get(CARDS))
    assert "Kontrollera handen" in entry and "Anna: toppen (3 kort)" in entry
    text = text_of(revisor.post(CHECK, cards_post(table, BOARDS, 1)))
    assert "Hand 1: läs upp den, bekräfta den sedan" in text
    assert "Anna vinner 17 av Bo. Toppen: Anna · Mitten: Anna · Botten: Anna" in text
    assert "rader +3, scoop +3, royalties 13 − 2 = +11" in text
    assert "Spelar nästa hand i Fantasyland: Anna." in text and "Bekräfta hand 1" in text
    boards = {**BOARDS, "Bo": {**BOARDS["Bo"], "front": "Qs 4h 2d"}}
    refused = text_of(revisor.post(CHECK, cards_post(table, boards, 1)))
    assert "Kortet Q♠ förekommer två gånger: Annas topprad och Bos topprad" in refused
