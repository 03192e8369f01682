"""{% backup_status tournament %}: when the last automatic backup was written, and where;
how many changes are not in it yet, and why none can be written, when that is so."""

from datetime import timedelta

from django import template
from django.conf import settings
from django.utils import timezone

from tournament.backups import automatic
from tournament.models import Tournament

register = template.Library()

# A catch-up writes the waiting changes a second after the minutes' end: a minute more
# than that, and the backup is late (the folder, the disk, or a server stopped).
LATE = timedelta(minutes=1)
# Written less than this long ago, the backup is "less than a minute ago" ("nyss"), where
# `timesince` would say "0 minutes".
JUST_WRITTEN = timedelta(minutes=1)


@register.inclusion_tag("tournament/td/_backup_status.html")
def backup_status(tournament: Tournament) -> dict[str, object]:
    if not automatic.enabled():
        return {"enabled": False}
    latest = automatic.latest(tournament)
    waiting = automatic.waiting_changes(tournament, latest)
    due = (
        latest.written_at + timedelta(minutes=settings.BACKUP_MINUTES)
        if latest is not None
        else None
    )
    return {
        "enabled": True,
        "latest": latest,
        "folder": automatic.folder(tournament),
        "while_hands": automatic.while_hands(),
        "written_at": timezone.localtime(latest.written_at) if latest is not None else None,
        "just_written": latest is not None and timezone.now() - latest.written_at < JUST_WRITTEN,
        "waiting": waiting,
        "due_at": timezone.localtime(max(due, timezone.now())) if due is not None else None,
        # Changes waiting: there is a newest backup, so a moment its next one was due.
        "late": bool(waiting)
        and automatic.while_hands()
        and due is not None
        and due + LATE < timezone.now(),
        "problem": automatic.folder_problem(tournament),
    }
