"""Write every tournament's automatic backup that lacks changes, now: what a server runs
as it stops (config/gunicorn.py), so that nothing recorded waits for a catch-up that a
stopped server will never run."""

from typing import Any

from django.core.management.base import BaseCommand

from tournament.backups import automatic


class Command(BaseCommand):
    help = "Write the automatic backup of every tournament with changes not in its newest."

    def handle(self, *args: Any, **options: Any) -> None:
        written = automatic.catch_up_all()
        for path in written:
            self.stdout.write(f"Backup written: {path}")
        if not written:
            self.stdout.write("Every backup holds every change: nothing to write.")
