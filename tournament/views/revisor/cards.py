"""The next hand entered as the players' cards: checked (scored) first, then confirmed.

Three steps, each a plain form POST that htmx enhances (swapping `#revisor-main`):

1. `cards`: each playing seat's front, middle and back, typed as text or filled by
   the touch card picker (static/js/card-picker.js fills the same text inputs).
2. `cards_preview` ("Check the hand"): the cards are parsed by HandCardsForm and
   scored with the tournament's rules and the table's Fantasyland state, exactly
   as recording them would score them, and NOTHING is recorded. The page shows
   the scored hand for the revisor to announce: each row's winner per pair,
   royalties per row, fouls, points, and who goes to Fantasyland.
3. `cards_confirm`: the same boards (hidden inputs), hand number and submission
   key are recorded with `hands.record_hand`, like the points entry of the card.

A refusal is shown in place with what was typed kept; a hand recorded meanwhile
by another device (or a table that is over) brings the fresh card with a message.
"""

import uuid
from contextlib import suppress
from dataclasses import dataclass, replace

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring import InvalidHand, parse_boards, score_hand
from scoring.boards import ROW_SIZES, ROWS
from scoring.settle import METHODS, evaluate_board, pair_points
from tournament.errors import HandConflict, ServiceError, TableOver
from tournament.forms.hands import HandCardsForm
from tournament.live.polling import vary_on_htmx
from tournament.models import Tournament
from tournament.rules.hand_errors import invalid_hand_message
from tournament.selectors.card import read_card
from tournament.selectors.score_card import RowView, card_views
from tournament.services import hands
from tournament.services.hands import scoring_board
from tournament.views.refusals import add_service_error
from tournament.views.revisor import card as card_page
from tournament.views.revisor.binding import revisor_required
from tournament.views.revisor.card import already_recorded, conflict_message, label
from tournament.web.faults import reads_only, resent_after_lost_connection

TEMPLATE = "tournament/revisor/cards.html"

# The picker's keys: ranks high to low as players sort their cards, suits in bridge order.
PICKER_RANKS = (
    ("A", "A", gettext_lazy("ace")),
    ("K", "K", gettext_lazy("king")),
    ("Q", "Q", gettext_lazy("queen")),
    ("J", "J", gettext_lazy("jack")),
    ("T", "10", gettext_lazy("ten")),
    ("9", "9", gettext_lazy("nine")),
    ("8", "8", gettext_lazy("eight")),
    ("7", "7", gettext_lazy("seven")),
    ("6", "6", gettext_lazy("six")),
    ("5", "5", gettext_lazy("five")),
    ("4", "4", gettext_lazy("four")),
    ("3", "3", gettext_lazy("three")),
    ("2", "2", gettext_lazy("two")),
)
PICKER_SUITS = (
    ("s", "♠", "spades", gettext_lazy("spades")),
    ("h", "♥", "hearts", gettext_lazy("hearts")),
    ("d", "♦", "diamonds", gettext_lazy("diamonds")),
    ("c", "♣", "clubs", gettext_lazy("clubs")),
)
ROW_LABELS = {
    "front": gettext_lazy("Front"),
    "middle": gettext_lazy("Middle"),
    "back": gettext_lazy("Back"),
}


# ---------------------------------------------------------------- what the pages show


@dataclass(frozen=True)
class BoardRow:
    """One row's input on the entry form: its name ("front"), size (3 or 5) and field."""

    name: str
    size: int
    field: object


@dataclass(frozen=True)
class SeatBoard:
    position: int
    name: str
    in_fantasyland: bool  # plays this hand in Fantasyland (14 cards dealt, 13 placed)
    rows: tuple


@dataclass(frozen=True)
class PlayerPreview:
    """One player's scored board."""

    position: int
    name: str
    points: int
    fouled: bool
    royalties: int
    rows: tuple  # score_card.RowView: cards, category, royalty
    in_fantasyland: bool  # played this hand in Fantasyland
    fantasyland_next: bool  # plays the next hand in Fantasyland
    # A fix of a recorded hand: the points and Fantasyland of the version it replaces.
    was: int | None = None
    was_fantasyland_next: bool | None = None

    @property
    def no_longer_goes_to_fantasyland(self):
        return bool(self.was_fantasyland_next) and not self.fantasyland_next

    @property
    def stays_in_fantasyland(self):
        return self.in_fantasyland and self.fantasyland_next

    @property
    def goes_to_fantasyland(self):
        return self.fantasyland_next and not self.in_fantasyland


