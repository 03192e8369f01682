"""TD pages: the register of players across this server's tournaments (docs/register.md).

The earlier players offered as the TD types a name on the players page (an htmx region),
a player's page with his earlier results, the register (list, search), the merge of two
entries of one person (a confirmation that shows both entries' tournaments), and the
setting that shows earlier results on the players' public pages.
"""

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournament.errors import ServiceError
from tournament.forms.fields import OnceForm
from tournament.selectors.register import (
    Person,
    earlier_results,
    merges,
    person_of,
    register_list,
    register_person,
    suggestions,
)
from tournament.services import register
from tournament.services.idempotency import AlreadyDone
from tournament.views.access import td_required
from tournament.views.td.common import get_player, get_tournament
from tournament.views.td.submit import already_done, stale_form_message
from tournament.views.td.tournaments import EARLIER_ONCE


@td_required
@require_GET
def earlier_players(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The players page's offer of earlier players like the name typed (htmx region)."""
    tournament = get_tournament(tournament_id)
    typed = request.GET.get("name", "").strip()[:80]
    context = {"suggested": suggestions(tournament, typed), "typed": typed, "chosen": ""}
    return render(request, "tournament/td/register/_earlier_players.html", context)


@td_required
@require_GET
def player(request: HttpRequest, tournament_id: int, player_id: int) -> HttpResponse:
    """A player as the TD sees him: his entry in the register and his earlier results
    (whatever the tournament shows the public)."""
    tournament = get_tournament(tournament_id)
    found = get_player(tournament, player_id)
    context = {
        "tournament": tournament,
        "player": found,
        "person": person_of(found),
        "earlier": earlier_results(found),
    }
    return render(request, "tournament/td/register/player.html", context)


@td_required
@require_POST
def earlier_results_setting(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Show the earlier results on the players' public pages, or keep them to the TD."""
    tournament = get_tournament(tournament_id)
    once = OnceForm(request.POST, prefix=EARLIER_ONCE)
    back = reverse("td:settings", args=[tournament.pk]) + "#earlier-results"
    if not once.is_valid():
        messages.error(request, stale_form_message())
        return redirect(back)
    public = request.POST.get("earlier_results_public") == "on"
    try:
        register.set_earlier_results_public(
            tournament=tournament,
            actor=request.user,
            public=public,
            key=once.cleaned_data["submission_key"],
        )
    except AlreadyDone:
        already_done(request)
    else:
        messages.success(request, _("Saved: who sees the players' earlier results."))
    return redirect(back)


@td_required
@require_GET
def register_page(request: HttpRequest) -> HttpResponse:
    """Every person of the register, or those whose name holds what was typed."""
    typed = request.GET.get("q", "").strip()[:80]
    context = {"people": register_list(typed), "query": typed, "merges": merges()}
    return render(request, "tournament/td/register/register.html", context)


def _person(entry_id: int) -> Person:
    person = register_person(entry_id)
    if person is None:
        raise Http404("No standing register entry of this id.")
    return person


@td_required
@require_GET
def merge_pick(request: HttpRequest, entry_id: int) -> HttpResponse:
    """The first step of a merge: find the entry of the same person (a search)."""
    person = _person(entry_id)
    typed = request.GET.get("q", "").strip()[:80]
    found = [p for p in register_list(typed) if p.entry.pk != person.entry.pk] if typed else []
    context = {"person": person, "query": typed, "found": found}
    return render(request, "tournament/td/register/merge_pick.html", context)


@td_required
@require_http_methods(["GET", "POST"])
def merge(request: HttpRequest, entry_id: int, into_id: int) -> HttpResponse:
    """The confirmation, with both entries' tournaments shown; its POST merges them."""
    person, into = _person(entry_id), _person(into_id)
    context = {"person": person, "into": into, "once": OnceForm()}
    if request.method != "POST":
        return render(request, MERGE_PAGE, context)
    form = OnceForm(request.POST)
    if not form.is_valid():
        return _merge_refused(request, context, stale_form_message())
    try:
        register.merge_entries(
            entry=person.entry,
            into=into.entry,
            actor=request.user,
            key=form.cleaned_data["submission_key"],
        )
    except AlreadyDone:
        already_done(request)
    except ServiceError as error:
        return _merge_refused(request, context, str(error))
    else:
        names = {"name": person.entry.name, "into": into.entry.name}
        messages.success(request, _("%(name)s is merged into %(into)s.") % names)
    return redirect(reverse("td:register"))


MERGE_PAGE = "tournament/td/register/merge.html"


def _merge_refused(request: HttpRequest, context: dict[str, object], refusal: str) -> HttpResponse:
    return render(request, MERGE_PAGE, {**context, "refusal": refusal}, status=400)
