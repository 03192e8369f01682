"""TD pages: stations (a table number's revisor link and code for the whole event), their
printable cards, making them, and a station's new link and code."""

import uuid
from collections.abc import Callable, Sequence

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from tournament.errors import ServiceError
from tournament.forms.fields import OnceForm
from tournament.models import RevisorStation, Tournament
from tournament.selectors.stations import station_numbered, tournament_stations
from tournament.services import revisor_stations
from tournament.services.draws import current_level
from tournament.services.idempotency import AlreadyDone
from tournament.services.revisor_stations import station_numbers_wanted
from tournament.views.access import post_only, td_required
from tournament.views.td.common import get_tournament
from tournament.web.public_address import address_warning, public_link
from tournament.web.qr import qr_svg


def station_access(request: HttpRequest, station: RevisorStation) -> dict[str, object]:
    """What a revisor needs to reach `station`: link, QR code, short code and where to type it."""
    link = public_link(request, reverse("revisor:station_link", args=[station.key]))
    return {
        "station": station,
        "link": link,
        "code": station.code,
        "code_address": public_link(request, reverse("revisor:code")),
        "qr": qr_svg(
            link,
            title=_("QR code of the revisor link for station %(number)s")
            % {"number": station.number},
        ),
    }


def _page(
    request: HttpRequest, tournament: Tournament, errors: Sequence[str] = (), status: int = 200
) -> HttpResponse:
    stations = tournament_stations(tournament)
    wanted = station_numbers_wanted(tournament)
    return render(
        request,
        "tournament/td/access/station_cards.html",
        {
            "tournament": tournament,
            "cards": [station_access(request, station) for station in stations],
            "missing": wanted > len(stations),
            "wanted": wanted,
            "level": current_level(tournament),
            "form": OnceForm(),
            "errors": errors,
            **address_warning(request),
        },
        status=status,
    )


@td_required
def station_cards(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _page(request, get_tournament(tournament_id))


def _submit(
    request: HttpRequest, tournament: Tournament, change: Callable[[uuid.UUID], object]
) -> tuple[object, HttpResponse | None]:
    """`change(key)` with this form's key (made once: an AlreadyDone for a repeat); an
    error goes back to the page."""
    form = OnceForm(request.POST)
    if not form.is_valid():
        stale = _("The form was out of date: nothing was changed. Try again.")
        return None, _page(request, tournament, errors=[stale], status=400)
    try:
        return change(form.cleaned_data["submission_key"]), None
    except AlreadyDone as repeat:
        return repeat, None
    except ServiceError as error:
        return None, _page(request, tournament, errors=[str(error)], status=400)


def _cards_url(tournament: Tournament) -> str:
    return reverse("td:station_cards", args=[tournament.pk])


def _station(tournament_id: int, number: int) -> RevisorStation:
    tournament = get_tournament(tournament_id)
    station = station_numbered(tournament, number)
    if station is None:
        raise Http404("No such station in this tournament.")
    return station


@td_required
@post_only(lambda tournament_id: _cards_url(get_tournament(tournament_id)))
def stations_create(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_tournament(tournament_id)
    done, page = _submit(
        request,
        tournament,
        lambda key: revisor_stations.create_stations(
            tournament=tournament, actor=request.user, key=key
        ),
    )
    if page is not None:
        return page
    if not isinstance(done, AlreadyDone) and done:
        messages.success(request, _("The station cards are ready to print."))
    return redirect("td:station_cards", tournament.pk)


@td_required
@post_only(lambda tournament_id, number: _cards_url(_station(tournament_id, number).tournament))
def station_regenerate(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    station = _station(tournament_id, number)
    tournament = station.tournament
    done, page = _submit(
        request,
        tournament,
        lambda key: revisor_stations.regenerate_station_access(
            station=station, actor=request.user, key=key
        ),
    )
    if page is not None:
        return page
    if not isinstance(done, AlreadyDone):
        messages.success(
            request,
            _(
                "Station %(number)s has a new link and code: devices holding the old ones are "
                "cut off. Print its card again."
            )
            % {"number": number},
        )
    return redirect("td:station_cards", tournament.pk)
