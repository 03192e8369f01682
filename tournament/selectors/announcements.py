"""The announcement a page shows, read in the same query as its tournament."""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Now

from tournament.models import Announcement, Tournament


@dataclass(frozen=True)
class Shown:
    """The banner: the TD's text and when it ends (None: until withdrawn)."""

    text: str
    ends_at: datetime | None


def _standing(field: str, now: datetime | Now) -> Subquery:
    """One field of the tournament's standing announcement, as a subquery: the latest one
    not withdrawn whose end time is still to come (services.announcements.standing)."""
    return Subquery(
        Announcement.objects.filter(tournament_id=OuterRef("pk"), withdrawn_at__isnull=True)
        .filter(Q(ends_at__isnull=True) | Q(ends_at__gt=now))
        .order_by("-created_at", "-id")
        .values(field)[:1]
    )


def with_announcement(
    queryset: QuerySet[Tournament], now: datetime | None = None
) -> QuerySet[Tournament]:
    """Tournaments with their standing announcement's text and end (no query more): set
    `.announcement` from them with `announcement_of`. Standing at `now` (the database's
    clock when None)."""
    when = Now() if now is None else now
    return queryset.annotate(
        announcement_text=_standing("text", when), announcement_ends_at=_standing("ends_at", when)
    )


def announcement_of(tournament: Tournament) -> Shown | None:
    """The `Shown` banner of a tournament read `with_announcement`, or None; kept on it as
    `.announcement`, which the templates read."""
    # Annotated by `with_announcement`, not fields of the model: read by name.
    text = getattr(tournament, "announcement_text", None)
    ends_at = getattr(tournament, "announcement_ends_at", None)
    shown = Shown(text, ends_at) if text is not None else None
    # Not a field either: kept on the instance for the templates.

    tournament.announcement = shown  # type: ignore[attr-defined]
    return shown
