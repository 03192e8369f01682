"""A player's page keeps his record (his seats, his table, his penalties) in the process
while nothing it shows has moved: a hand at another table moves the room's token and his
place, never his record; a hand at his table, a penalty, a rename or a draw reads it again."""

import pytest
from django.urls import reverse

from tests.tournament.conftest import play
from tests.tournament.views.conftest import page_and_calls
from tournament.live import kept
from tournament.models import Player, Seat
from tournament.services import draws, penalties, registration

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def page_and_reads(client, url):
    """The player's page, and how many times his record was read from the database."""
    return page_and_calls(client, url, kept, "player_record")


@pytest.fixture
def anna(two_tables):
    tournament, first, second = two_tables
    seat = Seat.objects.select_related("player", "table").get(
        player__name="Anna", table__in=[first, second]
    )
    other = second if seat.table_id == first.pk else first
    url = reverse("public:player", args=[tournament.pk, seat.player_id])
    return tournament, seat, other, url


def test_a_hand_at_another_table_keeps_his_record(client, anna):
    tournament, seat, other, url = anna
    _, reads = page_and_reads(client, url)
    assert reads == 1

    play(other, 6, -3, -3)
    page, reads = page_and_reads(client, url)
    assert reads == 0
    # Still her own table's figures: nobody has played there, three seats at 0.
    assert page.count('<span class="total">0 points') == 3


def test_a_hand_at_his_table_reads_it_again(client, anna):
    tournament, seat, other, url = anna
    page_and_reads(client, url)

    # Anna wins 6 (3 from each) at her own table, whatever her seat.
    points = [6 if s.pk == seat.pk else -3 for s in seat.table.seats.order_by("position")]
    play(seat.table, *points)
    page, reads = page_and_reads(client, url)
    assert reads == 1
    assert "place 1 · 6 points" in page
    assert '<li class="me"><span class="name">Anna</span> <span class="total">6 points' in page


def test_a_penalty_reads_it_again(client, anna, td_user):
    tournament, seat, other, url = anna
    page, _ = page_and_reads(client, url)
    assert "Warnings that count" not in page

    penalties.give_penalty(tournament=tournament, player=seat.player, kind="timeout", actor=td_user)
    page, reads = page_and_reads(client, url)
    # A first warning, a timeout: 10 points.
    assert reads == 1
    assert "Warnings that count: 1; points deducted: 10." in page


def test_a_rename_reads_it_again(client, anna, td_user):
    tournament, seat, other, url = anna
    page_and_reads(client, url)
    registration.rename_player(player=seat.player, actor=td_user, name="Annika")
    page, reads = page_and_reads(client, url)
    assert reads == 1 and "<h1>Annika " in page


def test_a_player_not_yet_drawn_sees_his_seat_when_the_draw_is_made(
    client, make_tournament, td_user
):
    tournament = make_tournament(3)
    anna = Player.objects.get(tournament=tournament, name="Anna")
    url = reverse("public:player", args=[tournament.pk, anna.pk])
    page, reads = page_and_reads(client, url)
    assert reads == 1 and "Not drawn yet." in page
    page, reads = page_and_reads(client, url)
    assert reads == 0 and "Not drawn yet." in page

    draws.draw_first_level(tournament=tournament, actor=td_user, seed="seat")
    page, reads = page_and_reads(client, url)
    assert reads == 1 and "Not drawn yet." not in page and "Table 1" in page
