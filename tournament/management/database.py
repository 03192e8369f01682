"""The database a command writes to, opened first: a clear line when it cannot be.

`make restore DATABASE_URL=postgres://…/nosuchdb` used to end in a 31-frame traceback
(`OperationalError: database "nosuchdb" does not exist`); a restore is run under stress
(the laptop was lost), so it says instead what is wrong and what to do.
"""

import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError
from django.db import DatabaseError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils.translation import gettext as _


def _reason(error: BaseException) -> str:
    """The driver's message in a few words, on one line.

    psycopg says 'connection failed: connection to server at "127.0.0.1", port 5432
    failed: FATAL:  database "x" does not exist', then a hint on further lines: the
    words after the last "failed:", without "FATAL:".
    """
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    text = lines[0] if lines else type(error).__name__
    text = text.rsplit(" failed: ", 1)[-1].strip()
    text = text.removeprefix("FATAL:").strip()
    return " ".join(text.split()).rstrip(".")


def _createdb(settings: Mapping[str, Any]) -> str:
    """The createdb command that makes the empty database DATABASE_URL names."""
    words = ["createdb"]
    for option, key in (("-h", "HOST"), ("-p", "PORT"), ("-U", "USER")):
        if settings.get(key):
            words += [option, str(settings[key])]
    words.append(str(settings["NAME"]))
    return shlex.join(words)


def cannot_open(connection: BaseDatabaseWrapper, error: BaseException) -> str:
    """What the TD is told when `connection`'s database cannot be opened."""
    settings = connection.settings_dict
    reason = _reason(error)
    if connection.vendor == "sqlite":
        path = Path(str(settings["NAME"])).expanduser()
        folder = path.parent
        if not folder.is_dir():
            return _(
                "The database file %(path)s cannot be opened: %(reason)s. Create its folder "
                "first (%(create)s) or check DATABASE_URL."
            ) % {"path": path, "reason": reason, "create": shlex.join(["mkdir", "-p", str(folder)])}
        return _(
            "The database file %(path)s cannot be opened: %(reason)s. Check that its folder "
            "can be written and that the file, if there is one, is an SQLite database; or "
            "check DATABASE_URL."
        ) % {"path": path, "reason": reason}
    if connection.vendor == "postgresql":
        return _(
            "The database “%(name)s” cannot be opened: %(reason)s. Create it first "
            "(%(create)s) or check DATABASE_URL."
        ) % {"name": settings["NAME"], "reason": reason, "create": _createdb(settings)}
    return _(
        "The database “%(name)s” cannot be opened: %(reason)s. Create it first or check "
        "DATABASE_URL."
    ) % {"name": settings["NAME"], "reason": reason}


def open_database(connection: BaseDatabaseWrapper) -> None:
    """Connect `connection` now and read its list of tables (SQLite opens any file, and
    finds it is no database only when it reads it); CommandError (one line, what to do)
    when it cannot be."""
    try:
        connection.ensure_connection()
        connection.introspection.table_names()
    except DatabaseError as exc:
        raise CommandError(cannot_open(connection, exc)) from exc
