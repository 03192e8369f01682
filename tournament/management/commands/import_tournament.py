"""Restore a tournament from a backup written by export_tournament.

`make restore` runs it with `--migrate`, into a database that may be empty. What can be
checked without the database is checked first (the file can be read, it is a backup),
then the database is opened (a clear line when it cannot be: docs/backups.md), and only
then migrated and written to.
"""

import os
import stat
from typing import IO, Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils.translation import gettext as _

from tournament.backups import MAX_BYTES, import_tournament, parse_backup
from tournament.backups.schema import too_large
from tournament.errors import ServiceError
from tournament.management.actor import actor_from_option
from tournament.management.database import open_database


def whole_size(file: IO[Any]) -> int | None:
    """A regular file's size in bytes; None for a pipe or a device, read only in part."""
    status = os.fstat(file.fileno())
    return status.st_size if stat.S_ISREG(status.st_mode) else None


class Command(BaseCommand):
    help = "Import a tournament from a JSON backup; refused if its name is already taken."
    # Django's checks open the database (SQLite's JSON support): run once it is open.
    requires_system_checks = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The JSON file written by export_tournament.")
        parser.add_argument("--actor", metavar="USERNAME", help="Record the import as this user.")
        parser.add_argument(
            "--migrate",
            action="store_true",
            help="Create or update the database's tables first (an empty database).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            with open(path, "rb") as file:
                raw = file.read(MAX_BYTES + 1)  # one byte more tells that it is too large
                if len(raw) > MAX_BYTES:  # its own size, not the part read
                    raise CommandError(too_large(whole_size(file)).message)
        except OSError as exc:
            raise CommandError(
                _("Cannot read %(file)s: %(reason)s.") % {"file": path, "reason": exc.strerror}
            ) from exc
        try:
            data = parse_backup(raw)  # before the database is touched: a wrong file says so
        except ServiceError as exc:
            raise CommandError(exc.message) from exc
        open_database(connections[DEFAULT_DB_ALIAS])
        self.check()
        if options["migrate"]:
            call_command("migrate", interactive=False, verbosity=0)
        actor = actor_from_option(options["actor"])
        try:
            tournament = import_tournament(data, actor=actor)
        except ServiceError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(f"Imported {tournament.name} (id {tournament.pk}).")
        # Set by import_tournament on the row it returns (backups/restore.py), no column.
        note = tournament.accounts_note  # type: ignore[attr-defined]
        if note:
            self.stdout.write(note)
