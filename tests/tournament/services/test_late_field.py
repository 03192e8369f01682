"""The field after the first draw: until the first hand of level 1 is recorded, the TD can
still add a late player, withdraw a no-show or bring him back; each change redoes level 1's
draw at once, with what changed as its reason (rules: a draw can be redone until the first
hand of its level). Once a hand is recorded, the field is closed."""

import pytest

from tests.tournament.conftest import play
from tournament.errors import NotAllowed
from tournament.models import AuditEntry, Draw, Player, Seat, Table
from tournament.services import draws, registration

pytestmark = pytest.mark.django_db


def drawn_names(level):
    """Names seated in the level's current draw, and its tables' sizes, largest first."""
    tables = Table.objects.current().filter(level=level)
    names = sorted(Seat.objects.filter(table__in=tables).values_list("player__name", flat=True))
    sizes = sorted((t.seats.count() for t in tables), reverse=True)
    return names, sizes


def current(level):
    return Draw.objects.current().get(level=level)


@pytest.fixture
def five(make_tournament, td_user):
    """Anna, Bo, Cia, Dan, Eva drawn into a table of 3 and a table of 2; no hand yet."""
    tournament = make_tournament(["Anna", "Bo", "Cia", "Dan", "Eva"])
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="five")
    return tournament, level


def test_a_late_player_is_drawn_in_with_everyone_else(five, td_user):
    tournament, level = five
    old_tables = list(Table.objects.current().filter(level=level))
    late = registration.register_player(tournament=tournament, actor=td_user, name="Fia Sen")
    assert late.number == 6
    # Six players: two tables of three, drawn again from the whole field.
    assert drawn_names(level) == (["Anna", "Bo", "Cia", "Dan", "Eva", "Fia Sen"], [3, 3])
    redone = current(level)
    assert redone.number == 2 and redone.reason == "Late registration: Fia Sen (no. 6)"
    assert Draw.objects.get(level=level, number=1).superseded_at is not None
    entries = AuditEntry.objects.filter(tournament=tournament).order_by("-id")[:2]
    assert [(e.action, e.params) for e in reversed(entries)] == [
        ("player.register", {"name": "Fia Sen", "number": 6}),
        ("draw.redo", {"level": 1, "reason": "Late registration: Fia Sen (no. 6)"}),
    ]
    # A tablet still on a table of the first draw is told to use the new one.
    with pytest.raises(NotAllowed, match="This table was redrawn; use the new table"):
        play(old_tables[0], *([0] * old_tables[0].seats.count()))


def test_a_no_show_withdrawn_after_the_draw_is_drawn_out(five, td_user):
    tournament, level = five
    eva = tournament.players.get(name="Eva")
    registration.withdraw_player(player=eva, actor=td_user)
    eva.refresh_from_db()
    assert eva.withdrawn_at is not None
    # Four players: two heads-up tables (4 % 3 == 1).
    assert drawn_names(level) == (["Anna", "Bo", "Cia", "Dan"], [2, 2])
    assert current(level).reason == "Withdrawn before play: Eva (no. 5)"
    # He came after all: back in, and the draw is redone with him.
    registration.reinstate_player(player=eva, actor=td_user)
    assert drawn_names(level) == (["Anna", "Bo", "Cia", "Dan", "Eva"], [3, 2])
    redone = current(level)
    assert redone.number == 3 and redone.reason == "Back in the draw before play: Eva (no. 5)"


def test_a_pasted_list_redoes_the_draw_once(five, td_user):
    tournament, level = five
    done = registration.register_players(
        tournament=tournament, actor=td_user, names=["Gun", "Anna", "Hans"]
    )
    assert [p.name for p in done.players] == ["Gun", "Hans"]
    assert drawn_names(level)[1] == [3, 2, 2]  # seven players: 3 + 2 + 2
    assert Draw.objects.filter(level=level).count() == 2
    assert current(level).reason == "Late registration: Gun (no. 6), Hans (no. 7)"
    # A list with nothing new registers nobody and leaves the draw alone.
    registration.register_players(tournament=tournament, actor=td_user, names=["Gun"])
    assert Draw.objects.filter(level=level).count() == 2