@dataclass(frozen=True)
class RowDuel:
    name: str  # "front", "middle", "back"
    winner: str | None  # the name of the player who wins the row; None: even

    @property
    def label(self):
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
    rows: tuple  # RowDuel
    fouled: tuple  # the names of the fouled players of the pair
    row_points: int
    bonus: int
    foul_points: int
    winner_royalties: int
    loser_royalties: int
    points: int
    method: str  # "1-6" (the bonus is a scoop) or "2-4" (the bonus is for most rows)

    @property
    def royalty_points(self):
        return self.winner_royalties - self.loser_royalties

    @property
    def details(self):
        """How the points come about, to be read out: ["rows +3", "scoop +3", ...]."""
        parts = []
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
    def even(self):
        return self.points == 0


@dataclass(frozen=True)
class Preview:
    players: tuple  # PlayerPreview, in seat order
    pairs: tuple  # PairPreview
    method: str  # "1-6" (a scoop: +3) or "2-4" (the majority of rows: +1)
    hidden: tuple  # (input name, card codes) for the Confirm form

    @property
    def fantasyland_next(self):
        return [p.name for p in self.players if p.fantasyland_next]


def _pair(a_name, a, b_name, b, method):
    """PairPreview of two evaluated boards (scoring.settle.RowValues)."""
    bonus_rows, bonus, vs_foul = METHODS[method]
    total = pair_points(a, b, method)
    if total < 0:
        (a_name, a), (b_name, b), total = (b_name, b), (a_name, a), -total
    fouled = tuple(name for name, values in ((a_name, a), (b_name, b)) if values.fouled)
    duels, row_points, bonus_points, foul_points = [], 0, 0, 0
    if fouled:
        # A foul loses every row; two fouls are even. The winner is never the fouled one.
        winner = None if len(fouled) == 2 else a_name
        duels = [RowDuel(row, winner) for row in ROWS]
        foul_points = 0 if winner is None else vs_foul
    else:
        won = lost = 0
        for row, x, y in zip(
            ROWS, (a.front, a.middle, a.back), (b.front, b.middle, b.back), strict=True
        ):
            if x > y:
                won += 1
                duels.append(RowDuel(row, a_name))
            elif x < y:
                lost += 1
                duels.append(RowDuel(row, b_name))
            else:
                duels.append(RowDuel(row, None))
        row_points = won - lost
        bonus_points = bonus if won >= bonus_rows else -bonus if lost >= bonus_rows else 0
    pair = PairPreview(
        winner=a_name,
        loser=b_name,
        rows=tuple(duels),
        fouled=fouled,
        row_points=row_points,
        bonus=bonus_points,
        foul_points=foul_points,
        winner_royalties=a.royalties,
        loser_royalties=b.royalties,
        points=total,
        method=method,
    )
    assert pair.row_points + pair.bonus + pair.foul_points + pair.royalty_points == total
    return pair


def score_preview(names, boards, fantasyland, rules):
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
    players = []
    for name, board, entry, result in zip(names, boards, entries, results, strict=True):
        players.append(
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
        )
    pairs = [
        _pair(names[i], values[i], names[j], values[j], rules.method)
        for i in range(len(names))
        for j in range(i + 1, len(names))
    ]
    return players, pairs


def preview_boards(seats, boards, fantasyland, rules):
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


def preview_hand(card, form):
    """The scored hand of a valid HandCardsForm at this card's table (nothing recorded)."""
    state = card.state
    return preview_boards(
        card.playing,
        form.boards(),
        [
            (bool(state.in_fantasyland.get(seat.id)), state.fantasyland_streak.get(seat.id, 1))
            for seat in card.playing
        ],
        card.tournament.rules,
    )


# ---------------------------------------------------------------- the views


def _allows_cards(card):
    return card.tournament.entry_mode != Tournament.EntryMode.POINTS


def _form(card, data=None, initial=None):
    return HandCardsForm(data, seats=card.playing, hand_number=card.next_hand, initial=initial)


def seat_boards(seats, in_fantasyland, form):
    """The entry form's boards, one per seat; `in_fantasyland` {seat id: plays in FL}."""
    return [
        SeatBoard(
            position=seat.position,
            name=seat.player.name,
            in_fantasyland=bool(in_fantasyland.get(seat.id)),
            rows=tuple(
                BoardRow(row, ROW_SIZES[row], form[f"{row}_{seat.position}"]) for row in ROWS
            ),
        )
        for seat in seats
    ]


def picker_context(seats):
    """What the picker's keys (_card_picker.html) need."""
    return {
        "picker_ranks": PICKER_RANKS,
        "picker_suits": PICKER_SUITS,
        "cards_total": sum(ROW_SIZES.values()) * len(seats),
    }


def _render(request, card, *, form=None, preview=None, status=200):
    form = form or _form(card)
    context = {
        "card": card,
        "form": form,
        "boards": seat_boards(card.playing, card.state.in_fantasyland, form),
        "preview": preview,
        **picker_context(card.playing),
    }
    template = f"{TEMPLATE}#main" if request.htmx else TEMPLATE
    return vary_on_htmx(render(request, template, context, status=status))


