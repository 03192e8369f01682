"""The bound table's score card: the state of play, the next hand's entry, calls and fixes.

Forms post with htmx where it runs (the page stays, what was typed stays, a lost
connection is said and the same submission key is sent again) and as plain POSTs
without JavaScript (post, redirect, get).

The card's top part is polled (`summary`). When the hand its form is for can no
longer be recorded (the table ended: the TD settled a tie, or another device or the
TD recorded the hand), the poll answers with the whole card instead, so that no
stale form stays below a fresh state.

With the tournament's "the table confirms points" setting, "Check hand N" shows the
points to read out to the table first; only "Confirm hand N" records them, with the
same submission key (a double tap records one hand).
"""

import time
from collections.abc import Mapping
from typing import Any

from django.contrib import messages
from django.core import signing
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from tournament.audit.sentences import revisor_label
from tournament.errors import HandConflict, ServiceError, TableOver
from tournament.forms.hands import HandPointsForm
from tournament.forms.revisor import CallForm, GeneralCallForm
from tournament.live.polling import unchanged, vary_on_htmx
from tournament.live.tokens import shows_already, table_token
from tournament.models import Seat, Table
from tournament.rules.table_fold import TableState
from tournament.selectors.card import Card, device_state, read_card
from tournament.selectors.hand_preview import points_readback
from tournament.selectors.tokens import read_table_token
from tournament.services import calls, hands, held_hands
from tournament.services.idempotency import AlreadyDone
from tournament.tables.state import cached_state
from tournament.views.refusals import add_service_error
from tournament.views.revisor import worker
from tournament.views.revisor.binding import RevisorRequest, revisor_required
from tournament.web.faults import reads_only, resent_after_lost_connection

TEMPLATE = "tournament/revisor/card.html"
# The poll's answer when the card's form is out of date: the whole card, in place of it.
WHOLE_CARD = {"HX-Retarget": "#revisor-main", "HX-Reswap": "outerHTML"}
# The steps of a points entry when the table confirms points (the button's `step`).
CHECK, CONFIRM, CHANGE = "check", "confirm", "change"
# The signed token by which the card names its table for the hands it queued offline.
QUEUE_SALT = "revisor-queue"
# When this process last let a table's poll go the whole way, to keep when the card was
# seen (services/held_hands.card_seen): table id -> time.monotonic().
_SEEN_MARKS: dict[int, float] = {}
SEEN_EVERY_SECONDS = 60.0


# The rows of a hand typed by cards offline (checked when sent).
OFFLINE_ROWS = (("front", _lazy("Front")), ("middle", _lazy("Middle")), ("back", _lazy("Back")))


def queue_token(table: Table) -> str:
    """The card's proof of its table for the hands it queued (views/revisor/queued.py)."""
    return signing.dumps({"table": table.pk}, salt=QUEUE_SALT)


def seen(table: Table) -> None:
    """The table's card was heard from: kept at most once a minute."""
    held_hands.card_seen(table)
    _SEEN_MARKS[table.pk] = time.monotonic()


def _seen_due(table_id: int) -> bool:
    return time.monotonic() - _SEEN_MARKS.get(table_id, -SEEN_EVERY_SECONDS) >= SEEN_EVERY_SECONDS


def timer_form(card: Card, data: Mapping[str, Any] | None = None) -> CallForm:
    """ "Time a player": the players of the next hand; at zero, a timeout call naming one."""
    players = [seat.player for seat in card.playing]
    return CallForm(data, players=players, auto_id="timer_%s", initial={"kind": "timeout"})


def poll_token(table: Table) -> str:
    """What the card polls with: the table's token, as every live page polls its own (its
    hands, calls and penalties, and the tournament's changes: a player renamed), from the
    table as this request read it (its binding, or the hand it recorded): no query."""
    return read_table_token(table)


def label(table: Table) -> str:
    """Who the revisor's changes are kept as made by (read in the TD's language later)."""
    return revisor_label(table.number)


def _render(
    request: RevisorRequest,
    card: Card,
    *,
    points_form: HandPointsForm | None = None,
    call_form: GeneralCallForm | None = None,
    timer: CallForm | None = None,
    status: int = 200,
    **extra: object,
) -> HttpResponse:
    context = {
        "card": card,
        "points_form": points_form
        or HandPointsForm(seats=card.playing, hand_number=card.next_hand),
        "call_form": call_form or GeneralCallForm(),
        "timer_form": timer or timer_form(card),
        "token": poll_token(card.table),
        "device": device_state(card),
        "queue_token": queue_token(card.table),
        "offline_rows": OFFLINE_ROWS,
        "service_worker": worker.offered(request),
        **extra,
    }
    template = f"{TEMPLATE}#main" if request.htmx else TEMPLATE
    return vary_on_htmx(render(request, template, context, status=status))


@revisor_required
def card(request: RevisorRequest) -> HttpResponse:
    seen(request.revisor_table)
    return _render(request, read_card(request.revisor_table))


