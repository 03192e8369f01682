"""One row of a statement prepared once per PostgreSQL connection: the poll token's read.

Every poll of a room of phones runs the token's query first, and an unchanged poll runs
nothing else, so its cost is that of the whole answer (docs/performance.md):

- Planned each time, the query cost three times a one-row read. Django opens psycopg
  connections with preparing off, and its cursors bind on the client, which never
  prepares (so that PgBouncer works); this prepares this statement alone. A pooler in
  transaction mode would need `connection.cursor()` here instead.
- Run through a psycopg cursor, the statement's Python (the cursor, the query's
  conversion, adapting, the wait loop, the rows) took as long as the round trip itself
  when the worker's caches were cold, as they are between two polls of a quiet room. So
  outside a transaction, and unless queries are logged or wrapped (tests, debugging), it
  runs as one libpq call on the connection. Inside a transaction it goes through a
  cursor, for psycopg to open the transaction first; logged or wrapped, through Django's
  cursor wrappers, which see it as any other query.
"""

from functools import cache

from django.db import DEFAULT_DB_ALIAS, connections
from psycopg import errors, pq

# The statements prepared on a psycopg connection, {sql: name}, kept on it under this
# attribute: a connection replaced (closed, or broken and reopened) starts with none.
PREPARED = "ofc_prepared"
STATEMENT_NAME = "ofc_prepared_{}"
NO_SUCH_STATEMENT = b"26000"  # invalid_sql_statement_name: DEALLOCATE ALL or DISCARD ALL ran
TUPLES_OK, COMMAND_OK = pq.ExecStatus.TUPLES_OK, pq.ExecStatus.COMMAND_OK
SQLSTATE = pq.DiagnosticField.SQLSTATE


def fetch_one_prepared(sql, params):
    """The first row of `sql` (with `%s` placeholders and no other `%`) and `params`,
    each value as text (None for NULL), or None when there is no row."""
    # The connection itself, not the `connection` proxy, which looks it up again (in
    # Python, cold between two polls) at each of the dozen uses below.
    db = connections[DEFAULT_DB_ALIAS]
    if db.vendor != "postgresql":
        with db.cursor() as cursor:
            cursor.execute(sql, params)
            return as_text(cursor.fetchone())
    # What `connection.cursor()` and its wrapper's execute() check first (Django's
    # `_cursor`, `_prepare_cursor` and `CursorWrapper._execute`), by public methods.
    db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_thread_sharing()
    db.validate_no_broken_transaction()
    if db.queries_logged or db.execute_wrappers or not db.get_autocommit():
        return _through_a_cursor(db, sql, params)
    raw = db.connection
    values = [None if value is None else str(value).encode() for value in params]
    try:
        with raw.lock:
            result = _execute(raw, sql, values)
    except errors.Error:
        with db.wrap_database_errors:  # Django's exception, as any query's
            raise
    if result.ntuples == 0:
        return None
    row = [result.get_value(0, column) for column in range(result.nfields)]
    return tuple(None if value is None else value.decode() for value in row)


def _execute(raw, sql, values):
    """The prepared statement's result; prepares it first on a connection that does not
    have it (again, if something deallocated it)."""
    for attempt in range(2):
        name = getattr(raw, PREPARED, {}).get(sql)
        if name is None:
            name = _prepare(raw, sql)
        result = raw.pgconn.exec_prepared(name, values)
        if result.status == TUPLES_OK:
            return result
        if result.error_field(SQLSTATE) == NO_SUCH_STATEMENT and attempt == 0:
            setattr(raw, PREPARED, {})  # forget them all, as the server did
            continue
        raise _error(raw, result)


def _prepare(raw, sql):
    statements = getattr(raw, PREPARED, None)
    if statements is None:
        statements = {}
        setattr(raw, PREPARED, statements)
    name = STATEMENT_NAME.format(len(statements)).encode()
    prepared = raw.pgconn.prepare(name, _numbered(sql).encode(raw.info.encoding))
    if prepared.status != COMMAND_OK:
        raise _error(raw, prepared)
    statements[sql] = name
    return name


def _error(raw, result):
    """psycopg's exception for a failed result (Django's wrapper makes it its own)."""
    return errors.error_from_result(result, encoding=raw.info.encoding)


def _numbered(sql):
    """`sql` with PostgreSQL's numbered placeholders ($1, $2...) for its `%s`."""
    parts = sql.split("%s")
    numbered = [parts[0]]
    for number, part in enumerate(parts[1:], start=1):
        numbered.append(f"${number}{part}")
    return "".join(numbered)


def _through_a_cursor(db, sql, params):
    raw = db.connection
    if raw.prepare_threshold is None:
        raw.prepare_threshold = 5  # psycopg's default; only cursors that bind on the server
    with db.wrap_database_errors:
        cursor = _prepared_cursor_class()(raw)
    if db.queries_logged or db.execute_wrappers:
        wrap = db.make_debug_cursor if db.queries_logged else db.make_cursor
        with wrap(cursor) as cursor:
            cursor.execute(sql, params)
            return as_text(cursor.fetchone())
    with db.wrap_database_errors, cursor:
        cursor.execute(sql, params)
        return as_text(cursor.fetchone())


def as_text(row):
    """A row's values as the libpq call gives them: text, None for NULL."""
    return None if row is None else tuple(None if v is None else str(v) for v in row)


@cache
def _prepared_cursor_class():
    from psycopg import Cursor

    class PreparedCursor(Cursor):
        """Binds its parameters on the server and prepares every statement it runs."""

        def execute(self, query, params=None, **options):
            return super().execute(query, params, prepare=True)

    return PreparedCursor
