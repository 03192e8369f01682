"""Penalties as the TD weighs them: what its points would do to the table's outcome (the
rules deduct them at the player's table of the current level even once it is over, so a
penalty there can hand the table to another player), and the tournament's penalties. What
one will cost is the service's (services/penalties.py), which checks it again on giving."""

from dataclasses import dataclass

from tournament.models import Penalty
from tournament.tables.state import cached_state


@dataclass(frozen=True)
class OutcomeChange:
    winner_before: str | None  # the name of who wins the table now, if anyone
    winner_after: str | None  # ... and once the points are off, if anyone
    tied_after: tuple = ()  # the names tied for first then, when no one wins

    @property
    def changes(self):
        return self.winner_before is not None and self.winner_after != self.winner_before


def outcome_after_penalty(table, player_id, points):
    """The table's winner before and after `points` more come off `player_id` there
    (`table.level.tournament` loaded): 2 queries, 3-4 while a lead is tied."""
    before, seats = cached_state(table)
    penalty = {s.id: s.penalty_points + (points if s.player_id == player_id else 0) for s in seats}
    after, _ = cached_state(table, seats, penalty_points=penalty)
    names = {s.id: s.player.name for s in seats}
    return OutcomeChange(
        winner_before=names.get(before.winner_seat_id),
        winner_after=names.get(after.winner_seat_id),
        tied_after=tuple(names[i] for i in after.tied_leader_ids),
    )


def tournament_penalties(tournament):
    return list(
        Penalty.objects.filter(tournament=tournament)
        .select_related("player", "table__level", "created_by", "rescinded_by")
        .order_by("created_at", "id")
    )
