"""The revisor's card of a table: its state of play, who plays and deals the next hand, the
last hands and the open call, read in a fixed number of queries."""

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from tournament.models import Player, Seat, Table, TableCall, Tournament
from tournament.rules.table_fold import TableState
from tournament.selectors.hands import LastResult, last_hands
from tournament.selectors.tables import is_final_table
from tournament.services import calls
from tournament.tables.state import cached_state

# "The TD was called at 18:34 about a timeout": the kinds' own labels carry parentheses.
CALL_REASONS: dict[str, Promise] = {
    TableCall.Kind.TIMEOUT: gettext_lazy("a timeout"),
    TableCall.Kind.DISPUTE: gettext_lazy("a dispute"),
    TableCall.Kind.MISDEAL: gettext_lazy("a misdeal"),
    TableCall.Kind.OTHER: gettext_lazy("something else"),
}


@dataclass(frozen=True)
class SeatHands:
    """One seat's line of the last hands: its results, oldest hand first (None: not played)."""

    seat: Seat
    results: list[LastResult | None]


@dataclass
class Card:
    """What the card shows, read in a fixed number of queries."""

    table: Table
    tournament: Tournament
    state: TableState
    seats: list[Seat]  # every seat, in seat order
    playing: list[Seat]  # the seats that play the next hand
    hand_numbers: list[int]  # the last hands' numbers, oldest first
    last_hands: list[SeatHands]  # per seat, in seat order
    open_call: TableCall | None
    fantasyland_next: list[str]  # names of the players who play the next hand in Fantasyland
    dealer: Seat | None  # the seat that deals the next hand

    @property
    def next_hand(self) -> int:
        return self.state.hands_played + 1

    @property
    def extra_hands(self) -> int:
        return self.state.required_hands - self.tournament.min_hands

    @property
    def tie_break(self) -> bool:
        """The required hands are played and the lead is shared: the next hand breaks the tie."""
        return bool(self.state.tied_leader_ids)

    @property
    def winner(self) -> Player | None:
        return next((s.player for s in self.seats if s.id == self.state.winner_seat_id), None)

    @property
    def tied(self) -> list[Player]:
        return [s.player for s in self.seats if s.id in self.state.tied_leader_ids]

    @property
    def final(self) -> bool:
        """The only table of its level: its winner is the champion (1 query, when asked)."""
        return is_final_table(self.table)

    @property
    def settled_between(self) -> list[Player]:
        """The players the TD chose the winner from, when a settled tie ended the table."""
        state = self.state
        if not state.is_over or state.winner_seat_id is None:
            return []
        best = state.totals[state.winner_seat_id]
        level = [
            s.player
            for s in self.seats
            if s.id in state.active_seat_ids and state.totals[s.id] == best
        ]
        return level if len(level) > 1 else []

    @property
    def call_reason(self) -> str | Promise:
        """What the open call is about, as the card says it ("about a dispute")."""
        return CALL_REASONS[self.open_call.kind] if self.open_call else ""

    @property
    def fantasyland_ids(self) -> set[int]:
        return {s.id for s in self.playing if self.state.in_fantasyland[s.id]}


def _last_hands(
    read: tuple[list[int], dict[int, dict[int, LastResult]]], seats: list[Seat]
) -> tuple[list[int], list[SeatHands]]:
    """The last hands' numbers (oldest first) and each seat's line of results in them."""
    numbers, by_hand = read
    lines = [
        SeatHands(seat, [by_hand[number].get(seat.id) for number in numbers]) for seat in seats
    ]
    return numbers, lines


def read_card(table: Table, known: tuple[TableState, list[Seat]] | None = None) -> Card:
    """The card of `table` (read with its level and tournament); `known`: its state and
    seats as a hand just left them (`Recorded`), so that they are not read again."""
    state, seats = known if known is not None else cached_state(table)
    by_id = {seat.id: seat for seat in seats}
    playing = [by_id[sid] for sid in state.active_seat_ids]
    numbers, lines = _last_hands(last_hands(table), seats)
    return Card(
        table=table,
        tournament=table.level.tournament,
        state=state,
        seats=seats,
        playing=playing,
        hand_numbers=numbers,
        last_hands=lines,
        open_call=calls.open_call(table),
        fantasyland_next=[s.player.name for s in playing if state.in_fantasyland[s.id]],
        dealer=next((s for s in seats if s.position == state.next_dealer_position), None),
    )


def device_state(card: Card) -> dict[str, object]:
    """What the card needs to go on offline (static/js/revisor-queue.js), as JSON: the
    table's fold state before the next hand (rules/table_fold's Progress and the seats),
    and the rules that fold it, so that the device works out the next hand's dealer,
    Fantasyland and required hands as the server will. No query: the card's own read."""
    state, tournament = card.state, card.tournament
    progress = state.progress
    return {
        "table": card.table.pk,
        "hands_played": state.hands_played,
        "fantasyland_hands": progress.fantasyland_hands,
        "last_dealer": progress.last_dealer,
        "first_dealer": card.table.first_dealer_position,
        "min_hands": tournament.min_hands,
        "button_stays": tournament.button_stays_in_fantasyland,
        "repeat": tournament.fantasyland_repeat,
        "over": state.is_over,
        "seats": [
            {
                "position": seat.position,
                "name": seat.player.name,
                "total": state.totals[seat.id],
                "playing": seat.id in state.active_seat_ids,
                "in_fl": bool(state.in_fantasyland[seat.id]),
                "streak": state.fantasyland_streak[seat.id],
            }
            for seat in card.seats
        ],
    }
