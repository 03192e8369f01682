"""Write a tournament's backup as JSON (docs/export-format.md)."""

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.backups import export_tournament
from tournament.models import Tournament


class Command(BaseCommand):
    help = "Export a tournament (its whole history) as JSON, to stdout or a file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament_id", type=int, help="The tournament's id.")
        parser.add_argument("--output", "-o", metavar="FILE", help="Write to FILE, not stdout.")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(pk=options["tournament_id"]).first()
        if tournament is None:
            raise CommandError(f"No tournament with id {options['tournament_id']}.")
        text = json.dumps(export_tournament(tournament), ensure_ascii=False, indent=1)
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8") as file:
                file.write(text + "\n")
            self.stderr.write(f"Exported {tournament.name} to {options['output']}.")
        else:
            self.stdout.write(text)
