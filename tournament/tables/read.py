"""A table with its level, tournament and draw, and its seats with their players: one
query (`read_table_and_seats`), for recording a hand and for every service that locks one
table (`tables.locking.lock_table`). Through the ORM, as every read of the app is
(`tests/test_standard_parts.py`); `tests/tournament/tables/test_read.py` pins what it makes.
"""

from tournament.lib.ids import is_db_id
from tournament.models import Seat, Table


def read_table_and_seats(pk: int) -> tuple[Table, list[Seat]]:
    """(table, seats): the table with its level, tournament and draw, its seats with their
    players in seat order, each seat's `table` the table itself. Table.DoesNotExist when
    it has no seats (no such table), or `pk` is no id a row could have (as the ORM
    answers: beyond the column's range it would be the database's error)."""
    if not is_db_id(pk):
        raise Table.DoesNotExist
    # No ORDER BY: three or four rows, sorted here (a fifth of the query's compiling).
    seats = list(
        Seat.objects.filter(table_id=pk)
        .select_related("player", "table__level__tournament", "table__draw")
        .order_by()
    )
    if not seats:
        raise Table.DoesNotExist
    table = seats[0].table  # each row made its own copy: the seats share the first
    for seat in seats:
        seat.table = table
    seats.sort(key=lambda seat: seat.position)
    return table, seats
