"""Tournaments: the list (the TD's and the players' home), their levels, the player roster."""

from dataclasses import dataclass
from typing import TypedDict

from django.db.models import Count, Exists, Max, OuterRef, Prefetch, Q, Subquery
from django.db.models.functions import Coalesce

from tournament.lib.text import swedish_sort_key
from tournament.models import (
    CheckIn,
    Level,
    Player,
    Seat,
    Table,
    Tournament,
)
from tournament.selectors.announcements import announcement_of, with_announcement
from tournament.selectors.tables import seats_with_players


@dataclass(frozen=True)
class TournamentRow:
    """One line of the TD's tournament list."""

    tournament: Tournament
    state: str  # "running", "registration", "finished"
    players: int  # registered and not withdrawn
    level: int | None  # the current (highest) level's number
    tables_over: int  # of the current level's current draw
    tables_total: int


_STATE_ORDER = {"running": 0, "registration": 1, "finished": 2}


class _TableCounts(TypedDict):
    """A level's current tables as counted for the list."""

    level__tournament_id: int
    level__number: int
    total: int
    over: int


def td_tournament_list(*, released_only: bool = False) -> list[TournamentRow]:
    """Every tournament for the TD: running first, then not started, then finished,
    newest first within each; with players, current level and its tables: 2 queries.

    `released_only` (the players' home page, issue 19 §5): a level whose current draw the
    TD has not released is not counted, as on the public tournament page: the row shows
    the level before it and that level's tables (or, before any released draw, the
    tournament as not started).
    """
    players = (
        Player.objects.filter(tournament=OuterRef("pk"), withdrawn_at__isnull=True)
        .order_by()
        .values("tournament")
        .annotate(count=Count("pk"))
        .values("count")
    )
    level_rows = Level.objects.filter(tournament=OuterRef("pk"))
    if released_only:
        level_rows = level_rows.shown()
    levels = level_rows.order_by().values("tournament").annotate(top=Max("number")).values("top")

    tournaments = list(
        Tournament.objects.select_related("champion")
        .annotate(player_count=Coalesce(Subquery(players), 0), level_number=Subquery(levels))
        .order_by("-created_at", "-id")
    )
    # Tables per level: of the open level for the TD; of every released level for the
    # players (the one shown may be closed, its next one held). Each row keeps its level's.
    tables = Table.objects.current()
    tables = tables.shown() if released_only else tables.filter(level__closed_at__isnull=True)
    counts: dict[tuple[int, int], _TableCounts] = {
        (row["level__tournament_id"], row["level__number"]): row
        for row in tables.order_by()
        .values("level__tournament_id", "level__number")
        .annotate(total=Count("pk"), over=Count("pk", filter=Q(is_over=True)))
    }
    rows: list[TournamentRow] = []
    for tournament in tournaments:
        if tournament.finished_at is not None:
            state = "finished"
        elif tournament.level_number is None:
            state = "registration"
        else:
            state = "running"
        counted = counts.get((tournament.pk, tournament.level_number))
        rows.append(
            TournamentRow(
                tournament=tournament,
                state=state,
                players=tournament.player_count,
                level=tournament.level_number,
                tables_over=counted["over"] if counted else 0,
                tables_total=counted["total"] if counted else 0,
            )
        )
    rows.sort(key=lambda row: _STATE_ORDER[row.state])  # stable: newest first within each
    return rows


@dataclass(frozen=True)
class RosterEntry:
    player: Player
    status: str  # "registered", "withdrawn", "disqualified", "in", "out", "champion"
    checked_in: bool = False  # a check-in at the door not undone (services/checkin.py)
    by_player: bool = False  # ... made by the player himself, on his phone


