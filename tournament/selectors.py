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


# ---------------------------------------------------------------- the TD's table page (score card)


@dataclass(frozen=True)
class CardView:
    """One card as shown: "Q♠", and its suit's name for the colour ("hearts" is red)."""

    text: str
    suit: str

    @property
    def red(self):
        return self.suit in ("hearts", "diamonds")


def _category_labels():
    from django.utils.translation import gettext_lazy as _

    return {
        "high_card": _("high card"),
        "pair": _("pair"),
        "two_pair": _("two pair"),
        "three_of_a_kind": _("three of a kind"),
        "straight": _("straight"),
        "flush": _("flush"),
        "full_house": _("full house"),
        "four_of_a_kind": _("four of a kind"),
        "straight_flush": _("straight flush"),
        "royal_flush": _("royal flush"),
    }


def _row_labels():
    from django.utils.translation import gettext_lazy as _

    return {"front": _("Front"), "middle": _("Middle"), "back": _("Back")}


@dataclass(frozen=True)
class RowView:
    """One row of a player's board in a hand entered as cards."""

    name: str  # "front", "middle", "back"
    cards: tuple  # CardView
    category: str  # "pair", "full_house"... ("" when not known)
    royalty: int

    @property
    def label(self):
        return _row_labels().get(self.name, self.name)

    @property
    def category_label(self):
        return _category_labels().get(self.category, "")


@dataclass(frozen=True)
class ScoreCell:
    """One player's line of one hand (or of a penalty) on the score card."""

    seat: Seat
    played: bool  # False: the player was not at the table for this hand (he had left)
    points: int | None = None
    running_total: int | None = None
    in_fantasyland: bool = False  # played this hand in Fantasyland
    fantasyland_next: bool = False  # goes to (or stays in) Fantasyland after it
    fouled: bool | None = None
    royalties: int | None = None
    rows: tuple = ()  # RowView, for a hand entered as cards


@dataclass(frozen=True)
class VersionCell:
    seat: Seat
    points: int
    fantasyland_next: bool
    fouled: bool | None


@dataclass(frozen=True)
class VersionView:
    """One version of a hand, for its history: who entered it, when, why, and its points."""

    version: int
    mode: str
    created_at: object
    entered_by: str  # the user's name, or the revisor's label
    reason: str
    current: bool
    cells: tuple  # VersionCell, in seat order


@dataclass(frozen=True)
class HandLine:
    """One hand on the score card: its current version, and every version for the history."""

    number: int
    hand: Hand
    dealer: Seat | None
    version: int
    mode: str
    entered_by: str
    created_at: object
    cells: tuple  # ScoreCell, one per seat, in seat order
    versions: tuple  # VersionView, oldest first

    kind = "hand"

    @property
    def corrected(self):
        return self.version > 1

    @property
    def has_cards(self):
        return self.mode == HandVersion.Mode.CARDS


@dataclass(frozen=True)
class PenaltyLine:
    """A penalty that counts, on the score card after the hand it was given after."""

    penalty: Penalty
    cells: tuple  # ScoreCell, one per seat (only the penalised player's has points)

    kind = "penalty"

    @property
    def disqualifies(self):
        from tournament.services.recompute import DISQUALIFYING_WARNING

        return self.penalty.warning_number == DISQUALIFYING_WARNING


@dataclass(frozen=True)
class SeatTotal:
    seat: Seat
    hand_points: int
    penalty_points: int
    total: int
    place: int | None
    active: bool  # still plays at this table
    in_fantasyland_next: bool
    leads: bool


