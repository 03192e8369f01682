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
from collections.abc import Iterable, Mapping
from contextlib import suppress
from typing import Any

from django.contrib import messages
from django.http import HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import InvalidHand
from scoring.boards import ROWS
from tournament.errors import HandConflict, ServiceError, TableOver
from tournament.forms.hands import HandCardsForm
from tournament.live.polling import vary_on_htmx
from tournament.models import Seat, Tournament
from tournament.rules.hand_errors import invalid_hand_message
from tournament.selectors.card import Card, read_card
from tournament.selectors.hand_preview import Preview, preview_hand
from tournament.services import hands
from tournament.views.refusals import add_service_error
from tournament.views.revisor import card as card_page
from tournament.views.revisor.binding import RevisorRequest, revisor_required
from tournament.views.revisor.board_entry import picker_context, seat_boards
from tournament.views.revisor.card import already_recorded, conflict_message, label
from tournament.web.faults import reads_only, resent_after_lost_connection

TEMPLATE = "tournament/revisor/cards.html"


# ---------------------------------------------------------------- the views


def _allows_cards(card: Card) -> bool:
    return card.tournament.entry_mode != Tournament.EntryMode.POINTS


def _form(
    card: Card,
    data: Mapping[str, Any] | None = None,
    initial: dict[str, object] | None = None,
) -> HandCardsForm:
    return HandCardsForm(data, seats=card.playing, hand_number=card.next_hand, initial=initial)


def _render(
    request: RevisorRequest,
    card: Card,
    *,
    form: HandCardsForm | None = None,
    preview: Preview | None = None,
    status: int = 200,
) -> HttpResponse:
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


def fresh_card(request: RevisorRequest) -> HttpResponseBase:
    """The card as it stands now: a redirect to it, or (htmx) its main part in place,
    with the address bar showing the card's address (a reload then shows the card)."""
    table = request.revisor_table
    if not request.htmx:
        return redirect("revisor:card")
    table.refresh_from_db()
    response = card_page._render(request, read_card(table))
    response["HX-Push-Url"] = reverse("revisor:card")
    return response


def _refuse_points_only(request: RevisorRequest, card: Card, form: HandCardsForm) -> HttpResponse:
    """A tournament that records hands as points: said in place, the typed cards kept."""
    form.is_valid()  # the rows' own errors are shown too
    form.add_error(None, _("This tournament records hands as points."))
    return _render(request, card, form=form, status=400)


def _not_the_next_hand(
    request: RevisorRequest, card: Card, form: HandCardsForm
) -> HttpResponseBase | None:
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


def _table_over(request: RevisorRequest, card: Card) -> HttpResponseBase:
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


def edit_initial(seats: Iterable[Seat], data: Mapping[str, Any]) -> dict[str, object]:
    """What the Confirm form carried, to be changed: the rows and the same submission key."""
    initial: dict[str, object] = {}
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
def cards(request: RevisorRequest) -> HttpResponseBase:
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
def preview(request: RevisorRequest) -> HttpResponseBase:
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
        scored = preview_hand(card, form.boards())
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
def confirm(request: RevisorRequest) -> HttpResponseBase:
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
