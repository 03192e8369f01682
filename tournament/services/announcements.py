"""The TD's announcements to the room: a short message with an optional end time, shown as
a banner on the players' pages and the projector views until it ends or is withdrawn.

One stands at a time: announcing replaces the one standing (it is withdrawn by the same
change). Each change bumps the tournament's revision, so every polled page shows it at its
next poll; an end time passing changes nothing here (the pages hide it by the clock).
"""

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import audit
from tournament.errors import InvalidEntry, NotAllowed
from tournament.models import Announcement, Tournament
from tournament.rules.names import check_shown
from tournament.rules.validation import clean_text, column_length, instance
from tournament.services.idempotency import idempotent
from tournament.tables.locking import lock_tournament, touch_tournament

TEXT_LENGTH = column_length(Announcement, "text")


def standing(tournament: Tournament, now: datetime.datetime | None = None) -> Announcement | None:
    """The tournament's announcement shown now, or None: the latest not withdrawn whose end
    time (if any) is still to come."""
    now = now or timezone.now()
    return (
        Announcement.objects.filter(tournament=tournament, withdrawn_at__isnull=True)
        .exclude(ends_at__lte=now)
        .order_by("-created_at", "-id")
        .first()
    )


def _iso(moment: datetime.datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _withdraw(announcement: Announcement, actor: audit.Actor, now: datetime.datetime) -> None:
    announcement.withdrawn_at = now
    announcement.withdrawn_by = audit.actor_or_none(actor)
    announcement.save(update_fields=["withdrawn_at", "withdrawn_by"])


@idempotent("announcement.make", load=Announcement)
@transaction.atomic
def announce(
    *,
    tournament: Tournament,
    actor: audit.Actor,
    text: object,
    ends_at: datetime.datetime | None = None,
) -> Announcement:
    """Show `text` to the room until `ends_at` (None: until withdrawn); replaces the one
    standing. Refused for a finished tournament, an end time not in the future, and text
    that is empty, too long, invisible or turns its direction."""
    tournament = lock_tournament(instance(tournament, Tournament, label=_("The tournament")))
    label = _("The announcement")
    text = check_shown(clean_text(text, label=label, max_length=TEXT_LENGTH), label=label)
    now = timezone.now()
    if ends_at is not None:
        if timezone.is_naive(ends_at):
            raise InvalidEntry(_("The end time must name its time zone."))
        if ends_at <= now:
            raise InvalidEntry(_("The end time has passed already: choose a later time."))
    if tournament.finished_at is not None:
        raise NotAllowed(_("The tournament is finished: there is no room to announce to."))
    replaced = standing(tournament, now)
    if replaced is not None:
        _withdraw(replaced, actor, now)
    announcement = Announcement.objects.create(
        tournament=tournament,
        text=text,
        ends_at=ends_at,
        created_by=audit.actor_or_none(actor),
    )
    touch_tournament(tournament)
    audit.record(
        tournament=tournament,
        actor=actor,
        action="announcement.make",
        params={"text": text, "ends_at": _iso(ends_at)},
        before={"text": replaced.text} if replaced is not None else None,
        after={"text": text, "ends_at": _iso(ends_at)},
    )
    return announcement


@idempotent("announcement.withdraw", load=Announcement)
@transaction.atomic
def withdraw_announcement(*, tournament: Tournament, actor: audit.Actor) -> Announcement:
    """Take the standing announcement down now."""
    tournament = lock_tournament(instance(tournament, Tournament, label=_("The tournament")))
    announcement = withdraw_standing(tournament, actor)
    if announcement is None:
        raise NotAllowed(
            _("There is no announcement to withdraw: it has ended or was withdrawn already.")
        )
    return announcement


def withdraw_standing(
    tournament: Tournament, actor: audit.Actor, *, closing_level: int | None = None
) -> Announcement | None:
    """Within a change that holds the tournament's lock: take the standing announcement
    down (with its audit entry), or do nothing when none stands. `closing_level`: the
    number of the level whose close takes it down. Returns it, or None."""
    now = timezone.now()
    announcement = standing(tournament, now)
    if announcement is None:
        return None
    _withdraw(announcement, actor, now)
    touch_tournament(tournament)
    params: dict[str, object] = {"text": announcement.text}
    if closing_level is not None:
        params["level"] = closing_level
    audit.record(
        tournament=tournament,
        actor=actor,
        action="announcement.withdraw",
        params=params,
        before={"text": announcement.text, "ends_at": _iso(announcement.ends_at)},
    )
    return announcement