@dataclass(frozen=True)
class ScoreCard:
    """Everything the score card shows (the TD's table page, the revisor's card)."""

    table: Table
    tournament: Tournament
    seats: list  # Seat with player, in seat order
    state: object  # tournament.table_state.TableState
    lines: list  # HandLine and PenaltyLine, in the order they happened
    totals: list  # SeatTotal, in seat order
    penalties: list  # every penalty of the table's players in the tournament (any table)
    open_call: object  # TableCall or None
    settlement: object  # the TieSettlement that decided the table, or None

    @property
    def hands(self):
        return [line for line in self.lines if line.kind == "hand"]

    @property
    def hands_played(self):
        return self.state.hands_played

    @property
    def required_hands(self):
        return self.state.required_hands

    @property
    def min_hands(self):
        return self.tournament.min_hands

    @property
    def fantasyland_hands(self):
        return self.state.required_hands - self.tournament.min_hands

    @property
    def next_hand(self):
        return self.state.hands_played + 1

    @property
    def redrawn(self):
        return self.table.draw.superseded_at is not None

    @property
    def closed(self):
        return self.table.level.closed_at is not None

    @property
    def in_play(self):
        """Its results can still change: the table's draw is current and its level open."""
        return not self.redrawn and not self.closed

    @property
    def accepts_hands(self):
        return self.in_play and not self.state.is_over

    def _seat(self, seat_id):
        return next((s for s in self.seats if s.id == seat_id), None)

    @property
    def active_seats(self):
        return [s for s in self.seats if s.id in self.state.active_seat_ids]

    @property
    def next_dealer(self):
        position = self.state.next_dealer_position
        return next((s for s in self.seats if s.position == position), None)

    @property
    def next_fantasyland(self):
        """The seats that play the next hand in Fantasyland."""
        return [s for s in self.active_seats if self.state.in_fantasyland.get(s.id)]

    @property
    def winner(self):
        return self._seat(self.state.winner_seat_id)

    @property
    def tied_leaders(self):
        return [s for s in self.seats if s.id in self.state.tied_leader_ids]

    @property
    def tied_names(self):
        return [s.player.name for s in self.tied_leaders]

    @property
    def next_fantasyland_names(self):
        return [s.player.name for s in self.next_fantasyland]

    @property
    def winner_total(self):
        winner = self.state.winner_seat_id
        return self.state.totals[winner] if winner is not None else None

    @property
    def tied_total(self):
        tied = self.state.tied_leader_ids
        return self.state.totals[tied[0]] if tied else None

    @property
    def columns(self):
        """Table columns of the card: hand, dealer, two per player, actions."""
        return 3 + 2 * len(self.seats)


_SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


def card_views(text):
    """Stored card codes ("Qs Qh 7d") as CardViews ("Q♠" black, "Q♥" red...)."""
    from scoring.cards import card_suit, format_card, parse_card

    views = []
    for token in (text or "").split():
        card = parse_card(token)
        if card is None:  # stored codes are checked; keep anything else as it is
            views.append(CardView(token, ""))
        else:
            views.append(CardView(format_card(card), _SUIT_NAMES[card_suit(card)]))
    return tuple(views)


def _entered_by(version):
    if version.created_by_id is not None:
        return version.created_by.get_username()
    return version.entered_by_label


def _rows_of(result):
    detail = result.detail or {}
    categories = detail.get("categories") or {}
    royalties = detail.get("row_royalties") or {}
    return tuple(
        RowView(
            name=row,
            cards=card_views(getattr(result, row)),
            category=categories.get(row) or "",
            royalty=royalties.get(row) or 0,
        )
        for row in ("front", "middle", "back")
    )


