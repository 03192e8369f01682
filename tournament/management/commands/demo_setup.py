"""Prepare a development database: a TD login, and demo tournaments on an empty database."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

DEMO_USERNAME = "td"
DEMO_PASSWORD = "pineapple-demo"


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
        """Filled in by the domain layer: a finished and an unfinished tournament."""
