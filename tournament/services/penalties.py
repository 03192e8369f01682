"""Warnings and penalties: counted across the whole tournament."""

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import audit
from tournament.audit.sentences import deducted_where
from tournament.errors import Conflict, NotAllowed
from tournament.models import Penalty, Player, Seat, Table, TableCall, Tournament
from tournament.rules.validation import clean_choice, clean_text, column_length, saved
from tournament.rules.warnings import DISQUALIFYING_WARNING, warning_points
from tournament.services.calls import clear_named_call
from tournament.services.idempotency import idempotent
from tournament.tables.locking import lock_tables, lock_tournament, touch_tournament
from tournament.tables.store import open_tables_of, recompute_warnings, refresh_table

NOTE_LENGTH = column_length(Penalty, "note")
REASON_LENGTH = column_length(Penalty, "rescind_reason")


def open_seat(player: Player) -> Seat | None:
    """The player's seat in the current draw of an open level, if any."""
    return Seat.objects.open().filter(player=player).select_related("table").first()


def _lock_player_tables(player: Player) -> set[int]:
    """Lock every table a change of this player's warnings can rewrite (after the tournament)."""
    ids = open_tables_of(player)
    lock_tables(ids)
    return ids


def _refresh(table_ids: Iterable[int]) -> None:
    for table in Table.objects.filter(pk__in=table_ids).select_related("level__tournament"):
        refresh_table(table)


def _state(penalty: Penalty) -> dict[str, object]:
    table = penalty.table  # None without a query when it has none
    return {
        "player": penalty.player.name,
        "kind": penalty.kind,
        "warning_number": penalty.warning_number,
        "points": penalty.points,
        "table": table.number if table is not None else None,
        "rescinded": penalty.rescinded_at is not None,
        "disqualified": penalty.player.disqualified,
    }


def where_deducted(penalty: Penalty) -> str:
    """Where the penalty's points come off, in words (for the audit and the pages)."""
    table = penalty.table  # None without a query when it has none
    if table is None:
        return deducted_where(None, 0)
    return deducted_where(table.number, penalty.after_hand)


@dataclass(frozen=True)
class PenaltyCost:
    """What a penalty would cost if given now: stated to the TD before it is given."""

    warning_number: int  # 1st, 2nd, 3rd warning of the player in the tournament
    points: int  # deducted from his total at his table
    disqualifies: bool
    table: Table | None  # where the points come off (None: at no table, no points)


def penalty_cost(player: Player, kind: str) -> PenaltyCost:
    """The cost of giving `player` a penalty of `kind` now: 2 queries.

    The player's warnings that count (not rescinded) across the tournament give
    the number of this one; the price is the rules' own (rules/warnings.py).
    """
    number = Penalty.objects.standing().filter(player=player).count() + 1
    seat = Seat.objects.open().filter(player=player).select_related("table").first()
    table = seat.table if seat is not None else None
    return PenaltyCost(
        warning_number=number,
        points=warning_points(kind, number) if table is not None else 0,
        disqualifies=number >= DISQUALIFYING_WARNING,
        table=table,
    )


def given_cost(penalty: Penalty) -> PenaltyCost:
    """The cost of a penalty as it was given (its own numbers), to say what was done."""
    return PenaltyCost(
        # A penalty just given is numbered (PenaltyCost's type; the column allows none).
        warning_number=penalty.warning_number,  # type: ignore[arg-type]
        points=penalty.points,
        disqualifies=penalty.player.disqualified,
        table=penalty.table,
    )


def check_table_takes_penalty(table: Table) -> None:
    """Refuse a penalty given from the page of a table no longer in play (redrawn, or its
    level closed): the player's current table is where his points come off."""
    if table.draw.superseded_at is not None or table.level.closed_at is not None:
        raise NotAllowed(
            _("This table is no longer in play: give the penalty at the player's current table.")
        )


class CostChanged(Conflict):
    """The player's warnings changed since the confirmation stated the cost: `cost` is
    what it would be now."""

    def __init__(self, player: Player, cost: PenaltyCost) -> None:
        super().__init__(
            _(
                "The warnings of %(name)s changed since the cost was stated: nothing was "
                "given. Check the cost again."
            )
            % {"name": player.name}
        )
        self.cost = cost


def check_stated_cost(*, player: Player, kind: str, stated_warning: object) -> PenaltyCost:
    """Refuse (CostChanged) a penalty whose warning number is no longer the one the TD
    was told: another penalty given or rescinded meanwhile moved its price."""
    cost = penalty_cost(player, kind)
    if str(stated_warning) != str(cost.warning_number):
        raise CostChanged(player, cost)
    return cost


