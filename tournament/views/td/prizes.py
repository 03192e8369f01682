"""TD pages: buy-ins, the prize pool and payouts (docs/prizes.md).

The form is a section of the settings page (`section`), and a page of its own where it
shows its errors, or the figures of values not saved yet ("Show the figures"). Unlike the
rules, the prize settings can change at any time: they move no result.
"""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournament.forms.fields import OnceForm
from tournament.forms.prizes import PrizeSettingsForm
from tournament.models import Tournament
from tournament.selectors.prizes import PrizeFigures, prize_figures
from tournament.services import prizes
from tournament.views.access import td_required
from tournament.views.td.common import get_tournament
from tournament.views.td.submit import already_sent, carry_out, once_key

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
    once, key = once_key(request, form, prefix=ONCE)
    if key is None or not form.is_valid():
        return _page(request, tournament, 400, form=form, once=once)
    if request.POST.get("action") == "preview":  # the figures of what was typed, not saved
        figures = prize_figures(tournament, settings=form.values())
        return _page(request, tournament, form=form, once=once, figures=figures, preview=True)
    done = carry_out(
        request,
        form,
        lambda: prizes.update_prizes(
            tournament=tournament, actor=request.user, key=key, **form.values()
        ),
        repeated=already_sent(),
        said=_("Buy-ins and prizes saved."),
    )
    if done is None:
        return _page(request, tournament, 400, form=form, once=once)
    return redirect(reverse("td:settings", args=[tournament.pk]) + "#prizes")
