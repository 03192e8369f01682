"""A revisor calls the TD to a table; the TD clears the call."""

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import audit
from tournament.errors import InvalidEntry, NotAllowed
from tournament.models import Player, Table, TableCall, Tournament
from tournament.rules.validation import clean_choice, clean_text, column_length, instance
from tournament.services.idempotency import idempotent
from tournament.tables.locking import lock_table, lock_tournament, touch_tournament

NOTE_LENGTH = column_length(TableCall, "note")
LABEL_LENGTH = column_length(TableCall, "called_by_label")


def open_call(table: Table) -> TableCall | None:
    calls = TableCall.objects.filter(table=table, cleared_at__isnull=True)
    return calls.select_related("player").first()


def _player_at(table: Table, player: Player | int) -> Player:
    """The player, if they still play at the table (not disqualified from it)."""
    player_id = getattr(player, "pk", player)
    seat = (
        table.seats.filter(player_id=player_id, left_after_hand__isnull=True)
        .select_related("player")
        .first()
        if isinstance(player_id, int)
        else None
    )
    if seat is None:
        raise InvalidEntry(
            _("The player named does not play at table %(table)d.") % {"table": table.number}
        )
    return seat.player


@idempotent("table.call", load=TableCall)
@transaction.atomic
def call_td(
    *,
    table: Table,
    kind: object,
    note: object = "",
    player: Player | int | None = None,
    actor: audit.Actor = None,
    actor_label: object = "",
) -> TableCall | None:
    """Flag the table for the TD; a table has at most one open call (a second is the same).

    `player` names the player the call is about (the one timed out, or the one to warn):
    one who plays at the table."""
    table = lock_table(instance(table, Table, label=_("The table")))
    kind = clean_choice(kind, label=_("The reason for the call"), choices=TableCall.Kind)
    note = clean_text(note, label=_("The note"), max_length=NOTE_LENGTH, required=False)
    actor_label = clean_text(
        actor_label, label=_("The caller"), max_length=LABEL_LENGTH, required=False
    )
    if table.draw.superseded_at is not None or table.level.closed_at is not None:
        raise NotAllowed(_("This table is no longer in play."))
    if player is not None:
        player = _player_at(table, player)
    existing = open_call(table)
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            call = TableCall.objects.create(
                table=table, kind=kind, note=note, player=player, called_by_label=actor_label
            )
    except IntegrityError:  # another device called at the same instant
        return open_call(table)
    # The table's lock moved its revision (tables/locking.py): its pages show the call.
    params: dict[str, object] = {
        "level": table.level.number,
        "table": table.number,
        "kind": kind,
        "note": note,
    }
    after: dict[str, object] = {"kind": kind, "note": note}
    if player is not None:  # a call naming nobody reads as it always has
        params["player"], after["player"] = player.name, player.pk
    audit.record(
        tournament=table.level.tournament,
        actor=actor,
        actor_label=actor_label,
        action="table.call",
        params=params,
        after=after,
    )
    return call


def clear_named_call(*, table: Table, call_id: int, actor: audit.Actor) -> TableCall | None:
    """Clear the table's open call if it is still call `call_id` (the TD gave the penalty it
    asked for); None when it was cleared meanwhile or another call is open."""
    call = open_call(instance(table, Table, label=_("The table")))
    if call is None or call.pk != call_id:
        return None
    return clear_call(table=table, actor=actor)


@idempotent("table.call_cleared", load=TableCall)
@transaction.atomic
def clear_call(*, table: Table, actor: audit.Actor) -> TableCall:
    """The TD has dealt with the table's call, at any level: one left open at a closed level
    or at a redrawn table is cleared the same way (a call is never lost)."""
    table = instance(table, Table, label=_("The table"))
    # The tournament first (the lock order): a table out of play is in no page's revision
    # token, so clearing its call moves the tournament's revision instead.
    tournament_id = Table.objects.filter(pk=table.pk).values_list("level__tournament", flat=True)
    if not tournament_id:
        raise InvalidEntry(_("%(label)s is missing or unknown.") % {"label": _("The table")})
    tournament = lock_tournament(Tournament(pk=tournament_id[0]))
    table = lock_table(table)
    call = open_call(table)
    if call is None:
        raise NotAllowed(_("Table %(table)d has no open call.") % {"table": table.number})
    call.cleared_at = timezone.now()
    call.cleared_by = audit.actor_or_none(actor)
    call.save(update_fields=["cleared_at", "cleared_by"])
    if table.draw.superseded_at is not None or table.level.closed_at is not None:
        touch_tournament(tournament)
    audit.record(
        tournament=table.level.tournament,
        actor=actor,
        action="table.call_cleared",
        params={"level": table.level.number, "table": table.number, "kind": call.kind},
        before={"kind": call.kind, "note": call.note},
    )
    return call