def _refused_call(
    request: RevisorRequest, card: Card, form: CallForm | GeneralCallForm
) -> HttpResponse:
    """The card with the call form that was refused, in its place (the timer's or the card's)."""
    if isinstance(form, CallForm):
        return _render(request, card, status=400, timer=form)
    return _render(request, card, status=400, call_form=form)


def _stale_form(card: Card, shown: str | None) -> bool:
    """True when the page's form, for hand `shown`, can no longer record that hand."""
    return shown is not None and (card.state.is_over or shown != str(card.next_hand))


def _row_id(text: str | None) -> int | None:
    """A row's id as a URL gives it ("12"), or None: digits only, and no more of them than
    a row id has (Python refuses to read thousands of digits as a number)."""
    if text is None or not (text.isascii() and text.isdigit()) or len(text) > 19:
        return None
    return int(text)


def answer_unchanged_poll(request: HttpRequest, ids: dict[str, object]) -> HttpResponse | None:
    """A tablet's poll of its card, answered before its session and the rest of the
    middleware (`LivePollMiddleware`): 204 when the card shows its table's token already,
    or a newer one; None sends it the whole way (the session, the binding, `summary`).

    The poll names the card's tournament and table (`t`, `table`), and their token is the
    table's public score card's, read with the room's at most once a second per process
    (`table_token`): a tablet's unchanged poll was its session and its binding, 3.8 ms in
    process where a phone's is 0.5 (bench/bench_public.py). Nothing is lost by not
    looking at the session: every change that cuts a tablet off its table (its code
    replaced, the draw redone, the level closed) moves that token, and a 204 tells nothing
    that the table's public page does not."""
    tournament_id, table_id = _row_id(request.GET.get("t")), _row_id(request.GET.get("table"))
    if tournament_id is None or table_id is None or _seen_due(table_id):
        return None  # once a minute the whole way: the card is seen (`seen`)
    token = table_token(tournament_id, table_id)
    if token is None or not shows_already(request.GET["rev"], token):
        return None
    response = HttpResponse(status=204, headers={"Cache-Control": "private"})
    return vary_on_htmx(response)


@revisor_required
def summary(request: RevisorRequest) -> HttpResponseBase:
    """The polled, read-only part of the card (204 while nothing changed).

    `hand` is the hand the page's form is for: when that hand can no longer be
    recorded, the answer is the whole card, to replace the page's.
    """
    table = request.revisor_table
    seen(table)
    token = poll_token(table)
    nothing_new = unchanged(request, token)
    if nothing_new is not None:
        return nothing_new
    card = read_card(table)
    asked = request.GET.get("hand", "")
    shown = asked if asked.isdigit() and len(asked) <= 5 else None  # a hand number, or none
    if shown is not None and _stale_form(card, shown):
        recorded = not card.state.is_over and int(shown) < card.next_hand
        response = _render(request, card, moved_on=shown if recorded else None)
        for header, value in WHOLE_CARD.items():
            response[header] = value
        # Which form this answer replaces: the page ignores it if the form changed meanwhile.
        response["X-Replaces-Hand"] = shown
        return response
    response = render(
        request,
        "tournament/revisor/_summary_poll.html",
        {"card": card, "token": token, "device": device_state(card)},
    )
    return vary_on_htmx(response)


# What the poll middleware answers with (live.middleware.live_view_of).
summary.answer_poll = answer_unchanged_poll  # type: ignore[attr-defined]


def _after_post(
    request: RevisorRequest, known: tuple[TableState, list[Seat]] | None = None
) -> HttpResponseBase:
    """Without htmx: post, redirect, get. With htmx: the fresh card in place (`known`: its
    state and seats, as `read_card` takes them)."""
    if request.htmx:
        return _render(request, read_card(request.revisor_table, known))
    return redirect("revisor:card")


def _refused(
    request: RevisorRequest, table: Table, number: int, error: ServiceError
) -> HttpResponseBase:
    """A hand that cannot be recorded here any more: the fresh card, with why."""
    if isinstance(error, TableOver):
        # The card's box says how the table ended (and whether the TD settled a tie).
        messages.error(
            request, _("Hand %(hand)d was not recorded: the table is over.") % {"hand": number}
        )
        table.refresh_from_db()
    else:
        messages.error(request, conflict_message(error, table, number))  # reads the table afresh
    return _after_post(request)


def conflict_message(error: ServiceError, table: Table, number: int) -> str:
    """Why hand `number` was refused, `table` read afresh: `already_recorded` when another
    device recorded it meanwhile, else the service's words."""
    table.refresh_from_db()
    if number <= table.hands_played:
        return already_recorded(number, table.hands_played, table.number)
    return str(error)


