"""The TD's table page: the score card, its status, its polled region, and its cost in queries."""

import html as htmllib
import re
import uuid

import pytest
from django.urls import reverse

from tests.tournament.conftest import play_named, positions, single_table
from tournament.models import Player
from tournament.selectors.score_card import score_card
from tournament.selectors.tokens import revision_token
from tournament.services import calls, draws, hands, penalties

pytestmark = pytest.mark.django_db

# Three boards without a card twice (worked out by hand in test_a_hand_entered_as_cards...):
ANNA = {"front": "Qs Qh 7d", "middle": "Ks Kh 9d 8c 2s", "back": "As Ah Ad 3c 3s"}
BO = {"front": "2c 3d 4h", "middle": "5s 6d 8h 9h Jc", "back": "Tc Td 4c 4d 5c"}
CIA = {"front": "Kc Kd 5h", "middle": "Jd Js 6c 6h 7c", "back": "8d 9c Ts Jh 2d"}


def url(tournament, table):
    return reverse("td:table", args=[tournament.pk, table.pk])


def text(response):
    """The page's visible text, blanks folded (for reading sentences across tags)."""
    html = response.content.decode()
    html = re.sub(r"<[^>]+>", " ", html)
    return " ".join(htmllib.unescape(html).split())


def player(tournament, name):
    return Player.objects.get(tournament=tournament, name=name)


# ---------------------------------------------------------------- access


def test_anonymous_goes_to_login_and_non_staff_is_refused(client, outsider, three):
    tournament, table = three
    response = client.get(url(tournament, table))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    client.force_login(outsider)
    assert client.get(url(tournament, table)).status_code == 403


def test_a_table_of_another_tournament_or_an_unknown_one_is_404(td_client, three, make_tournament):
    tournament, table = three
    other = make_tournament(2, name="Other cup")
    assert td_client.get(url(other, table)).status_code == 404
    assert td_client.get(reverse("td:table", args=[tournament.pk, 99999])).status_code == 404
    assert td_client.get(reverse("td:table", args=[99999, table.pk])).status_code == 404


# ---------------------------------------------------------------- the score card


def test_an_empty_table_shows_its_first_dealer_and_the_forms(td_client, three):
    tournament, table = three
    response = td_client.get(url(tournament, table))
    assert response.status_code == 200
    page = text(response)
    # The first dealer was drawn: seat 1 (position 0) is Cia.
    assert "Hand 1 of 3" in page
    assert "Cia deals hand 1." in page
    assert "No hand recorded yet." in page
    assert "Record hand 1" in page
    assert "Revisor access: link, QR code, short code" in page
    html = response.content.decode()
    assert reverse("td:table_access", args=[tournament.pk, table.pk]) in html
    assert 'name="hand_number" value="1"' in html


def dealer_marks(line):
    """Whether each points cell of a hand's line, in seat order, marks its dealer."""
    cells = re.findall(r'<td class="num points[^"]*">(.*?)</td>', line, re.S)
    return ["deals this hand" in cell for cell in cells]