def score_card(table):
    """A table's whole score card (`table.level.tournament` and `table.draw` loaded): 6 queries.

    Seats with players, the deciding tie settlement, every version of every hand
    (with who entered it), their results, the penalties of the table's players,
    and the open call: the same 6 at any length of the table. Running totals
    include the penalties deducted here, each after the hand it was given after,
    so that the last running total is the seat's total.
    """
    from tournament.models import TableCall, TieSettlement
    from tournament.state import cached_progress, conclude_table

    tournament = table.level.tournament
    seats = list(Seat.objects.filter(table=table).select_related("player").order_by("position"))
    settlement = (
        TieSettlement.objects.filter(table=table).select_related("winner", "created_by").last()
    )
    settled_seat = next(
        (s.id for s in seats if settlement and s.player_id == settlement.winner_id), None
    )
    progress = cached_progress(table, seats)
    penalty_points = {s.id: s.penalty_points for s in seats}
    state = conclude_table(table, seats, progress, penalty_points, None)
    if settled_seat is not None and settled_seat in state.tied_leader_ids:
        state = conclude_table(table, seats, progress, penalty_points, settled_seat)
    else:
        settlement = None  # no tie for it to settle (any more): it decides nothing
    versions = list(
        HandVersion.objects.filter(hand__table=table)
        .select_related("hand", "created_by")
        .order_by("hand__number", "version")
    )
    results = {}
    for result in HandResult.objects.filter(version__hand__table=table).order_by():
        results.setdefault(result.version_id, {})[result.seat_id] = result
    player_ids = [s.player_id for s in seats]
    penalties = list(
        Penalty.objects.filter(player_id__in=player_ids)
        .select_related("player", "table__level", "created_by", "rescinded_by")
        .order_by("created_at", "id")
    )
    open_call = TableCall.objects.filter(table=table, cleared_at__isnull=True).first()

    by_hand = {}
    for version in versions:
        by_hand.setdefault(version.hand.number, []).append(version)
    by_position = {s.position: s for s in seats}
    seat_by_player = {s.player_id: s for s in seats}
    here = {}  # after hand -> the penalties deducted at this table that count
    for penalty in penalties:
        if penalty.table_id == table.pk and penalty.rescinded_at is None:
            here.setdefault(penalty.after_hand, []).append(penalty)

    running = {s.id: 0 for s in seats}
    lines = []

    def penalty_lines(after):
        for penalty in here.get(after, ()):
            penalised = seat_by_player[penalty.player_id]
            running[penalised.id] -= penalty.points
            lines.append(
                PenaltyLine(
                    penalty=penalty,
                    cells=tuple(
                        ScoreCell(
                            seat=s,
                            played=s.id == penalised.id,
                            points=-penalty.points if s.id == penalised.id else None,
                            running_total=running[s.id],
                        )
                        for s in seats
                    ),
                )
            )

    penalty_lines(0)
    for number in sorted(by_hand):
        all_versions = by_hand[number]
        current = next((v for v in all_versions if v.superseded_at is None), all_versions[-1])
        current_results = results.get(current.pk, {})
        cells = []
        for seat in seats:
            result = current_results.get(seat.id)
            if result is None:
                cells.append(ScoreCell(seat=seat, played=False, running_total=running[seat.id]))
                continue
            running[seat.id] += result.points
            cells.append(
                ScoreCell(
                    seat=seat,
                    played=True,
                    points=result.points,
                    running_total=running[seat.id],
                    in_fantasyland=result.in_fantasyland,
                    fantasyland_next=result.fantasyland_next,
                    fouled=result.fouled,
                    royalties=result.royalties,
                    rows=_rows_of(result) if current.mode == HandVersion.Mode.CARDS else (),
                )
            )
        history = tuple(
            VersionView(
                version=v.version,
                mode=v.mode,
                created_at=v.created_at,
                entered_by=_entered_by(v),
                reason=v.reason,
                current=v.pk == current.pk,
                cells=tuple(
                    VersionCell(s, r.points, r.fantasyland_next, r.fouled)
                    for s in seats
                    if (r := results.get(v.pk, {}).get(s.id)) is not None
                ),
            )
            for v in all_versions
        )
        lines.append(
            HandLine(
                number=number,
                hand=current.hand,
                dealer=by_position.get(current.hand.dealer_position),
                version=current.version,
                mode=current.mode,
                entered_by=_entered_by(current),
                created_at=current.created_at,
                cells=tuple(cells),
                versions=history,
            )
        )
        penalty_lines(number)
    # Penalties recorded after more hands than the card holds (none, unless the data is odd).
    for after in sorted(a for a in here if a > (max(by_hand) if by_hand else 0)):
        penalty_lines(after)

    best = max((state.totals[sid] for sid in state.active_seat_ids), default=None)
    totals = [
        SeatTotal(
            seat=s,
            hand_points=state.hand_points[s.id],
            penalty_points=state.penalty_points[s.id],
            total=state.totals[s.id],
            place=state.places.get(s.id),
            active=s.id in state.active_seat_ids,
            in_fantasyland_next=bool(state.in_fantasyland.get(s.id)),
            leads=s.id in state.active_seat_ids and state.totals[s.id] == best,
        )
        for s in seats
    ]
    return ScoreCard(
        table=table,
        tournament=tournament,
        seats=seats,
        state=state,
        lines=lines,
        totals=totals,
        penalties=penalties,
        open_call=open_call,
        settlement=settlement,
    )


@dataclass(frozen=True)
class PenaltyCost:
    """What a penalty would cost if given now: stated to the TD before it is given."""

    warning_number: int  # 1st, 2nd, 3rd warning of the player in the tournament
    points: int  # deducted from his total at his table
    disqualifies: bool
    table: Table | None  # where the points come off (None: at no table, no points)


def penalty_cost(player, kind):
    """The cost of giving `player` a penalty of `kind` now: 2 queries.

    The player's warnings that count (not rescinded) across the tournament give
    the number of this one; the price is the service's own (recompute.warning_points).
    """
    from tournament.services.recompute import DISQUALIFYING_WARNING, warning_points

    number = Penalty.objects.standing().filter(player=player).count() + 1
    seat = Seat.objects.open().filter(player=player).select_related("table").first()
    table = seat.table if seat is not None else None
    return PenaltyCost(
        warning_number=number,
        points=warning_points(kind, number) if table is not None else 0,
        disqualifies=number >= DISQUALIFYING_WARNING,
        table=table,
    )


