"""The venue's TD login (`make venue`): made once with the password kept in var/.

A TD who changed the password afterwards keeps it: the command never resets one,
and says whether the kept password still opens the login. A `td` a restore made locked
(no password: the backup's TD, kept as who made its draws) becomes the venue's login.
"""

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = "Make the venue's TD login once; print 'current' or 'changed' for its kept password."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--password-file", required=True)

    def handle(self, *args: Any, username: str, password_file: str, **options: Any) -> None:
        password = Path(password_file).read_text(encoding="utf-8").strip()
        user, created = get_user_model().objects.get_or_create(
            username=username, defaults={"is_staff": True, "is_superuser": True}
        )
        if created or not user.has_usable_password():
            # Made now, or made locked by a restore (the backup's TD, who made its draws):
            # the venue's TD login from now on, with the kept password.
            user.set_password(password)
            user.is_active = user.is_staff = user.is_superuser = True
            user.save(update_fields=["password", "is_active", "is_staff", "is_superuser"])
        self.stdout.write("current" if user.check_password(password) else "changed")
