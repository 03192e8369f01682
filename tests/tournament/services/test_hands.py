import uuid

import pytest

from tests.tournament.conftest import (
    dealers,
    log_lines,
    play,
    play_named,
    positions,
    single_table,
    totals,
    walked,
)
from tournament.errors import HandConflict, InvalidEntry, TableOver
from tournament.models import AuditEntry, Hand, HandResult, HandVersion
from tournament.services import hands

pytestmark = pytest.mark.django_db

# Hand-worked card example (1-6 method, SM royalties):
# Anna: QQ2 front (7), KK pair middle, AAA33 full house back (6) -> royalties 13
# Bo:   442 front, JJ middle, 9-K straight back (2)             -> royalties 2
# Cia:  765 front, T9432 middle, 888 back (trips: no back royalty) -> 0
# Anna-Bo: scoop +6, royalties 13-2 -> Anna +17; Anna-Cia: +6, 13-0 -> +19
# Bo-Cia: 44>7-high, JJ>T-high, straight>trips: +6, 2-0 -> Bo +8
# Anna 36, Bo -17+8 = -9, Cia -19-8 = -27. Anna's QQ front enters Fantasyland.
BOARDS = {
    "Anna": {"front": "Qs Qh 2c", "middle": "Ks Kh 9d 8c 7s", "back": "As Ad Ac 3c 3s"},
    "Bo": {"front": "4s 4h 2d", "middle": "Js Jh 5d 4c 3d", "back": "9s Th Jd Qc Kc"},
    "Cia": {"front": "5s 6h 7d", "middle": "Tc 9h 2s 3h 4d", "back": "8s 8h 8d 7c 6c"},
}


def record_cards(table, boards_by_name, number=None, key=None):
    table.refresh_from_db()
    pos = positions(table)
    return hands.record_hand(
        table=table,
        hand_number=number or table.hands_played + 1,
        idempotency_key=key or uuid.uuid4(),
        boards={pos[name]: board for name, board in boards_by_name.items()},
    )


def test_points_must_sum_to_zero_and_nothing_is_recorded(make_tournament, td_user):
    table = single_table(make_tournament(3), td_user)
    with pytest.raises(InvalidEntry, match=r"add up to zero; they add up to \+1"):
        play(table, 5, -2, -2)
    with pytest.raises(InvalidEntry, match="whole number"):
        play(table, "five", -2, -3)
    assert Hand.objects.count() == 0


def test_points_missing_for_a_player_names_them(make_tournament, td_user):
    table = single_table(make_tournament(3), td_user)
    pos = positions(table)
    with pytest.raises(InvalidEntry, match="Points are missing for Cia"):
        hands.record_hand(
            table=table,
            hand_number=1,
            idempotency_key=uuid.uuid4(),
            points={pos["Anna"]: 3, pos["Bo"]: -3},
        )


def test_points_hand_updates_totals_and_audit(make_tournament, td_user):
    table = single_table(make_tournament(3), td_user)
    play_named(table, {"Anna": 6, "Bo": -4, "Cia": -2}, actor=td_user)
    play_named(table, {"Anna": -1, "Bo": 5, "Cia": -4})
    table.refresh_from_db()
    assert totals(table) == {"Anna": 5, "Bo": 1, "Cia": -6}
    assert table.hands_played == 2 and table.required_hands == 20 and not table.is_over
    first, second = [
        line for line in log_lines(table.level.tournament) if line.action == "hand.record"
    ]
    assert (first.actor, first.actor_label) == (td_user, "director")
    assert first.params == {"level": 1, "table": 1, "hand": 1, "mode": "points"}
    assert first.after == {
        "hand": 1,
        "mode": "points",
        "results": {
            name: {"points": points, "fantasyland_next": False}
            for name, points in (("Anna", 6), ("Bo", -4), ("Cia", -2))
        },
    }
    assert (second.actor, second.actor_label) == (None, "system")
    # The hands' lines are their versions: no audit entry says them again.
    assert not AuditEntry.objects.filter(action="hand.record").exists()


def test_double_tap_records_one_hand(make_tournament, td_user):
    table = single_table(make_tournament(3), td_user)
    key = uuid.uuid4()
    pos = positions(table)
    points = {pos["Anna"]: 2, pos["Bo"]: -1, pos["Cia"]: -1}
    first = hands.record_hand(table=table, hand_number=1, idempotency_key=key, points=points)
    again = hands.record_hand(table=table, hand_number=1, idempotency_key=key, points=points)
    assert first.created and not again.created
    assert first.hand.pk == again.hand.pk
    assert Hand.objects.count() == 1 and HandVersion.objects.count() == 1
    table.refresh_from_db()
    assert totals(table) == {"Anna": 2, "Bo": -1, "Cia": -1}


