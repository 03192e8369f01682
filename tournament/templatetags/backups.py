"""{% backup_status tournament %}: when the last automatic backup was written, and where."""

from django import template
from django.utils import timezone

from tournament.services import autobackup

register = template.Library()


@register.inclusion_tag("tournament/td/_backup_status.html")
def backup_status(tournament):
    if not autobackup.enabled():
        return {"enabled": False}
    latest = autobackup.latest(tournament)
    return {
        "enabled": True,
        "latest": latest,
        "folder": autobackup.folder(tournament),
        "while_hands": autobackup.while_hands(),
        "written_at": latest and timezone.localtime(latest.written_at),
    }