# ---------------------------------------------------------------- public pages (/t/...)
# Players' phones and the big screen: read-only, for a room of 300 polling at once. Each
# reads what its page shows in a fixed number of queries whatever the tournament's size,
# mostly from the caches the services keep on tables and seats (totals, places, hands
# played and required, Fantasyland, winner), never walking a table's history.


def _open_tables_revision():
    """The sum of the revisions of a tournament's open tables (`revision_token`'s part)."""
    return (
        Table.objects.filter(level__tournament_id=OuterRef("pk"), level__closed_at__isnull=True)
        .order_by()
        .values("level__tournament_id")
        .annotate(total=Sum("revision"))
        .values("total")
    )


def public_tournament(tournament_id):
    """The tournament with its champion and its revision token (`.token`, the same as
    `revision_token`), read together in 1 query: the token is never newer than what the
    page then reads. None when there is no such tournament."""
    tournament = (
        Tournament.objects.select_related("champion")
        .annotate(open_tables_revision=Coalesce(Subquery(_open_tables_revision()), 0))
        .filter(pk=tournament_id)
        .first()
    )
    if tournament is not None:
        tournament.token = f"{tournament.revision}.{tournament.open_tables_revision}"
    return tournament


def public_table_token(tournament_id, table_id):
    """What a public score card polls: the tournament's own revision (penalties, renames)
    and the table's (its hands), in 1 indexed query; None for a table not of the tournament.
    Hands at other tables leave it alone."""
    row = (
        Table.objects.filter(pk=table_id, level__tournament_id=tournament_id)
        .values_list("level__tournament__revision", "revision")
        .first()
    )
    return None if row is None else f"{row[0]}.{row[1]}"


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


@dataclass(frozen=True)
class PublicTable:
    pk: int
    number: int
    seats: tuple  # PublicSeat, in seat order
    hands_played: int
    required_hands: int
    is_over: bool
    winner: object  # PublicName or None
    tied: bool  # the required hands are played and players are tied for first: plays on

    @property
    def started(self):
        return self.hands_played > 0

    @property
    def fantasyland(self):
        """Players who play the next hand in Fantasyland."""
        return tuple(s.player for s in self.seats if s.in_fantasyland)


@dataclass(frozen=True)
class PublicLevel:
    levels: tuple  # every Level of the tournament, in order
    level: object  # the Level shown (the current, last one by default), None before the draw
    tables: tuple  # PublicTable, by number

    @property
    def is_current(self):
        return self.level is not None and self.level == self.levels[-1]

    @property
    def closed(self):
        return self.level is not None and self.level.closed_at is not None

    @property
    def over(self):
        return tuple(t for t in self.tables if t.is_over)

    @property
    def playing(self):
        return tuple(t for t in self.tables if not t.is_over)

    @property
    def advanced(self):
        """The winners of the finished tables, by table number."""
        return tuple(t.winner for t in self.tables if t.is_over and t.winner is not None)

    @property
    def players(self):
        return sum(len(t.seats) for t in self.tables)

    @property
    def in_fantasyland(self):
        return sum(len(t.fantasyland) for t in self.tables)


_PUBLIC_SEAT_FIELDS = (
    "table_id",
    "table__number",
    "table__hands_played",
    "table__required_hands",
    "table__is_over",
    "table__winner_id",
    "position",
    "total",
    "place",
    "in_fantasyland",
    "left_after_hand",
    "player_id",
    "player__name",
    "player__disqualified",
)


def _public_table(row, seat_rows, level_open):
    """One table from its seats' rows (`_PUBLIC_SEAT_FIELDS`), in seat order."""
    _, number, played, required, over, winner_id = row[:6]

    def playing(seat):
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


