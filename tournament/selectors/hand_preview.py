"""A hand scored before it is recorded (the revisor's check step, and a fix's): each
player's rows, royalties, points and Fantasyland, then what each pair settles; and a fix
by points read back beside what it replaces.

Nothing is written: the rules are `scoring`'s (`score_hand` for the players,
`settle_pair` for each pair's breakdown); this module only names and orders them.
"""

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring import Rules, parse_boards, score_hand
from scoring.boards import ROWS
from scoring.settle import RowValues, evaluate_board, settle_pair
from tournament.models import Seat, Table
from tournament.selectors.card import Card
from tournament.selectors.hands import LastHand
from tournament.selectors.score_card import RowView, card_views
from tournament.services.hands import scoring_board
from tournament.tables.state import history_state

# One player's board as typed: {"front": "Qs Qh 7d", "middle": ..., "back": ...}.
type BoardText = Mapping[str, str]

ROW_LABELS = {
    "front": gettext_lazy("Front"),
    "middle": gettext_lazy("Middle"),
    "back": gettext_lazy("Back"),
}


@dataclass(frozen=True)
class PlayerPreview:
    """One player's scored board."""

    position: int
    name: str
    points: int
    fouled: bool
    royalties: int
    rows: tuple[RowView, ...]  # cards, category, royalty
    in_fantasyland: bool  # played this hand in Fantasyland
    fantasyland_next: bool  # plays the next hand in Fantasyland
    # A fix of a recorded hand: the points and Fantasyland of the version it replaces.
    was: int | None = None
    was_fantasyland_next: bool | None = None

    @property
    def no_longer_goes_to_fantasyland(self) -> bool:
        return bool(self.was_fantasyland_next) and not self.fantasyland_next

    @property
    def stays_in_fantasyland(self) -> bool:
        return self.in_fantasyland and self.fantasyland_next

    @property
    def goes_to_fantasyland(self) -> bool:
        return self.fantasyland_next and not self.in_fantasyland


@dataclass(frozen=True)
class RowDuel:
    name: str  # "front", "middle", "back"
    winner: str | None  # the name of the player who wins the row; None: even

    @property
    def label(self) -> Promise:
        return ROW_LABELS[self.name]


@dataclass(frozen=True)
class PairPreview:
    """What one player wins from another, told as the winner's: rows, bonus, royalties.

    `points` = `row_points` + `bonus` + `royalty_points` (never negative: the
    winner is named first; 0 when they are even). With a foul the rows and the
    bonus are the fixed points against a foul (`foul_points`).
    """

    winner: str
    loser: str
    rows: tuple[RowDuel, ...]
    fouled: tuple[str, ...]  # the names of the fouled players of the pair
    row_points: int
    bonus: int
    foul_points: int
    winner_royalties: int
    loser_royalties: int
    points: int
    method: str  # "1-6" (the bonus is a scoop) or "2-4" (the bonus is for most rows)

    @property
    def royalty_points(self) -> int:
        return self.winner_royalties - self.loser_royalties

    @property
    def details(self) -> list[str]:
        """How the points come about, to be read out: ["rows +3", "scoop +3", ...]."""
        parts: list[str] = []
        if len(self.fouled) == 2:
            parts.append(_("Both fouled: they score nothing against each other."))
        elif self.fouled:
            parts.append(
                _("%(name)s fouled: %(points)d for the rows")
                % {"name": self.fouled[0], "points": self.foul_points}
            )
        else:
            parts.append(_("rows %(points)+d") % {"points": self.row_points})
            if self.bonus and self.method == "1-6":
                parts.append(_("scoop %(points)+d") % {"points": self.bonus})
            elif self.bonus:
                parts.append(_("most rows %(points)+d") % {"points": self.bonus})
        if self.winner_royalties or self.loser_royalties:
            # No-break spaces (U+00A0) around "−" and "=": the sum is never split over lines.
            parts.append(
                _("royalties %(a)d − %(b)d = %(points)+d")
                % {
                    "a": self.winner_royalties,
                    "b": self.loser_royalties,
                    "points": self.royalty_points,
                }
            )
        return parts

    @property
    def even(self) -> bool:
        return self.points == 0


@dataclass(frozen=True)
class Preview:
    players: tuple[PlayerPreview, ...]  # in seat order
    pairs: tuple[PairPreview, ...]
    method: str  # "1-6" (a scoop: +3) or "2-4" (the majority of rows: +1)
    hidden: tuple[tuple[str, str], ...]  # (input name, card codes) for the Confirm form

    @property
    def fantasyland_next(self) -> list[str]:
        return [p.name for p in self.players if p.fantasyland_next]


def _pair(a_name: str, a: RowValues, b_name: str, b: RowValues, method: str) -> PairPreview:
    """PairPreview of two evaluated boards (scoring.settle.RowValues), the winner first."""
    settled = settle_pair(a, b, method)
    if settled.points < 0:
        (a_name, a), (b_name, b) = (b_name, b), (a_name, a)
        settled = settle_pair(a, b, method)
    names = {1: a_name, -1: b_name, 0: None}
    return PairPreview(
        winner=a_name,
        loser=b_name,
        rows=tuple(RowDuel(row, names[won]) for row, won in zip(ROWS, settled.rows, strict=True)),
        fouled=tuple(name for name, values in ((a_name, a), (b_name, b)) if values.fouled),
        row_points=settled.row_points,
        bonus=settled.bonus,
        foul_points=settled.foul_points,
        winner_royalties=a.royalties,
        loser_royalties=b.royalties,
        points=settled.points,
        method=method,
    )


