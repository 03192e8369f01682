"""Reads for pages: each fetches what a page shows in a fixed number of queries."""

from dataclasses import dataclass

from django.db.models import OuterRef, Prefetch, Subquery, Sum
from django.db.models.functions import Coalesce

from tournament.models import (
    Hand,
    HandResult,
    HandVersion,
    Level,
    Penalty,
    Player,
    Seat,
    Table,
    Tournament,
)


def tournament_list():
    """Tournaments, newest first, with their champion: 1 query."""
    return list(Tournament.objects.select_related("champion").order_by("-created_at", "-id"))


def _seats_with_players():
    return Seat.objects.select_related("player").order_by("position")


def level_tables(level):
    """A level's current tables with their seats, players and totals: 2 queries."""
    return list(
        Table.objects.current()
        .filter(level=level)
        .select_related("winner")
        .prefetch_related(Prefetch("seats", queryset=_seats_with_players()))
        .order_by("number")
    )


def tournament_levels(tournament):
    """Every level with its current tables, seats and players: 3 queries."""
    return list(
        Level.objects.filter(tournament=tournament)
        .order_by("number")
        .prefetch_related(
            Prefetch(
                "tables",
                queryset=Table.objects.current().select_related("winner").order_by("number"),
            ),
            Prefetch("tables__seats", queryset=_seats_with_players()),
        )
    )


def table_hands(table):
    """A table's hands, each with its current version and per-seat results: 3 queries."""
    return list(
        Hand.objects.filter(table=table)
        .order_by("number")
        .prefetch_related(
            Prefetch(
                "versions",
                queryset=HandVersion.objects.current().prefetch_related(
                    Prefetch("results", queryset=HandResult.objects.order_by("seat__position"))
                ),
                to_attr="current_versions",
            )
        )
    )


def hand_history(hand):
    """Every version of one hand, oldest first, with who entered it: 2 queries."""
    return list(
        HandVersion.objects.filter(hand=hand)
        .select_related("created_by")
        .prefetch_related(
            Prefetch(
                "results",
                queryset=HandResult.objects.select_related("seat__player").order_by(
                    "seat__position"
                ),
            )
        )
        .order_by("version")
    )


def tournament_penalties(tournament):
    return list(
        Penalty.objects.filter(tournament=tournament)
        .select_related("player", "table__level", "created_by", "rescinded_by")
        .order_by("created_at", "id")
    )


@dataclass(frozen=True)
class Standing:
    rank: int | None  # None for disqualified players
    player: Player
    level: int | None  # the last level the player played
    place: int | None  # place at that level's table
    points: int | None  # total at that table
    status: str  # "champion", "in", "out", "disqualified"


def standings(tournament):
    """Final (or current) standings per rules.md section 6: 3 queries.

    Champion first; then the other players of the last table by their points
    there; then, level by level backwards, the players who went out at each
    level, by their place at their table and then their points there. Players
    still playing come first while the tournament runs. Disqualified last.
    """
    players = list(Player.objects.filter(tournament=tournament, withdrawn_at__isnull=True))
    last_seat = {}
    for seat in (
        Seat.objects.current()
        .filter(table__level__tournament=tournament)
        .select_related("table__level")
        .order_by("table__level__number")
    ):
        last_seat[seat.player_id] = seat
    # Read afresh: the caller's instance may predate the final advance.
    champion_id = (
        Tournament.objects.filter(pk=tournament.pk).values_list("champion", flat=True).get()
    )

    def key(player):
        seat = last_seat.get(player.pk)
        if seat is None:
            return (0, 0, 0, 0, player.number)
        table = seat.table
        still_in = (
            player.pk != champion_id
            and table.level.closed_at is None
            and not (table.is_over and table.winner_id != player.pk)
        )
        return (
            0 if player.pk == champion_id else 1,
            0 if still_in else 1,
            -table.level.number,
            seat.place or 99,
            -seat.total,
            player.number,
        )

    ranked = sorted((p for p in players if not p.disqualified), key=key)
    result = []
    previous = None
    for index, player in enumerate(ranked, start=1):
        seat = last_seat.get(player.pk)
        sort_key = key(player)[:-1]
        rank = result[-1].rank if previous == sort_key else index
        previous = sort_key
        if player.pk == champion_id:
            status = "champion"
        elif sort_key[1] == 0:
            status = "in"
        else:
            status = "out"
        result.append(
            Standing(
                rank=rank,
                player=player,
                level=seat.table.level.number if seat else None,
                place=seat.place if seat else None,
                points=seat.total if seat else None,
                status=status,
            )
        )
    for player in sorted(
        (p for p in players if p.disqualified),
        key=lambda p: (-(last_seat[p.pk].table.level.number if p.pk in last_seat else 0), p.number),
    ):
        seat = last_seat.get(player.pk)
        result.append(
            Standing(
                rank=None,
                player=player,
                level=seat.table.level.number if seat else None,
                place=None,
                points=seat.total if seat else None,
                status="disqualified",
            )
        )
    return result


