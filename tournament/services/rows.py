"""Plain INSERT and UPDATE statements for the one hot path: recording a hand.

Recording a hand is what every table does every two minutes, and the ORM's
save() and bulk_update() cost more Python than the database work they send.
These build the same SQL from the models' own metadata (table and column
names, each field's conversion to its database value), so they stay in step
with the models; nothing else about the rows (constraints, defaults in the
database) is bypassed. Values for `auto_now_add` fields must be given.
"""

from django.db import connection


def _quote(name):
    return connection.ops.quote_name(name)


def _fields(model, names):
    return [model._meta.get_field(name) for name in names]


def _value(field, value):
    return field.get_db_prep_save(value, connection)


def insert(model, values):
    """INSERT one row; return its primary key."""
    fields = _fields(model, list(values))
    meta = model._meta
    sql = "INSERT INTO {} ({}) VALUES ({}) RETURNING {}".format(
        _quote(meta.db_table),
        ", ".join(_quote(f.column) for f in fields),
        ", ".join(["%s"] * len(fields)),
        _quote(meta.pk.column),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [_value(f, values[f.name]) for f in fields])
        return cursor.fetchone()[0]


def insert_many(model, rows):
    """INSERT rows that all give the same fields, as one multi-row statement."""
    names = list(rows[0])
    fields = _fields(model, names)
    row_marks = "({})".format(", ".join(["%s"] * len(fields)))
    sql = "INSERT INTO {} ({}) VALUES {}".format(
        _quote(model._meta.db_table),
        ", ".join(_quote(f.column) for f in fields),
        ", ".join([row_marks] * len(rows)),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [_value(f, row[f.name]) for row in rows for f in fields])


def update_rows(model, rows, fields, *, bump=None):
    """UPDATE each row's `fields` by primary key, in one round trip (executemany).

    `bump` names an integer column to increase by one in the same statement.
    """
    meta = model._meta
    columns = _fields(model, fields)
    assignments = [f"{_quote(field.column)} = %s" for field in columns]
    if bump is not None:
        column = _quote(meta.get_field(bump).column)
        assignments.append(f"{column} = {column} + 1")
    sql = "UPDATE {} SET {} WHERE {} = %s".format(
        _quote(meta.db_table), ", ".join(assignments), _quote(meta.pk.column)
    )
    params = [
        [_value(field, getattr(row, field.attname)) for field in columns] + [row.pk] for row in rows
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)
