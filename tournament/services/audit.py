from django.utils import timezone

from tournament.models import AuditEntry
from tournament.services.rows import insert


def actor_or_none(actor):
    return actor if actor is not None and getattr(actor, "is_authenticated", False) else None


def record(*, tournament, actor, action, summary, before=None, after=None, actor_label=""):
    """Keep who did what and when, with the state before and after."""
    user = actor_or_none(actor)
    if not actor_label:
        actor_label = user.get_username() if user else "system"
    return AuditEntry.objects.create(
        tournament=tournament,
        actor=user,
        actor_label=actor_label[:120],
        action=action,
        summary=summary[:300],
        before=before,
        after=after,
    )


def record_fast(*, tournament, actor, action, summary, before=None, after=None, actor_label=""):
    """As `record`, as one plain INSERT (for recording hands, the hot path); returns nothing."""
    user = actor_or_none(actor)
    if not actor_label:
        actor_label = user.get_username() if user else "system"
    insert(
        AuditEntry,
        {
            "tournament": tournament.pk,
            "at": timezone.now(),
            "actor": user.pk if user else None,
            "actor_label": actor_label[:120],
            "action": action,
            "summary": summary[:300],
            "before": before,
            "after": after,
        },
    )
