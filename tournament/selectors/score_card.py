"""A table's full score card (TD and public pages): every hand, version, penalty and total."""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Model, QuerySet
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.cards import card_suit, format_card, parse_card
from tournament.audit.sentences import actor_name
from tournament.lib.text import longest_unbroken
from tournament.models import (
    Hand,
    HandResult,
    HandVersion,
    Penalty,
    Seat,
    Table,
    TableCall,
    TieSettlement,
    Tournament,
)
from tournament.rules.table_fold import TableState
from tournament.rules.warnings import DISQUALIFYING_WARNING
from tournament.selectors.tables import alone_in_draw
from tournament.selectors.td_words import blank_td_words, without_td_words
from tournament.tables.state import cached_progress, conclude_table


@dataclass(frozen=True)
class CardView:
    """One card as shown: "Q♠", and its suit's name for the colour ("hearts" is red)."""

    text: str
    suit: str

    @property
    def red(self) -> bool:
        return self.suit in ("hearts", "diamonds")


def _category_labels() -> dict[str, Promise]:
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


def _row_labels() -> dict[str, Promise]:
    return {"front": _("Front"), "middle": _("Middle"), "back": _("Back")}


@dataclass(frozen=True)
class RowView:
    """One row of a player's board in a hand entered as cards."""

    name: str  # "front", "middle", "back"
    cards: tuple[CardView, ...]
    category: str  # "pair", "full_house"... ("" when not known)
    royalty: int

    @property
    def label(self) -> str | Promise:
        return _row_labels().get(self.name, self.name)

    @property
    def category_label(self) -> str | Promise:
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
    rows: tuple[RowView, ...] = ()  # for a hand entered as cards


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
    created_at: datetime
    entered_by: str  # the user's name, or the revisor's label
    reason: str
    current: bool
    cells: tuple[VersionCell, ...]  # in seat order


@dataclass(frozen=True)
class HandLine:
    """One hand on the score card: its current version, and every version for the history."""

    number: int
    hand: Hand
    dealer: Seat | None
    version: int
    mode: str
    entered_by: str
    created_at: datetime
    cells: tuple[ScoreCell, ...]  # one per seat, in seat order
    versions: tuple[VersionView, ...]  # oldest first

    kind = "hand"

    @property
    def corrected(self) -> bool:
        return self.version > 1

    @property
    def has_cards(self) -> bool:
        return self.mode == HandVersion.Mode.CARDS


@dataclass(frozen=True)
class PenaltyLine:
    """A penalty that counts, on the score card after the hand it was given after."""

    penalty: Penalty
    cells: tuple[ScoreCell, ...]  # one per seat (only the penalised player's has points)

    kind = "penalty"

    @property
    def disqualifies(self) -> bool:
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
    seats: list[Seat]  # with player, in seat order
    state: TableState
    lines: list[HandLine | PenaltyLine]  # in the order they happened
    totals: list[SeatTotal]  # in seat order
    penalties: list[Penalty]  # every one of the table's players in the tournament (any table)
    open_call: TableCall | None
    settlement: TieSettlement | None  # the one that decided the table
    # The seats tied for first once the required hands are played, whether the TD has
    # settled the tie (`settlement`) or not (`state.tied_leader_ids`): a settled tie can
    # be decided again while the level is open.
    tie_seat_ids: tuple[int, ...] = ()

    @property
    def hands(self) -> list[HandLine]:
        return [line for line in self.lines if isinstance(line, HandLine)]

    @property
    def hands_played(self) -> int:
        return self.state.hands_played

    @property
    def required_hands(self) -> int:
        return self.state.required_hands

    @property
    def min_hands(self) -> int:
        return self.tournament.min_hands

    @property
    def fantasyland_hands(self) -> int:
        return self.state.required_hands - self.tournament.min_hands

    @property
    def next_hand(self) -> int:
        return self.state.hands_played + 1

    @property
    def redrawn(self) -> bool:
        return self.table.draw.superseded_at is not None

    @property
    def closed(self) -> bool:
        return self.table.level.closed_at is not None

    @property
    def in_play(self) -> bool:
        """Its results can still change: the table's draw is current and its level open."""
        return not self.redrawn and not self.closed

    @property
    def accepts_hands(self) -> bool:
        return self.in_play and not self.state.is_over

    def _seat(self, seat_id: int | None) -> Seat | None:
        return next((s for s in self.seats if s.id == seat_id), None)

    @property
    def active_seats(self) -> list[Seat]:
        return [s for s in self.seats if s.id in self.state.active_seat_ids]

    @property
    def next_dealer(self) -> Seat | None:
        position = self.state.next_dealer_position
        return next((s for s in self.seats if s.position == position), None)

    @property
    def next_fantasyland(self) -> list[Seat]:
        """The seats that play the next hand in Fantasyland."""
        return [s for s in self.active_seats if self.state.in_fantasyland.get(s.id)]

    @property
    def winner(self) -> Seat | None:
        return self._seat(self.state.winner_seat_id)

    @property
    def final(self) -> bool:
        """The only table of its level: its winner is the champion, and advances nowhere."""
        # `alone_in_draw`: annotated on the seats by `score_card`.
        return bool(self.seats) and self.seats[0].alone_in_draw  # type: ignore[attr-defined]

    @property
    def tied_leaders(self) -> list[Seat]:
        return [s for s in self.seats if s.id in self.state.tied_leader_ids]

    @property
    def tie_leaders(self) -> list[Seat]:
        """The players of the tie for first, settled or not (`tied_leaders`: not yet)."""
        return [s for s in self.seats if s.id in self.tie_seat_ids]

    @property
    def tied_names(self) -> list[str]:
        return [s.player.name for s in self.tied_leaders]

    @property
    def next_fantasyland_names(self) -> list[str]:
        return [s.player.name for s in self.next_fantasyland]

    @property
    def winner_total(self) -> int | None:
        winner = self.state.winner_seat_id
        return self.state.totals[winner] if winner is not None else None

    @property
    def tied_total(self) -> int | None:
        """The tied leaders' total (the tie settled or not)."""
        tied = self.tie_seat_ids
        return self.state.totals[tied[0]] if tied else None

    @property
    def columns(self) -> int:
        """Table columns of the TD's card: hand, two per player, the "Correct" links."""
        return 2 + 2 * len(self.seats)

    @property
    def public_columns(self) -> int:
        """Table columns of the players' card: hand, two per player."""
        return 1 + 2 * len(self.seats)

    @property
    def longest_name_part(self) -> int:
        """The letters of the longest piece of a player's name that a line may not break
        (`text.longest_unbroken`), at most NAME_PART_MAX: the players' card sets the type of
        its headers by it, so that a name breaks at its spaces and hyphens only."""
        longest = max((longest_unbroken(s.player.name) for s in self.seats), default=0)
        return min(longest, NAME_PART_MAX)


_SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
# The longest piece of a name the players' card sizes its headers for (static/css/
# score-card.css has a rule per length up to it); a longer one breaks where it must.
NAME_PART_MAX = 20


def card_views(text: str | None) -> tuple[CardView, ...]:
    """Stored card codes ("Qs Qh 7d") as CardViews ("Q♠" black, "Q♥" red...)."""
    views: list[CardView] = []
    for token in (text or "").split():
        card = parse_card(token)
        if card is None:  # stored codes are checked; keep anything else as it is
            views.append(CardView(token, ""))
        else:
            views.append(CardView(format_card(card), _SUIT_NAMES[card_suit(card)]))
    return tuple(views)


def _entered_by(version: HandVersion) -> str:
    if version.created_by_id is not None and version.created_by is not None:
        return version.created_by.get_username()
    return actor_name(version.entered_by_label)


def _rows_of(result: HandResult) -> tuple[RowView, ...]:
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


def score_card(table: Table, *, public: bool = False) -> ScoreCard:
    """A table's whole score card (`table.level.tournament` and `table.draw` loaded): 5
    queries, 6 while its lead is tied.

    Seats with players, the deciding tie settlement (read only while the lead is tied),
    every version of every hand (with who entered it), their results, the penalties of
    the table's players, and the open call: the same number at any length of the table.
    Running totals include the penalties deducted here, each after the hand it was given
    after, so that the last running total is the seat's total.

    `public`: for the players' pages, without the TD's words (TD_WORDS), which are not
    even read.
    """

    def read[M: Model](queryset: QuerySet[M]) -> QuerySet[M]:
        return without_td_words(queryset) if public else queryset

    def hide[T: Iterable[Model | None]](objects: T) -> T:
        return blank_td_words(objects) if public else objects

    tournament = table.level.tournament
    seats = list(
        Seat.objects.filter(table=table)
        .annotate(alone_in_draw=alone_in_draw())
        .select_related("player")
        .order_by("position")
    )
    for seat in seats:
        seat.table = table  # whose row holds the seats' standings (`seat.total`)
    progress = cached_progress(table, seats)
    penalty_points = {s.id: s.penalty_points for s in seats}
    state = conclude_table(table, seats, progress, penalty_points, None)
    settlement = None
    tie_seat_ids = state.tied_leader_ids
    if state.tied_leader_ids:
        # Read only while the lead is tied, the one place where it decides anything (as
        # `state.concluded` reads it): a card rendered after each hand is a query lighter.
        settlement = read(
            TieSettlement.objects.filter(table=table).select_related("winner", "created_by")
        ).last()
        hide([settlement])
        settled_seat = next(
            (s.id for s in seats if settlement and s.player_id == settlement.winner_id), None
        )
        if settled_seat is not None and settled_seat in state.tied_leader_ids:
            state = conclude_table(table, seats, progress, penalty_points, settled_seat)
        else:
            settlement = None  # no tie for it to settle (any more): it decides nothing
    versions = hide(
        list(
            read(HandVersion.objects.filter(hand__table=table))
            .select_related("hand", "created_by")
            .order_by("hand__number", "version")
        )
    )
    results: dict[int, dict[int, HandResult]] = {}
    for stored in HandResult.objects.filter(version__hand__table=table).order_by():
        results.setdefault(stored.version_id, {})[stored.seat_id] = stored
    player_ids = [s.player_id for s in seats]
    penalties = hide(
        list(
            read(Penalty.objects.filter(player_id__in=player_ids))
            .select_related("player", "table__level", "created_by", "rescinded_by")
            .order_by("created_at", "id")
        )
    )
    open_call = read(
        TableCall.objects.filter(table=table, cleared_at__isnull=True).select_related("player")
    ).first()
    hide([open_call])

    by_hand: dict[int, list[HandVersion]] = {}
    for version in versions:
        by_hand.setdefault(version.hand.number, []).append(version)
    by_position: dict[int | None, Seat] = {s.position: s for s in seats}

    seat_by_player = {s.player_id: s for s in seats}
    here: dict[int, list[Penalty]] = {}  # after hand -> those deducted at this table that count
    for penalty in penalties:
        if penalty.table_id == table.pk and penalty.rescinded_at is None:
            here.setdefault(penalty.after_hand, []).append(penalty)

    running = {s.id: 0 for s in seats}
    lines: list[HandLine | PenaltyLine] = []

    def penalty_lines(after: int) -> None:
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
        cells: list[ScoreCell] = []
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
        tie_seat_ids=tie_seat_ids,
    )
