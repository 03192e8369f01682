"""The public pages (/t/...): light reads for a room of phones."""

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Exists, OuterRef
from django.utils import timezone

from tournament.lib.ids import is_db_id
from tournament.lib.search import MAX_RESULTS, search
from tournament.models import (
    CheckIn,
    Level,
    Penalty,
    Player,
    Seat,
    Table,
    Tournament,
    seat_standing,
    shown_draw,
)
from tournament.selectors.announcements import announcement_of, with_announcement
from tournament.selectors.standings import Standing, standings
from tournament.selectors.tables import alone_in_draw
from tournament.selectors.td_words import blank_td_words, without_td_words
from tournament.selectors.tokens import join_tournament_token, open_tables_revision

# Players' phones and the big screen: read-only, for a room of 300 polling at once. Each
# reads what its page shows in a fixed number of queries whatever the tournament's size,
# mostly from the caches the services keep on tables and seats (totals, places, hands
# played and required, Fantasyland, winner), never walking a table's history.

# A seat as `public_level` reads it: the values of `_PUBLIC_SEAT_FIELDS` (then
# `_with_standing`'s layout), mixed types by index as the ORM's values_list gives them.
type _SeatRow = tuple[Any, ...]


def public_tournament(tournament_id: int) -> Tournament | None:
    """The tournament with its revision token (`.token`, the same as `revision_token`) and
    its standing announcement (`.announcement`), read together in 1 query: the token is
    never newer than what the page then reads. None when there is no such tournament.
    Its champion is read when shown (a finished tournament's pages no longer poll).
    """
    if not is_db_id(tournament_id):
        return None
    # The app's clock, not the database's: as the services tell a standing announcement.
    found = list(
        with_announcement(Tournament.objects.filter(pk=tournament_id), now=timezone.now())
        .annotate(open_tables_revision=open_tables_revision())
        .order_by()
    )
    if not found:
        return None
    tournament = found[0]
    # Not fields: read with the tournament for its pages (`.token`, `.announcement`).
    tournament.token = join_tournament_token(  # type: ignore[attr-defined]
        tournament.revision, tournament.open_tables_revision
    )

    announcement_of(tournament)
    return tournament


@dataclass(frozen=True)
class PublicName:
    """A player as a list of tables shows him: enough for his name and his page's link."""

    pk: int
    name: str


@dataclass(frozen=True)
class PublicSeat:
    player: PublicName
    position: int
    total: int
    place: int | None
    in_fantasyland: bool  # plays the table's next hand in Fantasyland
    leads: bool
    playing: bool  # still at the table (False once disqualified there)
    advances: bool  # won the table
    champion: bool  # won the final table (the level's only one): does not advance, has won


@dataclass(frozen=True)
class PublicTable:
    pk: int
    number: int
    seats: tuple[PublicSeat, ...]  # in seat order
    hands_played: int
    required_hands: int
    is_over: bool
    winner: PublicName | None
    tied: bool  # the required hands are played and players are tied for first: plays on

    @property
    def started(self) -> bool:
        return self.hands_played > 0

    @property
    def fantasyland(self) -> tuple[PublicName, ...]:
        """Players who play the next hand in Fantasyland."""
        return tuple(s.player for s in self.seats if s.in_fantasyland)


@dataclass(frozen=True)
class PublicLevel:
    levels: tuple[Level, ...]  # every level of the tournament, in order
    level: Level | None  # the one shown (the current, last one by default), None before the draw
    tables: tuple[PublicTable, ...]  # by number
    # Closed as the room sees it: the next level's draw is shown, or the tournament is over.
    # A level the TD closed while he holds the next draw is not: its winners still wait for
    # that draw, and the room sees the close and the new seating at the release.
    closed: bool = False
    # Before the first draw, (checked in, players) once anyone is checked in at the door
    # (services/checkin.py): "checked in 24 of 27". None otherwise.
    check_in: tuple[int, int] | None = None
    # Before the first draw, while the TD has self check-in open: the page links to it.
    self_check_in: bool = False

    @property
    def is_current(self) -> bool:
        return self.level is not None and self.level == self.levels[-1]

    @property
    def over(self) -> tuple[PublicTable, ...]:
        return tuple(t for t in self.tables if t.is_over)

    @property
    def playing(self) -> tuple[PublicTable, ...]:
        return tuple(t for t in self.tables if not t.is_over)

    @property
    def advanced(self) -> tuple[PublicName, ...]:
        """The winners of the finished tables, by table number."""
        return tuple(t.winner for t in self.tables if t.is_over and t.winner is not None)

    @property
    def final(self) -> bool:
        """The level plays one table: its winner is the champion."""
        return len(self.tables) == 1

    @property
    def players(self) -> int:
        return sum(len(t.seats) for t in self.tables)

    @property
    def in_fantasyland(self) -> int:
        return sum(len(t.fantasyland) for t in self.tables)


