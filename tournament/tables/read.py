"""A table with its level, tournament and draw, and its seats with their players: one
plain query (`read_table_and_seats`), for recording a hand and for every service that
locks one table (`tables.locking.lock_table`).

Why plain: the ORM's form of this read (`Seat.objects.select_related("player",
"table__level__tournament", "table__draw")`) spends most of its time in Python, not in
the database: building the six tables' join cost 0.94 ms and making its 18 instances
0.85 ms, for 0.11-0.17 ms of SQLite's own time (a hand in all about 5 ms; PostgreSQL
alike: bench/bench_hands.py, docs/performance-log.md "Figures (29 Nov 2026, small hours
…)"). Here the statement is made once per process from the models' own tables and columns,
its values go through Django's own converters (the backend's, then the field's: what the
ORM applies), and its models are made with `Model.from_db`, as a queryset makes them: one
table, level, tournament and draw, one seat and player per row.
`tests/tournament/tables/test_read.py` checks every field of every instance against the
ORM's read, on both databases.
"""

from functools import cache

from django.db import connection

from tournament.lib.ids import is_db_id
from tournament.models import Draw, Level, Player, Seat, Table, Tournament

# The models of a row, in the order of their columns, with the alias each is read under.
MODELS = (
    (Seat, "s"),
    (Player, "p"),
    (Table, "t"),
    (Level, "l"),
    (Tournament, "tr"),
    (Draw, "d"),
)
# (alias, model) joined on its primary key from (alias, model).foreign key.
JOINS = (
    ("p", Player, "s", Seat, "player"),
    ("t", Table, "s", Seat, "table"),
    ("l", Level, "t", Table, "level"),
    ("tr", Tournament, "l", Level, "tournament"),
    ("d", Draw, "t", Table, "draw"),
)


def _converters(field):
    """What the ORM applies to this field's value as read (`SQLCompiler.get_converters`)."""
    column = field.get_col(field.model._meta.db_table)
    found = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
    return column, tuple(found)


@cache
def _layout(vendor):
    """The statement and, per model, its columns' slice of a row and their converters."""
    quote = connection.ops.quote_name
    columns, layout, start = [], [], 0
    for model, alias in MODELS:
        fields = model._meta.concrete_fields
        columns += [f"{alias}.{quote(field.column)}" for field in fields]
        converters = [(index, *_converters(field)) for index, field in enumerate(fields)]
        names = [field.attname for field in fields]
        part = slice(start, start + len(fields))
        layout.append((model, names, part, [c for c in converters if c[2]]))
        start += len(fields)
    joins = " ".join(
        f"JOIN {quote(model._meta.db_table)} {alias} ON {alias}.{quote(model._meta.pk.column)}"
        f" = {source}.{quote(source_model._meta.get_field(key).column)}"
        for alias, model, source, source_model, key in JOINS
    )
    sql = (
        f"SELECT {', '.join(columns)} FROM {quote(Seat._meta.db_table)} s {joins} "
        f"WHERE s.{quote(Seat._meta.get_field('table').column)} = %s"
    )
    return sql, tuple(layout)


def _instance(row, model, names, part, converters):
    values = list(row[part])
    for index, column, found in converters:
        value = values[index]
        for converter in found:
            value = converter(value, column, connection)
        values[index] = value
    return model.from_db(connection.alias, names, values)


def read_table_and_seats(pk):
    """(table, seats): the table with its level, tournament and draw, its seats with their
    players in seat order, each seat's `table` the table itself. Table.DoesNotExist when
    it has no seats (no such table), or `pk` is no id a row could have (as the ORM
    answers: beyond the column's range it would be the database's error)."""
    if not is_db_id(pk):
        raise Table.DoesNotExist
    sql, layout = _layout(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [pk])
        rows = cursor.fetchall()
    if not rows:
        raise Table.DoesNotExist
    (seat_model, player_model, table_model, level_model, tournament_model, draw_model) = layout
    first = rows[0]
    table = _instance(first, *table_model)
    level = _instance(first, *level_model)
    level.tournament = _instance(first, *tournament_model)
    table.level = level
    table.draw = _instance(first, *draw_model)
    seats = []
    for row in rows:
        seat = _instance(row, *seat_model)
        seat.player = _instance(row, *player_model)
        seat.table = table
        seats.append(seat)
    seats.sort(key=lambda seat: seat.position)
    return table, seats