def test_once_a_hand_is_recorded_the_field_is_closed(five, td_user):
    tournament, level = five
    table = Table.objects.current().get(level=level, number=1)
    play(table, *([0] * table.seats.count()))
    bo = tournament.players.get(name="Bo")
    with pytest.raises(NotAllowed, match="Play has started: players can no longer be added"):
        registration.register_player(tournament=tournament, actor=td_user, name="Late")
    with pytest.raises(NotAllowed, match="Play has started: players can no longer be added"):
        registration.register_players(tournament=tournament, actor=td_user, names=["Late"])
    with pytest.raises(NotAllowed, match="Play has started: players can no longer withdraw"):
        registration.withdraw_player(player=bo, actor=td_user)
    assert Player.objects.filter(tournament=tournament).count() == 5
    bo.refresh_from_db()
    assert bo.withdrawn_at is None
    assert Draw.objects.filter(level=level).count() == 1


def test_a_withdrawal_that_would_leave_one_player_changes_nothing(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo"])
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="two")
    bo = tournament.players.get(name="Bo")
    with pytest.raises(NotAllowed, match="A draw needs at least 2 players"):
        registration.withdraw_player(player=bo, actor=td_user)
    bo.refresh_from_db()
    assert bo.withdrawn_at is None
    assert Draw.objects.filter(level=level).count() == 1
    assert not AuditEntry.objects.filter(action="player.withdraw").exists()


def test_the_redraw_checks_again_under_the_tables_locks(five, td_user, monkeypatch):
    """A hand recorded after the field was found open but before the redraw locked the
    tables (two requests at once; test_races.py runs it for real on PostgreSQL): the redraw
    refuses, and the registration is undone with it."""
    tournament, level = five
    table = Table.objects.current().get(level=level, number=1)
    real_redraw = draws.redraw_level

    def hand_lands_first(**kwargs):
        play(table, *([0] * table.seats.count()))
        return real_redraw(**kwargs)

    monkeypatch.setattr(draws, "redraw_level", hand_lands_first)
    with pytest.raises(NotAllowed, match="Play has started: players can no longer be added"):
        registration.register_player(tournament=tournament, actor=td_user, name="Late")
    assert not Player.objects.filter(name="Late").exists()
    assert Draw.objects.filter(level=level).count() == 1


def test_penalties_before_play_follow_their_player_into_the_new_draw(five, td_user):
    """Anna's timeout (10 points) and Bo's warning, given before level 1's first hand, come
    off at their tables of the new draw (a player's penalty points are deducted at his table
    of the current level); Eva, withdrawn, keeps hers at her old table, and still has the
    warning. The redraw's log entry says what moved."""
    from tournament.models import Penalty
    from tournament.services import penalties

    tournament, level = five
    anna, bo, eva = (tournament.players.get(name=n) for n in ("Anna", "Bo", "Eva"))
    penalties.give_penalty(tournament=tournament, player=anna, kind="timeout", actor=td_user)
    penalties.give_penalty(tournament=tournament, player=bo, kind="slow", actor=td_user)
    penalties.give_penalty(tournament=tournament, player=eva, kind="slow", actor=td_user)
    eva_table = Penalty.objects.get(player=eva).table
    registration.withdraw_player(player=eva, actor=td_user)

    seats = {
        s.player.name: s
        for s in Seat.objects.current().filter(table__level=level).select_related("player")
    }
    assert sorted(seats) == ["Anna", "Bo", "Cia", "Dan"]
    assert {name: seat.total for name, seat in seats.items()} == {
        "Anna": -10,
        "Bo": 0,
        "Cia": 0,
        "Dan": 0,
    }
    assert Penalty.objects.get(player=anna).table == seats["Anna"].table
    assert Penalty.objects.get(player=bo).table == seats["Bo"].table
    assert Penalty.objects.get(player=eva).table == eva_table  # not drawn: stays
    assert (
        Penalty.objects.get(player=anna).warning_number,
        Penalty.objects.get(player=eva).warning_number,
    ) == (1, 1)
    redo = AuditEntry.objects.filter(action="draw.redo").latest("id")
    carried = sorted(redo.after["penalties_carried"], key=lambda moved: moved["player"])
    assert [(moved["player"], moved["to"]) for moved in carried] == [
        ("Anna", seats["Anna"].table.number),
        ("Bo", seats["Bo"].table.number),
    ]
