"""Everything about a table that follows from its history, in one pure function.

No Django here: the service layer loads seats, hands and penalties into these
plain records, calls `table_state`, and stores what it returns as caches. A
test recomputes from scratch and compares, so the caches can never drift.
"""

from dataclasses import dataclass, field


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
    results: dict  # seat_id -> ResultInput, only for the seats that played the hand


@dataclass(frozen=True)
class TableState:
    hand_points: dict  # seat_id -> int
    penalty_points: dict  # seat_id -> int
    totals: dict  # seat_id -> int
    hands_played: int
    required_hands: int
    in_fantasyland: dict  # seat_id -> bool, for the next hand
    fantasyland_streak: dict  # seat_id -> consecutive Fantasyland hands the next one would make
    dealers: dict  # hand number -> dealing position, for every played hand and the next
    next_dealer_position: int | None
    active_seat_ids: tuple  # seats that play the next hand
    is_over: bool
    winner_seat_id: int | None
    tied_leader_ids: tuple = ()  # play on, or the TD settles
    places: dict = field(default_factory=dict)  # seat_id -> place at the table (None: DQ)


def _next_position(after, positions):
    """The next of `positions` clockwise after `after` (seat order wraps)."""
    ordered = sorted(positions)
    for position in ordered:
        if position > after:
            return position
    return ordered[0]


def table_state(
    *,
    seats,
    hands,
    penalty_points,
    min_hands,
    first_dealer_position,
    button_stays_in_fantasyland=False,
    settled_winner_seat_id=None,
):
    """Derive a table's totals, length, Fantasyland, dealer and winner from its history.

    `hands` in number order; `penalty_points` maps seat_id -> points deducted at this table.
    """
    seat_by_id = {seat.seat_id: seat for seat in seats}
    hand_points = {seat.seat_id: 0 for seat in seats}
    in_fl = {seat.seat_id: False for seat in seats}
    streak = {seat.seat_id: 0 for seat in seats}
    fantasyland_hands = 0
    dealers = {}
    dealer = None

    for hand in hands:
        players = set(hand.results)
        positions = {seat_by_id[sid].position for sid in players}
        someone_in_fl = any(in_fl[sid] for sid in players)
        if dealer is None:
            dealer = (
                first_dealer_position
                if first_dealer_position in positions
                else _next_position(first_dealer_position, positions)
            )
        elif not (button_stays_in_fantasyland and someone_in_fl and dealer in positions):
            dealer = _next_position(dealer, positions)
        dealers[hand.number] = dealer

        for sid, result in hand.results.items():
            hand_points[sid] += result.points
        if any(result.fantasyland_next for result in hand.results.values()):
            fantasyland_hands += 1
        for sid in in_fl:
            result = hand.results.get(sid)
            going = bool(result and result.fantasyland_next)
            streak[sid] = streak[sid] + 1 if going else 0
            in_fl[sid] = going

    hands_played = len(hands)
    required = min_hands + fantasyland_hands
    active = tuple(
        seat.seat_id
        for seat in sorted(seats, key=lambda s: s.position)
        if seat.left_after_hand is None and not seat.disqualified
    )
    active_positions = {seat_by_id[sid].position for sid in active}
    next_in_fl = any(in_fl[sid] for sid in active)
    if not active_positions:
        next_dealer = None
    elif dealer is None:
        next_dealer = (
            first_dealer_position
            if first_dealer_position in active_positions
            else _next_position(first_dealer_position, active_positions)
        )
    elif button_stays_in_fantasyland and next_in_fl and dealer in active_positions:
        next_dealer = dealer
    else:
        next_dealer = _next_position(dealer, active_positions)
    if next_dealer is not None:
        dealers[hands_played + 1] = next_dealer

    totals = {sid: hand_points[sid] - penalty_points.get(sid, 0) for sid in hand_points}
    eligible = [sid for sid in active if not seat_by_id[sid].disqualified]
    winner = None
    tied = ()
    if len(eligible) <= 1:
        is_over = True
        winner = eligible[0] if eligible else None
    elif hands_played >= required:
        best = max(totals[sid] for sid in eligible)
        leaders = tuple(sid for sid in eligible if totals[sid] == best)
        if len(leaders) == 1:
            is_over, winner = True, leaders[0]
        elif settled_winner_seat_id in leaders:
            is_over, winner = True, settled_winner_seat_id
        else:
            is_over, tied = False, leaders
    else:
        is_over = False

    places = {}
    for sid in seat_by_id:
        if seat_by_id[sid].disqualified or sid not in eligible:
            places[sid] = None
        elif sid == winner:
            places[sid] = 1
        else:
            better = sum(1 for other in eligible if other != winner and totals[other] > totals[sid])
            places[sid] = better + (2 if winner is not None else 1)

    return TableState(
        hand_points=hand_points,
        penalty_points={sid: penalty_points.get(sid, 0) for sid in hand_points},
        totals=totals,
        hands_played=hands_played,
        required_hands=required,
        in_fantasyland={sid: in_fl[sid] and sid in active for sid in in_fl},
        fantasyland_streak={sid: streak[sid] if sid in active else 0 for sid in streak},
        dealers=dealers,
        next_dealer_position=None if is_over else next_dealer,
        active_seat_ids=active,
        is_over=is_over,
        winner_seat_id=winner,
        tied_leader_ids=tied,
        places=places,
    )
