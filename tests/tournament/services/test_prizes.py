"""Buy-ins, the prize pool and payouts (services/prizes.py, selectors/prizes.py):
who pays, what the final standings win, and the TD's changes kept with who and when.

Figures worked out by hand from docs/prizes.md: the pool is every paying player's
buy-in less the fee, plus the added money; each prize rounded down to the TD's unit, the
remainder to 1st.
"""

import pytest

from tests.tournament.conftest import play, row_counts
from tournament.errors import InvalidEntry
from tournament.models import AuditEntry, Player, Tournament
from tournament.selectors.prizes import prize_figures, with_prizes
from tournament.selectors.standings import standings
from tournament.services import draws, penalties, prizes, registration

pytestmark = pytest.mark.django_db

SETTINGS = {
    "currency": "SEK",
    "buy_in": 50_000,  # 500 kr
    "fee": 5_000,  # 50 kr
    "added_money": 100_000,  # 1,000 kr
    "payout_shares": [],
    "prize_rounding": 1_000,  # 10 kr
    "prizes_public": False,
}


def set_prizes(tournament, td_user, **changes):
    """The TD saves the prize settings (SETTINGS with `changes`); `tournament` is read again."""
    prizes.update_prizes(tournament=tournament, actor=td_user, **{**SETTINGS, **changes})
    tournament.refresh_from_db()


# ---------------------------------------------------------------- the settings


def test_prize_settings_are_kept_with_who_and_when(make_tournament, td_user):
    tournament = make_tournament(3)
    revision = Tournament.objects.get(pk=tournament.pk).revision
    set_prizes(tournament, td_user, payout_shares=[6_000, 4_000], prizes_public=True)
    tournament.refresh_from_db()
    assert (tournament.buy_in, tournament.fee, tournament.added_money) == (50_000, 5_000, 100_000)
    assert tournament.payout_shares == [6_000, 4_000]
    assert tournament.prize_rounding == 1_000 and tournament.prizes_public is True
    assert tournament.revision == revision + 1  # the standings' pages show the change
    entry = AuditEntry.objects.get(action="tournament.prizes")
    assert entry.actor == td_user and entry.at is not None
    assert entry.before["buy_in"] == 0 and entry.before["payout_shares"] == []
    assert entry.after == {**SETTINGS, "payout_shares": [6_000, 4_000], "prizes_public": True}
    assert entry.params == {
        "currency": "SEK",
        "buy_in": 50_000,
        "fee": 5_000,
        "added_money": 100_000,
        "shares": [6_000, 4_000],
    }


def test_saving_the_same_settings_again_changes_nothing(make_tournament, td_user):
    tournament = make_tournament(3)
    set_prizes(tournament, td_user)
    before = row_counts()
    set_prizes(tournament, td_user)
    assert row_counts() == before
    assert AuditEntry.objects.filter(action="tournament.prizes").count() == 1


def test_prizes_can_change_after_the_first_draw(make_tournament, td_user):
    tournament = make_tournament(3, min_hands=1)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="s")
    set_prizes(tournament, td_user, added_money=0)
    tournament.refresh_from_db()
    assert tournament.added_money == 0


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"fee": 60_000}, "The fee cannot be more than the buy-in."),
        ({"buy_in": -1}, "Buy-in must be from 0 to"),
        ({"buy_in": 12.5}, "Buy-in must be from 0 to"),
        ({"added_money": True}, "Added money must be from 0 to"),
        ({"payout_shares": [5_000, 3_000]}, "add up to 80%; they must add up to 100%."),
        ({"payout_shares": [3_000, 5_000, 2_000]}, "would be paid more than place 1"),
        ({"prize_rounding": 300}, "Round each prize down to: choose one of the options."),
        ({"prize_rounding": True}, "Round each prize down to: choose one of the options."),
        ({"currency": "XBT"}, "Currency"),
        ({"prizes_public": "yes"}, "must be yes or no"),
    ],
)
def test_settings_that_cannot_be_kept_are_refused_and_nothing_changes(
    make_tournament, td_user, changes, message
):
    tournament = make_tournament(3)
    before = row_counts()
    with pytest.raises(InvalidEntry, match=message):
        set_prizes(tournament, td_user, **changes)
    assert row_counts() == before
    tournament.refresh_from_db()
    assert (tournament.buy_in, tournament.fee, tournament.payout_shares) == (0, 0, [])


