"""The TD's check-in list on the players page: tick, undo, the count, the name filter."""

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


def test_a_tick_checks_the_player_in_and_the_page_counts_him(td_client, make_tournament):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    bo = tournament.players.get(name="Bo")
    page = text(td_client.get(url("players", tournament)))
    assert "checked in 0 of 3" in page
    response = td_client.post(url("player_check_in", tournament, bo.pk))
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
    td_client.post(url("player_check_in", tournament, anna.pk))
    td_client.post(url("player_check_in", tournament, anna.pk))  # a second tap
    assert CheckIn.objects.count() == 1
    page = text(td_client.get(url("players", tournament)))
    assert "Anna is already checked in." in page
    td_client.post(url("player_undo_check_in", tournament, anna.pk))
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
    response = td_client.post(url("player_check_in", tournament, bjorn.pk), {"q": "astrom"})
    assert response["Location"] == url("players", tournament) + "?q=astrom#check-in"
    page = text(td_client.get(url("players", tournament), {"q": "zzz"}))
    assert "No player's name matches “zzz”." in page


def test_after_the_draw_the_check_in_column_is_gone(td_client, td_user, make_tournament):
    tournament = make_tournament(["Anna", "Bo"])
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="a")
    page = text(td_client.get(url("players", tournament)))
    assert "checked in" not in page
    response = td_client.post(url("player_check_in", tournament, tournament.players.first().pk))
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
    response = client.post(url("player_check_in", tournament, anna.pk))
    assert response.status_code == 302
    assert "/login" in response["Location"]
    assert CheckIn.objects.count() == 0
