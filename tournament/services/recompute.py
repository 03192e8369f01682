"""Rewrite the cached numbers from the history, inside the caller's transaction."""

from collections import defaultdict

from scoring import InvalidHand, score_hand
from tournament.models import HandResult, HandVersion, Penalty, Player, Seat, TieSettlement
from tournament.table_state import HandInput, ResultInput, SeatInput, table_state

TIMEOUT_POINTS = 10
SECOND_WARNING_POINTS = 25
DISQUALIFYING_WARNING = 3


def board_of(result):
    return {"front": result.front, "middle": result.middle, "back": result.back}


def current_versions(table):
    return list(
        HandVersion.objects.filter(hand__table=table, superseded_at__isnull=True)
        .select_related("hand")
        .prefetch_related("results")
        .order_by("hand__number")
    )


def refresh_fantasyland(versions, rules):
    """Who played each hand in Fantasyland follows from the hand before.

    For hands entered as cards, whether the player goes (or stays) in Fantasyland
    depends on that, so it is scored again; for hands entered as points the
    revisor's word stands.
    """
    in_fl = defaultdict(bool)
    streak = defaultdict(int)
    changed = []
    for version in versions:
        results = sorted(version.results.all(), key=lambda r: r.seat_id)
        before = [(r.in_fantasyland, r.fantasyland_next) for r in results]
        for result in results:
            result.in_fantasyland = in_fl[result.seat_id]
        if version.mode == HandVersion.Mode.CARDS:
            boards = []
            for result in results:
                board = board_of(result)
                if result.in_fantasyland:
                    board["fantasyland"] = True
                    board["fantasyland_streak"] = streak[result.seat_id]
                boards.append(board)
            try:
                scored = score_hand(boards, rules=rules)
            except InvalidHand:  # stored cards were validated when entered
                scored = None
            if scored is not None:
                for result, outcome in zip(results, scored, strict=True):
                    result.fantasyland_next = outcome.fantasyland
        changed.extend(
            r
            for r, old in zip(results, before, strict=True)
            if (r.in_fantasyland, r.fantasyland_next) != old
        )
        played = {result.seat_id: result for result in results}
        for seat_id in set(in_fl) | set(played):
            going = played.get(seat_id) is not None and played[seat_id].fantasyland_next
            streak[seat_id] = streak[seat_id] + 1 if going else 0
            in_fl[seat_id] = going
    if changed:
        HandResult.objects.bulk_update(changed, ["in_fantasyland", "fantasyland_next"])


def compute_state(table, *, versions=None):
    """The table's state from its history (no writes)."""
    tournament = table.level.tournament
    seats = list(Seat.objects.filter(table=table).select_related("player"))
    if versions is None:
        versions = current_versions(table)
    penalties = defaultdict(int)
    for penalty in Penalty.objects.filter(table=table, rescinded_at__isnull=True):
        seat = next((s for s in seats if s.player_id == penalty.player_id), None)
        if seat is not None:
            penalties[seat.id] += penalty.points
    settlement = TieSettlement.objects.filter(table=table).order_by("-id").first()
    settled_seat = None
    if settlement is not None:
        settled_seat = next((s.id for s in seats if s.player_id == settlement.winner_id), None)
    state = table_state(
        seats=[
            SeatInput(
                seat_id=s.id,
                position=s.position,
                player_id=s.player_id,
                left_after_hand=s.left_after_hand,
                disqualified=s.player.disqualified,
            )
            for s in seats
        ],
        hands=[
            HandInput(
                number=v.hand.number,
                results={
                    r.seat_id: ResultInput(points=r.points, fantasyland_next=r.fantasyland_next)
                    for r in v.results.all()
                },
            )
            for v in versions
        ],
        penalty_points=penalties,
        min_hands=tournament.min_hands,
        first_dealer_position=table.first_dealer_position,
        button_stays_in_fantasyland=tournament.button_stays_in_fantasyland,
        settled_winner_seat_id=settled_seat,
    )
    return state, seats


def recompute_table(table):
    """Bring the table's and its seats' caches in line with the history; return the state."""
    versions = current_versions(table)
    refresh_fantasyland(versions, table.level.tournament.rules)
    state, seats = compute_state(table, versions=versions)
    for seat in seats:
        seat.hand_points = state.hand_points[seat.id]
        seat.penalty_points = state.penalty_points[seat.id]
        seat.total = state.totals[seat.id]
        seat.place = state.places[seat.id]
    Seat.objects.bulk_update(seats, ["hand_points", "penalty_points", "total", "place"])
    winner_player = next((s.player for s in seats if s.id == state.winner_seat_id), None)
    table.hands_played = state.hands_played
    table.required_hands = state.required_hands
    table.is_over = state.is_over
    table.winner = winner_player
    table.save(update_fields=["hands_played", "required_hands", "is_over", "winner"])
    return state


def recompute_warnings(player):
    """Number the player's warnings across the tournament and price them.

    A timeout costs 10; the 2nd warning costs 25 more; the 3rd disqualifies, and
    the player leaves the table where it was given after the hands already played.
    Returns the tables whose totals or seats may have moved.
    """
    penalties = list(
        Penalty.objects.filter(player=player)
        .select_related("table__level")
        .order_by("created_at", "id")
    )
    # A closed level's results are final: only tables of open levels are recomputed.
    touched = {p.table_id for p in penalties if p.table_id and p.table.level.closed_at is None}
    number = 0
    disqualifying = None
    for penalty in penalties:
        if penalty.rescinded_at is not None:
            penalty.warning_number, penalty.points = None, 0
            continue
        number += 1
        penalty.warning_number = number
        penalty.points = (TIMEOUT_POINTS if penalty.kind == Penalty.Kind.TIMEOUT else 0) + (
            SECOND_WARNING_POINTS if number == 2 else 0
        )
        if number == DISQUALIFYING_WARNING:
            disqualifying = penalty
    Penalty.objects.bulk_update(penalties, ["warning_number", "points"])
    Player.objects.filter(pk=player.pk).update(disqualified=disqualifying is not None)
    player.disqualified = disqualifying is not None

    open_seats = Seat.objects.filter(
        player=player, table__level__closed_at__isnull=True, draw__superseded_at__isnull=True
    )
    for seat in open_seats:
        left = (
            disqualifying.after_hand
            if disqualifying is not None and disqualifying.table_id == seat.table_id
            else None
        )
        if seat.left_after_hand != left:
            seat.left_after_hand = left
            seat.save(update_fields=["left_after_hand"])
        touched.add(seat.table_id)
    return touched
