"""TD pages: buy-ins and prizes on the settings page (its own page for errors and
figures not saved yet), the pool change before a player is added or withdrawn, and each
winner's prize in the standings, the big screen, the public standings and the CSV.

Figures worked out by hand: 3 players, a buy-in of 100 kr with a 10 kr fee and 25.50 kr
added: 3 × 90 + 25.50 = 295.50 kr. Shares 60 / 40 in whole kronor: 177.30 → 177 and
118.20 → 118, 295 in all; the 0.50 kr left to 1st: 177.50.
"""

import csv
import io
import re
import uuid

import pytest
from django.urls import reverse

from tests.tournament.conftest import play, row_counts, single_table
from tournament.models import AuditEntry, Player, Tournament
from tournament.services import draws, prizes

pytestmark = pytest.mark.django_db

NBSP = "\u00a0"
FORM = {
    "currency": "SEK",
    "buy_in": "100",
    "fee": "10",
    "added_money": "25,50",
    "payout_shares": "60 40",
    "prize_rounding": "100",
    "action": "save",
}


def post(client, tournament, key=None, **changes):
    data = {**FORM, "prizes-submission_key": str(key or uuid.uuid4()), **changes}
    return client.post(reverse("td:prizes", args=[tournament.pk]), data)


def text(response):
    return response.content.decode()


def set_prizes(tournament, td_user, **changes):
    values = {
        "currency": "SEK",
        "buy_in": 10_000,
        "fee": 1_000,
        "added_money": 2_550,
        "payout_shares": [6_000, 4_000],
        "prize_rounding": 100,
        "prizes_public": False,
        **changes,
    }
    prizes.update_prizes(tournament=tournament, actor=td_user, **values)
    tournament.refresh_from_db()


@pytest.fixture
def finished(make_tournament, td_user):
    """Anna, Bo and Cia at one table of 1 hand: seat 0 +4 (champion), seat 1 -1 (2nd),
    seat 2 -3 (3rd); the level closed."""
    tournament = make_tournament(3, min_hands=1)
    table = single_table(tournament, td_user)
    play(table, 4, -1, -3)
    draws.advance(tournament=tournament, actor=td_user)
    tournament.refresh_from_db()
    seats = [seat.player.name for seat in table.seats.order_by("position")]
    return tournament, seats


# ---------------------------------------------------------------- the settings


def test_the_settings_page_has_the_prize_form_and_says_when_there_are_none(
    td_client, make_tournament
):
    tournament = make_tournament(3)
    page = text(td_client.get(reverse("td:settings", args=[tournament.pk])))
    assert 'id="prizes"' in page and 'action="/td/' in page
    for label in ("Currency", "Buy-in", "Fee kept by the organiser", "Added money"):
        assert f">{label}</label>" in page
    assert "The places&#x27; shares (%)</label>" in page
    assert "No prizes: set a buy-in or added money to have a prize pool." in page


def test_saving_the_prizes_keeps_them_in_ore_and_shows_the_figures(
    td_client, td_user, make_tournament
):
    tournament = make_tournament(3)
    response = post(td_client, tournament)
    assert response.status_code == 302
    assert response["Location"] == reverse("td:settings", args=[tournament.pk]) + "#prizes"
    tournament.refresh_from_db()
    assert (tournament.buy_in, tournament.fee, tournament.added_money) == (10_000, 1_000, 2_550)
    assert tournament.payout_shares == [6_000, 4_000] and tournament.prize_rounding == 100
    assert tournament.prizes_public is False
    assert AuditEntry.objects.get(action="tournament.prizes").actor == td_user
    page = text(td_client.get(response["Location"]))
    assert "Buy-ins and prizes saved." in page
    assert f"3 × 90{NBSP}SEK = 270{NBSP}SEK" in page
    assert f"3 × 10{NBSP}SEK = 30{NBSP}SEK" in page  # kept by the organiser
    assert f"295.50{NBSP}SEK" in page
    lines = re.findall(
        r'<tr><th scope="row" class="num">(\d)</th><td class="num">([^<]*)</td>'
        r'<td class="num">([^<]*)</td></tr>',
        page,
    )
    assert lines == [("1", "60%", f"177.50{NBSP}SEK"), ("2", "40%", f"118{NBSP}SEK")]
    # The form shows what was saved, to be edited.
    assert 'name="added_money" value="25.50"' in page
    assert 'name="payout_shares" value="60 40"' in page


