"""Everything about a table that follows from its history: one fold over its hands.

No Django here. `Progress` is what the next hand needs (points so far, who plays
it in Fantasyland and how many such hands in a row that makes, who dealt last,
how many hands added a hand); `play` folds one hand into it; `conclude` derives
the rest (totals, required hands, next dealer, winner, places) from it, the
seats and the penalties. Recording a hand folds that one hand into the cached
progress; a correction walks the whole history with `walk`, the same fold. A
test walks from scratch and compares with the caches, so they cannot drift.

Fantasyland: for a hand entered as cards, whether a player goes (or stays) in
Fantasyland depends on whether he played it in Fantasyland, so `walk` asks the
caller's `rescore` for it; for a hand entered as points the revisor's word
stands, checked against the tournament's repeat rule.
"""

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from scoring import fantasyland_may_continue


@dataclass(frozen=True)
class SeatInput:
    seat_id: int
    position: int
    player_id: int
    # The 3rd warning was given after this many hands: the player is gone from then on.
    left_after_hand: int | None = None
    # Disqualified from the tournament (here or at a later table): can never win.
    disqualified: bool = False


@dataclass(frozen=True)
class ResultInput:
    points: int
    fantasyland_next: bool = False


@dataclass(frozen=True)
class HandInput:
    number: int
    results: dict[
        int, ResultInput
    ]  # seat_id -> ResultInput, only for the seats that played the hand
    # For a hand entered as cards: anything `rescore` needs to score it again.
    cards: object = None


@dataclass(frozen=True)
class Progress:
    """What the next hand needs to know; cached on the table and its seats."""

    hands_played: int = 0
    fantasyland_hands: int = 0  # hands after which someone went to Fantasyland
    last_dealer: int | None = None
    hand_points: dict[int, int] = field(default_factory=dict)  # seat_id -> points so far
    # seat_id -> plays the next hand in FL
    in_fantasyland: dict[int, bool] = field(default_factory=dict)
    streak: dict[int, int] = field(
        default_factory=dict
    )  # seat_id -> FL hands in a row the next makes


@dataclass(frozen=True)
class PlayedHand:
    """How one hand of a walk was played: its dealer and each seat's Fantasyland."""

    number: int
    dealer: int | None  # None only for a hand nobody played
    in_fantasyland: dict[int, bool]  # seat_id -> played this hand in Fantasyland
    streak: dict[int, int]  # seat_id -> Fantasyland hands in a row this one made (0: not in FL)
    fantasyland_next: dict[int, bool]  # seat_id -> goes to Fantasyland after it


@dataclass(frozen=True)
class TableState:
    progress: Progress
    hand_points: dict[int, int]  # seat_id -> int
    penalty_points: dict[int, int]  # seat_id -> int
    totals: dict[int, int]  # seat_id -> int
    hands_played: int
    required_hands: int
    in_fantasyland: dict[int, bool]  # seat_id -> bool, for the next hand
    fantasyland_streak: dict[
        int, int
    ]  # seat_id -> consecutive Fantasyland hands the next one would make
    next_dealer_position: int | None
    active_seat_ids: tuple[int, ...]  # seats that play the next hand
    is_over: bool
    winner_seat_id: int | None
    tied_leader_ids: tuple[int, ...] = ()  # play on, or the TD settles
    places: dict[int, int | None] = field(
        default_factory=dict
    )  # seat_id -> place at the table (None: DQ)


# `rescore(hand, in_fantasyland, streak)`: whether each seat goes to Fantasyland after a
# hand entered as cards (see `walk`).
Rescore = Callable[[HandInput, dict[int, bool], dict[int, int]], Mapping[int, bool]]


@dataclass(frozen=True)
class RepeatBroken:
    """A 'goes to Fantasyland' that the tournament's repeat rule does not allow."""

    hand_number: int
    seat_id: int
    streak: int


def start(seats: Iterable[SeatInput]) -> Progress:
    """The progress of a table before its first hand."""
    ids = [seat.seat_id for seat in seats]
    return Progress(
        hand_points=dict.fromkeys(ids, 0),
        in_fantasyland=dict.fromkeys(ids, False),
        streak=dict.fromkeys(ids, 0),
    )


