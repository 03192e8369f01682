from tournament.models import AuditEntry


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