def already_recorded(number: int, hands_played: int, table_number: int) -> str:
    """Hand `number` came from this tablet after another device had recorded it: said with
    the card it lands on, which shows it (not "reload", not only "the TD can correct it"
    while the revisor still may)."""
    values = {"hand": number, "table": table_number}
    if number == hands_played:
        return (
            _(
                "Hand %(hand)d is already recorded at table %(table)d, from another device: "
                "the card shows it. If it is wrong, fix it until the next hand is recorded."
            )
            % values
        )
    return (
        _(
            "Hand %(hand)d is already recorded at table %(table)d, from another device: the "
            "card shows it. Only the TD can correct it now."
        )
        % values
    )


def _not_recordable(state: TableState, table: Table, number: int) -> ServiceError | None:
    """The error recording hand `number` would meet now (as hands.record_hand), or None."""
    if number <= state.hands_played:
        return HandConflict(already_recorded(number, state.hands_played, table.number))
    if state.is_over:
        return TableOver("")  # the card says why it is over
    if number != state.hands_played + 1:
        return HandConflict(
            _("The next hand at this table is hand %(next)d, not %(given)d.")
            % {"next": state.hands_played + 1, "given": number}
        )
    return None


def _checks(request: HttpRequest) -> bool:
    """A check of the points (or back from it to the form): nothing is recorded."""
    return request.POST.get("step") in (CHECK, CHANGE)


@reads_only(when=_checks)
@revisor_required
def record(request: RevisorRequest) -> HttpResponseBase:
    """Record the next hand as points; a replay of the same submission records nothing twice.

    When the table confirms points, a first POST (`step=check`) shows them to read
    out; `step=confirm` records them and `step=change` brings the form back.
    """
    if request.method != "POST":
        return redirect("revisor:card")
    table = request.revisor_table
    state, seats = cached_state(table)
    playing = [s for s in seats if s.id in state.active_seat_ids]
    form = HandPointsForm(request.POST, seats=playing)
    step = request.POST.get("step")
    if not form.is_valid():
        return _render(request, read_card(table), points_form=form, status=400)
    if step == CHANGE:
        return _render(request, read_card(table), points_form=form)
    if table.level.tournament.table_confirms_points and step != CONFIRM:
        return _points_readback(request, table, state, form)
    return _record_points(request, table, form)


def _points_readback(
    request: RevisorRequest, table: Table, state: TableState, form: HandPointsForm
) -> HttpResponseBase:
    """Read out to the table first; nothing is recorded before "Confirm"."""
    number = form.cleaned_data["hand_number"]
    error = _not_recordable(state, table, number)
    if error is not None:
        return _refused(request, table, number, error)
    card = read_card(table)
    points, fantasyland = form.points(), form.fantasyland()
    readback = points_readback(card.playing, points, fantasyland)
    return _render(request, card, points_form=form, readback=readback)


def _record_points(request: RevisorRequest, table: Table, form: HandPointsForm) -> HttpResponseBase:
    number = form.cleaned_data["hand_number"]
    try:
        recorded = hands.record_hand(table=table, actor_label=label(table), **form.service_kwargs())
    except (HandConflict, TableOver) as error:
        # Someone else recorded it (or the table is over): show the fresh card.
        return _refused(request, table, number, error)
    except ServiceError as error:
        add_service_error(form, error)
        return _render(request, read_card(table), points_form=form, status=400)
    # Sent again by the page after a lost connection: the revisor sent it once.
    if recorded.created or resent_after_lost_connection(request):
        messages.success(request, _("Hand %(hand)d recorded ✓") % {"hand": number})
    else:
        messages.info(
            request,
            _("Hand %(hand)d was already recorded (the same entry arrived twice).")
            % {"hand": recorded.hand.number},
        )
    if not recorded.created:
        request.revisor_table.refresh_from_db()
        return _after_post(request)
    # Read for the hand and written with it, at the revision it read: as fresh as a new read.
    request.revisor_table = recorded.hand.table
    assert recorded.state is not None  # a hand recorded now: the state it made
    return _after_post(request, known=(recorded.state, list(recorded.seats)))


@revisor_required
def call(request: RevisorRequest) -> HttpResponseBase:
    """Call the TD to the table; the call shows on the TD's dashboard until cleared.

    The timer's forms (`player` sent) name the player: the one timed out, or the one who
    acted in time and is to be warned."""
    if request.method != "POST":
        return redirect("revisor:card")
    table = request.revisor_table
    card = read_card(table)
    named = "player" in request.POST
    form = timer_form(card, request.POST) if named else GeneralCallForm(request.POST)
    if not form.is_valid():
        return _refused_call(request, card, form)
    data = form.cleaned_data
    players = {seat.player.pk: seat.player for seat in card.playing}

    try:
        calls.call_td(
            table=table,
            kind=data["kind"],
            note=data["note"],
            player=players.get(data["player"]) if named else None,
            actor_label=label(table),
            key=data["submission_key"],
        )
    except AlreadyDone:
        messages.info(request, _("This call was already made: the TD was called once."))
    except ServiceError as error:
        add_service_error(form, error)
        return _refused_call(request, read_card(table), form)
    else:
        messages.success(request, _("The TD has been called to your table."))
    request.revisor_table.refresh_from_db()
    return _after_post(request)