def score_preview(
    names: Sequence[str],
    boards: Sequence[BoardText],
    fantasyland: Sequence[tuple[bool, int]],
    rules: Rules,
) -> tuple[list[PlayerPreview], list[PairPreview]]:
    """The scored hand, recorded nowhere (a pure function, no database).

    `names` and `boards` ({"front": "Qs Qh 7d", ...}) are in seat order;
    `fantasyland` gives each seat's (in Fantasyland, streak) for this hand.
    Raises scoring.InvalidHand for boards that cannot be scored.
    """
    entries = [
        scoring_board(board, in_fantasyland=in_fl, streak=streak)
        for board, (in_fl, streak) in zip(boards, fantasyland, strict=True)
    ]
    results = score_hand(entries, rules=rules)
    values = [evaluate_board(board, rules) for board in parse_boards(entries)]
    players = [
        PlayerPreview(
            position=-1,
            name=name,
            points=result.points,
            fouled=result.fouled,
            royalties=result.royalties,
            rows=tuple(
                RowView(
                    name=row,
                    cards=card_views(board[row]),
                    category=result.categories[row],
                    royalty=result.row_royalties[row],
                )
                for row in ROWS
            ),
            in_fantasyland=bool(entry.get("fantasyland")),
            fantasyland_next=result.fantasyland,
        )
        for name, board, entry, result in zip(names, boards, entries, results, strict=True)
    ]
    pairs = [
        _pair(names[i], values[i], names[j], values[j], rules.method)
        for i in range(len(names))
        for j in range(i + 1, len(names))
    ]
    return players, pairs


def preview_boards(
    seats: Sequence[Seat],
    boards: Mapping[int, BoardText],
    fantasyland: Sequence[tuple[bool, int]],
    rules: Rules,
) -> Preview:
    """The scored hand of `boards` ({position: {"front": ...}}) at these seats, recorded
    nowhere; `fantasyland` gives each seat's (in Fantasyland, streak) for the hand."""
    players, pairs = score_preview(
        [seat.player.name for seat in seats],
        [boards[seat.position] for seat in seats],
        fantasyland,
        rules,
    )
    players = [
        replace(player, position=seat.position) for seat, player in zip(seats, players, strict=True)
    ]
    hidden = [
        (f"{row}_{seat.position}", boards[seat.position][row]) for seat in seats for row in ROWS
    ]
    return Preview(tuple(players), tuple(pairs), rules.method, tuple(hidden))


def preview_hand(card: Card, boards: Mapping[int, BoardText]) -> Preview:
    """The scored hand of `boards` as the next hand at this card's table (nothing recorded)."""
    state = card.state
    return preview_boards(
        card.playing,
        boards,
        [
            (bool(state.in_fantasyland.get(seat.id)), state.fantasyland_streak.get(seat.id, 1))
            for seat in card.playing
        ],
        card.tournament.rules,
    )


def preview_fix(table: Table, last: LastHand, boards: Mapping[int, BoardText]) -> Preview:
    """The fixed hand (`last`: selectors.hands.LastHand) scored with the hand's own
    Fantasyland, as correct_hand scores it, each player beside the points and Fantasyland
    of the version it replaces."""
    history = history_state(table)
    played = next(p for p in history.played if p.number == last.hand.number)
    seats = last.seats
    preview = preview_boards(
        seats,
        boards,
        [(bool(played.in_fantasyland.get(s.id)), played.streak.get(s.id, 1)) for s in seats],
        table.level.tournament.rules,
    )
    was = {result.seat.position: result for result in last.results}
    players = tuple(
        replace(
            player,
            was=was[player.position].points,
            was_fantasyland_next=was[player.position].fantasyland_next,
        )
        for player in preview.players
    )
    return replace(preview, players=players)


@dataclass(frozen=True)
class FixReadbackLine:
    """One player of a fix by points read back to the table: before and after."""

    name: str
    was: int
    points: int
    was_fantasyland: bool
    fantasyland: bool


def fix_readback(
    last: LastHand, points: Mapping[int, int], fantasyland: Collection[int]
) -> list[FixReadbackLine]:
    """A fix by points (`points` {position: points}, `fantasyland` the positions that go)
    read back beside the last hand as it stands."""
    return [
        FixReadbackLine(
            result.seat.player.name,
            result.points,
            points[result.seat.position],
            result.fantasyland_next,
            result.seat.position in fantasyland,
        )
        for result in last.results
    ]


@dataclass(frozen=True)
class ReadbackLine:
    """One player of a hand by points read out to the table before it is recorded."""

    name: str
    points: int
    fantasyland: bool


def points_readback(
    seats: Sequence[Seat], points: Mapping[int, int], fantasyland: Collection[int]
) -> list[ReadbackLine]:
    """What is read out to the table: each player's points (`points` {position: points}),
    and who goes to Fantasyland (`fantasyland`, the positions that go)."""
    return [
        ReadbackLine(seat.player.name, points[seat.position], seat.position in fantasyland)
        for seat in seats
    ]
