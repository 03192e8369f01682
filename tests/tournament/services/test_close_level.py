"""Closing a level makes its results final: the service itself refuses while a revisor's call
is open or a tie for first is not settled, and changes nothing; a call is never lost."""

import pytest
from django.db import connection
from django.utils import translation

from tests.tournament.conftest import play, play_named, row_counts, single_table
from tournament.errors import InvalidEntry, NotAllowed
from tournament.models import Level, Table, TableCall, TieSettlement
from tournament.selectors.tokens import revision_token
from tournament.services import calls, draws, hands

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def in_english():
    """The messages are compared word for word: never in a language a test before left on."""
    with translation.override("en"):
        yield


def tables_of(tournament, level=1):
    return {
        t.number: t
        for t in Table.objects.current().filter(level__tournament=tournament, level__number=level)
    }


@pytest.fixture
def two_over(make_tournament, td_user):
    """Six players, one hand required: two tables of 3, both over after one hand each."""
    tournament = make_tournament(6, min_hands=1)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="close")
    tables = tables_of(tournament)
    play(tables[1], 3, -3, 0)
    play(tables[2], 2, 0, -2)
    return tournament, tables


def refused(tournament, td_user, message):
    """The service refuses with exactly `message`, and no row of the tournament changed."""
    before = row_counts()
    token = revision_token(tournament.pk)
    with pytest.raises(NotAllowed) as error:
        draws.advance(tournament=tournament, actor=td_user)
    assert str(error.value) == message
    assert row_counts() == before and revision_token(tournament.pk) == token
    assert Level.objects.get(tournament=tournament, number=1).closed_at is None


def test_an_open_call_blocks_closing_until_it_is_cleared(two_over, td_user):
    tournament, tables = two_over
    calls.call_td(table=tables[2], kind="dispute", note="Who won the back?")
    refused(tournament, td_user, "Clear the open call first: table 2.")
    assert TableCall.objects.get().cleared_at is None  # the call is still there
    calls.clear_call(table=tables[2], actor=td_user)
    assert draws.advance(tournament=tournament, actor=td_user).number == 2


def test_an_unsettled_tie_blocks_closing_until_it_is_settled(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"], min_hands=1)
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 4, "Bo": 4, "Cia": -8})  # Anna and Bo tied for first
    refused(tournament, td_user, "Settle the tie for first at table 1, or let it play on.")
    hands.settle_tie(
        table=table, actor=td_user, winner=tournament.players.get(name="Bo"), reason="Card draw"
    )
    assert draws.advance(tournament=tournament, actor=td_user) is None
    tournament.refresh_from_db()
    assert tournament.champion.name == "Bo"


def test_every_reason_is_given_at_once(make_tournament, td_user):
    """Nine players, two hands required: table 1 tied (5, 5, -10 then 0, 0, 0) with a call,
    table 2 after one hand only, table 3 over; a call at table 3 too."""
    tournament = make_tournament(9, min_hands=2)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="all")
    tables = tables_of(tournament)
    play(tables[1], 5, 5, -10)
    play(tables[1], 0, 0, 0)
    play(tables[2], 1, 0, -1)
    play(tables[3], 1, 0, -1)
    play(tables[3], 1, 0, -1)
    calls.call_td(table=tables[3], kind="misdeal")
    calls.call_td(table=tables[1], kind="other")
    refused(
        tournament,
        td_user,
        "Clear the open calls first: table 1, table 3. "
        "Settle the tie for first at table 1, or let it play on. "
        "Not every table is over yet (still playing: table 2).",
    )


