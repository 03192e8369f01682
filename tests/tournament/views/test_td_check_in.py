"""The TD's check-in list on the players page: tick, undo, the count, the name filter."""

import re
import uuid

import pytest
from django.urls import reverse
from django.utils import translation

from tournament.models import AuditEntry, CheckIn, Level
from tournament.services import checkin, draws, registration

pytestmark = pytest.mark.django_db


def url(name, tournament, *args):
    return reverse(f"td:{name}", args=[tournament.pk, *args])


def text(response):
    return response.content.decode()


def tap(client, name, tournament, player, key=None, **data):
    """A tick or an undo as its form sends it: with its one-time key."""
    key = key or str(uuid.uuid4())
    return client.post(url(name, tournament, player.pk), {"submission_key": key, **data})


def test_a_tick_checks_the_player_in_and_the_page_counts_him(td_client, make_tournament):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    bo = tournament.players.get(name="Bo")
    page = text(td_client.get(url("players", tournament)))
    assert "checked in 0 of 3" in page
    response = tap(td_client, "player_check_in", tournament, bo)
    assert response.status_code == 302
    assert response["Location"] == url("players", tournament) + "#check-in"
    assert CheckIn.objects.get().player == bo
    page = text(td_client.get(url("players", tournament)))
    assert "checked in 1 of 3" in page
    assert "Bo is checked in." in page
    assert 'Undo check-in<span class="visually-hidden"> Bo</span>' in page
    assert 'Check in<span class="visually-hidden"> Anna</span>' in page


def test_undo_and_a_second_tap_change_nothing_more(td_client, make_tournament):
    tournament = make_tournament(["Anna", "Bo"])
    anna = tournament.players.get(name="Anna")
    tap(td_client, "player_check_in", tournament, anna)
    tap(td_client, "player_check_in", tournament, anna)  # a second tap, from another page
    assert CheckIn.objects.count() == 1
    page = text(td_client.get(url("players", tournament)))
    assert "Anna is already checked in." in page
    tap(td_client, "player_undo_check_in", tournament, anna)
    assert CheckIn.objects.get().undone_at is not None
    page = text(td_client.get(url("players", tournament)))
    assert "checked in 0 of 2" in page
    actions = list(AuditEntry.objects.order_by("id").values_list("action", flat=True))
    assert actions[-2:] == ["player.check_in", "player.check_in_undo"]


def test_a_get_changes_nothing(td_client, make_tournament):
    tournament = make_tournament(["Anna", "Bo"])
    anna = tournament.players.get(name="Anna")
    response = td_client.get(url("player_check_in", tournament, anna.pk))
    assert response.status_code == 302
    assert CheckIn.objects.count() == 0


def test_withdrawn_players_are_not_counted(td_client, td_user, make_tournament):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    checkin.check_in(player=tournament.players.get(name="Anna"), actor=td_user)
    registration.withdraw_player(player=tournament.players.get(name="Cia"), actor=td_user)
    page = text(td_client.get(url("players", tournament)))
    assert "checked in 1 of 2" in page


def test_the_name_filter_finds_without_accents_and_keeps_after_a_tick(td_client, make_tournament):
    tournament = make_tournament(["Björn Åström", "Bo Ek", "Cia Öst"])
    page = text(td_client.get(url("players", tournament), {"q": "astrom"}))
    assert '<td class="player-name">Björn Åström</td>' in page
    assert '<td class="player-name">Bo Ek</td>' not in page
    assert '<td class="player-name">Cia Öst</td>' not in page
    bjorn = tournament.players.get(number=1)
    response = tap(td_client, "player_check_in", tournament, bjorn, q="astrom")
    assert response["Location"] == url("players", tournament) + "?q=astrom#check-in"
    page = text(td_client.get(url("players", tournament), {"q": "zzz"}))
    assert "No player's name matches “zzz”." in page


def test_after_the_draw_the_check_in_column_is_gone(td_client, td_user, make_tournament):
    tournament = make_tournament(["Anna", "Bo"])
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="a")
    page = text(td_client.get(url("players", tournament)))
    assert "checked in" not in page
    response = tap(td_client, "player_check_in", tournament, tournament.players.first())
    assert response.status_code == 302
    assert CheckIn.objects.count() == 0


def test_the_count_in_swedish(td_client, make_tournament):
    tournament = make_tournament(["Anna", "Bo"])
    with translation.override("sv"):
        page = text(td_client.get(url("players", tournament), HTTP_ACCEPT_LANGUAGE="sv"))
    assert "incheckade 0 av 2" in page


# ---------------------------------------------------------------- the draw asks


def draw_post(client, tournament, **data):
    return client.post(url("draw", tournament), {"submission_key": str(uuid.uuid4()), **data})


def here(tournament, td_user, *names):
    for name in names:
        checkin.check_in(player=tournament.players.get(name=name), actor=td_user)


def test_the_draw_page_names_who_is_not_here_and_offers_both_answers(
    td_client, td_user, make_tournament
):
    tournament = make_tournament(["Anna", "Bo", "Cia", "Dan", "Eva", "Filip", "Gun"])
    here(tournament, td_user, "Anna", "Bo", "Cia", "Dan", "Eva")
    page = text(td_client.get(url("draw", tournament)))
    assert "2 players are not checked in:" in page
    assert "Filip (6), Gun (7)" in page
    # 5 here: a table of 3 and a heads-up table of 2.
    assert "Without them: 5 players → 2 tables." in page
    assert "Withdraw them and draw level 1" in page
    assert "Wait: back to check-in" in page
    assert 'name="withdraw_absent" value="on"' in page


