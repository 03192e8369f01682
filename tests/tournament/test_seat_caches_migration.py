"""Migration 0014: the seats' standings move from their own rows into their table's row.

Seats are made as the code before 0014 stored them (at 0013, with the historical
models, each standing in the seat's own columns); after the migration each table's
`seat_caches` holds them by position and every Seat reads the same numbers; migrating
back puts them into the seats' columns again.
"""

import pytest

from tests.tournament.test_audit_migration import leaves, migrate
from tournament.models import Seat, Table

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tournament", "0013_player_alike_confirmed")]

# Two tables: a three-handed one after some hands and a timeout, a heads-up one untouched.
# (table number, position, player name, hand_points, penalty_points, total, place,
#  in_fantasyland, fantasyland_streak)
SEATS = [
    (1, 0, "Anna", 14, 0, 14, 1, True, 2),
    (1, 1, "Bo", -3, 10, -13, 3, False, 0),
    (1, 2, "Cia", -11, 0, -11, 2, False, 0),
    (2, 0, "Dan", 0, 0, 0, None, False, 0),
    (2, 1, "Eva", 0, 0, 0, None, False, 0),
]
NAMES = ("hand_points", "penalty_points", "total", "place", "in_fantasyland", "fantasyland_streak")


def make_old_rows(apps):
    tournament = apps.get_model("tournament", "Tournament").objects.create(name="SM 2025")
    level = apps.get_model("tournament", "Level").objects.create(tournament=tournament, number=1)
    draw = apps.get_model("tournament", "Draw").objects.create(level=level, number=1, seed="x")
    Table = apps.get_model("tournament", "Table")
    tables = {
        number: Table.objects.create(level=level, draw=draw, number=number, first_dealer_position=0)
        for number in (1, 2)
    }
    Player = apps.get_model("tournament", "Player")
    for index, (number, position, name, *values) in enumerate(SEATS, start=1):
        player = Player.objects.create(tournament=tournament, number=index, name=name)
        apps.get_model("tournament", "Seat").objects.create(
            table=tables[number],
            draw=draw,
            player=player,
            position=position,
            **dict(zip(NAMES, values, strict=True)),
        )


def test_the_standings_move_into_the_tables_and_back():
    make_old_rows(migrate(BEFORE))
    try:
        migrate(leaves())
        first, second = Table.objects.order_by("number")
        assert first.seat_caches == {
            "0": {
                "hand_points": 14,
                "penalty_points": 0,
                "total": 14,
                "place": 1,
                "in_fantasyland": True,
                "fantasyland_streak": 2,
            },
            "1": {
                "hand_points": -3,
                "penalty_points": 10,
                "total": -13,
                "place": 3,
                "in_fantasyland": False,
                "fantasyland_streak": 0,
            },
            "2": {
                "hand_points": -11,
                "penalty_points": 0,
                "total": -11,
                "place": 2,
                "in_fantasyland": False,
                "fantasyland_streak": 0,
            },
        }
        assert second.seat_caches["1"]["place"] is None
        read = [
            (s.table.number, s.position, s.player.name, *(getattr(s, name) for name in NAMES))
            for s in Seat.objects.select_related("table", "player").order_by("table__number", "id")
        ]
        assert read == SEATS

        apps = migrate(BEFORE)
        back = [
            (s.table.number, s.position, s.player.name, *(getattr(s, name) for name in NAMES))
            for s in apps.get_model("tournament", "Seat")
            .objects.select_related("table", "player")
            .order_by("table__number", "id")
        ]
        assert back == SEATS
    finally:
        migrate(leaves())
