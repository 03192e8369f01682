"""TD pages: buy-ins, the prize pool and payouts (docs/prizes.md).

The form is a section of the settings page (`section`), and a page of its own where it
shows its errors, or the figures of values not saved yet ("Show the figures"). Unlike the
rules, the prize settings can change at any time: they move no result.
"""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournament.errors import ServiceError
from tournament.forms.fields import OnceForm
from tournament.forms.prizes import PrizeSettingsForm
from tournament.models import Tournament
from tournament.selectors.prizes import PrizeFigures, prize_figures
from tournament.services import prizes
from tournament.services.idempotency import AlreadyDone
from tournament.views.access import td_required
from tournament.views.refusals import add_service_error
from tournament.views.td.common import get_tournament

PAGE = "tournament/td/tournaments/prizes.html"
ONCE = "prizes"  # the one-time key's prefix: the settings page has a form of its own


def section(
    tournament: Tournament,
    form: PrizeSettingsForm | None = None,
    once: OnceForm | None = None,
    figures: PrizeFigures | None = None,
) -> dict[str, object]:
    """The prize section's context: its form, its one-time key and the figures shown."""
    return {
        "prize_form": PrizeSettingsForm(tournament=tournament) if form is None else form,
        "prize_once": OnceForm(prefix=ONCE) if once is None else once,
        "prize_figures": prize_figures(tournament) if figures is None else figures,
    }


def _page(
    request: HttpRequest,
    tournament: Tournament,
    status: int = 200,
    *,
    form: PrizeSettingsForm | None = None,
    once: OnceForm | None = None,
    figures: PrizeFigures | None = None,
    preview: bool = False,
) -> HttpResponse:
    context = {"tournament": tournament, "preview": preview}
    context.update(section(tournament, form=form, once=once, figures=figures))
    return render(request, PAGE, context, status=status)


@td_required
@require_http_methods(["GET", "POST"])
def prize_settings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_tournament(tournament_id)
    if request.method != "POST":
        return _page(request, tournament)
    form = PrizeSettingsForm(request.POST)
    once = OnceForm(request.POST, prefix=ONCE)
    if not once.is_valid():
        form.is_valid()
        form.add_error(
            None,
            _("This form is out of date (its key is missing). Check the values and send it again."),
        )
        return _page(request, tournament, 400, form=form, once=OnceForm(prefix=ONCE))
    if not form.is_valid():
        return _page(request, tournament, 400, form=form, once=once)
    if request.POST.get("action") == "preview":  # the figures of what was typed, not saved
        figures = prize_figures(tournament, settings=form.values())
        return _page(request, tournament, form=form, once=once, figures=figures, preview=True)
    try:
        prizes.update_prizes(
            tournament=tournament,
            actor=request.user,
            key=once.cleaned_data["submission_key"],
            **form.values(),
        )
    except AlreadyDone:
        messages.info(request, _("This form was already sent; nothing was changed again."))
    except ServiceError as error:
        add_service_error(form, error)
        return _page(request, tournament, 400, form=form, once=once)
    else:
        messages.success(request, _("Buy-ins and prizes saved."))
    return redirect(reverse("td:settings", args=[tournament.pk]) + "#prizes")
