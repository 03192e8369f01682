"""The tournament's standings: every player ranked by how far he went and his last table."""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from tournament.models import (
    Player,
    Seat,
    Tournament,
    seat_standing,
)
from tournament.selectors.tables import alone_in_draw


@dataclass(frozen=True)
class Standing:
    rank: int | None  # None for disqualified players
    player: Player
    level: int | None  # the last level the player played
    place: int | None  # place at that level's table
    points: int | None  # total at that table
    status: str  # "champion", "in", "out", "disqualified"
    # What the player wins in the final standings, in the smallest unit: set by
    # `selectors.prizes.with_prizes` (None: not worked out, or no prizes).
    prize: int | None = None


class _LastSeat(NamedTuple):
    """A seat as the standings read it, in the order of `_LAST_SEAT_LOOKUPS`."""

    player_id: int
    place: int | None
    total: int
    table_is_over: bool
    table_winner_id: int | None
    level: int  # the level's number
    alone_in_draw: bool  # the final table


_LAST_SEAT_LOOKUPS = (
    "player_id",
    "position",
    "table__seat_caches",  # the seat's place and total, by its position
    "table__is_over",
    "table__winner_id",
    "table__level__number",
)


def _final_winner(seats: Iterable[_LastSeat]) -> int | None:
    """The winner of the final table once it is over, before the TD closes its level: the
    table's page names him champion then, and so do the standings and his own page (they
    told him to wait for a next level's draw)."""
    return next(
        (
            seat.table_winner_id
            for seat in seats
            if seat.alone_in_draw and seat.table_is_over and seat.table_winner_id == seat.player_id
        ),
        None,
    )


def standings(tournament: Tournament) -> list[Standing]:
    """Final (or current) standings per rules.md section 6: 3 queries.

    Champion first; then the other players of the last table by their points
    there; then, level by level backwards, the players who went out at each
    level, by their place at their table and then their points there. Players
    still playing come first while the tournament runs. Disqualified last.
    """
    players = list(Player.objects.filter(tournament=tournament, withdrawn_at__isnull=True))
    # Each player's seat at the last level he played, as plain values: a model instance
    # for every seat, its table and its level made this read 15 ms of a room's 300 players,
    # worked out again at every hand (the standings are kept per token).
    last_seat: dict[int, _LastSeat] = {}
    for values in (
        Seat.objects.current()
        # An unreleased draw (issue 19 §5) counts from its release: the players see where
        # they stand, not the seating the TD still keeps to himself.
        .shown()
        .filter(table__level__tournament=tournament)
        .order_by("table__level__number")
        .annotate(alone_in_draw=alone_in_draw())
        .values_list(*_LAST_SEAT_LOOKUPS, "alone_in_draw")
    ):
        player_id, position, caches, *rest = values
        standing = seat_standing(caches, position)
        last = _LastSeat(player_id, standing["place"], standing["total"], *rest)
        last_seat[last.player_id] = last

    # Read afresh: the caller's instance may predate the final advance.
    champion_id = (
        Tournament.objects.filter(pk=tournament.pk).values_list("champion", flat=True).get()
    ) or _final_winner(last_seat.values())

    def key(player: Player) -> tuple[int, ...]:
        seat = last_seat.get(player.pk)
        if seat is None:
            return (0, 0, 0, 0, player.number)
        # A table's winner is still in until a draw seats him again: also once the TD has
        # closed his level and holds the next draw, which the room sees from its release.
        still_in = player.pk != champion_id and (
            not seat.table_is_over or seat.table_winner_id == player.pk
        )
        return (
            0 if player.pk == champion_id else 1,
            0 if still_in else 1,
            -seat.level,
            seat.place or 99,
            -seat.total,
            player.number,
        )

    ranked = sorted((p for p in players if not p.disqualified), key=key)
    result: list[Standing] = []
    previous: tuple[int, ...] | None = None

    for index, player in enumerate(ranked, start=1):
        seat = last_seat.get(player.pk)
        sort_key = key(player)[:-1]
        rank = result[-1].rank if previous == sort_key else index
        previous = sort_key
        if player.pk == champion_id:
            status = "champion"
        elif sort_key[1] == 0:
            status = "in"
        else:
            status = "out"
        result.append(
            Standing(
                rank=rank,
                player=player,
                level=seat.level if seat else None,
                place=seat.place if seat else None,
                points=seat.total if seat else None,
                status=status,
            )
        )
    for player in sorted(
        (p for p in players if p.disqualified),
        key=lambda p: (-(last_seat[p.pk].level if p.pk in last_seat else 0), p.number),
    ):
        seat = last_seat.get(player.pk)
        result.append(
            Standing(
                rank=None,
                player=player,
                level=seat.level if seat else None,
                place=None,
                points=seat.total if seat else None,
                status="disqualified",
            )
        )
    return result