@idempotent("penalty.give", load=Penalty)
@transaction.atomic
def give_stated_penalty(
    *,
    tournament: Tournament,
    player: Player,
    kind: str,
    stated_warning: object,
    actor: audit.Actor,
    note: object = "",
    call: int | None = None,
) -> Penalty:
    """The penalty the TD confirmed at the cost he was told (`stated_warning`, the warning
    number it would be), given from the revisor's call `call` (an id) if any.

    The cost is checked again under the tournament's lock: one that moved since it was
    stated gives nothing (CostChanged). The call it answers is cleared with it, if it is
    still the table's open call. With `key=`, made once (services/idempotency.py).
    """
    tournament = lock_tournament(saved(tournament, Tournament, label=_("The tournament")))
    player = saved(player, Player, label=_("The player"), tournament=tournament)
    check_stated_cost(player=player, kind=kind, stated_warning=stated_warning)
    penalty = give_penalty(tournament=tournament, player=player, kind=kind, note=note, actor=actor)
    if call is not None:
        called_at = (
            TableCall.objects.filter(pk=call, table__level__tournament=tournament)
            .values_list("table", flat=True)
            .first()
        )
        if called_at is not None:
            clear_named_call(table=Table(pk=called_at), call_id=call, actor=actor)
    return penalty


@idempotent("penalty.give", load=Penalty)
@transaction.atomic
def give_penalty(
    *, tournament: Tournament, player: Player, kind: object, actor: audit.Actor, note: object = ""
) -> Penalty:
    """A warning (a timeout also costs 10 points) at the player's current table.

    The 2nd warning costs 25 more, the 3rd disqualifies. A warning given while the
    player is at no table (before the first draw, or after going out) counts, but
    costs no points: there is no score to deduct them from (rules/decisions.py).
    """
    tournament = lock_tournament(saved(tournament, Tournament, label=_("The tournament")))
    player = saved(player, Player, label=_("The player"), tournament=tournament)
    kind = clean_choice(kind, label=_("The kind of penalty"), choices=Penalty.Kind)
    note = clean_text(
        note, label=_("The note"), max_length=NOTE_LENGTH, required=False, multiline=True
    )
    if tournament.finished_at is not None:
        raise NotAllowed(_("The tournament is finished."))
    if player.withdrawn_at is not None:
        raise NotAllowed(_("%(name)s has withdrawn.") % {"name": player.name})
    if player.disqualified:
        raise NotAllowed(_("%(name)s is already disqualified.") % {"name": player.name})
    _lock_player_tables(player)
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
        note=note,
        after_hand=seat.table.hands_played if seat else 0,
        created_by=audit.actor_or_none(actor),
    )
    _refresh(recompute_warnings(player))
    touch_tournament(tournament)
    penalty.refresh_from_db()
    penalty.player = player
    table = penalty.table  # None without a query when it has none
    audit.record(
        tournament=tournament,
        actor=actor,
        action="penalty.give",
        params={
            "player": player.name,
            "kind": penalty.kind,
            "warning": penalty.warning_number,
            "points": penalty.points,
            "level": table.level.number if table is not None else None,
            "table": table.number if table is not None else None,
            "after_hand": penalty.after_hand if table is not None else None,
            "disqualified": player.disqualified,
        },
        after=_state(penalty),
    )
    return penalty


@idempotent("penalty.rescind", load=Penalty)
@transaction.atomic
def rescind_penalty(*, penalty: Penalty, actor: audit.Actor, reason: object) -> Penalty:
    """Take a penalty back; it stays on record, marked, and everything is recomputed."""
    penalty = saved(penalty, Penalty, label=_("The penalty"))
    tournament = lock_tournament(penalty.tournament)
    penalty = Penalty.objects.select_related("player", "table__level").get(pk=penalty.pk)
    reason = clean_text(
        reason,
        label=_("The reason"),
        max_length=REASON_LENGTH,
        empty=_("Rescinding a penalty needs a reason."),
    )
    if penalty.rescinded_at is not None:
        raise NotAllowed(_("This penalty is already rescinded."))
    # Rescinding renumbers the player's later warnings: none of them may be in a level
    # whose results are final.
    final = Penalty.objects.standing().filter(
        player=penalty.player, table__level__closed_at__isnull=False
    )
    if penalty.table_id is not None:
        final = final.filter(created_at__gte=penalty.created_at)
    else:
        final = final.filter(created_at__gt=penalty.created_at)
    if final.exists():
        raise NotAllowed(
            _(
                "This penalty can no longer be rescinded: it counts for warnings in a level "
                "whose results are final."
            )
        )
    _lock_player_tables(penalty.player)
    before = _state(penalty)
    penalty.rescinded_at = timezone.now()
    penalty.rescinded_by = audit.actor_or_none(actor)
    penalty.rescind_reason = reason
    penalty.save(update_fields=["rescinded_at", "rescinded_by", "rescind_reason"])
    _refresh(recompute_warnings(penalty.player))
    touch_tournament(tournament)
    penalty.refresh_from_db()
    penalty.player.refresh_from_db()
    table = penalty.table  # None without a query when it has none
    audit.record(
        tournament=tournament,
        actor=actor,
        action="penalty.rescind",
        params={
            "player": penalty.player.name,
            "kind": penalty.kind,
            "reason": reason,
            "level": table.level.number if table is not None else None,
            "table": table.number if table is not None else None,
        },
        before=before,
        after=_state(penalty),
    )
    return penalty
