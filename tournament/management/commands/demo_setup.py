"""Prepare a development database: a TD login, and demo tournaments on an empty database.

Every run (so every `make run`) then prints the in-play demo tournament's revisor
links and short codes, so that a newcomer can open a table's card on a phone and
watch the TD's dashboard move.
"""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db.models import Prefetch
from django.urls import reverse

from tournament.demo.autoplay import simulate
from tournament.models import Seat, Table, Tournament

DEMO_USERNAME = "td"
DEMO_PASSWORD = "pineapple-demo"
# (name, players, levels closed before stopping; None: play to the champion)
# The in-play one stops with level 2 in play, whose tables the printed links open: 18 players
# leave 6 winners of level 1, two tables of 3, so a newcomer sees a real 3-handed card (12
# left 4, two heads-up tables). 18 also shows level 1's disqualification (demo/autoplay.py).
DEMO_TOURNAMENTS = (
    ("Demo SM 2026 (finished)", 9, None),
    ("Demo SM 2026 (in play)", 18, 1),
)
# Where `make run` serves the site unless told another port (`PORT=8001 make run`).
DEMO_ADDRESS = "http://127.0.0.1:8000"


class Command(BaseCommand):
    help = "Create (or reset) the demo TD login and, on an empty database, demo tournaments."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--no-demo-tournaments",
            action="store_true",
            help="Only create the TD login.",
        )
        parser.add_argument(
            "--address",
            default=DEMO_ADDRESS,
            help=f"Where the site is served, for the printed links (default {DEMO_ADDRESS}).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        user, _ = get_user_model().objects.get_or_create(username=DEMO_USERNAME)
        user.is_staff = True
        user.is_superuser = True
        user.set_password(DEMO_PASSWORD)
        user.save()
        if not options["no_demo_tournaments"]:
            self.load_demo_tournaments()
        address = options["address"].rstrip("/")
        self.stdout.write(
            self.style.SUCCESS(
                "\nDemo TD login: username "
                f"'{DEMO_USERNAME}', password '{DEMO_PASSWORD}'"
                f"\nOpen {address}/ and log in at {address}/accounts/login/\n"
            )
        )
        self.print_revisor_links(address)

    def load_demo_tournaments(self) -> None:
        """A finished and an unfinished simulated tournament, on a database without any."""
        if Tournament.objects.exists():
            self.stdout.write("Tournaments exist already: no demo tournaments added.")
            return
        actor = get_user_model().objects.get(username=DEMO_USERNAME)
        for name, players, stop_after_level in DEMO_TOURNAMENTS:
            outcome = simulate(
                players=players,
                seed=name,
                name=name,
                stop_after_level=stop_after_level,
                actor=actor,
            )
            self.stdout.write(f"Demo tournament: {outcome.tournament.name}")

    def print_revisor_links(self, address: str) -> None:
        """Each open table of the in-play demo tournament: its revisor link and short code."""
        names = [name for name, _, stop_after_level in DEMO_TOURNAMENTS if stop_after_level]
        for tournament in Tournament.objects.filter(name__in=names, finished_at__isnull=True):
            tables = (
                Table.objects.open()
                .filter(level__tournament=tournament, revisor_key__isnull=False)
                .select_related("level")
                .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
                .order_by("level__number", "number")
            )
            dashboard = address + reverse("td:tournament", args=[tournament.pk])
            self.stdout.write(
                f"{tournament.name}: the TD's live dashboard is {dashboard}\n"
                "Revisor links (open one in a second browser or a phone-sized window, or go to "
                f"{address}{reverse('revisor:code')} and type the table's code):"
            )
            for table in tables:
                link = address + reverse("revisor:link", args=[table.revisor_key])
                players = ", ".join(seat.player.name for seat in table.seats.all())
                over = "; over" if table.is_over else ""
                self.stdout.write(
                    f"  Level {table.level.number} table {table.number} ({players}{over}):\n"
                    f"    {link}  code {table.revisor_code}"
                )
            self.stdout.write("")