def test_a_plain_draw_post_with_players_absent_draws_nothing(td_client, td_user, make_tournament):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    here(tournament, td_user, "Anna", "Bo")
    response = draw_post(td_client, tournament)
    assert response.status_code == 400
    assert "1 player is not checked in: Cia." in text(response)
    # 2 here: one heads-up table.
    assert "Without them: 2 players → 1 table." in text(response)
    assert not Level.objects.filter(tournament=tournament).exists()


def test_withdraw_and_draw_seats_only_those_here(td_client, td_user, make_tournament):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    here(tournament, td_user, "Anna", "Bo")
    response = draw_post(td_client, tournament, withdraw_absent="on")
    assert response.status_code == 302
    level = Level.objects.get(tournament=tournament)
    seated = sorted(
        s.player.name
        for t in level.tables.filter(draw__superseded_at__isnull=True)
        for s in t.seats.all()
    )
    assert seated == ["Anna", "Bo"]
    assert tournament.players.get(name="Cia").withdrawn_at is not None


def test_without_check_in_the_draw_page_asks_nothing(td_client, make_tournament):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    page = text(td_client.get(url("draw", tournament)))
    assert "not checked in" not in page
    assert draw_post(td_client, tournament).status_code == 302


def test_a_put_is_refused(td_client, make_tournament):
    tournament = make_tournament(["Anna", "Bo"])
    anna = tournament.players.get(name="Anna")
    assert td_client.put(url("player_check_in", tournament, anna.pk)).status_code == 405
    assert td_client.put(url("player_undo_check_in", tournament, anna.pk)).status_code == 405
    assert CheckIn.objects.count() == 0


def test_anonymous_cannot_check_in(client, make_tournament):
    tournament = make_tournament(["Anna", "Bo"])
    anna = tournament.players.get(name="Anna")
    response = tap(client, "player_check_in", tournament, anna)
    assert response.status_code == 302
    assert "/login" in response["Location"]
    assert CheckIn.objects.count() == 0


# ---------------------------------------------------------------- one tap, once


def test_the_same_tap_sent_twice_checks_in_once_and_says_so(td_client, make_tournament):
    tournament = make_tournament(["Anna", "Bo"])
    anna = tournament.players.get(name="Anna")
    key = str(uuid.uuid4())
    tap(td_client, "player_check_in", tournament, anna, key=key)
    tap(td_client, "player_check_in", tournament, anna, key=key)  # a double click
    assert CheckIn.objects.count() == 1
    page = text(td_client.get(url("players", tournament)))
    assert "This form was already sent; nothing was changed again." in page
    assert "already checked in" not in page
    assert AuditEntry.objects.filter(action="player.check_in").count() == 1
    # The undo's key is its own: the tick's key sent to the undo changes nothing.
    tap(td_client, "player_undo_check_in", tournament, anna, key=key)
    assert CheckIn.objects.get().undone_at is None
    undo = str(uuid.uuid4())
    tap(td_client, "player_undo_check_in", tournament, anna, key=undo)
    tap(td_client, "player_undo_check_in", tournament, anna, key=undo)
    assert AuditEntry.objects.filter(action="player.check_in_undo").count() == 1


def test_a_tap_without_its_key_changes_nothing(td_client, make_tournament):
    tournament = make_tournament(["Anna", "Bo"])
    anna = tournament.players.get(name="Anna")
    response = td_client.post(url("player_check_in", tournament, anna.pk))
    assert response.status_code == 302
    assert CheckIn.objects.count() == 0
    page = text(td_client.get(url("players", tournament)))
    assert "This form is out of date (its key is missing)." in page


def test_each_row_has_its_own_key(td_client, make_tournament):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    page = text(td_client.get(url("players", tournament)))
    keys = re.findall(r'name="[a-z-]*submission_key" value="([0-9a-f-]{36})"', page)
    # add, paste, open self check-in, then one per row: all different
    assert len(keys) == 6
    assert len(set(keys)) == 6


# ---------------------------------------------------------------- the live list


def test_the_list_is_a_live_region_that_answers_its_poll(td_client, td_user, make_tournament):
    tournament = make_tournament(["Anna", "Bo"])
    page = text(td_client.get(url("players", tournament), {"q": "an"}))
    rev = re.search(r'id="check-in-list" data-poll-url="([^"]+)" data-poll-rev="(\d+)"', page)
    assert rev.group(1) == url("players", tournament) + "?q=an"
    poll = {"q": "an", "rev": rev.group(2)}
    unchanged = td_client.get(url("players", tournament), poll, HTTP_HX_REQUEST="true")
    assert unchanged.status_code == 204
    anna = tournament.players.get(name="Anna")
    checkin.check_in(player=anna, actor=None, by_player=True)
    fresh = td_client.get(url("players", tournament), poll, HTTP_HX_REQUEST="true")
    assert fresh.status_code == 200
    region = text(fresh).strip()
    assert region.startswith('<div id="check-in-list"')
    assert "<h1>" not in region
    assert '<strong class="checked-in-count">checked in 1 of 2</strong>' in region
    assert '<span class="by-player muted">by the player</span>' in region
    # The filter is kept: "an" finds Anna only (a word: a CSRF token may hold the letters).
    assert re.search(r"\bBo\b", region) is None
    assert re.search(r"\bAnna\b", region)
    assert f'data-poll-rev="{int(rev.group(2)) + 1}"' in region


def test_after_the_draw_the_list_polls_no_more(td_client, td_user, make_tournament):
    tournament = make_tournament(["Anna", "Bo"])
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="a")
    page = text(td_client.get(url("players", tournament)))
    assert '<div id="check-in-list">' in page
