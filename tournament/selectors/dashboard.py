"""The TD's live dashboard of the current level, in a fixed number of queries."""

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import OuterRef, Prefetch, Subquery
from django.utils import timezone

from tournament.models import (
    Draw,
    Hand,
    HeldHand,
    Level,
    Player,
    Seat,
    Table,
    TableCall,
    TieSettlement,
    Tournament,
)
from tournament.rules import held_reasons, pace
from tournament.selectors.tables import seats_with_players
from tournament.selectors.tokens import revision_token
from tournament.services import held_hands
from tournament.tables.state import cached_progress, conclude_table

# A table with no new hand for more than this many minutes is flagged for the TD. A hand
# of POFC takes two to four minutes, so ten quiet minutes mean a stuck table: a dispute
# nobody called in, a tablet that stopped sending, or a score card kept on paper only.
SILENT_AFTER_MINUTES = 10
# A card not heard from for this long is offline (its polls keep Table.card_seen_at at
# most once a minute, every 5 seconds while it is open): "Card offline since 14:02".
CARD_OFFLINE_AFTER = timedelta(minutes=3)


@dataclass(frozen=True)
class DashboardSeat:
    seat: Seat
    total: int
    in_fantasyland: bool  # plays the next hand in Fantasyland
    leads: bool
    playing: bool  # False once disqualified or gone from the table


@dataclass(frozen=True)
class DashboardTable:
    table: Table
    seats: tuple[DashboardSeat, ...]  # in seat order
    hands_played: int
    required_hands: int
    min_hands: int
    fantasyland_hands: int  # hands added for Fantasyland
    leaders: tuple[Player, ...]  # in the lead; none before the first hand
    fantasyland_next: tuple[Player, ...]  # who play the next hand in Fantasyland
    last_entry_at: datetime | None  # of the last hand recorded, None before the first
    # datetime: the later of the last hand and the seating's release (play starts there);
    # None while the draw is held: nobody plays yet, so no table is quiet.
    quiet_since: datetime | None
    minutes_quiet: int
    call: TableCall | None  # the open call
    tied: tuple[Player, ...]  # tied for first after the required hands
    silent: bool
    is_over: bool
    winner: Player | None
    estimate: pace.Estimate | None = None  # while playing with enough hands
    lagging: bool = False  # far behind the other tables' pace (pace.lagging)
    # When its card was last heard from, once that is CARD_OFFLINE_AFTER ago and the table
    # still plays; None: online, over, or never opened (a table kept on paper).
    card_offline_since: datetime | None = None

    @property
    def needs_attention(self) -> bool:
        return self.call is not None or bool(self.tied) or self.silent or self.lagging

    @property
    def status(self) -> str:
        if self.needs_attention:
            return "attention"
        return "finished" if self.is_over else "playing"


@dataclass(frozen=True)
class Dashboard:
    levels: tuple[Level, ...]  # every level of the tournament, in order
    level: Level | None  # the current (last) level, or None before the first draw
    tables: tuple[DashboardTable, ...]  # needing the TD first, then playing, then finished
    players: int  # registered players (not withdrawn)
    finished: int
    calls: int
    ties: int
    silent: int
    # Open TableCalls at tables not in `tables` (a closed level, a redrawn table), with
    # table.level and table.draw, the longest waiting first: shown until the TD clears them.
    calls_elsewhere: tuple[TableCall, ...] = ()
    lagging: int = 0
    drawn_at: datetime | None = None  # the current draw's time
    # When its seating was released (play starts: the level's clock runs from it); None
    # while the draw is held, and the clock waits.
    released_at: datetime | None = None
    level_minutes: int = 0  # the level's clock: minutes since released_at
    level_end: pace.Range | None = None  # once every playing table has an estimate
    tournament_end: pace.Range | None = None  # from the second level on
    # Hands a card sent from offline that the server held, undecided (any level), with
    # their table, its level and draw: oldest first.
    held_hands: tuple[HeldHand, ...] = ()

    @property
    def playing_numbers(self) -> list[int]:
        return sorted(t.table.number for t in self.tables if not t.is_over)

    @property
    def all_over(self) -> bool:
        return bool(self.tables) and all(t.is_over for t in self.tables)

    @property
    def alerts(self) -> tuple["Alert", ...]:
        """The open alerts, in the "needs a look" order: calls (those at tables out of play
        first, the longest waiting), then ties, then silent tables. Nothing is read: a
        handled one (call cleared, tie settled, hand recorded) is simply no longer here."""
        found = [
            Alert(f"call-{call.pk}", "call", call.table, call) for call in self.calls_elsewhere
        ]
        rows = sorted(self.tables, key=_dashboard_order)
        found += [Alert(f"call-{r.call.pk}", "call", r.table, r.call) for r in rows if r.call]
        found += [
            Alert(f"tie-{r.table.pk}-{r.hands_played}", "tie", r.table) for r in rows if r.tied
        ]
        found += [
            Alert(
                f"silent-{r.table.pk}-{int(_quiet_since(r).timestamp())}",
                "silent",
                r.table,
                minutes=r.minutes_quiet,
            )
            for r in sorted(
                (r for r in rows if r.silent), key=lambda r: (r.quiet_since, r.table.number)
            )
        ]
        return tuple(found)

    @property
    def held(self) -> bool:
        """The level's draw waits for the TD's "Release the seating": nobody else sees it."""
        return bool(self.tables) and self.tables[0].table.draw.released_at is None

    @property
    def released_later(self) -> bool:
        """The seating was held and released a minute or more after the draw: the clock
        says it runs from the release, not the draw."""
        if self.released_at is None or self.drawn_at is None:
            return False
        return self.released_at - self.drawn_at >= timedelta(minutes=1)

    @property
    def hands_done(self) -> bool:
        """Every table is over or tied for first: closing the level is up to the TD now."""
        return bool(self.tables) and all(t.is_over or t.tied for t in self.tables)