def _next_position(after: int, positions: Iterable[int]) -> int:
    """The next of `positions` clockwise after `after` (seat order wraps)."""
    ordered = sorted(positions)
    for position in ordered:
        if position > after:
            return position
    return ordered[0]


def dealer_of_next_hand(
    progress: Progress,
    positions: Collection[int],
    *,
    first_dealer_position: int,
    button_stays_in_fantasyland: bool,
    someone_in_fl: bool,
) -> int | None:
    """Who deals the next hand, played by the seats at `positions`."""
    if not positions:
        return None
    last = progress.last_dealer
    if last is None:
        if first_dealer_position in positions:
            return first_dealer_position
        return _next_position(first_dealer_position, positions)
    if button_stays_in_fantasyland and someone_in_fl and last in positions:
        return last
    return _next_position(last, positions)


def play(progress: Progress, hand: HandInput, *, dealer: int | None) -> Progress:
    """The progress after one more hand, dealt by `dealer`."""
    points = dict(progress.hand_points)
    for sid, result in hand.results.items():
        points[sid] = points.get(sid, 0) + result.points
    in_fl: dict[int, bool] = {}
    streak: dict[int, int] = {}
    for sid in progress.in_fantasyland.keys() | hand.results.keys():
        given = hand.results.get(sid)
        going = bool(given and given.fantasyland_next)
        in_fl[sid] = going
        streak[sid] = progress.streak.get(sid, 0) + 1 if going else 0
    adds_hand = any(result.fantasyland_next for result in hand.results.values())
    return Progress(
        hands_played=progress.hands_played + 1,
        fantasyland_hands=progress.fantasyland_hands + (1 if adds_hand else 0),
        last_dealer=dealer,
        hand_points=points,
        in_fantasyland=in_fl,
        streak=streak,
    )


def repeat_broken(
    progress: Progress, hand: HandInput, fantasyland_repeat: str
) -> list[RepeatBroken]:
    """The seats whose 'goes to Fantasyland' breaks the repeat rule, for a points hand."""
    return [
        RepeatBroken(hand.number, sid, progress.streak.get(sid, 0))
        for sid, result in sorted(hand.results.items())
        if result.fantasyland_next
        and progress.in_fantasyland.get(sid)
        and not fantasyland_may_continue(fantasyland_repeat, progress.streak.get(sid, 0))
    ]


def walk(
    *,
    seats: Sequence[SeatInput],
    hands: Iterable[HandInput],
    first_dealer_position: int,
    button_stays_in_fantasyland: bool = False,
    fantasyland_repeat: str = "unlimited",
    rescore: Rescore | None = None,
) -> tuple[Progress, list[PlayedHand], list[RepeatBroken]]:
    """Fold the whole history, hand by hand. Returns (progress, played hands, broken repeats).

    `rescore(hand, in_fantasyland, streak)` -> {seat_id: goes to Fantasyland} is
    called for hands with `cards`; `in_fantasyland` and `streak` are for the seats
    that played the hand.
    """
    seat_by_id = {seat.seat_id: seat for seat in seats}
    progress = start(seats)
    played: list[PlayedHand] = []
    broken: list[RepeatBroken] = []
    for hand in hands:
        players = hand.results.keys()
        in_fl = {sid: progress.in_fantasyland.get(sid, False) for sid in players}
        streak = {sid: progress.streak.get(sid, 0) for sid in players}
        if hand.cards is not None and rescore is not None:
            going = rescore(hand, in_fl, streak)
            hand = replace(
                hand,
                results={
                    sid: replace(result, fantasyland_next=bool(going.get(sid)))
                    for sid, result in hand.results.items()
                },
            )
        else:
            broken.extend(repeat_broken(progress, hand, fantasyland_repeat))
        dealer = dealer_of_next_hand(
            progress,
            {seat_by_id[sid].position for sid in players},
            first_dealer_position=first_dealer_position,
            button_stays_in_fantasyland=button_stays_in_fantasyland,
            someone_in_fl=any(in_fl.values()),
        )
        played.append(
            PlayedHand(
                number=hand.number,
                dealer=dealer,
                in_fantasyland=in_fl,
                streak={sid: streak[sid] if in_fl[sid] else 0 for sid in players},
                fantasyland_next={
                    sid: result.fantasyland_next for sid, result in hand.results.items()
                },
            )
        )
        progress = play(progress, hand, dealer=dealer)
    return progress, played, broken


