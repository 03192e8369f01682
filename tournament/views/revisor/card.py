"""The bound table's score card: the state of play, the next hand's entry, calls and fixes.

Forms post with htmx where it runs (the page stays, what was typed stays, a lost
connection is said and the same submission key is sent again) and as plain POSTs
without JavaScript (post, redirect, get).
"""

from dataclasses import dataclass

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament import selectors
from tournament.forms import HandPointsForm
from tournament.models import TableCall
from tournament.services import HandConflict, ServiceError, TableOver, calls, hands
from tournament.state import cached_state
from tournament.views.polling import unchanged, vary_on_htmx
from tournament.views.revisor.binding import revisor_required
from tournament.views.td.common import add_service_error

TEMPLATE = "tournament/revisor/card.html"


class CallForm(forms.Form):
    kind = forms.ChoiceField(label=gettext_lazy("Why"), choices=TableCall.Kind.choices)
    note = forms.CharField(
        label=gettext_lazy("Note (optional)"),
        required=False,
        max_length=TableCall._meta.get_field("note").max_length,
    )


@dataclass
class Card:
    """What the card shows, read in a fixed number of queries."""

    table: object
    tournament: object
    state: object
    seats: list  # every seat, in seat order
    playing: list  # the seats that play the next hand
    hands: list  # the last hands, newest first: (number, [result or None per seat])
    open_call: object
    fantasyland_next: list  # names of the players who play the next hand in Fantasyland
    dealer: object  # the seat that deals the next hand

    @property
    def next_hand(self):
        return self.state.hands_played + 1

    @property
    def extra_hands(self):
        return self.state.required_hands - self.tournament.min_hands

    @property
    def winner(self):
        return next((s.player for s in self.seats if s.id == self.state.winner_seat_id), None)

    @property
    def tied(self):
        return [s.player for s in self.seats if s.id in self.state.tied_leader_ids]


def _hand_rows(hands, seats):
    """Each hand's results lined up with the seats (None where a seat did not play)."""
    rows = []
    for hand in hands:
        results = {r.seat_id: r for r in hand.current_versions[0].results.all()}
        rows.append((hand.number, [results.get(seat.id) for seat in seats]))
    return rows


def read_card(table):
    state, seats = cached_state(table)
    by_id = {seat.id: seat for seat in seats}
    playing = [by_id[sid] for sid in state.active_seat_ids]
    return Card(
        table=table,
        tournament=table.level.tournament,
        state=state,
        seats=seats,
        playing=playing,
        hands=_hand_rows(selectors.last_hands(table), seats),
        open_call=calls.open_call(table),
        fantasyland_next=[s.player.name for s in playing if state.in_fantasyland[s.id]],
        dealer=next((s for s in seats if s.position == state.next_dealer_position), None),
    )


def label(table):
    return _("Revisor, table %(table)d") % {"table": table.number}


def _render(request, card, *, points_form=None, call_form=None, status=200):
    context = {
        "card": card,
        "points_form": points_form
        or HandPointsForm(seats=card.playing, hand_number=card.next_hand),
        "call_form": call_form or CallForm(),
        "token": str(card.table.revision),
    }
    template = f"{TEMPLATE}#main" if request.htmx else TEMPLATE
    return vary_on_htmx(render(request, template, context, status=status))


@revisor_required
def card(request):
    return _render(request, read_card(request.revisor_table))


@revisor_required
def summary(request):
    """The polled, read-only part of the card (204 while nothing changed)."""
    table = request.revisor_table
    nothing_new = unchanged(request, str(table.revision))
    if nothing_new is not None:
        return nothing_new
    response = render(
        request,
        f"{TEMPLATE}#summary",
        {"card": read_card(table), "token": str(table.revision)},
    )
    return vary_on_htmx(response)


def _after_post(request):
    """Without htmx: post, redirect, get. With htmx: the fresh card in place."""
    if request.htmx:
        return _render(request, read_card(request.revisor_table))
    return redirect("revisor:card")


@revisor_required
def record(request):
    """Record the next hand as points; a replay of the same submission records nothing twice."""
    if request.method != "POST":
        return redirect("revisor:card")
    table = request.revisor_table
    state, seats = cached_state(table)
    playing = [s for s in seats if s.id in state.active_seat_ids]
    form = HandPointsForm(request.POST, seats=playing)
    if not form.is_valid():
        return _render(request, read_card(table), points_form=form, status=400)
    number = form.cleaned_data["hand_number"]
    try:
        recorded = hands.record_hand(table=table, actor_label=label(table), **form.service_kwargs())
    except (HandConflict, TableOver) as error:
        # Someone else recorded it (or the table is over): show the fresh card.
        messages.error(request, str(error))
        return _after_post(request)
    except ServiceError as error:
        add_service_error(form, error)
        return _render(request, read_card(table), points_form=form, status=400)
    if recorded.created:
        messages.success(request, _("Hand %(hand)d recorded.") % {"hand": number})
    else:
        messages.info(
            request,
            _("Hand %(hand)d was already recorded (the same entry arrived twice).")
            % {"hand": recorded.hand.number},
        )
    request.revisor_table.refresh_from_db()
    return _after_post(request)


@revisor_required
def call(request):
    """Call the TD to the table; the call shows on the TD's dashboard until cleared."""
    if request.method != "POST":
        return redirect("revisor:card")
    table = request.revisor_table
    form = CallForm(request.POST)
    if not form.is_valid():
        return _render(request, read_card(table), call_form=form, status=400)
    try:
        calls.call_td(
            table=table,
            kind=form.cleaned_data["kind"],
            note=form.cleaned_data["note"],
            actor_label=label(table),
        )
    except ServiceError as error:
        add_service_error(form, error)
        return _render(request, read_card(table), call_form=form, status=400)
    messages.success(request, _("The TD has been called to your table."))
    request.revisor_table.refresh_from_db()
    return _after_post(request)