def revision_token(tournament_id):
    """A token that changes whenever anything a page of this tournament shows changes.

    The tournament's own revision (draws, penalties, settings...) and the sum of
    its open levels' table revisions (each hand, correction, call...): table
    revisions only grow, and the set of open tables only changes with the
    tournament's revision, so equal tokens mean nothing changed. One indexed
    query; None when the tournament does not exist.
    """
    tables = (
        Table.objects.filter(level__tournament_id=OuterRef("pk"), level__closed_at__isnull=True)
        .order_by()
        .values("level__tournament_id")
        .annotate(total=Sum("revision"))
        .values("total")
    )
    row = (
        Tournament.objects.filter(pk=tournament_id)
        .annotate(tables=Coalesce(Subquery(tables), 0))
        .values_list("revision", "tables")
        .first()
    )
    return None if row is None else f"{row[0]}.{row[1]}"


# ---------------------------------------------------------------- TD: tournaments and players


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


def td_tournament_list():
    """Every tournament for the TD: running first, then not started, then finished,
    newest first within each; with players, current level and its tables: 2 queries.
    """
    from django.db.models import Count, Max, Q

    players = (
        Player.objects.filter(tournament=OuterRef("pk"), withdrawn_at__isnull=True)
        .order_by()
        .values("tournament")
        .annotate(count=Count("pk"))
        .values("count")
    )
    levels = (
        Level.objects.filter(tournament=OuterRef("pk"))
        .order_by()
        .values("tournament")
        .annotate(top=Max("number"))
        .values("top")
    )
    tournaments = list(
        Tournament.objects.select_related("champion")
        .annotate(player_count=Coalesce(Subquery(players), 0), level_number=Subquery(levels))
        .order_by("-created_at", "-id")
    )
    counts = {
        row["level__tournament_id"]: row
        for row in Table.objects.current()
        .filter(level__closed_at__isnull=True)
        .order_by()
        .values("level__tournament_id")
        .annotate(total=Count("pk"), over=Count("pk", filter=Q(is_over=True)))
    }
    rows = []
    for tournament in tournaments:
        if tournament.finished_at is not None:
            state = "finished"
        elif tournament.level_number is None:
            state = "registration"
        else:
            state = "running"
        tables = counts.get(tournament.pk, {})
        rows.append(
            TournamentRow(
                tournament=tournament,
                state=state,
                players=tournament.player_count,
                level=tournament.level_number,
                tables_over=tables.get("over", 0),
                tables_total=tables.get("total", 0),
            )
        )
    rows.sort(key=lambda row: _STATE_ORDER[row.state])  # stable: newest first within each
    return rows


def form_submitted(key):
    """Whether a TD form with this one-time key was already carried out: 1 query.

    Checked before a form is validated against the database, so that a double
    click is answered "already done" rather than "Anna is already registered".
    """
    from tournament.models import FormSubmission

    return FormSubmission.objects.filter(key=key).exists()


def first_draw_made(tournament):
    """Whether the tournament's first draw is made (settings and registration closed): 1 query."""
    return Level.objects.filter(tournament=tournament).exists()


@dataclass(frozen=True)
class RosterEntry:
    player: Player
    status: str  # "registered", "withdrawn", "disqualified", "in", "out", "champion"


@dataclass(frozen=True)
class Roster:
    entries: list  # RosterEntry, by name the Swedish way
    drawn: bool  # the first draw is made

    @property
    def active(self):
        """Players registered and not withdrawn."""
        return sum(1 for entry in self.entries if entry.status != "withdrawn")

    @property
    def withdrawn(self):
        return sum(1 for entry in self.entries if entry.status == "withdrawn")