def fresh_card(request):
    """The card as it stands now: a redirect to it, or (htmx) its main part in place,
    with the address bar showing the card's address (a reload then shows the card)."""
    table = request.revisor_table
    if not request.htmx:
        return redirect("revisor:card")
    table.refresh_from_db()
    response = card_page._render(request, read_card(table))
    response["HX-Push-Url"] = reverse("revisor:card")
    return response


def _refuse_points_only(request, card, form):
    """A tournament that records hands as points: said in place, the typed cards kept."""
    form.is_valid()  # the rows' own errors are shown too
    form.add_error(None, _("This tournament records hands as points."))
    return _render(request, card, form=form, status=400)


def _not_the_next_hand(request, card, form):
    """None when the form is for the hand to play next; otherwise the answer to give."""
    number = form.cleaned_data["hand_number"]
    if number < card.next_hand:
        messages.error(
            request, already_recorded(number, card.state.hands_played, card.table.number)
        )
        return fresh_card(request)
    if number > card.next_hand:
        form.add_error(
            None,
            _("The next hand at this table is hand %(next)d, not %(given)d.")
            % {"next": card.next_hand, "given": number},
        )
        return _render(request, card, form=form, status=400)
    return None


def _table_over(request, card):
    messages.error(
        request,
        ngettext(
            "Table %(table)d is over: its %(played)d hand is played.",
            "Table %(table)d is over: all %(played)d hands are played.",
            card.state.hands_played,
        )
        % {"table": card.table.number, "played": card.state.hands_played},
    )
    return fresh_card(request)


def edit_initial(seats, data):
    """What the Confirm form carried, to be changed: the rows and the same submission key."""
    initial = {}
    for seat in seats:
        for row in ROWS:
            name = f"{row}_{seat.position}"
            if isinstance(data.get(name), str):
                initial[name] = data[name]
    with suppress(ValueError):  # otherwise a fresh key
        initial["idempotency_key"] = uuid.UUID(str(data.get("idempotency_key")))
    return initial


@reads_only()
@revisor_required
def cards(request):
    """The next hand's entry by cards (a POST: back from the check, the cards kept)."""
    card = read_card(request.revisor_table)
    if card.state.is_over:
        return _table_over(request, card) if request.method == "POST" else redirect("revisor:card")
    if not _allows_cards(card):
        messages.error(request, _("This tournament records hands as points."))
        return fresh_card(request)
    form = None
    if request.method == "POST" and request.POST.get("hand_number") == str(card.next_hand):
        form = _form(card, initial=edit_initial(card.playing, request.POST))
    return _render(request, card, form=form)


@reads_only()
@revisor_required
def preview(request):
    """Check the hand: score it and show it, recording nothing."""
    if request.method != "POST":
        return redirect("revisor:cards")
    card = read_card(request.revisor_table)
    if card.state.is_over:
        return _table_over(request, card)
    form = _form(card, request.POST)
    if not _allows_cards(card):
        return _refuse_points_only(request, card, form)
    if not form.is_valid():
        return _render(request, card, form=form, status=400)
    elsewhere = _not_the_next_hand(request, card, form)
    if elsewhere is not None:
        return elsewhere
    try:
        scored = preview_hand(card, form)
    except InvalidHand as error:  # the form checks rows and duplicates: a safety net
        form.add_error(None, invalid_hand_message(error, [s.player.name for s in card.playing]))
        return _render(request, card, form=form, status=400)
    response = _render(request, card, form=form, preview=scored)
    if request.htmx:
        # The check gets a place in the tablet's history: its Back (a button, a swipe)
        # returns to the typed cards, as the page's own "Change the cards" does, instead
        # of leaving them for the score card. Its address, loaded again, is the cards page.
        response["HX-Push-Url"] = reverse("revisor:cards_preview")
    return response


@revisor_required
def confirm(request):
    """Record the checked hand; a replay of the same submission records nothing twice."""
    if request.method != "POST":
        return redirect("revisor:cards")
    table = request.revisor_table
    card = read_card(table)
    form = _form(card, request.POST)
    if not form.is_valid():
        return _render(request, card, form=form, status=400)
    number = form.cleaned_data["hand_number"]
    try:
        recorded = hands.record_hand(table=table, actor_label=label(table), **form.service_kwargs())
    except (HandConflict, TableOver) as error:
        # Someone else recorded it (or the table is over): show the fresh card.
        messages.error(request, conflict_message(error, table, number))
        return fresh_card(request)
    except ServiceError as error:
        add_service_error(form, error)
        return _render(request, card, form=form, status=400)
    # Sent again by the page after a lost connection: the revisor sent it once.
    if recorded.created or resent_after_lost_connection(request):
        messages.success(request, _("Hand %(hand)d recorded ✓") % {"hand": number})
    else:
        messages.info(
            request,
            _("Hand %(hand)d was already recorded (the same entry arrived twice).")
            % {"hand": recorded.hand.number},
        )
    return fresh_card(request)
