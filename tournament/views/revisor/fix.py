"""The revisor fixes the last hand, until the next hand is recorded (then only the TD can).

A hand entered as points is fixed as points: the form, prefilled, saved with a reason.
When the tournament has "the table confirms points", the fix is read back first, as a new
hand by points is: "Check the fix" shows each player's points beside what they were ("was
-3, now +3") and changes nothing; "Confirm the fix" saves it, "Change the points" brings
the form back. The version being fixed travels with the readback, as with cards.

A hand entered as cards is fixed the way a new hand is entered by cards (cards.py):

1. `fix`: the card picker, prefilled with the hand's cards as recorded, and a reason.
2. `fix_check` ("Check the fix"): the cards scored as the correction will score them
   (the hand's own Fantasyland), each player's points shown beside what they were
   ("was -14, now +36") for the revisor to read out to the table. NOTHING is changed.
3. `fix_confirm`: `hands.correct_hand` adds a version; the old one is kept with the reason.

The submission key travels from the entry through the check to the confirm, so a double
tap corrects once; the version being fixed travels too (from the fix page on, by points as
by cards), so a fix made stale by a correction meanwhile (the TD's) is never saved over it:
`hands.correct_hand` refuses it under the table's lock, and the check refuses it already.
The revisor then sees the hand as it stands, with who changed it and when.
"""

import uuid
from collections.abc import Mapping
from contextlib import suppress
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from scoring import InvalidHand
from scoring.boards import ROWS
from tournament.errors import HandConflict, NotAllowed, ServiceError
from tournament.forms.hands import CorrectPointsForm
from tournament.forms.revisor import RevisorFixCardsForm
from tournament.live.polling import vary_on_htmx
from tournament.models import HandVersion, Table
from tournament.rules.hand_errors import invalid_hand_message
from tournament.selectors.hand_preview import FixReadbackLine, Preview, fix_readback, preview_fix
from tournament.selectors.hands import LastHand, last_hand
from tournament.services import hands
from tournament.services.stale import by_whom, clock
from tournament.views.refusals import add_service_error
from tournament.views.revisor.binding import RevisorRequest, revisor_required
from tournament.views.revisor.board_entry import picker_context, seat_boards
from tournament.views.revisor.card import label
from tournament.views.revisor.cards import edit_initial, fresh_card
from tournament.web.faults import reads_only, resent_after_lost_connection

TEMPLATE = "tournament/revisor/fix.html"
CARDS_TEMPLATE = "tournament/revisor/fix_cards.html"


def _not_fixable(
    request: RevisorRequest, table: Table, last: LastHand | None
) -> HttpResponseBase | None:
    """None when the revisor may fix the last hand; otherwise the card, saying why not."""
    if last is None:
        messages.info(request, _("No hand is recorded yet at this table."))
        return fresh_card(request)
    if table.is_over:
        # The score card has gone to the TD: a change now could change who advances.
        messages.error(request, _("The table is over: only the TD can correct its hands now."))
        return fresh_card(request)
    return None


def _checks(request: HttpRequest) -> bool:
    """A check of a fix by points (or back from it to the form): nothing is changed."""
    return request.POST.get("step") in ("check", "change")


@reads_only(when=_checks)
@revisor_required
def fix(request: RevisorRequest) -> HttpResponseBase:
    """The fix page of the last hand (a POST: a fix by points, or back from the check)."""
    table = request.revisor_table
    last = last_hand(table)
    refused = _not_fixable(request, table, last)
    if refused is not None:
        return refused
    assert last is not None  # _not_fixable refuses a table without one
    # Fixed the way it was entered (a tournament's entry mode is fixed before its first draw).
    if last.version.mode == HandVersion.Mode.CARDS:
        return _cards_entry(request, last)
    return _points_fix(request, table, last)


# ---------------------------------------------------------------- by points


def _points_initial(last: LastHand) -> dict[str, object]:
    initial: dict[str, object] = {"hand_number": last.hand.number, "version": last.version.version}
    for result in last.results:
        initial[f"points_{result.seat.position}"] = result.points
        initial[f"fantasyland_{result.seat.position}"] = result.fantasyland_next
    return initial