def player_roster(tournament):
    """Every player of the tournament with his status, by name the Swedish way: 2 queries.

    Before the first draw a player is registered or withdrawn; after it he is in
    (still playing, or waiting for the next draw as his table's winner), out, the
    champion, or disqualified. `tournament.champion_id` is taken as given.
    """
    from tournament.text import swedish_sort_key

    players = list(Player.objects.filter(tournament=tournament))
    last_seat = {}
    for seat in (
        Seat.objects.current()
        .filter(table__level__tournament=tournament)
        .select_related("table__level")
        .order_by("table__level__number")
    ):
        last_seat[seat.player_id] = seat
    drawn = bool(last_seat)

    def status(player):
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
    return Roster(entries=[RosterEntry(player, status(player)) for player in players], drawn=drawn)


# ---- Draws, levels and standings (the TD's draws pages) -------------------------------


@dataclass(frozen=True)
class DrawPreview:
    players: int  # players who would be drawn: registered, not withdrawn, not disqualified
    table_sizes: tuple  # the tables the draw makes, e.g. (3, 3, 2, 2); () below 2 players
    drawn: bool  # the first level is drawn already


def draw_preview(tournament):
    """What drawing the first level would make: 2 queries."""
    from tournament.seating import table_sizes

    count = Player.objects.filter(
        tournament=tournament, withdrawn_at__isnull=True, disqualified=False
    ).count()
    drawn = Level.objects.filter(tournament=tournament).exists()
    return DrawPreview(
        players=count,
        table_sizes=tuple(table_sizes(count)) if count >= 2 else (),
        drawn=drawn,
    )


def level_draws(level):
    """Every draw of a level, newest first, with who made it, its tables, seats and
    players: 3 queries. The first is the current draw, the others were superseded."""
    from tournament.models import Draw

    return list(
        Draw.objects.filter(level=level)
        .select_related("created_by")
        .order_by("-number")
        .prefetch_related(
            Prefetch("tables", queryset=Table.objects.order_by("number")),
            Prefetch("tables__seats", queryset=_seats_with_players()),
        )
    )


def level_seating(level):
    """The seats of a level's current draw, with player and table, sorted by the
    player's name the Swedish way (Å, Ä, Ö after Z): 1 query."""
    from tournament.text import swedish_sort_key

    seats = (
        Seat.objects.current()
        .filter(draw__level=level)
        .select_related("player", "table")
        .order_by("table__number", "position")
    )
    return sorted(seats, key=lambda seat: swedish_sort_key(seat.player.name))


def table_revision(table_id):
    """The table's revision (what its revisor's card polls): 1 indexed query."""
    return Table.objects.filter(pk=table_id).values_list("revision", flat=True).first()


def last_hands(table, count=5):
    """The table's last `count` hands, newest first, with their current results: 3 queries."""
    return list(
        Hand.objects.filter(table=table)
        .order_by("-number")
        .prefetch_related(
            Prefetch(
                "versions",
                queryset=HandVersion.objects.current().prefetch_related(
                    Prefetch("results", queryset=HandResult.objects.order_by("seat__position"))
                ),
                to_attr="current_versions",
            )
        )[:count]
    )


# ---------------------------------------------------------------- the TD's live dashboard

# A table with no new hand for more than this many minutes is flagged for the TD. A hand
# of POFC takes two to four minutes, so ten quiet minutes mean a stuck table: a dispute
# nobody called in, a tablet that stopped sending, or a score card kept on paper only.
SILENT_AFTER_MINUTES = 10


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
    seats: tuple  # DashboardSeat, in seat order
    hands_played: int
    required_hands: int
    min_hands: int
    fantasyland_hands: int  # hands added for Fantasyland
    leaders: tuple  # Player(s) in the lead; none before the first hand
    fantasyland_next: tuple  # Players who play the next hand in Fantasyland
    last_entry_at: object  # datetime of the last hand recorded, None before the first
    quiet_since: object  # datetime: the last hand, or the draw before the first
    minutes_quiet: int
    call: object  # the open TableCall, or None
    tied: tuple  # Players tied for first after the required hands
    silent: bool
    is_over: bool
    winner: object  # Player or None

    @property
    def needs_attention(self):
        return self.call is not None or bool(self.tied) or self.silent

    @property
    def status(self):
        if self.needs_attention:
            return "attention"
        return "finished" if self.is_over else "playing"


