"""The TD's draw pages: preview, a level's draws and seating."""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Exists, OuterRef, Prefetch

from tournament.lib.text import swedish_sort_key
from tournament.models import (
    Draw,
    HeldHand,
    Level,
    Player,
    Seat,
    Table,
    TableCall,
    Tournament,
    shown_draw,
)
from tournament.rules.seating import table_sizes
from tournament.selectors.dashboard import Dashboard, DashboardTable, dashboard
from tournament.selectors.tables import seats_with_players
from tournament.services import checkin


@dataclass(frozen=True)
class DrawPreview:
    players: int  # players who would be drawn: registered, not withdrawn, not disqualified
    table_sizes: tuple[int, ...]  # the tables the draw makes, e.g. (3, 3, 2, 2); () below 2
    drawn: bool  # the first level is drawn already
    # Players not checked in while others are (services/checkin.py): the draw asks about
    # them first; () when check-in is not used or everyone is here.
    absent: tuple[Player, ...] = ()

    @property
    def here(self) -> int:
        """Players the draw seats if the absent are withdrawn."""
        return self.players - len(self.absent)

    @property
    def here_table_sizes(self) -> tuple[int, ...]:
        return tuple(table_sizes(self.here)) if self.here >= 2 else ()


def draw_preview(tournament: Tournament) -> DrawPreview:
    """What drawing the first level would make, and who is not checked in: 3 queries."""
    field = list(
        Player.objects.filter(
            tournament=tournament, withdrawn_at__isnull=True, disqualified=False
        ).only("pk", "name", "number")
    )
    count = len(field)
    drawn = Level.objects.filter(tournament=tournament).exists()
    absent = () if drawn else tuple(checkin.absent_players(field))
    return DrawPreview(
        players=count,
        table_sizes=tuple(table_sizes(count)) if count >= 2 else (),
        drawn=drawn,
        absent=tuple(sorted(absent, key=lambda p: (swedish_sort_key(p.name), p.number))),
    )


def level_with_held(tournament: Tournament, number: int) -> Level | None:
    """The tournament's level of this number, with `held` (its current draw is not yet
    released to the room) in the same query; None if it has none."""
    held = Draw.objects.current().filter(level=OuterRef("pk"), released_at__isnull=True)
    level = (
        Level.objects.filter(tournament=tournament, number=number)
        .annotate(held=Exists(held))
        .first()
    )
    if level is not None:
        level.tournament = tournament
    return level


def level_draws(level: Level) -> list[Draw]:
    """Every draw of a level, newest first, with who made it, its tables, seats and
    players: 3 queries. The first is the current draw, the others were superseded."""
    return list(
        Draw.objects.filter(level=level)
        .select_related("created_by")
        .order_by("-number")
        .prefetch_related(
            Prefetch("tables", queryset=Table.objects.order_by("number")),
            Prefetch("tables__seats", queryset=seats_with_players()),
        )
    )


@dataclass(frozen=True)
class LevelPage:
    """A level's draws as its TD page shows them: the current one and its tables, each
    older one with the draw that replaced it (who, when and why are on that one), and what
    the TD may still do."""

    current: Draw
    history: list[tuple[Draw, Draw]]  # (superseded draw, the draw that replaced it), newest first
    started: bool  # a hand is recorded at one of its tables: the draw is locked (rules §1)
    locked: bool  # started, or the level is closed
    can_advance: bool  # open, the tournament not finished, and every table over


def level_page(tournament: Tournament, level: Level) -> LevelPage:
    """The level page's draws and what they allow: 3 queries (`level_draws`)."""
    draws = level_draws(level)
    current, superseded = draws[0], draws[1:]
    replaced_by = {d.number - 1: d for d in draws}
    tables = current.tables.all()
    started = any(table.hands_played for table in tables)
    is_open = level.closed_at is None
    return LevelPage(
        current=current,
        history=[(old, replaced_by[old.number]) for old in superseded],
        started=started,
        locked=started or not is_open,
        can_advance=(is_open and tournament.finished_at is None and all(t.is_over for t in tables)),
    )


def level_seating(level: Level) -> list[Seat]:
    """The seats of a level's current draw, with player and table, sorted by the
    player's name the Swedish way (Å, Ä, Ö after Z): 1 query."""
    seats = (
        Seat.objects.current()
        .filter(draw__level=level)
        .select_related("player", "table", "draw")
        .order_by("table__number", "position")
    )
    return sorted(seats, key=lambda seat: swedish_sort_key(seat.player.name))


@dataclass(frozen=True)
class RoomSeating:
    """The seating as the room's projector shows it: nothing of a draw not yet released."""

    seats: list[Seat]  # by the player's name (Swedish order); [] while the draw is held
    held: bool  # the level's current draw is not released to the room (§5)
    table_count: int


def room_seating(level: Level) -> RoomSeating:
    """The level's seating for the room: 1 query (`level_seating`)."""
    seats = level_seating(level)
    held = bool(seats) and not shown_draw(seats[0].draw)
    if held:
        seats = []
    return RoomSeating(seats, held, len({seat.table_id for seat in seats}))


def seats_by_name(tables: Iterable[Table]) -> list[Seat]:
    """The seats of `tables` (prefetched with their players) by the player's name, the
    Swedish way: no query."""
    seats = [seat for table in tables for seat in table.seats.all()]
    return sorted(seats, key=lambda seat: swedish_sort_key(seat.player.name))


@dataclass(frozen=True)
class LevelCloseReview:
    """What closing the current level would do, and what still blocks it."""

    board: Dashboard  # the tournament's level, tables and calls
    calls: tuple[TableCall, ...]  # every open call of the tournament, the longest waiting first
    ties: tuple[DashboardTable, ...]  # rows tied for first after their required hands
    playing: tuple[DashboardTable, ...]  # rows still short of their required hands
    winners: tuple[Player, ...]  # who won their table and may play on, by table number
    # hands held from an offline card, not decided yet (any level), the oldest first
    held_hands: tuple[HeldHand, ...] = ()

    @property
    def level(self) -> Level | None:
        return self.board.level

    @property
    def blocked(self) -> bool:
        """Open calls, undecided held hands and unsettled ties block closing, as do tables
        still playing."""
        return bool(self.calls or self.held_hands or self.ties or self.playing)

    @property
    def finishes(self) -> bool:
        """Closing names the champion (or finishes without one) instead of drawing on."""
        return len(self.winners) <= 1

    @property
    def champion(self) -> Player | None:
        return self.winners[0] if len(self.winners) == 1 else None


def level_close_review(tournament: Tournament, *, now: datetime | None = None) -> LevelCloseReview:
    """The confirmation page of closing the current level: the dashboard's 7 queries."""
    board = dashboard(tournament, now=now)
    by_number = sorted(board.tables, key=lambda row: row.table.number)
    calls = [row.call for row in by_number if row.call is not None]
    calls += board.calls_elsewhere
    return LevelCloseReview(
        board=board,
        calls=tuple(sorted(calls, key=lambda call: (call.called_at, call.pk))),
        ties=tuple(row for row in by_number if row.tied),
        playing=tuple(row for row in by_number if not row.is_over and not row.tied),
        winners=tuple(row.winner for row in by_number if row.is_over and row.winner is not None),
        held_hands=board.held_hands,
    )