def test_a_fee_above_the_buy_in_is_shown_where_it_was_typed_and_nothing_is_saved(
    td_client, make_tournament
):
    tournament = make_tournament(3)
    before = row_counts()
    response = post(td_client, tournament, fee="150")
    assert response.status_code == 400
    page = text(response)
    assert 'id="id_fee_error"' in page and "The fee cannot be more than the buy-in." in page
    assert 'name="fee" value="150"' in page and 'name="buy_in" value="100"' in page
    assert row_counts() == before
    tournament.refresh_from_db()
    assert tournament.fee == 0


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"payout_shares": "60 30"}, "payout_shares", "add up to 90%; they must add up to 100%."),
        ({"buy_in": "1,000"}, "buy_in", "must be an amount such as 500 or 12.50"),
        ({"added_money": "-5"}, "added_money", "must be an amount such as 500 or 12.50"),
        ({"prize_rounding": "300"}, "prize_rounding", "choose one of the options"),
    ],
)
def test_bad_input_is_shown_next_to_its_field(td_client, make_tournament, changes, field, message):
    tournament = make_tournament(3)
    response = post(td_client, tournament, **changes)
    assert response.status_code == 400
    page = text(response)
    error = re.search(rf'<ul class="errorlist" id="id_{field}_error">(.*?)</ul>', page, re.S)
    assert error and message in error.group(1)
    assert not AuditEntry.objects.filter(action="tournament.prizes").exists()


def test_show_the_figures_works_them_out_without_saving(td_client, make_tournament):
    tournament = make_tournament(3)
    response = post(td_client, tournament, action="preview")
    assert response.status_code == 200
    page = text(response)
    assert "Not saved yet" in page and f"295.50{NBSP}SEK" in page
    tournament.refresh_from_db()
    assert tournament.buy_in == 0
    assert not AuditEntry.objects.filter(action="tournament.prizes").exists()


def test_a_second_click_saves_once(td_client, make_tournament):
    tournament = make_tournament(3)
    key = uuid.uuid4()
    assert post(td_client, tournament, key=key).status_code == 302
    assert post(td_client, tournament, key=key).status_code == 302
    assert AuditEntry.objects.filter(action="tournament.prizes").count() == 1


def test_prizes_can_still_change_once_the_rules_are_fixed(td_client, td_user, make_tournament):
    tournament = make_tournament(3, min_hands=1)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="s")
    page = text(td_client.get(reverse("td:settings", args=[tournament.pk])))
    assert "Settings are fixed once the first draw is made." in page and 'id="prizes"' in page
    assert post(td_client, tournament).status_code == 302
    tournament.refresh_from_db()
    assert tournament.buy_in == 10_000


def test_the_form_in_swedish(td_client, make_tournament):
    tournament = make_tournament(3)
    td_client.cookies["django_language"] = "sv"
    assert (
        post(td_client, tournament, payout_shares="60; 40", added_money="25.5").status_code == 302
    )
    page = text(td_client.get(reverse("td:settings", args=[tournament.pk])))
    assert "Inköp och priser" in page and f"295,50{NBSP}SEK" in page
    assert 'name="added_money" value="25,50"' in page
    assert '<label for="id_buy_in">Inköp</label>' in page


# ---------------------------------------------------------------- the field changes


def test_adding_a_player_shows_the_pool_with_him_first(td_client, td_user, make_tournament):
    tournament = make_tournament(3)
    set_prizes(tournament, td_user, payout_shares=[])
    page = text(td_client.get(reverse("td:players", args=[tournament.pk])))
    # 4 × 90 + 25.50 = 385.50 kr, one place paid (the standard for 4 players).
    assert f"Prize pool: 295.50{NBSP}SEK now; 385.50{NBSP}SEK with 4 paying players." in page
    assert f"1. 385.50{NBSP}SEK" in page
    assert f"Each player registered puts 90{NBSP}SEK into the prize pool." in page