@dataclass(frozen=True)
class Dashboard:
    levels: tuple  # every level of the tournament, in order
    level: object  # the current (last) Level, or None before the first draw
    tables: tuple  # DashboardTable: those needing the TD first, then playing, then finished
    players: int  # registered players (not withdrawn)
    finished: int
    calls: int
    ties: int
    silent: int

    @property
    def playing_numbers(self):
        return sorted(t.table.number for t in self.tables if not t.is_over)

    @property
    def all_over(self):
        return bool(self.tables) and all(t.is_over for t in self.tables)


def _dashboard_order(row):
    """Calls first (the longest waiting first), then ties, then silent tables (the
    quietest first), then tables playing, then finished ones; by number within each."""
    if row.call is not None:
        return (0, 0, row.call.called_at.timestamp(), row.table.number)
    if row.tied:
        return (0, 1, 0, row.table.number)
    if row.silent:
        return (0, 2, row.quiet_since.timestamp(), row.table.number)
    return (1 if not row.is_over else 2, 0, 0, row.table.number)


def _dashboard_table(table, tournament, now):
    from datetime import timedelta

    from tournament.state import cached_progress, conclude_table

    seats = list(table.seats.all())
    settled = table.settlements[0].winner_id if table.settlements else None
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
    quiet_since = table.last_entry_at or table.draw.created_at
    call = table.open_calls[0] if table.open_calls else None
    return DashboardTable(
        table=table,
        seats=rows,
        hands_played=state.hands_played,
        required_hands=state.required_hands,
        min_hands=tournament.min_hands,
        fantasyland_hands=state.progress.fantasyland_hands,
        leaders=tuple(r.seat.player for r in rows if r.leads),
        fantasyland_next=tuple(r.seat.player for r in rows if r.in_fantasyland),
        last_entry_at=table.last_entry_at,
        quiet_since=quiet_since,
        minutes_quiet=max(0, int((now - quiet_since).total_seconds() // 60)),
        call=call,
        tied=tuple(s.player for s in seats if s.id in state.tied_leader_ids),
        silent=not state.is_over and now - quiet_since > timedelta(minutes=SILENT_AFTER_MINUTES),
        is_over=state.is_over,
        winner=next((s.player for s in seats if s.id == state.winner_seat_id), None),
    )


def dashboard(tournament, *, now=None):
    """The TD's live view of the current level: 2 queries before the first draw, 6 after,
    whatever the number of tables.

    Per table: seats and players with totals, the last hand's time, the open call and
    the latest tie settlement; the table's state is concluded from its caches, the same
    way `tournament.state.cached_state` does, without a query per table.
    """
    from django.utils import timezone

    from tournament.models import TableCall, TieSettlement

    now = now or timezone.now()
    levels = tuple(Level.objects.filter(tournament=tournament).order_by("number"))
    players = Player.objects.filter(tournament=tournament, withdrawn_at__isnull=True).count()
    level = levels[-1] if levels else None
    rows = ()
    if level is not None:
        level.tournament = tournament
        last_hand = Hand.objects.filter(table=OuterRef("pk")).order_by("-number")
        tables = (
            Table.objects.current()
            .filter(level=level)
            .select_related("draw", "winner")
            .annotate(last_entry_at=Subquery(last_hand.values("created_at")[:1]))
            .prefetch_related(
                Prefetch("seats", queryset=_seats_with_players()),
                Prefetch(
                    "calls",
                    queryset=TableCall.objects.filter(cleared_at__isnull=True),
                    to_attr="open_calls",
                ),
                Prefetch(
                    "tie_settlements",
                    queryset=TieSettlement.objects.order_by("-id"),
                    to_attr="settlements",
                ),
            )
            .order_by("number")
        )
        found = []
        for table in tables:
            table.level = level
            found.append(_dashboard_table(table, tournament, now))
        rows = tuple(sorted(found, key=_dashboard_order))
    return Dashboard(
        levels=levels,
        level=level,
        tables=rows,
        players=players,
        finished=sum(1 for r in rows if r.is_over),
        calls=sum(1 for r in rows if r.call is not None),
        ties=sum(1 for r in rows if r.tied),
        silent=sum(1 for r in rows if r.silent),
    )


# ---------------------------------------------------------------- TD: exports


def tournament_hand_results(tournament):
    """Every player's line of every current hand version of the tournament, for the hands
    CSV: 1 query at any size.

    In the order played (level, table, hand, seat), each with its version (and who
    entered it), hand, table, level, seat and player, and `dealer_name`: the player
    who dealt the hand (the dealer always plays the hand, so is among its lines).
    """
    results = list(
        HandResult.objects.filter(
            version__hand__table__level__tournament=tournament,
            version__hand__table__draw__superseded_at__isnull=True,
            version__superseded_at__isnull=True,
        )
        .select_related("version__hand__table__level", "version__created_by", "seat__player")
        .order_by(
            "version__hand__table__level__number",
            "version__hand__table__number",
            "version__hand__number",
            "seat__position",
        )
    )
    names = {(r.version_id, r.seat.position): r.seat.player.name for r in results}
    for result in results:
        hand = result.version.hand
        result.dealer_name = names.get((result.version_id, hand.dealer_position), "")
    return results


# ---------------------------------------------------------------- the audit log

# The kinds of action the audit log can be narrowed to: the part of `AuditEntry.action`
# before the dot ("hand.record", "penalty.give", ...).
AUDIT_KINDS = ("hand", "penalty", "draw", "tie", "player", "tournament", "table")


def audit_tables(tournament):
    """(level number, table number) of every table the tournament has drawn: 1 query."""
    return list(
        Table.objects.filter(level__tournament=tournament)
        .order_by("level__number", "number")
        .values_list("level__number", "number")
        .distinct()
    )


def _audit_table_q(level, number):
    """Entries about table `number` of `level`.

    Hands, corrections, ties, calls and revisor access name the table in their summary
    ("Level 2 table 7: ..." or "Level 2 table 7 calls the TD"). Penalties name only the
    table number (in `after`), and are given while their level is the open one.
    """
    from django.db.models import Q

    prefix = f"Level {level.number} table {number}"
    by_summary = Q(summary__startswith=prefix + ":") | Q(summary__startswith=prefix + " ")
    penalty = Q(action__startswith="penalty.", after__table=number, at__gte=level.created_at)
    if level.closed_at is not None:
        penalty &= Q(at__lte=level.closed_at)
    return by_summary | penalty


def audit_entries(tournament, *, table=None, player=None, kind=None):
    """The tournament's audit entries, newest first, as a lazy queryset to paginate.

    `table`: (level number, table number); `player`: a Player of the tournament (the
    entries that name them, and the hands of every table they sat at); `kind`: one of
    AUDIT_KINDS. A filter costs at most 2 queries before the entries' own.
    """
    from django.db.models import Q

    from tournament.models import AuditEntry

    entries = AuditEntry.objects.filter(tournament=tournament).order_by("-at", "-id")
    if kind:
        entries = entries.filter(action__startswith=f"{kind}.")
    if table is not None:
        level_number, number = table
        level = Level.objects.filter(tournament=tournament, number=level_number).first()
        if level is None:
            return entries.none()
        entries = entries.filter(_audit_table_q(level, number))
    if player is not None:
        # Named in the summary, but not as part of a longer name ("Anna Berg 2").
        named = Q(summary__contains=player.name)
        others = Player.objects.filter(tournament=tournament, name__contains=player.name)
        for longer in others.exclude(pk=player.pk).values_list("name", flat=True):
            named &= ~Q(summary__contains=longer)
        levels = {}
        for seat in (
            Seat.objects.filter(player=player)
            .select_related("table__level")
            .order_by("table__level__number", "table__number")
        ):
            levels.setdefault(seat.table.level.pk, (seat.table.level, set()))[1].add(
                seat.table.number
            )
        hands = Q(pk__in=[])
        for level, numbers in levels.values():
            for number in sorted(numbers):
                prefix = f"Level {level.number} table {number}:"
                hands |= Q(summary__startswith=prefix)
        entries = entries.filter(named | (Q(action__startswith="hand.") & hands))
    return entries
