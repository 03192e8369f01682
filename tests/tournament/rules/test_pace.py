"""The pace rules of tournament/rules/pace.py against figures worked out by hand."""

from datetime import UTC, datetime, timedelta

from tournament.rules import pace

DAY = datetime(2026, 3, 14, tzinfo=UTC)


def at(clock):
    hours, minutes = clock.split(":")
    return DAY.replace(hour=int(hours), minute=int(minutes))


# Drawn 12:00; hands at 12:05 (the first: its time from the draw never counts), 12:07,
# 12:09, 12:12, 12:30 (after an 18-minute pause: left out) and 12:33.
# Intervals: 120, 120, 180, 180 s -> median 150 s (24 hands an hour), 25th 120, 75th 180.
TIMES = [at(t) for t in ("12:05", "12:07", "12:09", "12:12", "12:30", "12:33")]


def test_intervals_leave_out_pauses():
    assert pace.intervals(TIMES) == [120, 120, 180, 180]


def test_intervals_leave_out_hands_typed_in_one_after_another():
    # A revisor catching up from the paper card: 12:05, 12:07, then 12:09:00, 12:09:10 and
    # 12:09:25 typed in (10 s and 15 s apart), then 12:12. Intervals: 120, 120 (12:07 to
    # 12:09:00), 10 and 15 left out, 155 (12:09:25 to 12:12).
    typed = [at("12:05"), at("12:07"), at("12:09")]
    typed += [at("12:09") + timedelta(seconds=10), at("12:09") + timedelta(seconds=25)]
    typed += [at("12:12")]
    assert pace.intervals(typed) == [120, 120, 155]
    # A demo made at once: 21 hands within a second give no interval, so no estimate.
    instant = [at("12:05") + timedelta(milliseconds=40 * n) for n in range(21)]
    assert pace.intervals(instant) == []
    assert (
        pace.table_estimate(
            instant, hands_played=21, required_hands=22, fantasyland_hands=1, now=at("12:06")
        )
        is None
    )


def test_pace_is_the_median_with_quartiles():
    found = pace.pace_of(pace.intervals(TIMES))
    assert (found.seconds_per_hand, found.fast, found.slow) == (150, 120, 180)
    assert found.hands_per_hour == 24


def test_no_estimate_before_three_intervals():
    three_hands = TIMES[:3]  # 2 intervals
    assert (
        pace.table_estimate(
            three_hands, hands_played=3, required_hands=20, fantasyland_hands=0, now=at("12:10")
        )
        is None
    )
    # 4 hands, but one interval is a pause: still 2 intervals.
    paused = [at("12:05"), at("12:07"), at("12:30"), at("12:32")]
    assert pace.intervals(paused) == [120, 120]
    assert (
        pace.table_estimate(
            paused, hands_played=4, required_hands=20, fantasyland_hands=0, now=at("12:33")
        )
        is None
    )


def test_estimate_from_the_last_hand():
    # 6 of 20 played: 14 left. 12:33 + 14 x 2 min = 13:01; 12:33 + 14 x 3 min = 13:15.
    found = pace.table_estimate(
        TIMES, hands_played=6, required_hands=20, fantasyland_hands=0, now=at("12:34")
    )
    assert (found.hands_left, found.hands_left_high) == (14, 14)
    assert (found.earliest, found.latest) == (at("13:01"), at("13:15"))


def test_fantasyland_widens_the_range():
    # 6 played, 2 of them added by Fantasyland: 22 required, 16 left; at the same rate
    # ceil(16 x 2 / 6) = 6 more -> 22. 12:33 + 16 x 2 min = 13:05; 12:33 + 22 x 3 = 13:39.
    found = pace.table_estimate(
        TIMES, hands_played=6, required_hands=22, fantasyland_hands=2, now=at("12:34")
    )
    assert (found.hands_left, found.hands_left_high) == (16, 22)
    assert (found.earliest, found.latest) == (at("13:05"), at("13:39"))


def test_a_late_table_starts_its_next_hand_now():
    # At 13:00 the next hand is overdue: 13:00 + 13 x 2 min = 13:26, 13:00 + 13 x 3 = 13:39.
    found = pace.table_estimate(
        TIMES, hands_played=6, required_hands=20, fantasyland_hands=0, now=at("13:00")
    )
    assert (found.earliest, found.latest) == (at("13:26"), at("13:39"))


def test_a_tie_plays_one_more_hand():
    # 20 of 20, tied: one hand, 12:33 + 2 min and + 3 min.
    found = pace.table_estimate(
        TIMES, hands_played=20, required_hands=20, fantasyland_hands=0, now=at("12:33")
    )
    assert found.hands_left == 1
    assert (found.earliest, found.latest) == (at("12:35"), at("12:36"))