_PUBLIC_SEAT_FIELDS = (
    "table_id",
    "table__number",
    "table__hands_played",
    "table__required_hands",
    "table__is_over",
    "table__winner_id",
    "position",
    "table__seat_caches",  # the seat's total, place and Fantasyland (`_with_standing`)
    "left_after_hand",
    "player_id",
    "player__name",
    "player__disqualified",
)


def _with_standing(row: _SeatRow) -> _SeatRow:
    """A row of `_PUBLIC_SEAT_FIELDS` with its table's seat caches replaced by the seat's
    total, place and Fantasyland: the layout `_public_table` reads (indexes 7 to 9)."""
    standing = seat_standing(row[7], row[6])
    return (*row[:7], standing["total"], standing["place"], standing["in_fantasyland"], *row[8:])


def _public_table(
    row: _SeatRow, seat_rows: Sequence[_SeatRow], level_open: bool, final: bool = False
) -> PublicTable:
    """One table from its seats' rows (`_PUBLIC_SEAT_FIELDS`), in seat order.

    `final`: the level's only table, whose winner is the champion.
    """
    _, number, played, required, over, winner_id = row[:6]

    def playing(seat: _SeatRow) -> bool:
        # Gone from the table (3rd warning here), or disqualified since (while it plays).
        return seat[10] is None and not (seat[13] and level_open)

    active = [seat for seat in seat_rows if playing(seat)]
    best = max((seat[7] for seat in active), default=None)
    names = {seat[11]: PublicName(seat[11], seat[12]) for seat in seat_rows}
    seats = tuple(
        PublicSeat(
            player=names[seat[11]],
            position=seat[6],
            total=seat[7],
            place=seat[8],
            in_fantasyland=seat[9] and not over and playing(seat),
            leads=played > 0 and playing(seat) and seat[7] == best,
            playing=playing(seat),
            advances=over and seat[11] == winner_id,
            champion=final and over and seat[11] == winner_id,
        )
        for seat in seat_rows
    )
    return PublicTable(
        pk=row[0],
        number=number,
        seats=seats,
        hands_played=played,
        required_hands=required,
        is_over=over,
        winner=names.get(winner_id),
        tied=not over
        and played > 0
        and played >= required
        and sum(1 for seat in active if seat[7] == best) > 1,
    )


def public_level(tournament: Tournament, number: int | None = None) -> PublicLevel:
    """A level's tables, players and totals from the caches: 2 queries at any size.

    `number` picks an earlier level; None (or a level that does not exist) the current
    one. Rows are read as plain values, not model instances: a level of 300 players is
    read and laid out in a few milliseconds.
    """
    # A level whose current draw the TD has not released is not shown yet (issue 19 §5):
    # the players see the level before it until the release.
    levels = tuple(Level.objects.shown().filter(tournament=tournament).order_by("number"))
    level = next((lv for lv in levels if lv.number == number), levels[-1] if levels else None)
    if level is None:
        return PublicLevel(
            levels=levels,
            level=None,
            tables=(),
            check_in=_check_in(tournament),
            self_check_in=_self_check_in(tournament),
        )
    rows = (
        Seat.objects.current()
        .shown()
        .filter(draw__level=level)
        .order_by("table__number", "position")
        .values_list(*_PUBLIC_SEAT_FIELDS)
    )
    by_table: dict[int, list[_SeatRow]] = {}
    for row in rows:
        by_table.setdefault(row[0], []).append(_with_standing(row))
    closed = level.closed_at is not None and (
        level != levels[-1] or tournament.finished_at is not None
    )
    level_open = level.closed_at is None
    final = len(by_table) == 1
    tables = tuple(
        _public_table(seat_rows[0], seat_rows, level_open, final) for seat_rows in by_table.values()
    )
    return PublicLevel(levels=levels, level=level, tables=tables, closed=closed)


def _self_check_in(tournament: Tournament) -> bool:
    """Whether players can check themselves in (services/checkin.self_check_in_open): the
    caller knows no level is shown; a held first draw closes it too (1 query when open)."""
    if not (tournament.self_check_in_open and tournament.check_in_code):
        return False
    return not Level.objects.filter(tournament=tournament).exists()