@dataclass(frozen=True)
class Alert:
    """Something the TD must not miss: a call, a tie to settle, a table gone silent.

    `key` names this very alert, so that the page raises it (a sound, a notification) once,
    when it is new, and never again for it: a call by its id, a tie by the hand it came
    at, a silence by the time it began (a table silent again after a hand is a new alert).
    """

    key: str
    kind: str  # "call", "tie" or "silent"
    table: Table  # with its level and draw
    call: TableCall | None = None  # of a "call"
    minutes: int = 0  # of a "silent": minutes since the last hand (or the release)


def live_revision(tournament_id: int, now: datetime) -> str | None:
    """What the TD's live regions show (the dashboard's, the alerts bar): the tournament's
    revision token and the current minute (so that "minutes since the last hand" and the
    silent tables stay fresh). None when the tournament does not exist."""
    token = revision_token(tournament_id)
    if token is None:
        return None
    return f"{token}.{int(now.timestamp() // 60)}"


ORDERS = ("attention", "number")  # "needs a look" first (the default), or by table number


def _dashboard_order(row: DashboardTable) -> tuple[int, int, float, int]:
    """The "needs a look" order: calls first (the longest waiting first), then ties, then
    silent tables (the quietest first), then lagging ones (the latest estimated finish
    first), then tables playing, then finished ones; by number within each."""
    if row.call is not None:
        return (0, 0, row.call.called_at.timestamp(), row.table.number)
    if row.tied:
        return (0, 1, 0, row.table.number)
    if row.silent:
        return (0, 2, _quiet_since(row).timestamp(), row.table.number)
    if row.lagging:
        # Lagging: it has an estimate; not on hold (a call or a silence came first): a latest.
        latest = row.estimate.latest if row.estimate is not None else None
        assert latest is not None, "a lagging table's estimate has a latest"
        return (0, 3, -latest.timestamp(), row.table.number)
    return (1 if not row.is_over else 2, 0, 0, row.table.number)


def _quiet_since(row: DashboardTable) -> datetime:
    """A silent table's quiet time's start: a table is silent only once released."""
    assert row.quiet_since is not None, "a silent table has a quiet_since"
    return row.quiet_since


def hand_times(table_ids: Iterable[int]) -> dict[int, list[datetime]]:
    """Every hand's time at these tables, in hand order: one query, whatever the tables."""
    times: dict[int, list[datetime]] = {table_id: [] for table_id in table_ids}
    rows = Hand.objects.filter(table_id__in=table_ids).order_by("table_id", "number")
    for table_id, created_at in rows.values_list("table_id", "created_at"):
        times[table_id].append(created_at)
    return times


def play_started(draw: Draw) -> datetime | None:
    """When play could start at a draw's tables: its release (never before the draw
    itself), or None while it is held."""
    if draw.released_at is None:
        return None
    return max(draw.created_at, draw.released_at)


def changeover(levels: Sequence[Level]) -> timedelta:
    """The mean time from a level's close to the release of the next level's seating (play
    starts there; a held draw's wait is part of it), zero before any. A level is read with
    its current draw's `released_at` (see `dashboard`); a level still held is left out, its
    changeover is not over. Without it (a level read alone) its draw's time stands."""
    gaps = [
        getattr(later, "released_at", later.created_at) - earlier.closed_at
        for earlier, later in zip(levels, levels[1:], strict=False)
        if earlier.closed_at is not None and getattr(later, "released_at", True) is not None
    ]
    return sum(gaps, timedelta()) / len(gaps) if gaps else timedelta()


