"""The players' own check-in at the door (docs/check-in.md): the one public page that
writes. A player finds his name as on "Where do I sit?" (lib/search.py), types the code
shown at the door (or arrives with it from the sign's QR code) and checks himself in.

Not a live page: it carries a CSRF token and a one-time key, and is never kept.
"""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_http_methods

from config.security import client_ip
from tournament.errors import InvalidEntry, ServiceError
from tournament.forms.public import SelfCheckInForm
from tournament.lib.search import search
from tournament.models import Tournament
from tournament.selectors.tournaments import RosterEntry, check_in_candidates, td_tournament
from tournament.services import checkin
from tournament.services.idempotency import AlreadyDone

TEMPLATE = "tournament/public/check_in.html"


def _query(request: HttpRequest) -> str:
    return request.GET.get("q", "").strip()[:80]


def _page(
    request: HttpRequest,
    tournament: Tournament,
    entries: list[RosterEntry],
    form: SelfCheckInForm | None = None,
    status: int = 200,
) -> HttpResponse:
    query = _query(request)
    found = search(query, entries, name=lambda entry: entry.player.name) if query else []
    if form is None:
        only = found[0].player.pk if len(found) == 1 else None
        initial = {"code": request.GET.get("code", "")[:20], "player": only}
        form = SelfCheckInForm(players=[e.player for e in entries], initial=initial)
    done = request.GET.get("done", "")
    context = {
        "tournament": tournament,
        "open": checkin.self_check_in_open(tournament),
        "closed_message": checkin.self_check_in_closed_message(tournament),
        "query": query,
        "found": found,
        "form": form,
        "done": next(
            (e.player for e in entries if str(e.player.pk) == done and e.checked_in), None
        ),
        "code": request.GET.get("code", "")[:20],
    }
    return render(request, TEMPLATE, context, status=status)


@require_http_methods(["GET", "POST"])
def check_in(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET: find your name (`?q=`); POST: check in as the player chosen, with the code."""
    tournament = td_tournament(tournament_id)  # read afresh, not the room's kept copy
    if tournament is None:
        raise Http404("No such tournament.")
    entries = check_in_candidates(tournament)
    if request.method != "POST":
        return _page(request, tournament, entries)
    form = SelfCheckInForm(request.POST, players=[e.player for e in entries])
    if not form.is_valid():
        return _page(request, tournament, entries, form, status=400)
    data = form.cleaned_data
    player = next(e.player for e in entries if e.player.pk == data["player"])
    try:
        checkin.self_check_in(
            player=player, code=data["code"], client=client_ip(request), key=data["submission_key"]
        )
    except AlreadyDone:
        pass  # the same tap sent twice: he is checked in, once
    except ServiceError as error:
        paused = isinstance(error, checkin.WrongCodesPaused)
        form.add_error("code" if paused or isinstance(error, InvalidEntry) else None, str(error))
        return _page(request, tournament, entries, form, status=429 if paused else 400)
    done = reverse("public:check_in", args=[tournament.pk]) + "?" + urlencode({"done": player.pk})
    return redirect(done)