def test_withdrawing_a_player_shows_the_pool_without_him_before_the_td_confirms(
    td_client, td_user, make_tournament
):
    tournament = make_tournament(3)
    set_prizes(tournament, td_user)
    cia = Player.objects.get(tournament=tournament, name="Cia")
    url = reverse("td:player_withdraw", args=[tournament.pk, cia.pk])
    page = text(td_client.get(url))
    # 2 × 90 + 25.50 = 205.50 kr at 60/40: 123.30 → 123, 82.20 → 82, the 0.50 to 1st.
    assert f"Prize pool: 295.50{NBSP}SEK now; 205.50{NBSP}SEK with 2 paying players." in page
    assert f"1. 123.50{NBSP}SEK" in page and f"2. 82{NBSP}SEK" in page
    td_client.post(url, {"submission_key": str(uuid.uuid4())})
    reinstate = reverse("td:player_reinstate", args=[tournament.pk, cia.pk])
    assert f"205.50{NBSP}SEK now; 295.50{NBSP}SEK with 3 paying players." in text(
        td_client.get(reinstate)
    )


def test_no_pool_lines_without_prizes(td_client, make_tournament):
    tournament = make_tournament(3)
    page = text(td_client.get(reverse("td:players", args=[tournament.pk])))
    assert "Prize pool" not in page and "into the prize pool" not in page


# ---------------------------------------------------------------- the final standings


def test_the_standings_show_each_winners_prize_once_final(td_client, td_user, finished):
    tournament, seats = finished
    set_prizes(tournament, td_user)
    page = text(td_client.get(reverse("td:standings", args=[tournament.pk])))
    assert '<th scope="col" class="num">Prize</th>' in page
    prizes_shown = re.findall(r'<td class="num prize">([^<]*)</td>', page)
    assert prizes_shown == [f"177.50{NBSP}SEK", f"118{NBSP}SEK", ""]


def test_the_big_screen_shows_prizes_only_where_the_public_standings_do(
    td_client, td_user, finished
):
    tournament, _seats = finished
    set_prizes(tournament, td_user)
    url = reverse("td:standings_projector", args=[tournament.pk])
    assert "num prize" not in text(td_client.get(url))
    set_prizes(tournament, td_user, prizes_public=True)
    assert re.findall(r'<td class="num prize">([^<]*)</td>', text(td_client.get(url)))[0] == (
        f"177.50{NBSP}SEK"
    )


def test_the_public_standings_show_prizes_when_the_td_says_so(client, td_user, finished):
    tournament, seats = finished
    set_prizes(tournament, td_user)
    url = reverse("public:standings", args=[tournament.pk])
    page = text(client.get(url))
    assert "Prize pool" not in page and "177.50" not in page
    set_prizes(tournament, td_user, prizes_public=True)
    page = text(client.get(url))
    assert f"Prize pool: 295.50{NBSP}SEK (3 players)." in page
    assert f'<td class="num">177.50{NBSP}SEK</td>' in page


def csv_rows(response, delimiter=","):
    content = response.content.decode("utf-8")[1:]  # after the BOM
    return list(csv.reader(io.StringIO(content, newline=""), delimiter=delimiter))


def test_the_standings_csv_has_each_prize(td_client, td_user, finished):
    tournament, seats = finished
    url = reverse("td:standings_csv", args=[tournament.pk])
    assert len(csv_rows(td_client.get(url))[0]) == 7  # no prizes: no column
    set_prizes(tournament, td_user)
    rows = csv_rows(td_client.get(url))
    assert rows[0][-1] == "Prize (SEK)"
    assert [row[-1] for row in rows[1:]] == ["177.50", "118", "0"]
    td_client.cookies["django_language"] = "sv"
    rows = csv_rows(td_client.get(url), ";")
    assert rows[0][-1] == "Pris (SEK)"
    assert [row[-1] for row in rows[1:]] == ["177,50", "118", "0"]


def test_prizes_page_needs_a_td(client, outsider, make_tournament):
    tournament = make_tournament(3)
    url = reverse("td:prizes", args=[tournament.pk])
    assert client.get(url).status_code == 302
    client.force_login(outsider)
    assert client.post(url, FORM).status_code == 403
    assert Tournament.objects.get(pk=tournament.pk).buy_in == 0


def test_the_public_big_screen_shows_prizes_when_the_td_says_so(client, td_user, finished):
    tournament, _seats = finished
    set_prizes(tournament, td_user)
    url = reverse("public:standings_projector", args=[tournament.pk])
    assert "num prize" not in text(client.get(url))
    set_prizes(tournament, td_user, prizes_public=True)
    shown = re.findall(r'<td class="num prize">([^<]*)</td>', text(client.get(url)))
    assert shown == [f"177.50{NBSP}SEK", f"118{NBSP}SEK", ""]
