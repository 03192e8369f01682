"""Check-in at the door (services/checkin.py): kept rows, undo kept, audit with who."""

import uuid
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from tests.tournament.conftest import log_lines
from tournament.errors import InvalidEntry, KeyInUse, NotAllowed
from tournament.models import AuditEntry, CheckIn, Level
from tournament.services import checkin, draws, registration
from tournament.services.idempotency import AlreadyDone

pytestmark = pytest.mark.django_db


def freeze(moment):
    """The services' clock at `moment` (timezone.now, as checkin reads it)."""
    return mock.patch("tournament.services.checkin.timezone.now", return_value=moment)


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


# ---------------------------------------------------------------- self check-in


def opened(tournament, td_user):
    """Self check-in opened; its code, as the door sign shows it."""
    checkin.set_self_check_in(tournament=tournament, actor=td_user, open=True)
    tournament.refresh_from_db()
    return tournament.check_in_code


def test_opening_makes_a_code_of_four_unambiguous_characters(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo"])
    assert (tournament.self_check_in_open, tournament.check_in_code) == (False, "")
    assert checkin.self_check_in_open(tournament) is False
    code = opened(tournament, td_user)
    assert len(code) == 4
    assert not set(code) & set("O0IL1")
    assert checkin.self_check_in_open(tournament) is True
    # Closed and opened again: the same code (the sign on the door stays right).
    checkin.set_self_check_in(tournament=tournament, actor=td_user, open=False)
    tournament.refresh_from_db()
    assert checkin.self_check_in_open(tournament) is False
    checkin.set_self_check_in(tournament=tournament, actor=td_user, open=True)
    tournament.refresh_from_db()
    assert tournament.check_in_code == code
    actions = [(e.action, e.params) for e in log_lines(tournament)[-3:]]
    assert actions == [
        ("tournament.self_check_in", {"open": True}),
        ("tournament.self_check_in", {"open": False}),
        ("tournament.self_check_in", {"open": True}),
    ]


def test_opening_it_twice_logs_it_once(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo"])
    opened(tournament, td_user)
    opened(tournament, td_user)
    assert AuditEntry.objects.filter(action="tournament.self_check_in").count() == 1


def test_a_new_code_replaces_the_old_and_is_not_logged(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo"])
    old = opened(tournament, td_user)
    checkin.renew_check_in_code(tournament=tournament, actor=td_user)
    tournament.refresh_from_db()
    assert tournament.check_in_code != old
    assert len(tournament.check_in_code) == 4
    last = log_lines(tournament)[-1]
    assert (last.action, last.params, last.before, last.after) == (
        "tournament.check_in_code",
        {},
        {},
        {},
    )
    anna = tournament.players.get(name="Anna")
    with pytest.raises(InvalidEntry, match="not the check-in code"):
        checkin.self_check_in(player=anna, code=old, client="10.0.0.5")
    checkin.self_check_in(player=anna, code=tournament.check_in_code, client="10.0.0.5")


def test_a_player_checks_himself_in_with_the_code(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo"])
    code = opened(tournament, td_user)
    bo = tournament.players.get(name="Bo")
    # Typed as a phone may send it: lower case, a space in it.
    done = checkin.self_check_in(
        player=bo, code=f" {code[:2].lower()} {code[2:]}", client="1.2.3.4"
    )
    row = CheckIn.objects.get()
    assert row.pk == done.pk
    assert (row.player, row.by_player, row.checked_in_by) == (bo, True, None)
    last = log_lines(tournament)[-1]
    assert (last.action, last.actor, last.actor_label, last.after) == (
        "player.check_in",
        None,
        "Bo",
        {"checked_in": True, "by_player": True},
    )
    # One check-in per player: a second attempt says so, and nothing is added.
    with pytest.raises(NotAllowed, match="Bo is already checked in."):
        checkin.self_check_in(player=bo, code=code, client="1.2.3.4")
    assert CheckIn.objects.count() == 1
    # The TD can undo it as any other; the player can then check in again.
    checkin.undo_check_in(player=bo, actor=td_user)
    checkin.self_check_in(player=bo, code=code, client="1.2.3.4")
    assert CheckIn.objects.filter(undone_at__isnull=True).count() == 1


def test_closed_until_opened_when_closed_and_after_the_first_draw(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    anna = tournament.players.get(name="Anna")
    with pytest.raises(NotAllowed, match="Self check-in is closed"):
        checkin.self_check_in(player=anna, code="ABCD", client="1.2.3.4")
    code = opened(tournament, td_user)
    checkin.set_self_check_in(tournament=tournament, actor=td_user, open=False)
    with pytest.raises(NotAllowed, match="Self check-in is closed"):
        checkin.self_check_in(player=anna, code=code, client="1.2.3.4")
    checkin.set_self_check_in(tournament=tournament, actor=td_user, open=True)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="a")
    tournament.refresh_from_db()
    assert checkin.self_check_in_open(tournament) is False
    with pytest.raises(NotAllowed, match="The first draw is made: check-in is closed."):
        checkin.self_check_in(player=anna, code=code, client="1.2.3.4")
    with pytest.raises(NotAllowed, match="The first draw is made"):
        checkin.set_self_check_in(tournament=tournament, actor=td_user, open=False)
    with pytest.raises(NotAllowed, match="The first draw is made"):
        checkin.renew_check_in_code(tournament=tournament, actor=td_user)
    assert CheckIn.objects.count() == 0


def test_a_withdrawn_player_cannot_check_himself_in(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo"])
    code = opened(tournament, td_user)
    bo = tournament.players.get(name="Bo")
    registration.withdraw_player(player=bo, actor=td_user)
    with pytest.raises(NotAllowed, match="Bo has withdrawn"):
        checkin.self_check_in(player=bo, code=code, client="1.2.3.4")


def test_codes_of_another_shape_are_refused_and_not_counted(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo"])
    opened(tournament, td_user)
    anna = tournament.players.get(name="Anna")
    for typed in ("", "   ", "ABC", "ABCDE", "AB0D", "AB1D"):
        with pytest.raises(InvalidEntry):
            checkin.self_check_in(player=anna, code=typed, client="1.2.3.4")
    assert checkin.paused_until("1.2.3.4", timezone.now()) is None


def wrong_codes(right, count):
    """`count` different codes of the right shape, none of them `right`."""
    letters = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
    codes = [f"{a}{b}ZZ" for a in letters for b in letters]
    return [code for code in codes if code != right][:count]


def test_twenty_different_wrong_codes_pause_the_address_for_ten_minutes(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo"])
    code = opened(tournament, td_user)
    anna = tournament.players.get(name="Anna")
    start = timezone.now()
    wrong = wrong_codes(code, 20)
    with freeze(start):
        for typed in wrong[:19]:
            with pytest.raises(InvalidEntry, match="not the check-in code"):
                checkin.self_check_in(player=anna, code=typed, client="10.1.1.1")
        # The same wrong code again is a mistake, not a new guess: still 19.
        with pytest.raises(InvalidEntry, match="not the check-in code"):
            checkin.self_check_in(player=anna, code=wrong[0], client="10.1.1.1")
        assert checkin.paused_until("10.1.1.1", start) is None
    with (
        freeze(start + timedelta(minutes=1)),
        pytest.raises(InvalidEntry, match="not the check-in code"),
    ):
        checkin.self_check_in(player=anna, code=wrong[19], client="10.1.1.1")
    # 20 different wrong codes: even the right one is refused from this address, until
    # the first of them (typed again at `start`) is ten minutes old.
    with freeze(start + timedelta(minutes=2)):
        with pytest.raises(checkin.WrongCodesPaused, match="Too many wrong codes"):
            checkin.self_check_in(player=anna, code=code, client="10.1.1.1")
        assert checkin.paused_until("10.1.1.1", timezone.now()) == start + timedelta(minutes=10)
        # Another address is not paused.
        checkin.self_check_in(player=anna, code=code, client="10.1.1.2")
    bo = tournament.players.get(name="Bo")
    with freeze(start + timedelta(minutes=10, seconds=1)):
        checkin.self_check_in(player=bo, code=code, client="10.1.1.1")
    assert CheckIn.objects.filter(by_player=True).count() == 2


def test_a_self_check_in_sent_again_is_made_once(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo"])
    code = opened(tournament, td_user)
    anna = tournament.players.get(name="Anna")
    key = uuid.uuid4()
    first = checkin.self_check_in(player=anna, code=code, client="1.2.3.4", key=key)
    with pytest.raises(AlreadyDone) as repeat:
        checkin.self_check_in(player=anna, code=code, client="5.6.7.8", key=key)
    assert repeat.value.first == first
    assert CheckIn.objects.count() == 1
    bo = tournament.players.get(name="Bo")
    with pytest.raises(KeyInUse):  # the key of Anna's check-in, for Bo: nothing is made
        checkin.self_check_in(player=bo, code=code, client="1.2.3.4", key=key)
    # A wrong code keeps no key: the corrected form, sent with it, checks in.
    other = uuid.uuid4()
    with pytest.raises(InvalidEntry):
        checkin.self_check_in(player=bo, code=wrong_codes(code, 1)[0], client="1.2.3.4", key=other)
    checkin.self_check_in(player=bo, code=code, client="1.2.3.4", key=other)
    assert CheckIn.objects.count() == 2


def test_the_td_tick_and_undo_are_made_once_by_their_key(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo"])
    anna = tournament.players.get(name="Anna")
    key = uuid.uuid4()
    first = checkin.check_in(player=anna, actor=td_user, key=key)
    with pytest.raises(AlreadyDone) as repeat:
        checkin.check_in(player=anna, actor=td_user, key=key)
    assert repeat.value.first == first
    with pytest.raises(KeyInUse):
        checkin.undo_check_in(player=anna, actor=td_user, key=key)
    undo = uuid.uuid4()
    checkin.undo_check_in(player=anna, actor=td_user, key=undo)
    with pytest.raises(AlreadyDone):
        checkin.undo_check_in(player=anna, actor=td_user, key=undo)
    assert [e.action for e in log_lines(tournament)[-2:]] == [
        "player.check_in",
        "player.check_in_undo",
    ]
