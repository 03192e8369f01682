"""What went wrong with the database: a change it refused, or the connection lost.

- A refusal: the database cannot take changes (PostgreSQL read-only: a standby after a
  failover, `default_transaction_read_only`, SQLSTATE 25006; its disk full: 53100;
  SQLite's file read-only or its disk full). The change's transaction is rolled back whole.
- A lost connection: the server ended it (`pg_terminate_backend`, a restart, a failover, a
  pooler restarted) or refuses it. What tells is PostgreSQL's driver's error under Django's
  OperationalError or InterfaceError: SQLSTATE 57P01 admin_shutdown, 57P02 crash_shutdown,
  57P03 cannot_connect_now, class 08 (connection exceptions, PgBouncer's too), or none at
  all (the connection went without a word from the server: "server closed the connection
  unexpectedly", "connection refused"). Not the connection itself: Django opens a new one
  by itself when a transaction's rollback fails on the lost one. A lock timeout, a
  deadlock or a cancelled query carry codes of their own and stay the server's errors; so
  does every error of SQLite, whose connection is a file and never lost.
"""

from collections.abc import Iterator

from django.db import InterfaceError, OperationalError, connection

READ_ONLY, DISK_FULL = "read-only", "disk full"
# PostgreSQL's SQLSTATE codes (read_only_sql_transaction, disk_full).
POSTGRESQL: dict[str | None, str] = {"25006": READ_ONLY, "53100": DISK_FULL}
# SQLite's result codes, by name (extended codes such as SQLITE_READONLY_DBMOVED too).
SQLITE = {"SQLITE_READONLY": READ_ONLY, "SQLITE_FULL": DISK_FULL}
# Django's errors that a connection the server ended raises (the driver's as their cause).
CONNECTION_ERRORS = (OperationalError, InterfaceError)
# PostgreSQL's admin_shutdown, crash_shutdown, cannot_connect_now (and class 08, below).
LOST_STATES = {"57P01", "57P02", "57P03"}


def causes(exception: BaseException | None) -> Iterator[BaseException]:
    """`exception` and what it was raised from or during (Django's database errors carry
    the driver's as their cause; a session's save error the database's as its context)."""
    seen: set[int] = set()
    while exception is not None and id(exception) not in seen:
        seen.add(id(exception))
        yield exception
        exception = exception.__cause__ or exception.__context__


def refusal(exception: BaseException) -> str | None:
    """READ_ONLY or DISK_FULL when `exception` is (or was caused by) the database refusing
    a change; None for anything else."""
    for error in causes(exception):
        kind = POSTGRESQL.get(getattr(error, "sqlstate", None))
        name = getattr(error, "sqlite_errorname", None) or ""
        kind = kind or next((k for prefix, k in SQLITE.items() if name.startswith(prefix)), None)
        if kind is not None:
            return kind
    return None


def lost_connection(exception: BaseException) -> bool:
    """Whether `exception` comes from the connection to the database being lost."""
    chain = list(causes(exception))
    if not any(isinstance(error, CONNECTION_ERRORS) for error in chain):
        return False
    for error in chain:
        if hasattr(error, "sqlstate"):  # PostgreSQL's driver's error (psycopg's)
            state: str | None = error.sqlstate
            return state is None or state in LOST_STATES or state.startswith("08")
    return False


def forget_connection() -> None:
    """Close the lost connection: the next query opens a fresh one."""
    connection.close()