@dataclass(frozen=True)
class Roster:
    entries: list[RosterEntry]  # by name the Swedish way
    drawn: bool  # the first draw is made

    @property
    def active(self) -> int:
        """Players registered and not withdrawn."""
        return sum(1 for entry in self.entries if entry.status != "withdrawn")

    @property
    def withdrawn(self) -> int:
        return sum(1 for entry in self.entries if entry.status == "withdrawn")

    @property
    def checked_in(self) -> int:
        """Players not withdrawn who are checked in: the N of "checked in N of M"."""
        return sum(1 for entry in self.entries if entry.status != "withdrawn" and entry.checked_in)

    def not_checked_in(self) -> list[Player]:
        """Players not withdrawn who are not checked in, by name."""
        return [e.player for e in self.entries if e.status != "withdrawn" and not e.checked_in]


def player_roster(tournament: Tournament) -> Roster:
    """Every player of the tournament with his status, by name the Swedish way: 2 queries.

    Before the first draw a player is registered or withdrawn; after it he is in
    (still playing, or waiting for the next draw as his table's winner), out, the
    champion, or disqualified. `tournament.champion_id` is taken as given.
    """
    # Whether each is checked in, in the players' own query.
    here = CheckIn.objects.filter(player=OuterRef("pk"), undone_at__isnull=True)
    players = list(
        Player.objects.filter(tournament=tournament).annotate(
            here=Exists(here), here_by_player=Exists(here.filter(by_player=True))
        )
    )
    last_seat: dict[int, Seat] = {}
    for seat in (
        Seat.objects.current()
        .filter(table__level__tournament=tournament)
        .select_related("table__level")
        .order_by("table__level__number")
    ):
        last_seat[seat.player_id] = seat
    drawn = bool(last_seat)

    def status(player: Player) -> str:
        if player.withdrawn_at is not None:
            return "withdrawn"
        if player.disqualified:
            return "disqualified"
        if player.pk == tournament.champion_id:
            return "champion"
        seat = last_seat.get(player.pk)
        if seat is None:
            return "registered"
        table = seat.table
        if table.level.closed_at is None and not (table.is_over and table.winner_id != player.pk):
            return "in"
        return "out"

    players.sort(key=lambda player: (swedish_sort_key(player.name), player.number))
    entries = [
        RosterEntry(player, status(player), player.here, player.here_by_player)
        for player in players
    ]
    return Roster(entries=entries, drawn=drawn)


def td_tournament(tournament_id: int) -> Tournament | None:
    """The tournament of a TD page's URL with its champion and its standing announcement
    (`.announcement`, the projectors show it) in the same query, or None."""
    tournaments = with_announcement(Tournament.objects.select_related("champion"))
    try:
        tournament = tournaments.get(pk=tournament_id)
    except Tournament.DoesNotExist:
        return None
    announcement_of(tournament)
    return tournament


def tournament_level(tournament: Tournament, number: int) -> Level | None:
    """The tournament's level of this number (its `tournament` set), or None."""
    try:
        level = Level.objects.get(tournament=tournament, number=number)
    except Level.DoesNotExist:
        return None
    level.tournament = tournament
    return level


def tournament_player(tournament: Tournament, player_id: int) -> Player | None:
    """A player of this tournament, or None: 1 query."""
    try:
        return Player.objects.get(pk=player_id, tournament=tournament)
    except Player.DoesNotExist:
        return None


def tournament_named(name: str) -> Tournament | None:
    """A tournament of this name (the one a backup named, imported before), or None."""
    return Tournament.objects.filter(name=name).first()


def tournament_list() -> list[Tournament]:
    """Tournaments, newest first, with their champion: 1 query."""
    return list(Tournament.objects.select_related("champion").order_by("-created_at", "-id"))


def tournament_levels(tournament: Tournament) -> list[Level]:
    """Every level with its current tables, seats and players: 3 queries."""
    return list(
        Level.objects.filter(tournament=tournament)
        .order_by("number")
        .prefetch_related(
            Prefetch(
                "tables",
                queryset=Table.objects.current().select_related("winner").order_by("number"),
            ),
            Prefetch("tables__seats", queryset=seats_with_players()),
        )
    )


def check_in_candidates(tournament: Tournament) -> list[RosterEntry]:
    """The players who may check in at the door (registered, not withdrawn), by name, each
    with whether he is checked in: 2 queries. Empty after the first draw."""
    return [entry for entry in player_roster(tournament).entries if entry.status == "registered"]
