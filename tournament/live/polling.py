"""The server side of the one polling mechanism (static/js/poll.js)."""

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import patch_vary_headers

from tournament.models import Tournament


def unchanged(request: HttpRequest, token: str | None) -> HttpResponse | None:
    """A poll that already shows `token`: answer 204 No Content, and htmx leaves the page."""
    if request.GET.get("rev") == token:
        response = HttpResponse(status=204)
        patch_vary_headers(response, ["HX-Request"])
        return response
    return None


def vary_on_htmx[R: HttpResponseBase](response: R) -> R:
    """One URL serves the page and its fragment: caches must tell them apart."""
    patch_vary_headers(response, ["HX-Request"])
    return response


def polling_ends(tournament: Tournament) -> bool:
    """Whether a live region of the tournament's players' pages or projectors polls no more
    (its `data-poll-stop`). What a region shows may be settled long before (an earlier
    level, a closed table, a search not typed yet), but the TD's announcement comes and
    goes on every one of them (`.announcement`, read with the tournament): they poll until
    the tournament is over, and after it while an announcement stands, so that its
    withdrawal reaches them too."""
    # `.announcement`: read with the tournament (selectors.public.public_tournament).
    return tournament.finished_at is not None and tournament.announcement is None  # type: ignore[attr-defined]
