"""Penalties as the TD weighs them: what its points would do to the table's outcome (the
rules deduct them at the player's table of the current level even once it is over, so a
penalty there can hand the table to another player), and the tournament's penalties. What
one will cost is the service's (services/penalties.py), which checks it again on giving."""

from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournament.models import Penalty, Player, Seat, Table, Tournament
from tournament.services.penalties import PenaltyCost
from tournament.tables.state import cached_state, load_table


@dataclass(frozen=True)
class OutcomeChange:
    winner_before: str | None  # the name of who wins the table now, if anyone
    winner_after: str | None  # ... and once the points are off, if anyone
    tied_after: tuple[str, ...] = ()  # the names tied for first then, when no one wins

    @property
    def changes(self) -> bool:
        return self.winner_before is not None and self.winner_after != self.winner_before


def outcome_after_penalty(table: Table, player_id: int, points: int) -> OutcomeChange:
    """The table's winner before and after `points` more come off `player_id` there
    (`table.level.tournament` loaded): 2 queries, 3-4 while a lead is tied."""
    before, seats = cached_state(table)
    penalty = {s.id: s.penalty_points + (points if s.player_id == player_id else 0) for s in seats}
    after, _ = cached_state(table, seats, penalty_points=penalty)
    names: dict[int | None, str] = {s.id: s.player.name for s in seats}

    return OutcomeChange(
        winner_before=names.get(before.winner_seat_id),
        winner_after=names.get(after.winner_seat_id),
        tied_after=tuple(names[i] for i in after.tied_leader_ids),
    )


def tournament_penalty(tournament: Tournament, penalty_id: int) -> Penalty | None:
    """One penalty of this tournament with its player, table, level and who gave and
    rescinded it, or None: 1 query."""
    return (
        Penalty.objects.select_related("player", "table__level", "created_by", "rescinded_by")
        .filter(pk=penalty_id, tournament=tournament)
        .first()
    )


def tournament_penalties(tournament: Tournament) -> list[Penalty]:
    return list(
        Penalty.objects.filter(tournament=tournament)
        .select_related("player", "table__level", "created_by", "rescinded_by")
        .order_by("created_at", "id")
    )


def cost_text(cost: PenaltyCost) -> str:
    """The cost of a penalty in words: "2nd warning: 35 points", "3rd warning: disqualified"."""
    number, points = cost.warning_number, cost.points
    if cost.disqualifies:
        if points:
            return _("3rd warning: %(points)d points and disqualified") % {"points": points}
        return _("3rd warning: disqualified")
    if number == 1:
        if points:
            return _("1st warning: %(points)d points") % {"points": points}
        return _("1st warning: no points")
    if points:
        return _("2nd warning: %(points)d points") % {"points": points}
    return _("2nd warning: no points")


@dataclass(frozen=True)
class PenaltyConfirmation:
    """What the confirmation of a penalty states beside its cost: the player's seat at this
    table, his total there once the points are off, and what that does to who wins."""

    seat: Seat | None  # the player's seat at the table the penalty is given from
    at_this_table: bool  # the points come off at this table
    total_after: int | None
    outcome: OutcomeChange | None  # only when points come off and he is not disqualified


def penalty_confirmation(table: Table, player: Player, cost: PenaltyCost) -> PenaltyConfirmation:
    """The confirmation's facts of giving `player` (seated at `table`) a penalty of `cost`."""
    seat = next((s for s in table.seats.all() if s.player_id == player.pk), None)
    outcome = None
    if cost.points and cost.table is not None and not cost.disqualifies:
        outcome = outcome_after_penalty(load_table(cost.table.pk), player.pk, cost.points)
    return PenaltyConfirmation(
        seat=seat,
        at_this_table=cost.table is not None and cost.table.pk == table.pk,
        total_after=seat.total - cost.points if seat is not None else None,
        outcome=outcome,
    )
