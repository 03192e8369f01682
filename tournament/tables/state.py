"""Reading a table's state from the database (no writes): from its caches, or from its history.

`cached_state` is what pages, the simulation and recording the next hand use:
a fixed handful of queries whatever the table's length. `history_state` walks
every hand again (a correction, the import's check, the drift test); both go
through the same fold in `tournament.rules.table_fold`.
"""

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from scoring import InvalidHand, Rules, score_hand
from tournament.models import HandResult, HandVersion, Penalty, Seat, Table, TieSettlement
from tournament.rules.table_fold import (
    HandInput,
    PlayedHand,
    Progress,
    RepeatBroken,
    Rescore,
    ResultInput,
    SeatInput,
    TableState,
    conclude,
    walk,
)

ROWS = ("front", "middle", "back")


@dataclass(frozen=True)
class History:
    """A table's state walked from its history, with what the walk found on the way."""

    state: TableState
    seats: list[Seat]
    versions: list[HandVersion]  # current version of every hand, in hand order, results prefetched
    played: list[PlayedHand]  # per hand
    repeat_broken: list[RepeatBroken]  # points hands whose Fantasyland the rule forbids


def seat_inputs(seats: Iterable[Seat]) -> list[SeatInput]:
    return [
        SeatInput(
            seat_id=s.id,
            position=s.position,
            player_id=s.player_id,
            left_after_hand=s.left_after_hand,
            disqualified=s.player.disqualified,
        )
        for s in seats
    ]


def table_seats(table: Table) -> list[Seat]:
    """The table's seats with their players, in seat order: 1 query. Each seat's `table` is
    `table` itself, whose row holds their standings (`seat.total`)."""
    seats = list(Seat.objects.filter(table=table).select_related("player").order_by("position"))
    for seat in seats:
        seat.table = table
    return seats


def settled_winner_seat(table: Table, seats: Iterable[Seat]) -> int | None:
    """The seat of the latest tie settlement's winner, if any: 1 query."""
    winner_id = (
        TieSettlement.objects.filter(table=table)
        .order_by("-id")
        .values_list("winner_id", flat=True)
        .first()
    )
    return next((s.id for s in seats if s.player_id == winner_id), None)


def conclude_table(
    table: Table,
    seats: Sequence[Seat],
    progress: Progress,
    penalty_points: Mapping[int, int],
    settled_seat_id: int | None,
) -> TableState:
    """The table's state from a progress (`table.level.tournament` loaded): no query."""
    tournament = table.level.tournament
    return conclude(
        progress,
        seats=seat_inputs(seats),
        penalty_points=penalty_points,
        min_hands=tournament.min_hands,
        first_dealer_position=table.first_dealer_position,
        button_stays_in_fantasyland=tournament.button_stays_in_fantasyland,
        settled_winner_seat_id=settled_seat_id,
    )


def cached_progress(table: Table, seats: Iterable[Seat]) -> Progress:
    return Progress(
        hands_played=table.hands_played,
        fantasyland_hands=table.fantasyland_hands,
        last_dealer=table.last_dealer_position,
        hand_points={s.id: s.hand_points for s in seats},
        in_fantasyland={s.id: s.in_fantasyland for s in seats},
        streak={s.id: s.fantasyland_streak for s in seats},
    )


def cached_state(
    table: Table,
    seats: list[Seat] | None = None,
    *,
    penalty_points: Mapping[int, int] | None = None,
) -> tuple[TableState, list[Seat]]:
    """The table's state from its caches (`table.level.tournament` loaded): 1 query, 2 while
    its leaders are tied."""
    if seats is None:
        seats = table_seats(table)
    if penalty_points is None:
        penalty_points = {s.id: s.penalty_points for s in seats}
    return concluded(table, seats, cached_progress(table, seats), penalty_points), seats


def concluded(
    table: Table, seats: Sequence[Seat], progress: Progress, penalty_points: Mapping[int, int]
) -> TableState:
    """Conclude a progress; the tie settlement is read (1 query) only where a tie for first
    makes it matter, which is the only place where it changes the outcome."""
    state = conclude_table(table, seats, progress, penalty_points, None)
    if state.tied_leader_ids:
        settled = settled_winner_seat(table, seats)
        if settled is not None:
            state = conclude_table(table, seats, progress, penalty_points, settled)
    return state