# ---------------------------------------------------------------- who pays


def test_the_sm_example_27_players(make_tournament, td_user):
    # 27 × (500 − 50) + 1,000 = 13,150 kr; 3 places 50/30/20 in tens of kronor:
    # 6,570 + 3,940 + 2,630 = 13,140, the 10 kr left to 1st.
    tournament = make_tournament([f"Player {n}" for n in range(1, 28)])
    set_prizes(tournament, td_user)
    figures = prize_figures(tournament)
    assert (figures.paying, figures.pool, figures.standard) == (27, 1_315_000, True)
    assert [(p.place, p.share, p.prize) for p in figures.places] == [
        (1, 5_000, 658_000),
        (2, 3_000, 394_000),
        (3, 2_000, 263_000),
    ]
    assert figures.fee_total == 27 * 5_000


def test_a_withdrawal_before_play_takes_the_buy_in_out(make_tournament, td_user):
    tournament = make_tournament(4)
    set_prizes(tournament, td_user, added_money=0)
    registration.withdraw_player(player=Player.objects.get(name="Dan"), actor=td_user)
    assert prize_figures(tournament).pool == 3 * 45_000


def test_a_late_registration_adds_a_buy_in(make_tournament, td_user):
    tournament = make_tournament(3)
    set_prizes(tournament, td_user, added_money=0)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="s")
    registration.register_player(tournament=tournament, actor=td_user, name="Dan")
    assert prize_figures(tournament).pool == 4 * 45_000


def test_the_standard_structure_follows_the_field(make_tournament, td_user):
    tournament = make_tournament(8)
    set_prizes(tournament, td_user)
    assert prize_figures(tournament).shares == (10_000,)
    registration.register_player(tournament=tournament, actor=td_user, name="Nina")
    assert prize_figures(tournament).shares == (5_000, 3_000, 2_000)


# ---------------------------------------------------------------- the final standings


def finished_seven(make_tournament, td_user, disqualify_fourth=False):
    """7 players to a champion (as tests/tournament/services/test_advance.py): a table of
    3 and two heads-up at level 1, the three winners at level 2. The final standings:
    the final table 1, 2, 3; level 1's 2nd of the table of 3 (-1) 4th; the heads-up
    losers (-2 each) tied 5th; level 1's 3rd (-3) 7th. `disqualify_fourth`: the 4th is
    disqualified after his table is over (3 warnings)."""
    tournament = make_tournament(7, min_hands=1)
    level1 = draws.draw_first_level(tournament=tournament, actor=td_user, seed="lvl1")
    for table in level1.tables.order_by("number"):
        play(table, *{3: (4, -1, -3), 2: (2, -2)}[table.seats.count()])
    if disqualify_fourth:
        fourth = level1.tables.get(number=1).seats.get(position=1).player
        for _ in range(3):
            penalties.give_penalty(
                tournament=tournament, player=fourth, kind="conduct", actor=td_user
            )
    level2 = draws.advance(tournament=tournament, actor=td_user, seed="lvl2")
    play(level2.tables.get(), 6, -2, -4)
    draws.advance(tournament=tournament, actor=td_user)
    tournament.refresh_from_db()
    return tournament


def prized(tournament):
    rows = with_prizes(tournament, standings(tournament))
    return [(row.rank, row.status, row.prize) for row in rows]


def test_final_standings_show_each_winners_prize(make_tournament, td_user):
    tournament = finished_seven(make_tournament, td_user)
    # 7 × 100 kr = 700 kr; 50/30/20: 350, 210, 140.
    set_prizes(
        tournament,
        td_user,
        buy_in=10_000,
        fee=0,
        added_money=0,
        payout_shares=[5_000, 3_000, 2_000],
    )
    assert prized(tournament) == [
        (1, "champion", 35_000),
        (2, "out", 21_000),
        (3, "out", 14_000),
        (4, "out", 0),
        (5, "out", 0),
        (5, "out", 0),
        (7, "out", 0),
    ]