def test_second_tablet_with_the_same_hand_number_gets_a_conflict(make_tournament, td_user):
    table = single_table(make_tournament(3), td_user)
    play(table, 1, 0, -1)
    with pytest.raises(HandConflict, match="Hand 1 is already recorded"):
        hands.record_hand(
            table=table, hand_number=1, idempotency_key=uuid.uuid4(), points={0: 3, 1: 0, 2: -3}
        )
    with pytest.raises(InvalidEntry, match="next hand at this table is hand 2, not 5"):
        hands.record_hand(
            table=table, hand_number=5, idempotency_key=uuid.uuid4(), points={0: 3, 1: 0, 2: -3}
        )
    assert Hand.objects.count() == 1


def test_deal_passes_to_the_next_seat_every_hand(make_tournament, td_user):
    table = single_table(make_tournament(3), td_user)
    first = table.first_dealer_position
    for _ in range(4):
        play(table, 0, 0, 0)
    assert dealers(table) == [
        first,
        (first + 1) % 3,
        (first + 2) % 3,
        first,
        (first + 1) % 3,
    ]
    state, _ = walked(table)
    assert state.next_dealer_position == (first + 1) % 3


def test_button_stays_for_a_fantasyland_hand_when_the_variant_is_on(make_tournament, td_user):
    table = single_table(make_tournament(3, button_stays_in_fantasyland=True), td_user)
    first = table.first_dealer_position
    play(table, 0, 0, 0, fantasyland={0})  # hand 2 is a Fantasyland hand: button stays
    play(table, 0, 0, 0)
    play(table, 0, 0, 0)
    assert dealers(table) == [
        first,
        first,
        (first + 1) % 3,
        (first + 2) % 3,
    ]


def test_table_is_over_after_min_hands_with_a_single_leader(make_tournament, td_user):
    table = single_table(make_tournament(3, min_hands=3), td_user)
    play_named(table, {"Anna": 2, "Bo": -1, "Cia": -1})
    play_named(table, {"Anna": 1, "Bo": 1, "Cia": -2})
    play_named(table, {"Anna": 0, "Bo": 3, "Cia": -3})
    table.refresh_from_db()
    # Anna 3, Bo 3, Cia -6: tied leaders after 3 of 3 hands -> play on
    assert totals(table) == {"Anna": 3, "Bo": 3, "Cia": -6}
    assert not table.is_over and table.winner is None
    play_named(table, {"Anna": -1, "Bo": 1, "Cia": 0})
    table.refresh_from_db()
    assert table.is_over and table.winner.name == "Bo" and table.hands_played == 4
    places = {s.player.name: s.place for s in table.seats.select_related("player")}
    assert places == {"Bo": 1, "Anna": 2, "Cia": 3}
    with pytest.raises(TableOver, match="is over"):
        play(table, 0, 0, 0)


def test_fantasyland_adds_one_hand_even_for_several_players(make_tournament, td_user):
    table = single_table(make_tournament(3, min_hands=3), td_user)
    play_named(table, {"Anna": 2, "Bo": -1, "Cia": -1}, fantasyland_names=["Anna"])
    table.refresh_from_db()
    assert table.required_hands == 4
    play_named(table, {"Anna": 2, "Bo": -1, "Cia": -1}, fantasyland_names=["Anna", "Bo"])
    table.refresh_from_db()
    assert table.required_hands == 5  # two players, still one hand more
    play_named(table, {"Anna": 2, "Bo": -1, "Cia": -1})
    play_named(table, {"Anna": 2, "Bo": -1, "Cia": -1})
    table.refresh_from_db()
    assert table.required_hands == 5 and table.hands_played == 4 and not table.is_over
    play_named(table, {"Anna": 2, "Bo": -1, "Cia": -1})
    table.refresh_from_db()
    assert table.is_over and table.winner.name == "Anna"


def test_cards_are_scored_into_points_fouls_royalties_and_fantasyland(make_tournament, td_user):
    table = single_table(make_tournament(3), td_user)
    record_cards(table, BOARDS)
    table.refresh_from_db()
    assert totals(table) == {"Anna": 36, "Bo": -9, "Cia": -27}
    assert table.required_hands == 21
    anna = HandResult.objects.get(seat__player__name="Anna")
    assert (anna.royalties, anna.fouled, anna.fantasyland_next) == (13, False, True)
    assert anna.front == "Qs Qh 2c"
    state, seats = walked(table)
    in_fl = {s.player.name: state.in_fantasyland[s.id] for s in seats}
    assert in_fl == {"Anna": True, "Bo": False, "Cia": False}


def test_fantasyland_stay_needs_trips_in_front_when_in_fantasyland(make_tournament, td_user):
    table = single_table(make_tournament(3), td_user)
    record_cards(table, BOARDS)
    # Hand 2: Anna (in Fantasyland) makes QQ again: enough to enter, not to stay.
    record_cards(table, BOARDS)
    second = HandResult.objects.get(seat__player__name="Anna", version__hand__number=2)
    assert second.in_fantasyland and not second.fantasyland_next
    table.refresh_from_db()
    assert table.required_hands == 21
    # Hand 3: not in Fantasyland, QQ enters again -> one more hand.
    record_cards(table, BOARDS)
    table.refresh_from_db()
    assert table.required_hands == 22