def _check_in(tournament: Tournament) -> tuple[int, int] | None:
    """(checked in, players not withdrawn), or None while no one is checked in, and once a
    first draw is made (held, it is not shown yet): 2 queries."""
    if Level.objects.filter(tournament=tournament).exists():
        return None
    here = CheckIn.objects.filter(player=OuterRef("pk"), undone_at__isnull=True)
    counts = Player.objects.filter(tournament=tournament, withdrawn_at__isnull=True).aggregate(
        total=Count("pk"), here=Count("pk", filter=Exists(here))
    )
    if not counts["here"]:
        return None
    return counts["here"], counts["total"]


@dataclass(frozen=True)
class PublicPosition:
    """Where one player is: his seat in the latest level he plays, or how he went out."""

    player: Player
    standing: Standing | None  # None for a withdrawn player
    seat: Seat | None  # (table and level loaded) in the latest level he was drawn into
    # "registered", "withdrawn", "seated", "waiting", "out", "champion", "disqualified"
    status: str

    @property
    def table(self) -> Table | None:
        return self.seat.table if self.seat is not None else None

    @property
    def level_number(self) -> int | None:
        return self.seat.table.level.number if self.seat is not None else None

    @property
    def seat_number(self) -> int | None:
        return self.seat.position + 1 if self.seat is not None else None


def _position(
    player: Player, standing: Standing | None, seat: Seat | None, tournament: Tournament
) -> PublicPosition:
    if standing is not None and standing.status == "champion":
        status = "champion"
    elif player.disqualified:
        status = "disqualified"
    elif player.withdrawn_at is not None:
        status = "withdrawn"  # not in the draw (a no-show withdrawn after it too)
    elif seat is None:
        status = "registered"
    elif standing is not None and standing.status == "out":
        status = "out"
    elif seat.table.is_over and tournament.finished_at is None:
        status = "waiting"  # won his table: drawn again when every table of the level is over
    else:
        status = "seated"
    return PublicPosition(player=player, standing=standing, seat=seat, status=status)


def latest_seats(player_ids: Iterable[int]) -> dict[int, Seat]:
    """Each player's seat in the latest level of a current, released draw (its table and
    level loaded), by player id: 1 query."""
    latest: dict[int, Seat] = {}
    for seat in (
        Seat.objects.current()
        .shown()
        .filter(player_id__in=player_ids)
        .select_related("table__level")
        .order_by("table__level__number")
    ):
        latest[seat.player_id] = seat
    return latest


@dataclass(frozen=True)
class PublicSearch:
    query: str
    found: tuple[PublicPosition, ...]  # best matches first, at most search.MAX_RESULTS
    more: bool  # more players matched than are listed


def public_find(
    tournament: Tournament,
    query: str,
    *,
    ranking: Sequence[Standing] | None = None,
    seats_of: Callable[[tuple[int, ...]], Mapping[int, Seat]] = latest_seats,
) -> PublicSearch:
    """Where do I sit? The players whose name holds what was typed (accents optional),
    each with his table and seat or how he went out: 4 queries at any size.

    `ranking` is the tournament's `standings` when the caller has them already (then 1
    query: the seats of the players found, `seats_of` their ids).
    """
    rows = standings(tournament) if ranking is None else ranking
    matches = search(query, rows, name=lambda row: row.player.name)
    if not matches:
        return _find_withdrawn(tournament, query)
    shown = matches[:MAX_RESULTS]
    seats = seats_of(tuple(row.player.pk for row in shown)) if shown else {}
    return PublicSearch(
        query=query,
        found=tuple(
            _position(row.player, row, seats.get(row.player.pk), tournament) for row in shown
        ),
        more=len(matches) > len(shown),
    )


def _find_withdrawn(tournament: Tournament, query: str) -> PublicSearch:
    """Nobody in the standings by that name: a withdrawn player (a no-show withdrawn after
    the draw, say) is told so rather than not found. 1 query, only for such a search."""
    withdrawn = Player.objects.filter(tournament=tournament, withdrawn_at__isnull=False)
    matches = search(query, list(withdrawn))
    shown = matches[:MAX_RESULTS]
    return PublicSearch(
        query=query,
        found=tuple(_position(player, None, None, tournament) for player in shown),
        more=len(matches) > len(shown),
    )


