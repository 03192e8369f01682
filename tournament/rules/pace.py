"""A table's pace and estimated finish, the level's end and the tournament's: pure figures.

No ORM here: the selectors hand in the times of the hands, the counts and "now", so every
figure can be worked out by hand in a test. The rules are written for the TD in
tournament/rules/decisions.py ("Estimated times"); keep the two in step.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

# An interval between two hands longer than this is a pause (a dispute, a break, a
# tablet that stopped sending), not the table's pace: it is left out. The same ten
# minutes make a table "silent" on the dashboard.
PAUSE_SECONDS = 10 * 60
# An interval shorter than this is no hand played either: no table deals, sets and scores a
# hand of Pineapple in under 30 s, so such hands were typed in one after another (a revisor
# catching up from the paper card, a demo made at once). Left out, or the pace would read
# thousands of hands an hour.
QUICKEST_SECONDS = 30
# No estimate before a table has this many intervals between hands (4 hands): fewer
# would be a guess, and the first hands of a level are always slow.
MIN_INTERVALS = 3
# A table whose typical hand takes this many times the others' is lagging.
LAG_FACTOR = 1.5


def quantile(values: Sequence[float], q: float) -> float:
    """The q-quantile (0..1) of the values, interpolated between the two nearest ranks."""
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def intervals(hand_times: Sequence[datetime]) -> list[float]:
    """Seconds between consecutive hands, pauses and hands typed in one after another left
    out. The first hand's time from the draw (or from its release, for a held draw) is never
    one: players find their seats, the revisor learns the tablet; and a held draw's wait is
    no hand's time at all."""
    gaps = [(b - a).total_seconds() for a, b in zip(hand_times, hand_times[1:], strict=False)]
    return [gap for gap in gaps if QUICKEST_SECONDS <= gap <= PAUSE_SECONDS]


@dataclass(frozen=True)
class Pace:
    seconds_per_hand: float  # the median interval
    fast: float  # 25th percentile interval, seconds
    slow: float  # 75th percentile interval, seconds

    @property
    def hands_per_hour(self) -> int | None:
        return round(3600 / self.seconds_per_hand) if self.seconds_per_hand else None


def pace_of(gaps: Sequence[float]) -> Pace | None:
    """The pace from intervals (seconds), or None with fewer than MIN_INTERVALS."""
    if len(gaps) < MIN_INTERVALS:
        return None
    return Pace(quantile(gaps, 0.5), quantile(gaps, 0.25), quantile(gaps, 0.75))


@dataclass(frozen=True)
class Estimate:
    pace: Pace
    hands_left: int  # at least, with no more Fantasyland
    hands_left_high: int  # with Fantasyland extending the table as often as it has so far
    earliest: datetime
    latest: datetime | None  # None while the table is on hold (nobody knows when it goes on)

    @property
    def on_hold(self) -> bool:
        return self.latest is None


def finish_after(last: datetime, now: datetime, hands: int, seconds: float) -> datetime:
    """When `hands` more hands of `seconds` each are done, counted from the last hand;
    a table already late for its next hand starts that one now."""
    if hands <= 0:
        return max(last, now)
    return max(
        last + timedelta(seconds=hands * seconds), now + timedelta(seconds=(hands - 1) * seconds)
    )


def hands_left(hands_played: int, required_hands: int) -> int:
    """Hands still to play: the required ones, or one more while tied after them."""
    return max(required_hands - hands_played, 1)


def table_estimate(
    hand_times: Sequence[datetime],
    *,
    hands_played: int,
    required_hands: int,
    fantasyland_hands: int,
    now: datetime,
    on_hold: bool = False,
) -> Estimate | None:
    """A playing table's estimated finish (a range), or None before it has enough hands.

    The earliest: the hands still required at the table's quick pace (25th percentile).
    The latest: those hands, plus Fantasyland extending the table at the rate seen here so
    far (fantasyland_hands / hands_played of the hands left, rounded up), at its slow pace
    (75th percentile).
    `on_hold`: the table has stopped (it waits on the TD's answer to a call, or has gone
    silent): it cannot finish before its hands left are played from now on, and how long
    it stays stopped nobody knows, so the estimate has an earliest and no latest.
    """
    pace = pace_of(intervals(hand_times))
    if pace is None:
        return None
    left = hands_left(hands_played, required_hands)
    extra = math.ceil(left * fantasyland_hands / hands_played) if hands_played else 0
    last = hand_times[-1]
    if on_hold:
        # The hand under way stopped with the table: all of them from now, at the quick pace.
        earliest = max(last, now) + timedelta(seconds=left * pace.fast)
        latest: datetime | None = None
    else:
        earliest = finish_after(last, now, left, pace.fast)
        latest = finish_after(last, now, left + extra, pace.slow)
    return Estimate(
        pace=pace,
        hands_left=left,
        hands_left_high=left + extra,
        earliest=earliest,
        latest=latest,
    )


def lagging(own: Pace | None, others: Sequence[Pace]) -> bool:
    """Far behind the others' pace: the table's median hand takes LAG_FACTOR times the
    median of the other tables' medians. Needs a pace of its own and of another table."""
    if own is None or not others:
        return False
    return own.seconds_per_hand > LAG_FACTOR * quantile([p.seconds_per_hand for p in others], 0.5)


@dataclass(frozen=True)
class Range:
    earliest: datetime
    latest: datetime | None  # None: no later bound (a table on hold)


def level_end(estimates: Sequence[Estimate], playing: int) -> Range | None:
    """The level ends with its slowest table: the latest earliest and latest latest of the
    tables still playing (no latest while one is on hold). None while a playing table has
    no estimate yet, or none plays."""
    if not playing or len(estimates) < playing:
        return None
    held = any(e.latest is None for e in estimates)
    latest = None if held else max(e.latest for e in estimates if e.latest is not None)
    return Range(max(e.earliest for e in estimates), latest)


def levels_after(tables: int) -> int:
    """Levels still to come after one of `tables` tables: its winners are drawn into
    tables of 3 (rounded up) until one table is left, whose winner is the champion."""
    count = 0
    players = tables
    while players > 1:
        players = math.ceil(players / 3)
        count += 1
    return count


def tournament_end(
    level_range: Range | None,
    *,
    tables: int,
    min_hands: int,
    fantasyland_per_table: float,
    room: Pace | None,
    changeover: timedelta,
) -> Range | None:
    """The tournament's end: after the current level's end, each level still to come takes
    the changeover seen so far (a level closed to the next one's seating released) plus
    min_hands and the Fantasyland hands a table has added on average so far, at the room's
    pace (its intervals pooled: 25th percentile for the earliest, 75th for the latest)."""
    if level_range is None or room is None:
        return None
    levels = levels_after(tables)
    hands = min_hands + fantasyland_per_table
    step = changeover.total_seconds()
    earliest = level_range.earliest + timedelta(seconds=levels * (step + hands * room.fast))
    latest: datetime | None = None
    if level_range.latest is not None:
        latest = level_range.latest + timedelta(seconds=levels * (step + hands * room.slow))
    return Range(earliest, latest)
