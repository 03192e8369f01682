from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.management.base import CommandError


def actor_from_option(username: str | None) -> User | None:
    """The user a command acts as (`--actor USERNAME`), or None for the system."""
    if not username:
        return None
    actor = get_user_model().objects.filter(username=username).first()
    if actor is None:
        raise CommandError(f"No user {username!r}.")
    return actor