@dataclass(frozen=True)
class PublicPlayer:
    position: PublicPosition
    seats: tuple[Seat, ...]  # level by level (table and level loaded)
    penalties: tuple[Penalty, ...]  # in the order given (table and level loaded)
    table_seats: tuple[Seat, ...] = ()  # every seat of his latest table, by total (players)

    @property
    def player(self) -> Player:
        return self.position.player

    @property
    def warnings(self) -> int:
        """Warnings that count (not rescinded)."""
        return sum(1 for p in self.penalties if p.rescinded_at is None)

    @property
    def points_deducted(self) -> int:
        return sum(p.points for p in self.penalties if p.rescinded_at is None)


@dataclass(frozen=True)
class PlayerRecord:
    """What a player's page shows of him beside where he stands: his seats level by level,
    his penalties, and every seat of his latest table."""

    player: Player
    seats: tuple[Seat, ...]  # level by level (table and level loaded)
    penalties: tuple[Penalty, ...]  # in the order given (table and level loaded)
    table_seats: tuple[Seat, ...]  # every seat of his latest table, by total (players loaded)
    # What it was read at: the tournament's revision and his latest table's ("7.12"), as
    # `revision_token(tournament, that table)` gives them; the tournament's alone ("7")
    # when he has no seat. Never newer than what it holds: the tournament's revision is
    # the one the caller read before, the table's came with the seats.
    read_at: str

    @property
    def latest_table_id(self) -> int | None:
        return self.seats[-1].table_id if self.seats else None


def player_record(tournament: Tournament, player_id: int) -> PlayerRecord | None:
    """A player's `PlayerRecord`: 3 queries. None when he is not of the tournament."""
    player = Player.objects.filter(pk=player_id, tournament=tournament).first()
    if player is None:
        return None
    # His seats and those of the players at his tables, in the one query his seats took.
    at_his_tables = tuple(
        Seat.objects.current()
        .shown()
        .filter(table__seats__player=player)
        .annotate(alone_in_draw=alone_in_draw())
        .select_related("table__level", "player")
        .order_by("table__level__number", "position")
    )
    seats = tuple(seat for seat in at_his_tables if seat.player_id == player.pk)
    penalties = tuple(
        withhold_held_tables(
            blank_td_words(
                without_td_words(Penalty.objects.filter(player=player), ("table__draw", "Draw"))
                .select_related("table__level", "table__draw")
                .order_by("created_at", "id")
            )
        )
    )
    read_at = str(tournament.revision)
    if seats:
        read_at += f".{seats[-1].table.revision}"
    return PlayerRecord(
        player=player,
        seats=seats,
        penalties=penalties,
        # Leader first: the page numbers them, and in seat order that read as a ranking.
        table_seats=tuple(
            sorted(
                (seat for seat in at_his_tables if seats and seat.table_id == seats[-1].table_id),
                key=lambda seat: (-seat.total, seat.position),
            )
        ),
        read_at=read_at,
    )


def withhold_held_tables[T: Iterable[Penalty]](penalties: T) -> T:
    """Penalties as the room may read them: one given at a table of a draw the TD holds
    (SHOWN_DRAW) keeps its level (`.held_level`) but not its table until the release, so
    that his page tells the player of his warning without showing where he will sit."""
    blank_td_words(penalty.table.draw for penalty in penalties if penalty.table is not None)
    for penalty in penalties:
        # Not a field: what the player's page says of a penalty at a held table.
        penalty.held_level = None  # type: ignore[attr-defined]
        if penalty.table is not None and not shown_draw(penalty.table.draw):
            penalty.held_level = penalty.table.level.number  # type: ignore[attr-defined]
            penalty.table = None
    return penalties


def public_player(
    tournament: Tournament,
    player_id: int,
    *,
    ranking: Sequence[Standing] | None = None,
    record: PlayerRecord | None = None,
) -> PublicPlayer | None:
    """A player's tables level by level (table, place, points), his warnings and penalties
    and where he stands: 6 queries at any size (3 when `ranking`, the tournament's
    `standings`, is given; none more when `record`, his `player_record`, is). None when he
    is not of the tournament."""
    if record is None:
        record = player_record(tournament, player_id)
    if record is None:
        return None
    rows = standings(tournament) if ranking is None else ranking
    standing = next((row for row in rows if row.player.pk == record.player.pk), None)
    player = standing.player if standing is not None else record.player
    latest = record.seats[-1] if record.seats else None
    return PublicPlayer(
        position=_position(player, standing, latest, tournament),
        seats=record.seats,
        penalties=record.penalties,
        table_seats=record.table_seats,
    )
