from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser

from tournament import events
from tournament.audit.sentences import ACTIONS
from tournament.models import AuditEntry, Tournament

# Who makes a change, as the services are given it: the request's user (signed in or not),
# or None for the system (a command, the demo's autoplay).
type Actor = AbstractBaseUser | AnonymousUser | None


def actor_or_none(actor: object) -> Any:
    return actor if actor is not None and getattr(actor, "is_authenticated", False) else None


def _checked(action: str, params: object) -> dict[str, Any]:
    """An action the log can put into words, with its params as data (no sentence stored)."""
    if action not in ACTIONS:
        raise ValueError(f"Audit action {action!r} has no sentence in audit/sentences.py")
    if not isinstance(params, dict):
        raise TypeError("Audit params are a dict of what happened.")
    return params


def record(
    *,
    tournament: Tournament | None,
    actor: Actor,
    action: str,
    params: dict[str, Any],
    before: object = None,
    after: object = None,
    actor_label: str = "",
) -> AuditEntry:
    """Keep who did what and when, with the state before and after.

    `params`: what happened as data (numbers, names, codes), named as the action's sentence
    in tournament/audit/sentences.py names them; the sentence is written when it is read.
    """
    user = actor_or_none(actor)
    if not actor_label:
        actor_label = user.get_username() if user else "system"
    entry = AuditEntry.objects.create(
        tournament=tournament,
        actor=user,
        actor_label=actor_label[:120],
        action=action,
        params=_checked(action, params),
        before=before,
        after=after,
    )
    if tournament is not None:
        # Every change of state passes here: it announces itself once it commits.
        events.changed.announce(tournament_id=tournament.pk)
    return entry
