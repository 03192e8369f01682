"""Check-in at the door (services/checkin.py): kept rows, undo kept, audit with who."""

import pytest

from tests.tournament.conftest import log_lines
from tournament.errors import NotAllowed
from tournament.models import CheckIn
from tournament.services import checkin, draws, registration

pytestmark = pytest.mark.django_db


def test_a_check_in_is_kept_with_who_and_when(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    bo = tournament.players.get(name="Bo")
    done = checkin.check_in(player=bo, actor=td_user)
    row = CheckIn.objects.get()
    assert row.pk == done.pk
    assert row.player == bo
    assert row.checked_in_by == td_user
    assert row.checked_in_at is not None
    assert row.by_player is False
    assert row.undone_at is None
    last = log_lines(tournament)[-1]
    assert (last.action, last.params, last.actor) == (
        "player.check_in",
        {"name": "Bo", "number": 2},
        td_user,
    )
    assert last.before == {"checked_in": False}
    assert last.after == {"checked_in": True}


def test_an_undo_is_kept_and_the_player_can_check_in_again(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    anna = tournament.players.get(name="Anna")
    first = checkin.check_in(player=anna, actor=td_user)
    checkin.undo_check_in(player=anna, actor=td_user)
    first.refresh_from_db()
    assert first.undone_at is not None
    assert first.undone_by == td_user
    assert checkin.current_check_in(anna) is None
    again = checkin.check_in(player=anna, actor=td_user)
    # Two rows: the undone one kept, the new one current.
    assert CheckIn.objects.filter(player=anna).count() == 2
    assert checkin.current_check_in(anna) == again
    assert [e.action for e in log_lines(tournament)][-3:] == [
        "player.check_in",
        "player.check_in_undo",
        "player.check_in",
    ]


def test_one_check_in_per_player(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo"])
    anna = tournament.players.get(name="Anna")
    checkin.check_in(player=anna, actor=td_user)
    with pytest.raises(NotAllowed, match="Anna is already checked in"):
        checkin.check_in(player=anna, actor=td_user)
    assert CheckIn.objects.count() == 1


def test_undo_without_a_check_in_is_refused(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo"])
    with pytest.raises(NotAllowed, match="Bo is not checked in"):
        checkin.undo_check_in(player=tournament.players.get(name="Bo"), actor=td_user)
    assert [e.action for e in log_lines(tournament)][-1] == "player.register"


def test_a_withdrawn_player_cannot_check_in(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    cia = tournament.players.get(name="Cia")
    registration.withdraw_player(player=cia, actor=td_user)
    with pytest.raises(NotAllowed, match="Cia has withdrawn"):
        checkin.check_in(player=cia, actor=td_user)
    assert CheckIn.objects.count() == 0


def test_check_in_closes_with_the_first_draw(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    anna = tournament.players.get(name="Anna")
    checkin.check_in(player=anna, actor=td_user)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="a")
    with pytest.raises(NotAllowed, match="check-in is closed"):
        checkin.check_in(player=tournament.players.get(name="Bo"), actor=td_user)
    with pytest.raises(NotAllowed, match="check-in is closed"):
        checkin.undo_check_in(player=anna, actor=td_user)
    assert CheckIn.objects.filter(undone_at__isnull=True).count() == 1