def test_score_card_hand_by_hand_with_dealers_running_totals_fantasyland_and_penalties(
    td_client, three, td_user
):
    tournament, table = three
    play_named(table, {"Anna": 4, "Bo": -1, "Cia": -3}, ["Anna"])  # Cia deals
    penalties.give_penalty(
        tournament=tournament, player=player(tournament, "Bo"), kind="timeout", actor=td_user
    )
    play_named(table, {"Anna": -2, "Bo": 5, "Cia": -3})  # Anna deals; Anna played it in FL
    response = td_client.get(url(tournament, table))
    html = response.content.decode()
    hand1 = html[html.index('id="hand-1"') : html.index('class="penalty-line')]
    # Cia, Anna, Bo in seat order: points then running total.
    assert re.findall(r'class="num running">(-?\d+)<', hand1) == ["-3", "4", "-1"]
    # No dealer column: the dealer's points carry the D mark, as on the players' card.
    assert 'class="dealer"' not in html and ">Dealer<" not in html
    assert dealer_marks(hand1) == [True, False, False]  # Cia deals hand 1
    assert "goes to Fantasyland" in hand1
    penalty = html[html.index('class="penalty-line') : html.index('id="hand-2"')]
    # Bo's timeout after hand 1: -10, his running total -1 - 10 = -11.
    assert ">-10<" in penalty and ">-11<" in penalty
    hand2 = html[html.index('id="hand-2"') : html.index("<tfoot>")]
    assert dealer_marks(hand2) == [False, True, False]  # then Anna
    assert "played this hand in Fantasyland" in hand2
    # Running: Cia -3-3 = -6; Anna 4-2 = 2; Bo -11+5 = -6.
    assert re.findall(r'class="num running">(-?\d+)<', hand2) == ["-6", "2", "-6"]
    footer = text(response).split("Total", 1)[1]
    assert "-6" in footer and "2" in footer
    assert "(4 from hands, -10 in penalties)" in text(response)
    # 3 + 1 (Anna went to Fantasyland after hand 1) = 4 hands; next is hand 3, Bo deals.
    page = text(response)
    assert "Hand 3 of 4" in page
    assert "(3 + 1 for Fantasyland" in page
    assert "Bo deals hand 3." in page
    assert "Nobody plays the next hand in Fantasyland." in page


def test_the_last_running_total_is_the_seat_total(td_client, three, td_user):
    tournament, table = three
    play_named(table, {"Anna": 7, "Bo": -3, "Cia": -4})
    penalties.give_penalty(
        tournament=tournament, player=player(tournament, "Cia"), kind="slow", actor=td_user
    )
    penalties.give_penalty(
        tournament=tournament, player=player(tournament, "Cia"), kind="timeout", actor=td_user
    )
    play_named(table, {"Anna": 1, "Bo": 1, "Cia": -2})
    table.refresh_from_db()
    card = score_card(selectors_table(table))
    last = {}
    for line in card.lines:
        for cell in line.cells:
            last[cell.seat.player.name] = cell.running_total
    # Cia: -4 - 35 (2nd warning, a timeout: 10 + 25) - 2 = -41.
    assert last == {"Anna": 8, "Bo": -2, "Cia": -41}
    assert {t.seat.player.name: t.total for t in card.totals} == last


def selectors_table(table):
    from tournament.tables.state import load_table

    return load_table(table.pk)


def test_a_hand_entered_as_cards_shows_rows_with_suits_royalties_and_fouls(
    td_client, three, td_user
):
    tournament, table = three
    pos = positions(table)
    hands.record_hand(
        table=table,
        hand_number=1,
        idempotency_key=uuid.uuid4(),
        boards={pos["Anna"]: ANNA, pos["Bo"]: BO, pos["Cia"]: CIA},
        actor=td_user,
    )
    response = td_client.get(url(tournament, table))
    html = response.content.decode()
    # By hand: Anna beats Bo in all three rows (QQ > 4 high, KK > J high, full house >
    # two pair): 3 + 3 for the scoop, and her royalties 7 (QQ) + 6 (full house) = 13: +19.
    # Cia fouled: Anna wins 6 + 13 = 19 from her, Bo 6. Anna +38, Bo -19 + 6 = -13,
    # Cia -19 - 6 = -25.
    hand1 = html[html.index('id="hand-1"') : html.index("<tfoot>")]
    assert re.findall(r'class="num running">(-?\d+)<', hand1) == ["-25", "38", "-13"]
    assert '<span class="playing-card suit-spades">Q♠</span>' in hand1
    assert '<span class="playing-card suit-hearts red">Q♥</span>' in hand1
    assert '<span class="playing-card suit-diamonds red">7♦</span>' in hand1
    assert '<span class="playing-card suit-clubs">3♣</span>' in hand1
    assert "+7 royalty" in hand1 and "+6 royalty" in hand1
    assert "Royalties: 13" in hand1
    assert "full house" in hand1
    assert "Fouled: loses every row, no royalties" in hand1
    # QQ in front: Anna goes to Fantasyland.
    assert "goes to Fantasyland" in hand1
    assert "In Fantasyland next hand: Anna." in text(response)


