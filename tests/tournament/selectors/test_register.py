"""Reads of the register (selectors/register.py): the earlier players offered as the TD
types, and a player's earlier results (place and prize, merges followed)."""

import pytest
from django.utils import timezone

from tests.tournament.conftest import play_named, single_table
from tournament.models import Player
from tournament.selectors.register import earlier_results, register_list, suggestions
from tournament.selectors.standings import standings
from tournament.services import draws, prizes, register, registration

pytestmark = pytest.mark.django_db


def played_out(make_tournament, td_user, name, points, **prize_settings):
    """A finished tournament of one table, one hand: `points` by player name."""
    tournament = make_tournament(list(points), name=name, min_hands=1)
    if prize_settings:
        prizes.update_prizes(tournament=tournament, actor=td_user, **prize_settings)
    table = single_table(tournament, td_user)
    play_named(table, points)
    draws.advance(tournament=tournament, actor=td_user)
    tournament.refresh_from_db()
    assert tournament.finished_at is not None
    return tournament


# 3 players × 100 SEK (10,000 öre), no fee: a pool of 30,000; 70 % and 30 %: 21,000, 9,000.
PRIZES = {
    "currency": "SEK",
    "buy_in": 10_000,
    "fee": 0,
    "added_money": 0,
    "payout_shares": [7000, 3000],
    "prize_rounding": 100,
    "prizes_public": False,
}


def test_asa_oberg_is_found_by_asa_oberg(make_tournament, td_user):
    make_tournament(["Åsa Öberg", "Bo Ek"], name="SM 2024")
    now = make_tournament([], name="SM 2025")
    assert [p.entry.name for p in suggestions(now, "asa oberg")] == ["Åsa Öberg"]
    assert [p.entry.name for p in suggestions(now, "ÖBERG")] == ["Åsa Öberg"]
    assert [p.entry.name for p in suggestions(now, "ek")] == ["Bo Ek"]
    assert suggestions(now, "Cia") == []
    found = suggestions(now, "asa")[0]
    assert [(p.name, p.year, p.as_name) for p in found.played] == [
        ("SM 2024", timezone.now().year, "Åsa Öberg")
    ]


def test_a_person_already_in_the_tournament_is_not_offered(make_tournament, td_user):
    earlier = make_tournament(["Åsa Öberg"], name="SM 2024")
    now = make_tournament([], name="SM 2025")
    entry = Player.objects.get(tournament=earlier).register_entry
    registration.register_player(tournament=now, actor=td_user, register_entry=entry)
    assert suggestions(now, "asa") == []


def test_earlier_results_give_the_final_place_and_the_prize(make_tournament, td_user):
    # SM 2024: Åsa +6, Bo −2, Cia −4 at the final table: Åsa champion, Bo 2nd, Cia 3rd.
    sm24 = played_out(
        make_tournament, td_user, "SM 2024", {"Åsa Öberg": 6, "Bo": -2, "Cia": -4}, **PRIZES
    )
    # SM 2025: Bo +5, Cia −1, Åsa −4: Åsa 3rd, no prizes.
    sm25 = make_tournament([], name="SM 2025", min_hands=1)
    for name in ("Åsa Öberg", "Bo", "Cia"):
        entry = Player.objects.get(tournament=sm24, name=name).register_entry
        registration.register_player(tournament=sm25, actor=td_user, register_entry=entry)
    table = single_table(sm25, td_user)
    play_named(table, {"Bo": 5, "Cia": -1, "Åsa Öberg": -4})
    draws.advance(tournament=sm25, actor=td_user)
    sm26 = make_tournament([], name="SM 2026")
    asa = registration.register_player(
        tournament=sm26,
        actor=td_user,
        register_entry=Player.objects.get(tournament=sm24, name="Åsa Öberg").register_entry,
    )

    rows = [(r.tournament.name, r.rank, r.status, r.prize) for r in earlier_results(asa)]
    assert rows == [("SM 2025", 3, "out", None), ("SM 2024", 1, "champion", 21_000)]
    bo24 = Player.objects.get(tournament=sm24, name="Bo")
    bo = registration.register_player(
        tournament=sm26, actor=td_user, register_entry=bo24.register_entry
    )
    assert [(r.tournament.name, r.rank, r.prize) for r in earlier_results(bo)] == [
        ("SM 2025", 1, None),
        ("SM 2024", 2, 9_000),
    ]
    # A tournament's own page lists only those finished before it was made.
    assert earlier_results(Player.objects.get(tournament=sm24, name="Bo")) == []


def test_a_merge_brings_the_other_entrys_results_and_changes_no_standings(make_tournament, td_user):
    sm24 = played_out(make_tournament, td_user, "SM 2024", {"Asa Oberg": 6, "Bo": -6})
    sm25 = make_tournament(["Åsa Öberg-Lind", "Cia"], name="SM 2025")
    lind = Player.objects.get(tournament=sm25, name="Åsa Öberg-Lind")
    assert earlier_results(lind) == []
    before = [(s.rank, s.player.name) for s in standings(sm24)]

    old = Player.objects.get(tournament=sm24, name="Asa Oberg").register_entry
    register.merge_entries(entry=old, into=lind.register_entry, actor=td_user)

    assert [(r.tournament.name, r.as_name, r.rank) for r in earlier_results(lind)] == [
        ("SM 2024", "Asa Oberg", 1)
    ]
    assert (
        [(s.rank, s.player.name) for s in standings(sm24)]
        == before
        == [(1, "Asa Oberg"), (2, "Bo")]
    )
    people = {p.entry.name: [t.name for t in p.played] for p in register_list()}
    assert people["Åsa Öberg-Lind"] == ["SM 2024", "SM 2025"]
    assert "Asa Oberg" not in people


def test_the_offer_and_the_register_take_a_fixed_number_of_queries(
    make_tournament, td_user, django_assert_num_queries
):
    for year in (2021, 2022, 2023):
        make_tournament(["Åsa Öberg", "Bo", "Cia", "Dan"], name=f"SM {year}")
    now = make_tournament([], name="SM 2025")
    # The tournament's people, the merges, the entries standing; then their tournaments:
    # the merges again, the players, the entries merged in.
    with django_assert_num_queries(6):
        offered = suggestions(now, "a")
    # Typed in each tournament (the service's default: a new person), so three of each;
    # "a" starts a word of "Åsa Öberg", is inside "Cia" and "Dan": 9 found, 8 offered.
    assert [p.entry.name for p in offered] == ["Åsa Öberg"] * 3 + ["Cia"] * 3 + ["Dan"] * 2
    with django_assert_num_queries(4):
        people = register_list()
    assert len(people) == 12  # the same names typed in 3 tournaments: 12 people, not merged
