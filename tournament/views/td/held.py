"""TD: a hand a revisor's card recorded offline and the server held (docs/offline.md),
decided from the dashboard: recorded as the table's next hand after all, or discarded with
a reason kept. Both go back to the dashboard, saying what was done or why not."""

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from tournament.errors import ServiceError
from tournament.forms.fields import OnceForm
from tournament.forms.held import HeldHandDiscardForm
from tournament.selectors.dashboard import held_hand_of
from tournament.services import held_hands
from tournament.services.idempotency import AlreadyDone
from tournament.views.access import post_only, td_required
from tournament.views.td.common import get_tournament


def _dashboard(tournament_id: int, held_id: int) -> str:
    """The dashboard, once the held hand is found in the tournament (else 404)."""
    if held_hand_of(tournament_id, held_id) is None:
        raise Http404
    return reverse("td:tournament", args=[tournament_id]) + "#held-hands"


def _form_errors(form: OnceForm) -> str:
    return " ".join(str(error) for errors in form.errors.values() for error in errors)


@td_required
@post_only(_dashboard)
def held_record(request: HttpRequest, tournament_id: int, held_id: int) -> HttpResponse:
    tournament = get_tournament(tournament_id)
    back = _dashboard(tournament_id, held_id)
    form = OnceForm(request.POST)
    if not form.is_valid():
        messages.error(request, _form_errors(form))
        return redirect(back)
    key = form.cleaned_data["submission_key"]
    try:
        held = held_hands.record_held_hand(
            tournament=tournament, held_id=held_id, actor=request.user, key=key
        )
    except AlreadyDone:
        messages.info(request, _("This held hand was already recorded."))
    except ServiceError as error:
        messages.error(request, _("The held hand was not recorded: %(why)s") % {"why": error})
    else:
        assert held.recorded_hand is not None
        values = {"table": held.table.number, "hand": held.recorded_hand.number}
        messages.success(request, _("Table %(table)d: recorded as hand %(hand)d.") % values)
    return redirect(back)


@td_required
@post_only(_dashboard)
def held_discard(request: HttpRequest, tournament_id: int, held_id: int) -> HttpResponse:
    tournament = get_tournament(tournament_id)
    back = _dashboard(tournament_id, held_id)
    form = HeldHandDiscardForm(request.POST)
    if not form.is_valid():
        messages.error(
            request, _("The held hand was not discarded: %(why)s") % {"why": _form_errors(form)}
        )
        return redirect(back)
    data = form.cleaned_data
    try:
        held = held_hands.discard_held_hand(
            tournament=tournament,
            held_id=held_id,
            reason=data["reason"],
            actor=request.user,
            key=data["submission_key"],
        )
    except AlreadyDone:
        messages.info(request, _("This held hand was already discarded."))
    except ServiceError as error:
        messages.error(request, _("The held hand was not discarded: %(why)s") % {"why": error})
    else:
        values = {"table": held.table.number, "hand": held.number}
        messages.success(
            request, _("Table %(table)d: held hand %(hand)d discarded, and kept.") % values
        )
    return redirect(back)
