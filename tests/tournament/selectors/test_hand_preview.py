"""The scored hand shown before it is recorded (a pure function): row by row, pair by pair."""

import random

import pytest
from django.utils import translation

from scoring import Rules, score_hand
from scoring.cards import card_code
from tournament.selectors.hand_preview import score_preview

ANNA = {"front": "Qs Qh 2c", "middle": "Ks Kh 9d 8c 7s", "back": "As Ad Ac 3c 3s"}
BO = {"front": "4s 4h 2d", "middle": "Js Jh 5d 4c 3d", "back": "9s Th Jd Qc Kc"}
CIA = {"front": "5s 6h 7d", "middle": "Tc 9h 2s 3h 4d", "back": "8s 8h 8d 7c 6c"}
NO_FL = (False, 0)


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def test_the_worked_example_pair_by_pair():
    players, pairs = score_preview(["Anna", "Bo", "Cia"], [ANNA, BO, CIA], [NO_FL] * 3, Rules())
    assert [(p.name, p.points, p.royalties, p.fantasyland_next) for p in players] == [
        ("Anna", 36, 13, True),
        ("Bo", -9, 2, False),
        ("Cia", -27, 0, False),
    ]
    assert [(r.name, r.category, r.royalty) for r in players[0].rows] == [
        ("front", "pair", 7),
        ("middle", "pair", 0),
        ("back", "full_house", 6),
    ]
    anna_bo, anna_cia, bo_cia = pairs
    assert (anna_bo.winner, anna_bo.loser, anna_bo.points) == ("Anna", "Bo", 17)
    assert [d.winner for d in anna_bo.rows] == ["Anna", "Anna", "Anna"]
    assert (anna_bo.row_points, anna_bo.bonus, anna_bo.royalty_points) == (3, 3, 11)
    assert anna_bo.details == ["rows +3", "scoop +3", "royalties 13\u00a0−\u00a02\u00a0=\u00a0+11"]
    assert (anna_cia.points, bo_cia.winner, bo_cia.points) == (19, "Bo", 8)


def test_the_loser_first_is_told_as_the_winner_and_an_even_row_has_no_winner():
    # Bo and Anna share the front rank (kings, same kickers): that row is even.
    anna = {"front": "Ks Kh 2c", "middle": "As Ah 9d 8c 7s", "back": "Qs Qd Qc 3c 3s"}
    bo = {"front": "Kd Kc 2d", "middle": "Ac Ad 3d 4d 5c", "back": "8d 9s Th Jd Qh"}
    players, (pair,) = score_preview(["Bo", "Anna"], [bo, anna], [NO_FL] * 2, Rules())
    # Anna: front KK (8), middle AA, back full house (6) -> 14; Bo: KK (8), AA, straight (2) -> 10.
    # Rows: front even, middle Anna (AA 987 > AA 543), back Anna: +2, no scoop; 14 - 10 = +4.
    assert [p.points for p in players] == [-6, 6]
    assert (pair.winner, pair.loser, pair.points) == ("Anna", "Bo", 6)
    assert [(d.name, d.winner) for d in pair.rows] == [
        ("front", None),
        ("middle", "Anna"),
        ("back", "Anna"),
    ]
    assert (pair.row_points, pair.bonus, pair.royalty_points) == (2, 0, 4)


def test_the_2_4_method_and_a_foul():
    rules = Rules(method="2-4")
    fouled = {"front": "Qs Qh 7d", "middle": "Qd Qc 6d 5h 4c", "back": "As Ad Ks Kd 2c"}
    bo = {"front": "6s 6h 2d", "middle": "Js Jh 3d 4s 8c", "back": "5d 6c 7h 8d 9s"}
    players, (pair,) = score_preview(["Anna", "Bo"], [fouled, bo], [NO_FL] * 2, rules)
    # 2-4: 4 against a foul, plus Bo's royalties 1 (66) + 2 (straight) = 7.
    assert [p.points for p in players] == [-7, 7] and players[0].fouled
    assert (pair.winner, pair.fouled, pair.foul_points, pair.royalty_points) == (
        "Bo",
        ("Anna",),
        4,
        3,
    )
    assert pair.details[0] == "Anna fouled: 4 for the rows"
    # Anna against Bo without the foul, 2-4: all three rows +3, majority +1.
    _, (clean,) = score_preview(["Anna", "Bo"], [ANNA, BO], [NO_FL] * 2, rules)
    assert (clean.row_points, clean.bonus, clean.points) == (3, 1, 3 + 1 + 13 - 2)
    assert clean.details[1] == "most rows +1"


def test_fantasyland_flags_decide_who_stays():
    trips = {"front": "Qs Qh Qd", "middle": "Ks Kh Kd 8c 7s", "back": "As Ad Ac 3c 3s"}
    players, _ = score_preview(["Anna", "Bo"], [trips, BO], [(True, 1), NO_FL], Rules())
    assert players[0].stays_in_fantasyland and not players[0].goes_to_fantasyland
    players, _ = score_preview(["Anna", "Bo"], [ANNA, BO], [(True, 1), NO_FL], Rules())
    assert players[0].in_fantasyland and not players[0].fantasyland_next  # QQ does not keep it
    players, _ = score_preview(
        ["Anna", "Bo"], [trips, BO], [(True, 2), NO_FL], Rules(fantasyland_repeat="once")
    )
    assert not players[0].fantasyland_next  # a second stay is not allowed here


@pytest.mark.parametrize("method", ["1-6", "2-4"])
def test_the_pairs_add_up_to_each_players_points_on_random_deals(method):
    deal = random.Random(f"preview-{method}")
    rules = Rules(method=method)
    for _ in range(300):
        count = deal.choice((2, 3))
        cards = deal.sample(range(52), 13 * count)
        boards = [
            {
                "front": " ".join(card_code(c) for c in cards[13 * i : 13 * i + 3]),
                "middle": " ".join(card_code(c) for c in cards[13 * i + 3 : 13 * i + 8]),
                "back": " ".join(card_code(c) for c in cards[13 * i + 8 : 13 * i + 13]),
            }
            for i in range(count)
        ]
        names = ["Anna", "Bo", "Cia"][:count]
        players, pairs = score_preview(names, boards, [NO_FL] * count, rules)
        expected = [r.points for r in score_hand(boards, rules=rules)]
        assert [p.points for p in players] == expected
        won = dict.fromkeys(names, 0)
        for pair in pairs:
            assert pair.points >= 0
            won[pair.winner] += pair.points
            won[pair.loser] -= pair.points
            for duel in pair.rows:
                assert duel.winner in (None, pair.winner, pair.loser)
        assert [won[name] for name in names] == expected