def test_a_call_at_a_redrawn_table_blocks_too(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"], min_hands=1)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="first")
    old = level.tables.get()
    calls.call_td(table=old, kind="other", note="We sit wrong")
    draws.redraw_level(level=level, actor=td_user, reason="Seated wrongly", seed="second")
    play_named(tables_of(tournament)[1], {"Anna": 3, "Bo": 0, "Cia": -3})
    refused(tournament, td_user, "Clear the open call first: table 1 of draw 1.")
    calls.clear_call(table=old, actor=td_user)
    assert draws.advance(tournament=tournament, actor=td_user) is None


def test_a_call_left_open_at_a_closed_level_blocks_the_next_close(make_tournament, td_user):
    """A call the code before this check let through (the level closed over it) is not lost:
    it blocks closing level 2 until the TD clears it, which moves the revision token."""
    tournament = make_tournament(6, min_hands=1)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="old")
    first = tables_of(tournament)
    play(first[1], 3, -3, 0)
    play(first[2], 2, 0, -2)
    draws.advance(tournament=tournament, actor=td_user, seed="two")
    # As the old code left it: a call at level 1 that was never cleared.
    TableCall.objects.create(table=first[2], kind="dispute", note="Back row")
    play(tables_of(tournament, 2)[1], 1, -1)  # heads-up of the two winners: over
    before = row_counts()
    with pytest.raises(NotAllowed, match=r"^Clear the open call first: table 2 of level 1\.$"):
        draws.advance(tournament=tournament, actor=td_user)
    assert row_counts() == before
    token = revision_token(tournament.pk)
    cleared = calls.clear_call(table=first[2], actor=td_user)
    assert cleared.cleared_at is not None and cleared.cleared_by == td_user
    assert revision_token(tournament.pk) != token  # every TD page showing it refreshes
    assert draws.advance(tournament=tournament, actor=td_user) is None


def test_clearing_a_call_in_play_still_works_and_moves_the_token(make_tournament, td_user):
    tournament = make_tournament(3)
    table = single_table(tournament, td_user)
    calls.call_td(table=table, kind="timeout")
    token = revision_token(tournament.pk)
    calls.clear_call(table=table, actor=td_user)
    assert revision_token(tournament.pk) != token
    assert not TableCall.objects.filter(cleared_at__isnull=True).exists()


def test_a_table_still_short_of_its_hands_is_not_a_tie(make_tournament, td_user):
    """Two hands required, one played at 0, 0, 0: level, but not tied yet: it plays on."""
    tournament = make_tournament(3, min_hands=2)
    play(single_table(tournament, td_user), 0, 0, 0)
    refused(tournament, td_user, "Not every table is over yet (still playing: table 1).")
    assert not TieSettlement.objects.exists()


# ---------------------------------------------------------------- a call and the close at once


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locking needs PostgreSQL")
def test_a_call_and_the_close_at_the_same_instant_never_lose_the_call(make_tournament, td_user):
    from tests.tournament.services.test_concurrency import run_together

    for round_number in range(8):
        tournament = make_tournament(6, min_hands=1, name=f"Call race {round_number}")
        draws.draw_first_level(tournament=tournament, actor=td_user, seed="race")
        tables = tables_of(tournament)
        play(tables[1], 3, -3, 0)
        play(tables[2], 2, 0, -2)
        called, closed = run_together(
            lambda table=tables[2]: calls.call_td(table=table, kind="dispute"),
            lambda tournament=tournament: draws.advance(tournament=tournament, actor=td_user),
        )
        if isinstance(closed, Level):  # closed first: the call came too late, and says so
            assert isinstance(called, NotAllowed) and "no longer in play" in str(called)
            assert not TableCall.objects.filter(table__level__tournament=tournament).exists()
        else:  # the call first: it stays open and the close is refused
            assert isinstance(called, TableCall), called
            assert isinstance(closed, NotAllowed) and "open call" in str(closed), closed
            assert TableCall.objects.get(pk=called.pk).cleared_at is None


def test_the_level_a_confirmation_showed_must_still_be_in_play(two_over, td_user):
    tournament, _tables = two_over
    refused_with = [
        (2, NotAllowed, "Level 2 is not the level in play (level 1 is)."),
        ("1", InvalidEntry, "The level must be a whole number."),
        (True, InvalidEntry, "The level must be a whole number."),
        (0, InvalidEntry, "The level must be from 1 to 32767, not 0."),
    ]
    for number, error, message in refused_with:
        before = row_counts()
        with pytest.raises(error) as raised:
            draws.advance(tournament=tournament, actor=td_user, level_number=number)
        assert str(raised.value) == message and row_counts() == before
    assert draws.advance(tournament=tournament, actor=td_user, level_number=1).number == 2