def test_a_corrected_hand_is_marked_with_its_whole_history(td_client, three, td_user):
    tournament, table = three
    play_named(table, {"Anna": 4, "Bo": -1, "Cia": -3}, actor=td_user)
    hand = table.hands.get(number=1)
    pos = positions(table)
    hands.correct_hand(
        hand=hand,
        actor=td_user,
        reason="Bo's royalty was missed",
        based_on_version=1,
        points={pos["Anna"]: 2, pos["Bo"]: 1, pos["Cia"]: -3},
    )
    page = text(td_client.get(url(tournament, table)))
    assert "version 2" in page
    assert "History of hand 1 (2 versions)" in page
    assert "Version 1 (points), by director at" in page
    assert "Cia -3, Anna +4, Bo -1" in page  # the old points
    assert "Version 2 current (points), by director" in page
    assert "Reason: Bo's royalty was missed" in page
    assert "Cia -3, Anna +2, Bo +1" in page


def test_a_finished_table_names_its_winner_and_takes_no_more_hands(td_client, three):
    tournament, table = three
    for _ in range(3):
        play_named(table, {"Anna": 2, "Bo": -1, "Cia": -1})
    response = td_client.get(url(tournament, table))
    page = text(response)
    assert "3 of 3 hands played: the table is over." in page
    assert "Anna wins the final table with 6 points and is the champion." in page
    assert "Record hand" not in page
    assert "Give a penalty" in page  # penalties still count here until the next draw


def test_a_tie_after_the_required_hands_offers_settling_or_one_more_hand(td_client, three):
    tournament, table = three
    for _ in range(3):
        play_named(table, {"Anna": 1, "Bo": 1, "Cia": -2})
    page = text(td_client.get(url(tournament, table)))
    assert (
        "The required hands are played and these players are tied for first with 3 points: "
        "Anna, Bo." in page
    )
    assert "Hand 4, after the 3 required" in page
    assert "play one more hand" in page
    assert "Settle the tie for first" in page
    assert "Record hand 4" in page  # or play on


def test_an_open_call_is_shown_with_its_kind_note_and_a_clear_button(td_client, three):
    tournament, table = three
    calls.call_td(table=table, kind="dispute", note="Who won the back?", actor_label="Revisor")
    response = td_client.get(url(tournament, table))
    page = text(response)
    assert "The revisor calls the TD: Dispute" in page
    assert "Who won the back?" in page
    assert "Clear the call" in page
    assert reverse("td:call_clear", args=[tournament.pk, table.pk]) in response.content.decode()


def test_a_redrawn_table_says_so_and_offers_no_forms(td_client, three, td_user):
    tournament, table = three
    draws.redraw_level(level=table.level, actor=td_user, reason="Wrong list")
    response = td_client.get(url(tournament, table))
    page = text(response)
    assert response.status_code == 200
    assert "This table's draw was redone" in page
    assert "Record hand" not in page and "Give a penalty" not in page
    assert "data-poll-stop" in response.content.decode()


def test_a_closed_level_says_its_results_are_final(td_client, make_tournament, td_user):
    tournament = make_tournament(3, min_hands=1)
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 2, "Bo": -1, "Cia": -1})
    draws.advance(tournament=tournament, actor=td_user)
    response = td_client.get(url(tournament, table))
    page = text(response)
    assert "Level 1 is closed: its results are final." in page
    assert "Correct hand 1" not in page and "Give a penalty" not in page


# ---------------------------------------------------------------- the polled region


