"""Restore a tournament from a backup written by export_tournament."""

from django.core.management.base import BaseCommand, CommandError

from tournament.management.actor import actor_from_option
from tournament.services.backup import MAX_BYTES, import_backup
from tournament.services.errors import ServiceError


class Command(BaseCommand):
    help = "Import a tournament from a JSON backup; refused if its name is already taken."

    def add_arguments(self, parser):
        parser.add_argument("file", help="The JSON file written by export_tournament.")
        parser.add_argument("--actor", metavar="USERNAME", help="Record the import as this user.")

    def handle(self, *args, **options):
        actor = actor_from_option(options["actor"])
        try:
            with open(options["file"], "rb") as file:
                raw = file.read(MAX_BYTES + 1)  # one byte more tells that it is too large
        except OSError as exc:
            raise CommandError(f"Cannot read {options['file']}: {exc.strerror}.") from exc
        try:
            tournament = import_backup(raw, actor=actor)
        except ServiceError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(f"Imported {tournament.name} (id {tournament.pk}).")