def _render_points(
    request: RevisorRequest,
    table: Table,
    last: LastHand,
    form: CorrectPointsForm,
    *,
    status: int = 200,
    readback: list[FixReadbackLine] | None = None,
    conflict: str | None = None,
) -> HttpResponse:
    context = {
        "form": form,
        "hand": last.hand,
        "version": last.version,
        "table": table,
        "confirms": table.level.tournament.table_confirms_points,
        "readback": readback,
        "conflict": conflict,
    }
    return render(request, TEMPLATE, context, status=status)


def _points_fix(request: RevisorRequest, table: Table, last: LastHand) -> HttpResponseBase:
    """The fix by points. With the table confirming points, `step=check` (the form's
    button) reads it back, `step=confirm` saves it, `step=change` brings the form back."""
    if request.method != "POST":
        form = CorrectPointsForm(initial=_points_initial(last), seats=last.seats)
        return _render_points(request, table, last, form)
    confirms = table.level.tournament.table_confirms_points
    step = request.POST.get("step")
    if confirms and step == "confirm" and _posted_key(request.POST) == last.version.idempotency_key:
        # This very fix is the hand's version now: the answer to it was lost on the way.
        _saved(request, False, last.hand.number)
        return redirect("revisor:card")
    form = CorrectPointsForm(request.POST, seats=last.seats)
    if not form.is_valid():
        return _render_points(request, table, last, form, status=400)
    if form.cleaned_data["hand_number"] != last.hand.number:
        return _points_for_another_hand(request, last, form)
    if confirms and step == "change":
        return _render_points(request, table, last, form)
    if confirms and step != "confirm":
        return _points_readback(request, table, last, form)
    return _save_points_fix(request, table, last, form)


def _points_for_another_hand(
    request: RevisorRequest, last: LastHand, form: CorrectPointsForm
) -> HttpResponseBase:
    """Back to the card, as a checked fix by cards goes: this page, now of the next hand
    with the fix typed for the one before, led round in a loop. What was typed is said,
    for the TD."""
    names = {seat.position: seat.player.name for seat in last.seats}
    typed = ", ".join(
        f"{names[position]} {points:+d}" for position, points in sorted(form.points().items())
    )
    messages.error(
        request,
        _("Hand %(hand)d is no longer the last hand: only the TD can correct it now.")
        % {"hand": form.cleaned_data["hand_number"]}
        + " "
        + _("Your fix, to tell the TD: %(points)s.") % {"points": typed},
    )
    return fresh_card(request)


def _points_readback(
    request: RevisorRequest, table: Table, last: LastHand, form: CorrectPointsForm
) -> HttpResponseBase:
    """Read out to the table first; nothing is changed before "Confirm"."""
    if form.cleaned_data["version"] != last.version.version:
        # Corrected since the fix was opened: it would be read out against another hand.
        return _points_conflict(request, table, last)
    readback = fix_readback(last, form.points(), form.fantasyland())
    return _render_points(request, table, last, form, readback=readback)


def _save_points_fix(
    request: RevisorRequest, table: Table, last: LastHand, form: CorrectPointsForm
) -> HttpResponseBase:
    try:
        # The service refuses the fix if the hand was corrected since the fix was opened
        # (its version travels with the form and the readback), under the table's lock.
        corrected = hands.correct_hand(
            hand=last.hand,
            actor=None,
            actor_label=label(table),
            only_if_last=True,
            **form.service_kwargs(),
        )
    except ServiceError as error:
        now = last_hand(table)
        if isinstance(error, HandConflict) and now is not None and _changed(now, form):
            return _points_conflict(request, table, now)
        add_service_error(form, error)
        return _render_points(request, table, last, form, status=400)
    _saved(request, corrected.created, last.hand.number)
    return redirect("revisor:card")