def penalty_points_at(table: Table, seats: Iterable[Seat]) -> dict[int, int]:
    """Points deducted at this table per seat, from the penalties that count: 1 query."""
    seat_of_player = {s.player_id: s.id for s in seats}
    points: defaultdict[int, int] = defaultdict(int)
    for player_id, value in (
        Penalty.objects.standing().filter(table=table).values_list("player_id", "points")
    ):
        if player_id in seat_of_player:
            points[seat_of_player[player_id]] += value
    return dict(points)


def board_of(result: HandResult) -> dict[str, str]:
    return {row: getattr(result, row) for row in ROWS}


def rescorer(rules: Rules) -> Rescore:
    """The walk's `rescore` for hands entered as cards: score them again with the rules."""

    def rescore(
        hand: HandInput, in_fantasyland: dict[int, bool], streak: dict[int, int]
    ) -> dict[int, bool]:
        cards = cast(dict[int, dict[str, object]], hand.cards)  # a cards hand's boards
        seat_ids = sorted(cards)
        boards = []
        for sid in seat_ids:
            board = dict(cards[sid])
            if in_fantasyland.get(sid):
                board["fantasyland"] = True
                board["fantasyland_streak"] = max(1, streak.get(sid, 0))
            boards.append(board)
        try:
            results = score_hand(boards, rules=rules)
        except InvalidHand:  # stored cards were checked when entered: keep what was stored
            return {sid: r.fantasyland_next for sid, r in hand.results.items()}
        return {sid: r.fantasyland for sid, r in zip(seat_ids, results, strict=True)}

    return rescore


def current_versions(table: Table) -> list[HandVersion]:
    """Every hand's current version with its results, in hand order: 2 queries."""
    return list(
        HandVersion.objects.current()
        .filter(hand__table=table)
        .select_related("hand")
        .prefetch_related("results")
        .order_by("hand__number")
    )


def hand_inputs(
    versions: Iterable[HandVersion], *, replace_version: tuple[int, HandInput] | None = None
) -> list[HandInput]:
    """The walk's input; `replace_version` = (hand number, HandInput) tries a correction."""
    inputs: list[HandInput] = []
    for version in versions:
        if replace_version is not None and version.hand.number == replace_version[0]:
            inputs.append(replace_version[1])
            continue
        results = list(version.results.all())
        cards: dict[int, dict[str, str]] | None = None
        if version.mode == HandVersion.Mode.CARDS:
            cards = {r.seat_id: board_of(r) for r in results}
        inputs.append(
            HandInput(
                number=version.hand.number,
                results={
                    r.seat_id: ResultInput(points=r.points, fantasyland_next=r.fantasyland_next)
                    for r in results
                },
                cards=cards,
            )
        )
    return inputs


def history_state(
    table: Table,
    *,
    seats: list[Seat] | None = None,
    versions: list[HandVersion] | None = None,
    replace_version: tuple[int, HandInput] | None = None,
) -> History:
    """Walk the table's whole history again (`table.level.tournament` loaded)."""
    tournament = table.level.tournament
    if seats is None:
        seats = table_seats(table)
    if versions is None:
        versions = current_versions(table)
    progress, played, broken = walk(
        seats=seat_inputs(seats),
        hands=hand_inputs(versions, replace_version=replace_version),
        first_dealer_position=table.first_dealer_position,
        button_stays_in_fantasyland=tournament.button_stays_in_fantasyland,
        fantasyland_repeat=tournament.fantasyland_repeat,
        rescore=rescorer(tournament.rules),
    )
    state = conclude_table(
        table, seats, progress, penalty_points_at(table, seats), settled_winner_seat(table, seats)
    )
    return History(state, seats, versions, played, broken)


def load_table(pk: int) -> Table:
    """A table with its level, tournament and draw: 1 query."""
    return Table.objects.select_related("level__tournament", "draw").get(pk=pk)