def conclude(
    progress: Progress,
    *,
    seats: Sequence[SeatInput],
    penalty_points: Mapping[int, int],
    min_hands: int,
    first_dealer_position: int,
    button_stays_in_fantasyland: bool = False,
    settled_winner_seat_id: int | None = None,
) -> TableState:
    """Totals, length, next dealer, winner and places, from the progress and the seats.

    `penalty_points` maps seat_id -> points deducted at this table.
    """
    seat_by_id = {seat.seat_id: seat for seat in seats}
    hand_points = {sid: progress.hand_points.get(sid, 0) for sid in seat_by_id}
    active = tuple(
        seat.seat_id
        for seat in sorted(seats, key=lambda s: s.position)
        if seat.left_after_hand is None and not seat.disqualified
    )
    in_fl = {sid: bool(progress.in_fantasyland.get(sid)) and sid in active for sid in seat_by_id}
    streak = {sid: progress.streak.get(sid, 0) if in_fl[sid] else 0 for sid in seat_by_id}
    next_dealer = dealer_of_next_hand(
        progress,
        {seat_by_id[sid].position for sid in active},
        first_dealer_position=first_dealer_position,
        button_stays_in_fantasyland=button_stays_in_fantasyland,
        someone_in_fl=any(in_fl.values()),
    )

    hands_played = progress.hands_played
    required = min_hands + progress.fantasyland_hands
    totals = {sid: hand_points[sid] - penalty_points.get(sid, 0) for sid in hand_points}
    winner = None
    tied: tuple[int, ...] = ()
    if len(active) <= 1:
        is_over = True
        winner = active[0] if active else None
    elif hands_played >= required:
        best = max(totals[sid] for sid in active)
        leaders = tuple(sid for sid in active if totals[sid] == best)
        if len(leaders) == 1:
            is_over, winner = True, leaders[0]
        elif settled_winner_seat_id in leaders:
            is_over, winner = True, settled_winner_seat_id
        else:
            is_over, tied = False, leaders
    else:
        is_over = False

    places: dict[int, int | None] = {}
    for sid in seat_by_id:
        if sid not in active:
            places[sid] = None
        elif sid == winner:
            places[sid] = 1
        else:
            better = sum(1 for other in active if other != winner and totals[other] > totals[sid])
            places[sid] = better + (2 if winner is not None else 1)

    return TableState(
        progress=progress,
        hand_points=hand_points,
        penalty_points={sid: penalty_points.get(sid, 0) for sid in hand_points},
        totals=totals,
        hands_played=hands_played,
        required_hands=required,
        in_fantasyland=in_fl,
        fantasyland_streak=streak,
        next_dealer_position=None if is_over else next_dealer,
        active_seat_ids=active,
        is_over=is_over,
        winner_seat_id=winner,
        tied_leader_ids=tied,
        places=places,
    )


def table_state(
    *,
    seats: Sequence[SeatInput],
    hands: Iterable[HandInput],
    penalty_points: Mapping[int, int],
    min_hands: int,
    first_dealer_position: int,
    button_stays_in_fantasyland: bool = False,
    settled_winner_seat_id: int | None = None,
) -> TableState:
    """The table's state from its whole history (as entered: no rescoring)."""
    progress, _, _ = walk(
        seats=seats,
        hands=hands,
        first_dealer_position=first_dealer_position,
        button_stays_in_fantasyland=button_stays_in_fantasyland,
    )
    return conclude(
        progress,
        seats=seats,
        penalty_points=penalty_points,
        min_hands=min_hands,
        first_dealer_position=first_dealer_position,
        button_stays_in_fantasyland=button_stays_in_fantasyland,
        settled_winner_seat_id=settled_winner_seat_id,
    )