def _points_conflict(request: RevisorRequest, table: Table, last: LastHand) -> HttpResponse:
    """The fix page of the hand as it stands now, saying who changed it and when."""
    fresh = CorrectPointsForm(initial=_points_initial(last), seats=last.seats)
    conflict = _changed_meanwhile(last)
    return _render_points(request, table, last, fresh, status=409, conflict=conflict)


def _changed(last: LastHand | None, form: CorrectPointsForm | RevisorFixCardsForm) -> bool:
    """The hand (still the last) has another version than the one the fix was made from."""
    return (
        last is not None
        and last.hand.number == form.cleaned_data["hand_number"]
        and last.version.version != form.cleaned_data["version"]
    )


def _changed_meanwhile(last: LastHand) -> str:
    """What the revisor reads when the hand was corrected after the fix was opened (by
    the TD, or on another device): who, when, and what to do. The hand as it stands now
    is shown with it, and a fix made from it is a new one (a new key)."""
    version = last.version
    who = by_whom(version.created_by, version.entered_by_label)
    params = {"hand": last.hand.number, "time": clock(version.created_at), "who": who}
    if who:
        message = _(
            "Hand %(hand)d was changed at %(time)s by %(who)s after you opened this fix. "
            "Here it is as it stands now: fix it again if it is still wrong."
        )
    else:
        message = _(
            "Hand %(hand)d was changed at %(time)s after you opened this fix. "
            "Here it is as it stands now: fix it again if it is still wrong."
        )
    return message % params


# ---------------------------------------------------------------- by cards


def _cards_initial(last: LastHand) -> dict[str, object]:
    initial: dict[str, object] = {"version": last.version.version}
    for result in last.results:
        for row in ROWS:
            initial[f"{row}_{result.seat.position}"] = getattr(result, row)
    return initial


def _cards_form(
    last: LastHand,
    data: Mapping[str, Any] | None = None,
    initial: dict[str, object] | None = None,
) -> RevisorFixCardsForm:
    return RevisorFixCardsForm(
        data,
        seats=last.seats,
        hand_number=last.hand.number,
        initial=_cards_initial(last) if initial is None else initial,
    )