def test_tied_players_share_the_places_they_take(make_tournament, td_user):
    tournament = finished_seven(make_tournament, td_user)
    # 700 kr at 40/25/15/12/8: 280, 175, 105, 84; the two tied 5th share 5th and 6th
    # (8 % + nothing = 56 kr): 28 kr each.
    set_prizes(
        tournament,
        td_user,
        buy_in=10_000,
        fee=0,
        added_money=0,
        payout_shares=[4_000, 2_500, 1_500, 1_200, 800],
        prize_rounding=100,
    )
    assert [prize for _rank, _status, prize in prized(tournament)] == [
        28_000,
        17_500,
        10_500,
        8_400,
        2_800,
        2_800,
        0,
    ]


def test_disqualified_player_pays_and_wins_nothing_the_places_below_move_up(
    make_tournament, td_user
):
    tournament = finished_seven(make_tournament, td_user, disqualify_fourth=True)
    set_prizes(
        tournament,
        td_user,
        buy_in=10_000,
        fee=0,
        added_money=0,
        payout_shares=[4_000, 2_500, 1_500, 1_200, 800],
        prize_rounding=100,
    )
    # His buy-in stays: 7 × 100 kr. The tied heads-up losers move up to 4th and 5th
    # (12 % + 8 % = 140 kr): 70 kr each; the last player is 6th, unpaid.
    assert prize_figures(tournament).pool == 70_000
    assert prized(tournament) == [
        (1, "champion", 28_000),
        (2, "out", 17_500),
        (3, "out", 10_500),
        (4, "out", 7_000),
        (4, "out", 7_000),
        (6, "out", 0),
        (None, "disqualified", 0),
    ]


def test_no_prize_lines_while_the_standings_are_not_final(make_tournament, td_user):
    tournament = make_tournament(3, min_hands=1)
    set_prizes(tournament, td_user)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="s")
    assert [row.prize for row in with_prizes(tournament, standings(tournament))] == [None] * 3


def test_no_prizes_without_a_buy_in_or_added_money(make_tournament, td_user):
    tournament = finished_seven(make_tournament, td_user)
    assert [row.prize for row in with_prizes(tournament, standings(tournament))] == [None] * 7


# ---------------------------------------------------------------- the log's words


def test_the_log_says_the_change_in_the_readers_language(make_tournament, td_user):
    from django.utils import translation

    from tournament.audit.sentences import details, sentence

    tournament = make_tournament(3)
    set_prizes(tournament, td_user, payout_shares=[5_000, 3_000, 2_000])
    entry = AuditEntry.objects.get(action="tournament.prizes")
    nbsp = "\u00a0"
    with translation.override("en"):
        assert sentence(entry) == (
            f"Buy-in 500{nbsp}SEK (fee 50{nbsp}SEK), added money 1,000{nbsp}SEK; "
            "places paid: 50% · 30% · 20%"
        )
        assert details(entry.action, entry.after) == [
            ("Currency", "SEK"),
            ("Buy-in", f"500{nbsp}SEK"),
            ("Fee kept by the organiser", f"50{nbsp}SEK"),
            ("Added money", f"1,000{nbsp}SEK"),
            ("Payout shares", "50% · 30% · 20%"),
            ("Round each prize down to", f"10{nbsp}SEK"),
            ("Show the prizes on the public standings", "no"),
        ]
        assert ("Payout shares", "standard for the field's size") in details(
            entry.action, entry.before
        )
    with translation.override("sv"):
        assert sentence(entry) == (
            f"Inköp 500{nbsp}SEK (avgift 50{nbsp}SEK), tillagda pengar 1{nbsp}000{nbsp}SEK; "
            f"betalda placeringar: 50{nbsp}% · 30{nbsp}% · 20{nbsp}%"
        )
