import uuid
from datetime import UTC, datetime

import pytest

from tests.tournament.conftest import play
from tournament.errors import Conflict, DrawLocked, InvalidEntry, NotAllowed
from tournament.models import AuditEntry, Draw, Seat, Table
from tournament.services import draws, hands, registration

pytestmark = pytest.mark.django_db


def seating(level):
    return [
        ([s.player.name for s in t.seats.order_by("position")], t.first_dealer_position)
        for t in Table.objects.filter(level=level, draw__superseded_at__isnull=True)
    ]


def test_first_draw_seats_seven_players_in_three_two_two(make_tournament, td_user):
    tournament = make_tournament(7)
    level = draws.draw_first_level(tournament=tournament, actor=td_user)
    tables = list(level.tables.order_by("number"))
    assert [t.seats.count() for t in tables] == [3, 2, 2]
    assert Seat.objects.filter(table__level=level).values("player").distinct().count() == 7
    assert all(t.required_hands == 20 and t.hands_played == 0 for t in tables)
    draw = Draw.objects.get(level=level)
    assert len(draw.seed) == 32 and draw.created_by == td_user
    entry = AuditEntry.objects.get(action="draw.create")
    assert entry.actor == td_user and entry.after["seed"] == draw.seed
    assert len(entry.after["tables"]) == 3


def test_same_seed_reproduces_the_same_tables(make_tournament, td_user):
    one = draws.draw_first_level(tournament=make_tournament(8, name="A"), actor=td_user, seed="s1")
    two = draws.draw_first_level(tournament=make_tournament(8, name="B"), actor=td_user, seed="s1")
    assert seating(one) == seating(two)
    three = draws.draw_first_level(
        tournament=make_tournament(8, name="C"), actor=td_user, seed="another"
    )
    assert seating(three) != seating(one)


def test_redraw_before_first_hand_supersedes_and_keeps_old_draw(make_tournament, td_user):
    tournament = make_tournament(6)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="first")
    before = seating(level)
    draws.redraw_level(level=level, actor=td_user, reason="Player sat at the wrong table")
    old, new = Draw.objects.filter(level=level).order_by("number")
    assert old.superseded_at is not None and new.superseded_at is None
    assert new.number == 2 and new.reason == "Player sat at the wrong table"
    assert Table.objects.filter(draw=old).count() == 2  # kept as evidence
    assert Table.objects.filter(draw=new).count() == 2
    entry = AuditEntry.objects.get(action="draw.redo")
    assert [t["players"] for t in entry.before["tables"]] == [names for names, _ in before]
    assert entry.after["seed"] == new.seed


def test_a_redraw_asked_for_from_a_draw_redone_meanwhile_is_refused(
    make_tournament, td_user, settings
):
    """The level page open in two tabs, both showing draw 1: tab A redoes it; tab B's redo
    would replace draw 2, which the TD never saw. Refused: draw 2 stays the level's."""
    settings.TIME_ZONE = "Europe/Stockholm"
    tournament = make_tournament(6)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="first")
    first = Draw.objects.get(level=level)
    draws.redraw_level(
        level=level, actor=td_user, reason="Seated wrongly", seed="second", based_on_draw=first.pk
    )
    # 07:45 UTC on 9 May 2026: 09:45 at the venue (Stockholm, summer time).
    Draw.objects.filter(number=2).update(created_at=datetime(2026, 5, 9, 7, 45, tzinfo=UTC))
    with pytest.raises(Conflict) as refused:
        draws.redraw_level(
            level=level, actor=td_user, reason="Tab B", seed="third", based_on_draw=first.pk
        )
    assert refused.value.message == (
        "The draw of level 1 was already redone at 09:45 by director (reason: Seated "
        "wrongly): check the new seating; redo it again from the fresh page if needed."
    )
    current = Draw.objects.current().get(level=level)
    assert (current.number, current.seed, current.reason) == (2, "second", "Seated wrongly")
    assert Draw.objects.filter(level=level).count() == 2
    assert AuditEntry.objects.filter(action="draw.redo").count() == 1
    # From draw 2, as the fresh page shows it: redone.
    draws.redraw_level(
        level=level, actor=td_user, reason="Tab B", seed="third", based_on_draw=current.pk
    )
    assert Draw.objects.current().get(level=level).number == 3


def test_a_redraw_from_a_draw_not_of_the_level_is_refused(make_tournament, td_user):
    level = draws.draw_first_level(tournament=make_tournament(6), actor=td_user, seed="s")
    other = draws.draw_first_level(
        tournament=make_tournament(3, name="Other"), actor=td_user, seed="o"
    )
    with pytest.raises(Conflict, match=r"^This form is out of date: reload the page"):
        draws.redraw_level(
            level=level,
            actor=td_user,
            reason="x",
            based_on_draw=Draw.objects.get(level=other).pk,
        )
    assert Draw.objects.filter(level=level).count() == 1


