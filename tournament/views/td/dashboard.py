"""TD pages: the tournament's home, and the live dashboard of its current level.

Before the first draw it says what to do next; during play it shows every table of
the current level (what needs the TD first) and updates itself through the one
polling mechanism; once the tournament is finished it shows the champion.
"""

import datetime

from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone

from tournament.forms.fields import OnceForm
from tournament.live.polling import unchanged, vary_on_htmx
from tournament.models import Tournament
from tournament.selectors.dashboard import (
    ORDERS,
    SILENT_AFTER_MINUTES,
    Dashboard,
    dashboard,
    live_revision,
)
from tournament.views.access import HtmxHttpRequest, td_required
from tournament.views.td.common import get_tournament

TEMPLATE = "tournament/td/dashboard/tournament.html"


def _order(request: HtmxHttpRequest) -> str:
    """How the TD sorts the tables: "needs a look" first (the default) or by number."""
    order = request.GET.get("order")
    return order if order in ORDERS else ORDERS[0]


def _render(
    request: HtmxHttpRequest, tournament: Tournament, rev: str | None, now: datetime.datetime
) -> HttpResponse:
    order = _order(request)
    board = dashboard(tournament, now=now, order=order)
    context = {
        "order": order,
        "tournament": tournament,
        "board": board,
        "rev": rev,
        "silent_after": SILENT_AFTER_MINUTES,
        # One key for the page's forms (clear a call, record or discard a held hand): each
        # changes one thing and the page is drawn again, with a new key, after it.
        "page_key": OnceForm(),
    }
    template = f"{TEMPLATE}#live" if request.htmx else TEMPLATE
    return vary_on_htmx(render(request, template, context))


@td_required
def tournament(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """The tournament's home: next steps, the live dashboard, or the champion."""
    now = timezone.now()
    rev = live_revision(tournament_id, now)
    tournament = get_tournament(tournament_id)
    return _render(request, tournament, rev, now)


def _poll(
    request: HtmxHttpRequest, tournament_id: int, now: datetime.datetime
) -> tuple[str | None, HttpResponse | None]:
    """A poll of the dashboard's revision: (its revision, the 204 when `?rev=` shows it
    already, else None)."""
    rev = live_revision(tournament_id, now)
    return rev, (unchanged(request, rev) if rev is not None else None)


@td_required
def live(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """The polled live region: 204 when nothing changed since `?rev=`, else the region."""
    now = timezone.now()
    rev, response = _poll(request, tournament_id, now)
    if response is not None:
        return response
    tournament = get_tournament(tournament_id)  # 404 for an unknown tournament
    return _render(request, tournament, rev, now)


@td_required
def alerts(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """The alerts bar of the TD's other pages: 204 when nothing changed since `?rev=`, else
    the bar with every open alert (the dashboard's own list)."""
    now = timezone.now()
    rev, response = _poll(request, tournament_id, now)
    if response is not None:
        return response
    tournament = get_tournament(tournament_id)  # 404 for an unknown tournament
    return render(request, ALERTS_BAR, alerts_bar_context(tournament, now=now, rev=rev))


ALERTS_BAR = "tournament/td/_alerts_bar.html"


def alerts_bar_context(
    tournament: Tournament,
    *,
    now: datetime.datetime | None = None,
    rev: str | None = None,
    board: Dashboard | None = None,
) -> dict[str, object]:
    """What the bar shows: every open alert (the dashboard's own list) and the revision
    its poll sends. `board`: the page's own dashboard read, when it made one (the close
    confirmation's), so that nothing is read twice."""
    now = now or timezone.now()
    return {
        "tournament": tournament,
        "board": board or dashboard(tournament, now=now, held=False),
        "rev": rev if rev is not None else live_revision(tournament.pk, now),
    }