def test_the_poll_gets_204_when_nothing_changed_and_the_region_when_it_did(td_client, three):
    tournament, table = three
    response = td_client.get(url(tournament, table))
    html = response.content.decode()
    rev = re.search(r'<section id="card".*?data-poll-rev="([^"]+)"', html, re.S).group(1)
    assert rev == revision_token(tournament.pk)
    assert "HX-Request" in response["Vary"]
    htmx = {"HX-Request": "true"}
    unchanged = td_client.get(url(tournament, table), {"rev": rev}, headers=htmx)
    assert unchanged.status_code == 204
    play_named(table, {"Anna": 2, "Bo": -1, "Cia": -1})
    fresh = td_client.get(url(tournament, table), {"rev": rev}, headers=htmx)
    assert fresh.status_code == 200
    html = fresh.content.decode()
    assert "HX-Request" in fresh["Vary"]
    assert html.lstrip().startswith('<section id="card"')
    assert "<html" not in html
    assert f'data-poll-rev="{revision_token(tournament.pk)}"' in html
    assert 'id="hand-1"' in html
    # No typing form in the polled region: the hand entry and penalty forms are outside it.
    assert 'name="points_0"' not in html and 'name="kind"' not in html


def test_the_poll_of_another_tournaments_table_is_404(td_client, three, make_tournament):
    tournament, table = three
    other = make_tournament(2, name="Other cup")
    response = td_client.get(url(other, table), {"rev": "x"}, headers={"HX-Request": "true"})
    assert response.status_code == 404


# ---------------------------------------------------------------- cost in queries


def _play_many(table, count, td_user):
    pos = positions(table)
    for number in range(1, count + 1):
        hands.record_hand(
            table=table,
            hand_number=number,
            idempotency_key=uuid.uuid4(),
            points={pos["Anna"]: 2, pos["Bo"]: -1, pos["Cia"]: -1},
            fantasyland={pos["Anna"]} if number % 7 == 0 else (),
            actor=td_user,
        )


@pytest.mark.parametrize("count", [5, 40])
def test_the_table_page_costs_the_same_queries_at_5_and_40_hands(
    td_client, make_tournament, td_user, django_assert_num_queries, count
):
    tournament = make_tournament(3, min_hands=60)
    table = single_table(tournament, td_user)
    _play_many(table, count, td_user)
    pos = positions(table)
    hands.correct_hand(
        hand=table.hands.get(number=2),
        actor=td_user,
        reason="typo",
        based_on_version=1,
        points={pos["Anna"]: 1, pos["Bo"]: 0, pos["Cia"]: -1},
    )
    penalties.give_penalty(
        tournament=tournament, player=player(tournament, "Bo"), kind="timeout", actor=td_user
    )
    calls.call_td(table=table, kind="other")
    # session, user, tournament, table, revision token, score card (seats, versions,
    # results, penalties, open call: Anna leads alone, so no tie settlement is read), the
    # penalty form's players; the alerts bar rendered with the page: the dashboard's 7 and
    # its revision token.
    with django_assert_num_queries(19):
        response = td_client.get(url(tournament, table))
    assert response.status_code == 200
    assert f'id="hand-{count}"' in response.content.decode()


@pytest.mark.parametrize("count", [5, 40])
def test_the_poll_costs_the_same_queries_at_5_and_40_hands(
    td_client, make_tournament, td_user, django_assert_num_queries, count
):
    tournament = make_tournament(3, min_hands=60)
    table = single_table(tournament, td_user)
    _play_many(table, count, td_user)
    htmx = {"HX-Request": "true"}
    rev = revision_token(tournament.pk)
    # session, user, revision token: nothing changed.
    with django_assert_num_queries(3):
        response = td_client.get(url(tournament, table), {"rev": rev}, headers=htmx)
    assert response.status_code == 204
    # session, user, token, tournament, table, the score card's 5 (Anna leads alone).
    with django_assert_num_queries(10):
        response = td_client.get(url(tournament, table), {"rev": "old"}, headers=htmx)
    assert response.status_code == 200