def test_lagging_is_half_as_slow_again_as_the_others():
    others = [pace.Pace(150, 0, 0), pace.Pace(180, 0, 0), pace.Pace(200, 0, 0)]  # median 180
    assert pace.lagging(pace.Pace(271, 0, 0), others)  # > 270
    assert not pace.lagging(pace.Pace(270, 0, 0), others)
    assert not pace.lagging(pace.Pace(900, 0, 0), [])
    assert not pace.lagging(None, others)


def test_level_end_is_the_slowest_tables():
    a = pace.Estimate(None, 1, 1, at("13:00"), at("13:20"))
    b = pace.Estimate(None, 1, 1, at("13:10"), at("13:15"))
    end = pace.level_end([a, b], playing=2)
    assert (end.earliest, end.latest) == (at("13:10"), at("13:20"))
    assert pace.level_end([a, b], playing=3) is None  # a table without an estimate yet
    assert pace.level_end([], playing=0) is None


def test_levels_after():
    # 100 tables -> 34 -> 12 -> 4 -> 2 -> 1: five more levels.
    assert [pace.levels_after(n) for n in (1, 2, 3, 4, 9, 10, 100)] == [0, 1, 1, 2, 2, 3, 5]


def test_tournament_end():
    # 9 tables: 2 levels to come, each 10 min of changeover plus 20 + 2 hands:
    # earliest 13:00 + 2 x (10 min + 22 x 2 min) = 13:00 + 108 min = 14:48,
    # latest 13:20 + 2 x (10 min + 22 x 3 min) = 13:20 + 152 min = 15:52.
    end = pace.tournament_end(
        pace.Range(at("13:00"), at("13:20")),
        tables=9,
        min_hands=20,
        fantasyland_per_table=2,
        room=pace.Pace(150, 120, 180),
        changeover=timedelta(minutes=10),
    )
    assert (end.earliest, end.latest) == (at("14:48"), at("15:52"))
    assert (
        pace.tournament_end(
            None,
            tables=9,
            min_hands=20,
            fantasyland_per_table=0,
            room=pace.Pace(1, 1, 1),
            changeover=timedelta(),
        )
        is None
    )


# ---------------------------------------------------------------- a table on hold (issue 34 §4)
# A table waiting on the TD's answer to its call, or gone silent, is not playing: it ends
# no earlier than its hands left played from now at its quick pace, and has no latest.


def test_a_table_waiting_on_a_call_ends_at_the_earliest_from_now():
    # Called at 12:34, a minute after the 12:33 hand; looked at 12:35 (not late yet: played
    # on, 12:33 + 14 x 2 min = 13:01 at the earliest). On hold: 12:35 + 14 x 2 min = 13:03.
    playing = pace.table_estimate(
        TIMES, hands_played=6, required_hands=20, fantasyland_hands=0, now=at("12:35")
    )
    assert (playing.earliest, playing.latest) == (at("13:01"), at("13:15"))
    held = pace.table_estimate(
        TIMES,
        hands_played=6,
        required_hands=20,
        fantasyland_hands=0,
        now=at("12:35"),
        on_hold=True,
    )
    assert held.on_hold and not playing.on_hold
    assert (held.earliest, held.latest) == (at("13:03"), None)
    assert held.pace == playing.pace  # its pace so far stands: 24 hands an hour


def test_a_silent_table_has_no_latest_and_its_earliest_moves_with_the_clock():
    # Last hand 12:33, looked at 12:50 (17 quiet minutes): as if playing it would be
    # max(12:33 + 28 min, 12:50 + 13 x 2 min) = 13:16 to max(12:33 + 42, 12:50 + 39) = 13:29.
    # On hold: 12:50 + 14 x 2 min = 13:18, no latest; at 13:00, 13:28.
    playing = pace.table_estimate(
        TIMES, hands_played=6, required_hands=20, fantasyland_hands=0, now=at("12:50")
    )
    assert (playing.earliest, playing.latest) == (at("13:16"), at("13:29"))
    for clock, earliest in (("12:50", "13:18"), ("13:00", "13:28")):
        held = pace.table_estimate(
            TIMES,
            hands_played=6,
            required_hands=20,
            fantasyland_hands=0,
            now=at(clock),
            on_hold=True,
        )
        assert (held.earliest, held.latest) == (at(earliest), None)


def test_a_level_with_a_table_on_hold_has_no_latest_and_nor_has_the_tournament():
    playing = pace.Estimate(None, 1, 1, at("13:00"), at("13:20"))
    held = pace.Estimate(None, 1, 1, at("13:10"), None)
    end = pace.level_end([playing, held], playing=2)
    assert (end.earliest, end.latest) == (at("13:10"), None)
    # 9 tables, 2 levels to come of 10 min + 22 hands x 2 min: 13:10 + 108 min = 14:58.
    tournament = pace.tournament_end(
        end,
        tables=9,
        min_hands=20,
        fantasyland_per_table=2,
        room=pace.Pace(150, 120, 180),
        changeover=timedelta(minutes=10),
    )
    assert (tournament.earliest, tournament.latest) == (at("14:58"), None)