def _dashboard_table(
    table: Table,
    tournament: Tournament,
    now: datetime,
    call: TableCall | None,
    times: list[datetime],
) -> DashboardTable:
    seats = list(table.seats.all())
    # `settlements`: prefetched by `dashboard` (to_attr), newest first.
    settlements = table.settlements  # type: ignore[attr-defined]
    settled = settlements[0].winner_id if settlements else None
    settled_seat = next((s.id for s in seats if s.player_id == settled), None)
    state = conclude_table(
        table,
        seats,
        cached_progress(table, seats),
        {s.id: s.penalty_points for s in seats},
        settled_seat,
    )
    playing = set(state.active_seat_ids)
    if state.is_over:
        lead_ids = {state.winner_seat_id} - {None}
    elif state.hands_played:
        best = max((state.totals[sid] for sid in playing), default=None)
        lead_ids = {sid for sid in playing if state.totals[sid] == best}
    else:
        lead_ids = set()
    rows = tuple(
        DashboardSeat(
            seat=s,
            total=state.totals[s.id],
            in_fantasyland=state.in_fantasyland[s.id] and not state.is_over,
            leads=s.id in lead_ids,
            playing=s.id in playing,
        )
        for s in seats
    )
    last_entry_at = times[-1] if times else None
    started = play_started(table.draw)
    # A held table is never silent; after the release its quiet time counts from the later
    # of its last hand and the release (a hand is only recorded after it, but a backup's
    # restored times need not say so).
    quiet_since = None if started is None else max(filter(None, (last_entry_at, started)))
    quiet = now - quiet_since if quiet_since is not None else timedelta()
    silent = not state.is_over and quiet > timedelta(minutes=SILENT_AFTER_MINUTES)
    estimate = None
    if not state.is_over:
        # A table waiting on the TD's answer to its call, or gone silent, is not playing:
        # its estimate says when it can finish at the earliest, and has no latest.
        estimate = pace.table_estimate(
            times,
            hands_played=state.hands_played,
            required_hands=state.required_hands,
            fantasyland_hands=state.progress.fantasyland_hands,
            now=now,
            on_hold=call is not None or silent,
        )
    return DashboardTable(
        table=table,
        seats=rows,
        hands_played=state.hands_played,
        required_hands=state.required_hands,
        min_hands=tournament.min_hands,
        fantasyland_hands=state.progress.fantasyland_hands,
        leaders=tuple(r.seat.player for r in rows if r.leads),
        fantasyland_next=tuple(r.seat.player for r in rows if r.in_fantasyland),
        last_entry_at=last_entry_at,
        quiet_since=quiet_since,
        minutes_quiet=max(0, int(quiet.total_seconds() // 60)),
        call=call,
        tied=tuple(s.player for s in seats if s.id in state.tied_leader_ids),
        silent=silent,
        is_over=state.is_over,
        winner=next((s.player for s in seats if s.id == state.winner_seat_id), None),
        estimate=estimate,
        card_offline_since=_card_offline_since(table, now, state.is_over),
    )


def _card_offline_since(table: Table, now: datetime, is_over: bool) -> datetime | None:
    seen = table.card_seen_at
    if is_over or seen is None or now - seen <= CARD_OFFLINE_AFTER:
        return None
    return seen


def held_hands_waiting(tournament: Tournament) -> tuple[HeldHand, ...]:
    """The held hands the TD has not decided, at any level: one query. Each with
    `reason_shown`, why it was held in the reader's language (rules/held_reasons)."""
    found = tuple(held_hands.undecided(tournament))
    for held in found:
        held.reason_shown = held_reasons.words(held.why, held.reason)  # type: ignore[attr-defined]
    return found


def _with_lagging(rows: Iterable[DashboardTable]) -> list[DashboardTable]:
    """Flag the tables far behind the others' pace (pace.lagging)."""
    paces = [(row, row.estimate.pace if row.estimate else None) for row in rows]
    flagged = []
    for row, own in paces:
        others = [p for other, p in paces if other is not row and p is not None]
        flagged.append(dataclasses.replace(row, lagging=pace.lagging(own, others)))
    return flagged


def _estimates(
    rows: Sequence[DashboardTable],
    levels: Sequence[Level],
    level: Level,
    tournament: Tournament,
    times: Mapping[int, list[datetime]],
    now: datetime,
) -> tuple[pace.Range | None, pace.Range | None]:
    """The level's end (its slowest table's) and, from the second level on, the
    tournament's (pace.tournament_end with the room's pooled hand times)."""
    playing = [row for row in rows if not row.is_over]
    found = [row.estimate for row in playing if row.estimate is not None]
    level_range = pace.level_end(found, len(playing))
    if level.number < 2:
        return level_range, None
    done = level_range if playing else pace.Range(now, now)
    pooled = [gap for table_times in times.values() for gap in pace.intervals(table_times)]
    over = [row for row in rows if row.is_over] or rows
    tournament_range = pace.tournament_end(
        done,
        tables=len(rows),
        min_hands=tournament.min_hands,
        fantasyland_per_table=sum(row.fantasyland_hands for row in over) / len(over),
        room=pace.pace_of(pooled),
        changeover=changeover(levels),
    )
    return level_range, tournament_range


def dashboard(
    tournament: Tournament,
    *,
    now: datetime | None = None,
    order: str = "attention",
    held: bool = True,
) -> Dashboard:
    """The TD's live view of the current level: 2 queries before the first draw, 8 after
    (7 without the held hands, `held=False`: the alerts bar), whatever the number of
    tables. `order`: "attention" (needs a look first) or "number".

    Per table: seats and players with totals, every hand's time (the last one's, the pace
    and the estimated finish: one query for the level), the open call and the latest tie
    settlement; the table's state is concluded from its caches, the same
    way `tournament.tables.state.cached_state` does, without a query per table. The open calls
    are read for the whole tournament in one query: a call left at a closed level or a
    redrawn table is listed too, never lost.
    """

    now = now or timezone.now()
    current_draw = Draw.objects.filter(level=OuterRef("pk"), superseded_at__isnull=True)
    levels = tuple(
        Level.objects.filter(tournament=tournament)
        .annotate(released_at=Subquery(current_draw.values("released_at")[:1]))
        .order_by("number")
    )
    players = Player.objects.filter(tournament=tournament, withdrawn_at__isnull=True).count()
    level = levels[-1] if levels else None
    rows: tuple[DashboardTable, ...] = ()
    calls_elsewhere: tuple[TableCall, ...] = ()

    drawn_at = released_at = level_range = tournament_range = None
    if level is not None:
        level.tournament = tournament
        tables = list(
            Table.objects.current()
            .filter(level=level)
            .select_related("draw", "winner")
            .prefetch_related(
                Prefetch("seats", queryset=seats_with_players()),
                Prefetch(
                    "tie_settlements",
                    queryset=TieSettlement.objects.order_by("-id"),
                    to_attr="settlements",
                ),
            )
            .order_by("number")
        )
        open_calls = (
            TableCall.objects.filter(table__level__tournament=tournament, cleared_at__isnull=True)
            .select_related("table__level", "table__draw", "player")
            .order_by("called_at", "id")
        )
        calls_by_table = {call.table_id: call for call in open_calls}
        in_play = level.closed_at is None  # else every call is listed apart, as "elsewhere"
        times = hand_times([table.pk for table in tables])
        found = []
        for table in tables:
            table.level = level
            call = calls_by_table.pop(table.pk, None) if in_play else None
            found.append(_dashboard_table(table, tournament, now, call, times[table.pk]))
        found = _with_lagging(found)
        if in_play and found:
            drawn_at = found[0].table.draw.created_at
            released_at = play_started(found[0].table.draw)
            level_range, tournament_range = _estimates(found, levels, level, tournament, times, now)
        if order != "number":
            found.sort(key=_dashboard_order)
        rows = tuple(found)
        calls_elsewhere = tuple(calls_by_table.values())  # the dict keeps the query's order
    return Dashboard(
        levels=levels,
        level=level,
        tables=rows,
        players=players,
        finished=sum(1 for r in rows if r.is_over),
        calls=sum(1 for r in rows if r.call is not None),
        ties=sum(1 for r in rows if r.tied),
        silent=sum(1 for r in rows if r.silent),
        calls_elsewhere=calls_elsewhere,
        lagging=sum(1 for r in rows if r.lagging),
        drawn_at=drawn_at,
        released_at=released_at,
        level_minutes=max(0, int((now - released_at).total_seconds() // 60)) if released_at else 0,
        level_end=level_range,
        tournament_end=tournament_range,
        held_hands=held_hands_waiting(tournament) if held and level is not None else (),
    )


def held_hand_of(tournament_id: int, held_id: int) -> HeldHand | None:
    """A held hand of this tournament (decided or not), or None: 1 query."""
    return (
        HeldHand.objects.filter(pk=held_id, table__level__tournament_id=tournament_id)
        .select_related("table")
        .first()
    )