def test_draw_is_locked_once_the_first_hand_is_recorded(make_tournament, td_user):
    tournament = make_tournament(5)
    level = draws.draw_first_level(tournament=tournament, actor=td_user)
    table = level.tables.get(number=2)
    play(table, 3, -3)
    with pytest.raises(DrawLocked, match="locked"):
        draws.redraw_level(level=level, actor=td_user, reason="A player was missing")
    assert Draw.objects.filter(level=level).count() == 1


def test_withdrawn_players_are_not_drawn_and_registration_closes_with_play(
    make_tournament, td_user
):
    tournament = make_tournament(4)
    registration.withdraw_player(player=tournament.players.get(name="Dan"), actor=td_user)
    level = draws.draw_first_level(tournament=tournament, actor=td_user)
    assert sorted(s.player.name for s in Seat.objects.filter(table__level=level)) == [
        "Anna",
        "Bo",
        "Cia",
    ]
    play(level.tables.get(), 2, -1, -1)
    with pytest.raises(NotAllowed, match="Play has started: players can no longer be added"):
        registration.register_player(tournament=tournament, actor=td_user, name="Late")
    with pytest.raises(NotAllowed, match="already made"):
        draws.draw_first_level(tournament=tournament, actor=td_user)


def test_a_withdrawal_undone_before_the_draw_puts_the_player_back_in_it(make_tournament, td_user):
    """The TD withdrew the wrong player (or the player came after all): the same start
    number and name are back in the draw, and the log keeps both steps."""
    tournament = make_tournament(4)
    dan = tournament.players.get(name="Dan")
    registration.withdraw_player(player=dan, actor=td_user)
    # His name cannot simply be added again: it says how to bring him back.
    with pytest.raises(InvalidEntry, match=r"Dan \(no. 4\) has withdrawn. .*Undo withdrawal"):
        registration.register_player(tournament=tournament, actor=td_user, name="Dan")
    back = registration.reinstate_player(player=dan, actor=td_user)
    dan.refresh_from_db()
    assert back == dan and dan.withdrawn_at is None and dan.number == 4
    assert list(
        AuditEntry.objects.filter(action__in=["player.withdraw", "player.reinstate"])
        .order_by("id")
        .values_list("action", "before", "after")
    ) == [
        ("player.withdraw", {"withdrawn": False}, {"withdrawn": True}),
        ("player.reinstate", {"withdrawn": True}, {"withdrawn": False}),
    ]
    level = draws.draw_first_level(tournament=tournament, actor=td_user)
    assert sorted(s.player.name for s in Seat.objects.filter(table__level=level)) == [
        "Anna",
        "Bo",
        "Cia",
        "Dan",
    ]


def test_undoing_a_withdrawal_is_refused_once_play_started_or_for_a_player_in_the_draw(
    make_tournament, td_user
):
    tournament = make_tournament(4)
    bo, dan = tournament.players.get(name="Bo"), tournament.players.get(name="Dan")
    with pytest.raises(NotAllowed, match="Bo has not withdrawn"):
        registration.reinstate_player(player=bo, actor=td_user)
    registration.withdraw_player(player=dan, actor=td_user)
    level = draws.draw_first_level(tournament=tournament, actor=td_user)
    play(level.tables.get(), 2, -1, -1)
    with pytest.raises(NotAllowed, match="Play has started: a withdrawal can no longer be undone"):
        registration.reinstate_player(player=dan, actor=td_user)
    dan.refresh_from_db()
    assert dan.withdrawn_at is not None
    assert not AuditEntry.objects.filter(action="player.reinstate").exists()


def test_a_draw_needs_two_players(make_tournament, td_user):
    with pytest.raises(NotAllowed, match="at least 2 players"):
        draws.draw_first_level(tournament=make_tournament(1), actor=td_user)


def test_duplicate_and_empty_player_names_are_refused(make_tournament, td_user):
    tournament = make_tournament(["Anna"])
    with pytest.raises(InvalidEntry, match="already registered"):
        registration.register_player(tournament=tournament, actor=td_user, name=" Anna ")
    with pytest.raises(InvalidEntry, match="needs a name"):
        registration.register_player(tournament=tournament, actor=td_user, name="  ")


def test_settings_fixed_after_first_draw(make_tournament, td_user):
    tournament = make_tournament(3)
    registration.update_settings(tournament=tournament, actor=td_user, min_hands=12)
    tournament.refresh_from_db()
    assert tournament.min_hands == 12
    draws.draw_first_level(tournament=tournament, actor=td_user)
    with pytest.raises(NotAllowed, match="fixed"):
        registration.update_settings(tournament=tournament, actor=td_user, min_hands=10)
    with pytest.raises(InvalidEntry, match="1 to 200"):
        registration.create_tournament(actor=td_user, name="X", min_hands=0)


def test_record_hand_on_superseded_table_is_refused(make_tournament, td_user):
    tournament = make_tournament(3)
    level = draws.draw_first_level(tournament=tournament, actor=td_user)
    old_table = level.tables.get()
    draws.redraw_level(level=level, actor=td_user, reason="A player was missing")
    with pytest.raises(NotAllowed, match="redrawn"):
        hands.record_hand(
            table=old_table, hand_number=1, idempotency_key=uuid.uuid4(), points={0: 0, 1: 0, 2: 0}
        )
