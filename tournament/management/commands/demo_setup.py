"""Prepare a development database: a TD login, and demo tournaments on an empty database."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from tournament.autoplay import simulate
from tournament.models import Tournament

DEMO_USERNAME = "td"
DEMO_PASSWORD = "pineapple-demo"
# (name, players, levels closed before stopping; None: play to the champion)
DEMO_TOURNAMENTS = (
    ("Demo SM 2026 (finished)", 9, None),
    ("Demo SM 2026 (in play)", 12, 1),
)


class Command(BaseCommand):
    help = "Create (or reset) the demo TD login and, on an empty database, demo tournaments."

    def add_arguments(self, parser):
        parser.add_argument(
            "--no-demo-tournaments",
            action="store_true",
            help="Only create the TD login.",
        )

    def handle(self, *args, **options):
        user, _ = get_user_model().objects.get_or_create(username=DEMO_USERNAME)
        user.is_staff = True
        user.is_superuser = True
        user.set_password(DEMO_PASSWORD)
        user.save()
        if not options["no_demo_tournaments"]:
            self.load_demo_tournaments()
        self.stdout.write(
            self.style.SUCCESS(
                "\nDemo TD login: username "
                f"'{DEMO_USERNAME}', password '{DEMO_PASSWORD}'"
                "\nOpen http://127.0.0.1:8000/ and log in at http://127.0.0.1:8000/accounts/login/\n"
            )
        )

    def load_demo_tournaments(self):
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