def public_level(tournament, number=None):
    """A level's tables, players and totals from the caches: 2 queries at any size.

    `number` picks an earlier level; None (or a level that does not exist) the current
    one. Rows are read as plain values, not model instances: a level of 300 players is
    read and laid out in a few milliseconds.
    """
    levels = tuple(Level.objects.filter(tournament=tournament).order_by("number"))
    level = next((lv for lv in levels if lv.number == number), levels[-1] if levels else None)
    if level is None:
        return PublicLevel(levels=levels, level=None, tables=())
    rows = (
        Seat.objects.filter(draw__level=level, draw__superseded_at__isnull=True)
        .order_by("table__number", "position")
        .values_list(*_PUBLIC_SEAT_FIELDS)
    )
    by_table = {}
    for row in rows:
        by_table.setdefault(row[0], []).append(row)
    level_open = level.closed_at is None
    tables = tuple(
        _public_table(seat_rows[0], seat_rows, level_open) for seat_rows in by_table.values()
    )
    return PublicLevel(levels=levels, level=level, tables=tables)


@dataclass(frozen=True)
class PublicPosition:
    """Where one player is: his seat in the latest level he plays, or how he went out."""

    player: Player
    standing: object  # Standing, or None for a withdrawn player
    seat: object  # his Seat (table and level loaded) in the latest level he was drawn into
    status: str  # "registered", "seated", "waiting", "out", "champion", "disqualified"

    @property
    def table(self):
        return self.seat.table if self.seat is not None else None

    @property
    def level_number(self):
        return self.seat.table.level.number if self.seat is not None else None

    @property
    def seat_number(self):
        return self.seat.position + 1 if self.seat is not None else None


def _position(player, standing, seat, tournament):
    if standing is not None and standing.status == "champion":
        status = "champion"
    elif player.disqualified:
        status = "disqualified"
    elif seat is None:
        status = "registered"
    elif standing is not None and standing.status == "out":
        status = "out"
    elif seat.table.is_over and tournament.finished_at is None:
        status = "waiting"  # won his table: drawn again when every table of the level is over
    else:
        status = "seated"
    return PublicPosition(player=player, standing=standing, seat=seat, status=status)


def _latest_seats(player_ids):
    """Each player's seat in the latest level of a current draw: 1 query."""
    latest = {}
    for seat in (
        Seat.objects.current()
        .filter(player_id__in=player_ids)
        .select_related("table__level")
        .order_by("table__level__number")
    ):
        latest[seat.player_id] = seat
    return latest


@dataclass(frozen=True)
class PublicSearch:
    query: str
    found: tuple  # PublicPosition, best matches first, at most search.MAX_RESULTS
    more: bool  # more players matched than are listed


def public_find(tournament, query, *, ranking=None):
    """Where do I sit? The players whose name holds what was typed (accents optional),
    each with his table and seat or how he went out: 4 queries at any size.

    `ranking` is the tournament's `standings` when the caller has them already (then 1
    query: the seats of the players found).
    """
    from tournament.search import MAX_RESULTS, search

    rows = standings(tournament) if ranking is None else ranking
    matches = search(query, rows, name=lambda row: row.player.name)
    shown = matches[:MAX_RESULTS]
    seats = _latest_seats([row.player.pk for row in shown]) if shown else {}
    return PublicSearch(
        query=query,
        found=tuple(
            _position(row.player, row, seats.get(row.player.pk), tournament) for row in shown
        ),
        more=len(matches) > len(shown),
    )


@dataclass(frozen=True)
class PublicPlayer:
    position: PublicPosition
    seats: tuple  # his Seats, level by level (table and level loaded)
    penalties: tuple  # his Penalties, in the order given (table and level loaded)

    @property
    def player(self):
        return self.position.player

    @property
    def warnings(self):
        """Warnings that count (not rescinded)."""
        return sum(1 for p in self.penalties if p.rescinded_at is None)

    @property
    def points_deducted(self):
        return sum(p.points for p in self.penalties if p.rescinded_at is None)


def public_player(tournament, player_id, *, ranking=None):
    """A player's tables level by level (table, place, points), his warnings and penalties
    and where he stands: 6 queries at any size (3 when `ranking`, the tournament's
    `standings`, is given). None when he is not of the tournament."""
    player = Player.objects.filter(pk=player_id, tournament=tournament).first()
    if player is None:
        return None
    seats = tuple(
        Seat.objects.current()
        .filter(player=player)
        .select_related("table__level")
        .order_by("table__level__number")
    )
    penalties = tuple(
        Penalty.objects.filter(player=player)
        .select_related("table__level")
        .order_by("created_at", "id")
    )
    rows = standings(tournament) if ranking is None else ranking
    standing = next((row for row in rows if row.player.pk == player.pk), None)
    if standing is not None:
        player = standing.player
    return PublicPlayer(
        position=_position(player, standing, seats[-1] if seats else None, tournament),
        seats=seats,
        penalties=penalties,
    )