def test_a_fouled_board_pays_six_and_the_royalties(make_tournament, td_user):
    table = single_table(make_tournament(["Anna", "Bo"]), td_user)
    # Anna fouls: front QQ7 beats middle QQ654. Bo: 66 front (1), 9-high straight back (2).
    # Bo wins 6 + his royalties 3 = 9; Anna's QQ gives her nothing.
    record_cards(
        table,
        {
            "Anna": {"front": "Qs Qh 7d", "middle": "Qd Qc 6d 5h 4c", "back": "As Ad Ks Kd 2c"},
            "Bo": {"front": "6s 6h 2d", "middle": "Js Jh 3d 4s 8c", "back": "5d 6c 7h 8d 9s"},
        },
    )
    table.refresh_from_db()
    assert totals(table) == {"Anna": -9, "Bo": 9}
    anna = HandResult.objects.get(seat__player__name="Anna")
    assert anna.fouled and anna.royalties == 0 and not anna.fantasyland_next
    assert table.required_hands == 20


def test_bad_cards_get_a_message_naming_the_player(make_tournament, td_user):
    table = single_table(make_tournament(3), td_user)
    bad = dict(BOARDS)
    bad["Cia"] = {"front": "Qs 6h 7d", "middle": "Tc 9h 2s 3h 4d", "back": "8s 8h 8d 7c 6c"}
    with pytest.raises(InvalidEntry) as error:
        record_cards(table, bad)
    message = str(error.value)
    assert "Anna" in message and "Cia" in message and "twice" in message
    bad["Cia"] = {"front": "Zz 6h 7d", "middle": "Tc 9h 2s 3h 4d", "back": "8s 8h 8d 7c 6c"}
    with pytest.raises(InvalidEntry, match="Zz"):
        record_cards(table, bad)
    assert Hand.objects.count() == 0


def test_entry_mode_is_enforced(make_tournament, td_user):
    cards_only = single_table(make_tournament(3, name="Cards", entry_mode="cards"), td_user)
    with pytest.raises(InvalidEntry, match="records hands as cards"):
        play(cards_only, 1, 0, -1)
    points_only = single_table(make_tournament(3, name="Points", entry_mode="points"), td_user)
    with pytest.raises(InvalidEntry, match="records hands as points"):
        record_cards(points_only, BOARDS)


def test_points_entry_respects_the_fantasyland_repeat_rule(make_tournament, td_user):
    never = single_table(make_tournament(3, name="Never", fantasyland_repeat="never"), td_user)
    play_named(never, {"Anna": 0, "Bo": 0, "Cia": 0}, fantasyland_names=["Anna"])
    with pytest.raises(InvalidEntry, match="Anna played hand 2 in Fantasyland"):
        play_named(never, {"Anna": 0, "Bo": 0, "Cia": 0}, fantasyland_names=["Anna"])
    # Bo was not in Fantasyland: he may enter it.
    play_named(never, {"Anna": 0, "Bo": 0, "Cia": 0}, fantasyland_names=["Bo"])

    once = single_table(make_tournament(3, name="Once", fantasyland_repeat="once"), td_user)
    play_named(once, {"Anna": 0, "Bo": 0, "Cia": 0}, fantasyland_names=["Anna"])  # enters
    play_named(once, {"Anna": 0, "Bo": 0, "Cia": 0}, fantasyland_names=["Anna"])  # repeats once
    with pytest.raises(InvalidEntry, match="already repeated Fantasyland once"):
        play_named(once, {"Anna": 0, "Bo": 0, "Cia": 0}, fantasyland_names=["Anna"])
    once.refresh_from_db()
    assert once.hands_played == 2 and once.required_hands == 22


def test_messages_speak_the_users_language(make_tournament, td_user):
    from django.utils import translation

    table = single_table(make_tournament(3), td_user)
    with translation.override("sv"), pytest.raises(InvalidEntry) as error:
        play(table, 5, -2, -2)
    assert str(error.value) == "Poängen måste summera till noll; de summerar till +1."


def test_a_card_error_names_the_players_in_the_tds_language(make_tournament, td_user):
    from django.utils import translation

    table = single_table(make_tournament(3), td_user)
    boards = dict(BOARDS, Cia=dict(BOARDS["Cia"], back="8s 8h 8d 7c Qs"))  # Anna holds Q♠
    with pytest.raises(InvalidEntry) as english:
        record_cards(table, boards)
    # Places are named in seat order (the fixed seed seats Cia before Anna).
    assert str(english.value) == "Card Q♠ appears twice: Cia's back and Anna's front"
    with translation.override("sv"), pytest.raises(InvalidEntry) as swedish:
        record_cards(table, boards)
    assert str(swedish.value) == "Kortet Q♠ förekommer två gånger: Cias bottenrad och Annas topprad"
    assert Hand.objects.count() == 0