def _render_cards(
    request: RevisorRequest,
    last: LastHand,
    *,
    form: RevisorFixCardsForm,
    preview: Preview | None = None,
    conflict: str | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {
        "table": request.revisor_table,
        "hand": last.hand,
        "version": last.version,
        "form": form,
        "boards": seat_boards(last.seats, last.in_fantasyland, form),
        "preview": preview,
        "conflict": conflict,
        **picker_context(last.seats),
    }
    template = f"{CARDS_TEMPLATE}#main" if request.htmx else CARDS_TEMPLATE
    return vary_on_htmx(render(request, template, context, status=status))


def _cards_entry(request: RevisorRequest, last: LastHand) -> HttpResponse:
    """The picker prefilled with the hand's cards; a POST comes back from the check with
    the cards, the reason, the version and the submission key it carried."""
    data = request.POST
    if request.method != "POST" or data.get("hand_number") != str(last.hand.number):
        return _render_cards(request, last, form=_cards_form(last))
    initial = edit_initial(last.seats, data)
    if isinstance(data.get("reason"), str):
        initial["reason"] = data["reason"]
    with suppress(ValueError):  # otherwise the version as it stands
        initial["version"] = int(data.get("version", ""))
    initial.setdefault("version", last.version.version)
    return _render_cards(request, last, form=_cards_form(last, initial=initial))


def _stale(
    request: RevisorRequest, last: LastHand, form: RevisorFixCardsForm
) -> HttpResponseBase | None:
    """None when the checked form fixes the hand as it stands; otherwise the answer."""
    number = form.cleaned_data["hand_number"]
    if number < last.hand.number:
        messages.error(
            request,
            _("Hand %(hand)d is no longer the last hand: only the TD can correct it now.")
            % {"hand": number},
        )
        return fresh_card(request)
    if number > last.hand.number:
        form.add_error(None, _("This form was for another hand; reload the page."))
        return _render_cards(request, last, form=form, status=400)
    if form.cleaned_data["version"] != last.version.version:
        # Corrected meanwhile: what was checked was checked against another hand.
        return _cards_conflict(request, last)
    return None


def _cards_conflict(request: RevisorRequest, last: LastHand) -> HttpResponse:
    """Start again from the hand as it stands now (a new key: this fix was never saved),
    saying who changed it and when."""
    conflict = _changed_meanwhile(last)
    return _render_cards(request, last, form=_cards_form(last), conflict=conflict, status=409)


def _posted_fix(
    request: RevisorRequest, last: LastHand | None
) -> tuple[RevisorFixCardsForm, None] | tuple[None, HttpResponseBase]:
    """The fix posted, read and checked against the hand as it stands: (form, None) to go
    on with, or (None, the answer: the card saying why not, or the form with its errors)."""
    refused = _not_fixable(request, request.revisor_table, last)
    if refused is not None:
        return None, refused
    assert last is not None  # _not_fixable refuses a table without one
    form = _cards_form(last, request.POST)
    if not form.is_valid():
        return None, _render_cards(request, last, form=form, status=400)
    stale = _stale(request, last, form)
    if stale is not None:
        return None, stale
    return form, None


@reads_only()
@revisor_required
def fix_check(request: RevisorRequest) -> HttpResponseBase:
    """Check the fix: score the cards and show them against the hand as it was, changing
    nothing."""
    if request.method != "POST":
        return redirect("revisor:fix")
    table = request.revisor_table
    last = last_hand(table)
    form, answer = _posted_fix(request, last)
    if answer is not None:
        return answer
    assert form is not None and last is not None  # no answer: a form checked against it
    try:
        preview = preview_fix(table, last, form.boards())
    except InvalidHand as error:  # the form checks rows and duplicates: a safety net
        form.add_error(None, invalid_hand_message(error, [s.player.name for s in last.seats]))
        return _render_cards(request, last, form=form, status=400)
    return _render_cards(request, last, form=form, preview=preview)


def _saved(request: HttpRequest, created: bool, number: int) -> None:
    """ "Hand N corrected.", or that this fix was saved already (the same one sent twice, or
    one that crossed it). Sent again by the page after a lost connection, the revisor sent
    it once: corrected."""
    if created or resent_after_lost_connection(request):
        messages.success(request, _("Hand %(hand)d corrected.") % {"hand": number})
    else:
        messages.info(
            request, _("This correction of hand %(hand)d was already saved.") % {"hand": number}
        )


def _posted_key(data: Mapping[str, Any]) -> uuid.UUID | None:
    with suppress(ValueError, TypeError, AttributeError):
        return uuid.UUID(str(data.get("idempotency_key")))
    return None


@revisor_required
def fix_confirm(request: RevisorRequest) -> HttpResponseBase:
    """Save the checked fix as a new version; the same submission twice saves it once."""
    if request.method != "POST":
        return redirect("revisor:fix")
    table = request.revisor_table
    last = last_hand(table)
    if last is not None and _posted_key(request.POST) == last.version.idempotency_key:
        # This very fix is the hand's version now: the answer to it was lost on the way.
        _saved(request, False, last.hand.number)
        return fresh_card(request)
    form, answer = _posted_fix(request, last)
    if answer is not None:
        return answer
    assert form is not None and last is not None  # no answer: a form checked against it
    try:
        corrected = hands.correct_hand(
            hand=last.hand,
            actor=None,
            actor_label=label(table),
            only_if_last=True,
            **form.service_kwargs(),
        )
    except NotAllowed as error:  # the next hand was recorded meanwhile
        messages.error(request, str(error))
        return fresh_card(request)
    except ServiceError as error:
        # Corrected between the check above and the service's lock: refused there.
        now = last_hand(table)
        if isinstance(error, HandConflict) and now is not None and _changed(now, form):
            return _cards_conflict(request, now)
        add_service_error(form, error)
        return _render_cards(request, last, form=form, status=400)
    _saved(request, corrected.created, last.hand.number)
    return fresh_card(request)
