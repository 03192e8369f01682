"""The estimated ends the players see (tournament/rules/pace.py): the level's on the big screen,
a table's on its public page. Stated as clock times, so that a page kept per token stays
true while it is kept."""

from datetime import datetime

from django.utils import timezone

from tournament.models import Hand
from tournament.rules import pace
from tournament.selectors.public import PublicLevel
from tournament.selectors.score_card import ScoreCard


def public_level_end(board: PublicLevel, now: datetime | None = None) -> pace.Range | None:
    """The estimated end of a public_level board's level (its slowest table's), or None:
    the level is closed or over, or a table playing has too few hands. 1 query for every
    hand time of the tables playing, none when no table plays."""
    playing = board.playing if board.level is not None and not board.closed else ()
    if not playing:
        return None
    now = now or timezone.now()
    times: dict[int, list[datetime]] = {table.pk: [] for table in playing}
    fantasyland: dict[int, int] = {}
    rows = (
        Hand.objects.filter(table_id__in=list(times))
        .order_by("table_id", "number")
        .values_list("table_id", "created_at", "table__fantasyland_hands")
    )
    for table_id, created_at, fantasyland_hands in rows:
        times[table_id].append(created_at)
        fantasyland[table_id] = fantasyland_hands
    estimates = [
        pace.table_estimate(
            times[table.pk],
            hands_played=table.hands_played,
            required_hands=table.required_hands,
            fantasyland_hands=fantasyland.get(table.pk, 0),
            now=now,
        )
        for table in playing
    ]
    return pace.level_end([e for e in estimates if e is not None], len(playing))


def public_table_end(card: ScoreCard, now: datetime | None = None) -> pace.Estimate | None:
    """A table's estimated finish from its score card (its hands are read already: no
    query), or None once it is over, redrawn or closed, or before it has enough hands."""
    if card.state.is_over or card.redrawn or card.table.level.closed_at is not None:
        return None
    return pace.table_estimate(
        [line.hand.created_at for line in card.hands],
        hands_played=card.hands_played,
        required_hands=card.required_hands,
        fantasyland_hands=card.state.progress.fantasyland_hands,
        now=now or timezone.now(),
    )
