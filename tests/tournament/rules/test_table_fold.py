"""The pure derivation of a table's state, on hand-made histories."""

from tournament.rules.table_fold import HandInput, ResultInput, SeatInput, table_state, walk

A, B, C = 1, 2, 3


def seats(left_b=None, dq_b=False):
    return [
        SeatInput(seat_id=A, position=0, player_id=10),
        SeatInput(seat_id=B, position=1, player_id=20, left_after_hand=left_b, disqualified=dq_b),
        SeatInput(seat_id=C, position=2, player_id=30),
    ]


def hand(number, a, b, c, fl=()):
    results = {A: a, B: b, C: c}
    return HandInput(
        number=number,
        results={
            sid: ResultInput(points=p, fantasyland_next=sid in fl)
            for sid, p in results.items()
            if p is not None
        },
    )


def test_dealer_skips_a_player_who_left():
    # First dealer seat 1 (B). B deals hand 1, then is disqualified after hand 1.
    history = [hand(1, 3, -2, -1), hand(2, 1, None, -1), hand(3, -1, None, 1)]
    state = table_state(
        seats=seats(left_b=1, dq_b=True),
        hands=history,
        penalty_points={B: 25},
        min_hands=20,
        first_dealer_position=1,
    )
    _, played, _ = walk(seats=seats(left_b=1, dq_b=True), hands=history, first_dealer_position=1)
    assert [h.dealer for h in played] == [1, 2, 0]
    assert state.next_dealer_position == 2
    assert state.active_seat_ids == (A, C)
    assert state.totals == {A: 3, B: -27, C: -1}
    assert state.places == {A: 1, B: None, C: 2}


def test_fantasyland_streak_counts_consecutive_hands():
    state = table_state(
        seats=seats(),
        hands=[hand(1, 0, 0, 0, fl={A}), hand(2, 0, 0, 0, fl={A, C}), hand(3, 0, 0, 0, fl={A})],
        penalty_points={},
        min_hands=20,
        first_dealer_position=0,
    )
    # A: in Fantasyland after hands 1, 2 and 3 -> the next is his 3rd in a row. C left it.
    assert state.fantasyland_streak == {A: 3, B: 0, C: 0}
    assert state.in_fantasyland == {A: True, B: False, C: False}
    assert state.required_hands == 23


def test_settled_winner_only_counts_while_tied():
    history = [hand(1, 2, 2, -4)]
    settled = table_state(
        seats=seats(),
        hands=history,
        penalty_points={},
        min_hands=1,
        first_dealer_position=0,
        settled_winner_seat_id=B,
    )
    assert settled.is_over and settled.winner_seat_id == B
    assert settled.places == {A: 2, B: 1, C: 3}
    not_tied = table_state(
        seats=seats(),
        hands=[hand(1, 3, 1, -4)],
        penalty_points={},
        min_hands=1,
        first_dealer_position=0,
        settled_winner_seat_id=B,
    )
    assert not_tied.winner_seat_id == A
