"""Check-in at the door (services/checkin.py): kept rows, undo kept, audit with who."""

import pytest

from tests.tournament.conftest import log_lines
from tournament.errors import NotAllowed
from tournament.models import AuditEntry, CheckIn, Level
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
    checkin.check_in(player=tournament.players.get(name="Bo"), actor=td_user)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="a", withdraw_absent=True)
    with pytest.raises(NotAllowed, match="check-in is closed"):
        checkin.check_in(player=tournament.players.get(name="Cia"), actor=td_user)
    with pytest.raises(NotAllowed, match="check-in is closed"):
        checkin.undo_check_in(player=anna, actor=td_user)
    assert CheckIn.objects.filter(undone_at__isnull=True).count() == 2


# ---------------------------------------------------------------- the first draw's guard


def seated(level):
    return sorted(
        seat.player.name
        for table in level.tables.filter(draw__superseded_at__isnull=True)
        for seat in table.seats.all()
    )


def test_no_one_checked_in_draws_everyone_as_before(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia", "Dan"])
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="a")
    assert seated(level) == ["Anna", "Bo", "Cia", "Dan"]


def test_everyone_checked_in_draws_everyone(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    for player in tournament.players.all():
        checkin.check_in(player=player, actor=td_user)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="a")
    assert seated(level) == ["Anna", "Bo", "Cia"]


def test_players_not_checked_in_stop_the_draw_until_the_td_says(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia", "Dan", "Eva"])
    for name in ("Anna", "Bo", "Cia"):
        checkin.check_in(player=tournament.players.get(name=name), actor=td_user)
    before = AuditEntry.objects.count()
    with pytest.raises(draws.NotCheckedIn) as refused:
        draws.draw_first_level(tournament=tournament, actor=td_user, seed="a")
    assert [p.name for p in refused.value.players] == ["Dan", "Eva"]
    assert str(refused.value) == (
        "2 players are not checked in: Dan, Eva. Withdraw them and draw, or wait for them."
    )
    # Waiting: nothing drawn, no one withdrawn.
    assert not Level.objects.filter(tournament=tournament).exists()
    assert not tournament.players.filter(withdrawn_at__isnull=False).exists()
    assert AuditEntry.objects.count() == before


def test_withdraw_the_absent_keeps_the_reason_and_seats_only_those_here(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia", "Dan", "Eva"])
    for name in ("Anna", "Bo", "Cia"):
        checkin.check_in(player=tournament.players.get(name=name), actor=td_user)
    level = draws.draw_first_level(
        tournament=tournament, actor=td_user, seed="a", withdraw_absent=True
    )
    assert seated(level) == ["Anna", "Bo", "Cia"]
    withdrawn = tournament.players.filter(withdrawn_at__isnull=False).order_by("number")
    assert [p.name for p in withdrawn] == ["Dan", "Eva"]
    entries = [(e.action, e.params, e.after, e.actor) for e in log_lines(tournament)][-3:]
    assert entries == [
        (
            "player.withdraw",
            {"name": "Dan", "number": 4, "reason": "not checked in"},
            {"withdrawn": True, "reason": "not checked in"},
            td_user,
        ),
        (
            "player.withdraw",
            {"name": "Eva", "number": 5, "reason": "not checked in"},
            {"withdrawn": True, "reason": "not checked in"},
            td_user,
        ),
        ("draw.create", {"level": 1, "players": 3, "closed_level": None}, entries[2][2], td_user),
    ]


def test_an_undone_check_in_does_not_count(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    anna = tournament.players.get(name="Anna")
    checkin.check_in(player=anna, actor=td_user)
    checkin.undo_check_in(player=anna, actor=td_user)
    # No one checked in now: check-in not in use, the draw as before.
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="a")
    assert seated(level) == ["Anna", "Bo", "Cia"]


def test_the_log_says_why_in_the_readers_language(make_tournament, td_user):
    from django.utils import translation

    from tournament.audit.sentences import sentence

    tournament = make_tournament(["Anna", "Bo", "Cia"])
    checkin.check_in(player=tournament.players.get(name="Anna"), actor=td_user)
    checkin.check_in(player=tournament.players.get(name="Bo"), actor=td_user)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="a", withdraw_absent=True)
    entry = AuditEntry.objects.get(action="player.withdraw")
    assert sentence(entry) == "Cia withdrawn: not checked in at the draw"
    with translation.override("sv"):
        assert sentence(entry) == "Cia struken: inte incheckad vid lottningen"
