"""Warnings and penalties: counted across the whole tournament."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import Penalty, Player, Seat, Table
from tournament.services import audit
from tournament.services.errors import InvalidEntry, NotAllowed
from tournament.services.locking import lock_tournament
from tournament.services.recompute import recompute_table, recompute_warnings


def open_seat(player):
    """The player's seat in the current draw of an open level, if any."""
    return (
        Seat.objects.filter(
            player=player, table__level__closed_at__isnull=True, draw__superseded_at__isnull=True
        )
        .select_related("table")
        .first()
    )


def _recompute(tables):
    for table in Table.objects.filter(pk__in=tables).select_related("level__tournament"):
        recompute_table(table)


def _state(penalty):
    return {
        "player": penalty.player.name,
        "kind": penalty.kind,
        "warning_number": penalty.warning_number,
        "points": penalty.points,
        "rescinded": penalty.rescinded_at is not None,
        "disqualified": penalty.player.disqualified,
    }


@transaction.atomic
def give_penalty(*, player, kind, actor, note=""):
    """A warning (a timeout also costs 10 points) at the player's current table.

    The 2nd warning costs 25 more, the 3rd disqualifies. Outside a table in play
    (between levels) it still counts as a warning.
    """
    tournament = lock_tournament(player.tournament)
    player = Player.objects.get(pk=player.pk)
    if kind not in Penalty.Kind.values:
        raise InvalidEntry(_("Unknown kind of penalty: %(kind)s.") % {"kind": repr(kind)})
    if tournament.finished_at is not None:
        raise NotAllowed(_("The tournament is finished."))
    if player.withdrawn_at is not None:
        raise NotAllowed(_("%(name)s has withdrawn.") % {"name": player.name})
    if player.disqualified:
        raise NotAllowed(_("%(name)s is already disqualified.") % {"name": player.name})
    seat = open_seat(player)
    if seat is None and kind == Penalty.Kind.TIMEOUT:
        raise NotAllowed(
            _("%(name)s is not at a table: a timeout needs one.") % {"name": player.name}
        )
    penalty = Penalty.objects.create(
        tournament=tournament,
        player=player,
        table=seat.table if seat else None,
        kind=kind,
        note=(note or "").strip()[:500],
        after_hand=seat.table.hands_played if seat else 0,
        created_by=audit.actor_or_none(actor),
    )
    _recompute(recompute_warnings(player))
    penalty.refresh_from_db()
    player.refresh_from_db()
    penalty.player = player
    where = f"table {seat.table.number} after hand {penalty.after_hand}" if seat else "no table"
    audit.record(
        tournament=tournament,
        actor=actor,
        action="penalty.give",
        summary=f"{player.name}: {penalty.get_kind_display()} — warning {penalty.warning_number}, "
        f"{penalty.points} points ({where})" + (" — disqualified" if player.disqualified else ""),
        after=_state(penalty),
    )
    return penalty


@transaction.atomic
def rescind_penalty(*, penalty, actor, reason):
    """Take a penalty back; it stays on record, marked, and everything is recomputed."""
    tournament = lock_tournament(penalty.tournament)
    penalty = Penalty.objects.select_related("player").get(pk=penalty.pk)
    reason = (reason or "").strip()
    if not reason:
        raise InvalidEntry(_("Rescinding a penalty needs a reason."))
    if penalty.rescinded_at is not None:
        raise NotAllowed(_("This penalty is already rescinded."))
    before = _state(penalty)
    penalty.rescinded_at = timezone.now()
    penalty.rescinded_by = audit.actor_or_none(actor)
    penalty.rescind_reason = reason[:500]
    penalty.save(update_fields=["rescinded_at", "rescinded_by", "rescind_reason"])
    _recompute(recompute_warnings(penalty.player))
    penalty.refresh_from_db()
    penalty.player.refresh_from_db()
    audit.record(
        tournament=tournament,
        actor=actor,
        action="penalty.rescind",
        summary=f"Rescinded {penalty.player.name}'s {penalty.get_kind_display()}: {reason}"[:300],
        before=before,
        after=_state(penalty),
    )
    return penalty
