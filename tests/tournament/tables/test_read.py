"""The read of a table with its seats (`tournament.tables.read`) makes the same models as
the ORM's plain read: every field of every instance, with the same value and type, on the
database the suite runs on (CI runs it on SQLite and on PostgreSQL)."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournament.conftest import play, single_table
from tournament.models import Draw, Level, Player, Seat, Table, Tournament
from tournament.tables.read import read_table_and_seats

pytestmark = pytest.mark.django_db

MOMENT = datetime.datetime(2026, 11, 29, 14, 5, 7, 123456, tzinfo=datetime.UTC)
LONG_NAME = "Maximilian Andersson-Lindqvist"  # 30 characters, as a real player may have


def orm_read(pk):
    """The ORM's form of the same read, as it was before the plain one."""
    seats = sorted(
        Seat.objects.filter(table_id=pk).select_related(
            "player", "table__level__tournament", "table__draw"
        ),
        key=lambda seat: seat.position,
    )
    return seats[0].table, seats


def fields(instance):
    return {
        field.attname: (getattr(instance, field.attname), type(getattr(instance, field.attname)))
        for field in type(instance)._meta.concrete_fields
    }


@pytest.fixture
def table(make_tournament, td_user):
    """A table one hand in, with every nullable date, flag and key of its rows filled in:
    a closed level, a superseded draw, a withdrawn and disqualified player, a finished
    tournament with a champion, a seat left after hand 1."""
    tournament = make_tournament(players=["Anna", "Bo", LONG_NAME])
    table = single_table(tournament, td_user)
    play(table, 6, -2, -4)
    anna = Player.objects.get(name="Anna")
    Player.objects.filter(name=LONG_NAME).update(
        withdrawn_at=MOMENT, disqualified=True, alike_confirmed=True
    )
    Seat.objects.filter(table=table, player__name=LONG_NAME).update(left_after_hand=1)
    Level.objects.filter(pk=table.level_id).update(closed_at=MOMENT)
    Draw.objects.filter(pk=table.draw_id).update(superseded_at=MOMENT, reason="A redraw")
    Tournament.objects.filter(pk=tournament.pk).update(finished_at=MOMENT, champion=anna)
    Table.objects.filter(pk=table.pk).update(winner=anna)
    return table


def test_every_field_of_every_instance_is_the_orms(table):
    plain_table, plain_seats = read_table_and_seats(table.pk)
    orm_table, orm_seats = orm_read(table.pk)

    assert fields(plain_table) == fields(orm_table)
    assert fields(plain_table.level) == fields(orm_table.level)
    assert fields(plain_table.level.tournament) == fields(orm_table.level.tournament)
    assert fields(plain_table.draw) == fields(orm_table.draw)
    assert len(plain_seats) == len(orm_seats) == 3
    for plain, orm in zip(plain_seats, orm_seats, strict=True):
        assert fields(plain) == fields(orm)
        assert fields(plain.player) == fields(orm.player)


def test_the_values_are_the_ones_written(table):
    read, seats = read_table_and_seats(table.pk)

    assert [seat.player.name for seat in seats] == [
        seat.player.name for seat in Seat.objects.filter(table=table).order_by("position")
    ]
    assert [seat.position for seat in seats] == [0, 1, 2]
    by_name = {seat.player.name: seat for seat in seats}
    assert by_name[LONG_NAME].left_after_hand == 1
    assert by_name[LONG_NAME].player.disqualified is True
    assert by_name[LONG_NAME].player.withdrawn_at == MOMENT
    assert by_name["Anna"].player.withdrawn_at is None
    assert by_name["Anna"].player.disqualified is False
    assert read.level.closed_at == MOMENT
    assert read.draw.superseded_at == MOMENT
    assert read.draw.reason == "A redraw"
    assert read.draw.released_at is not None
    assert read.level.tournament.finished_at == MOMENT
    assert read.level.tournament.champion_id == by_name["Anna"].player_id
    assert read.winner_id == by_name["Anna"].player_id
    assert read.hands_played == 1
    # The seats' standings as the hand left them, from the table's JSON column: hand 1
    # gave the seats at positions 0, 1 and 2 the points 6, -2 and -4.
    assert {position: standing["total"] for position, standing in read.seat_caches.items()} == {
        "0": 6,
        "1": -2,
        "2": -4,
    }
    assert [seat.total for seat in seats] == [6, -2, -4]


def test_one_query_and_nothing_left_to_load(table):
    with CaptureQueriesContext(connection) as queries:
        read, seats = read_table_and_seats(table.pk)
        # Every field and relation the read made is there: touching them reads nothing.
        for instance in (read, read.level, read.level.tournament, read.draw):
            fields(instance)
        for seat in seats:
            fields(seat)
            fields(seat.player)
            assert seat.table is read
    assert len(queries) == 1


@pytest.mark.parametrize("offset", [1000, None])
def test_a_table_that_does_not_exist(table, offset):
    # None: an id beyond a bigint, which PostgreSQL would refuse with an error of its own.
    pk = table.pk + offset if offset is not None else 2**63
    with CaptureQueriesContext(connection) as queries, pytest.raises(Table.DoesNotExist):
        read_table_and_seats(pk)
    assert len(queries) == (1 if offset is not None else 0)
