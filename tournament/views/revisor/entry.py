"""Getting to the card: the private link, or the short code typed at /r/, of a table or
of a station (a table number for the whole event), and the station's waiting page."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from config.security import client_ip
from tournament.errors import InvalidEntry
from tournament.forms.revisor import ShortCodeForm
from tournament.live.polling import unchanged, vary_on_htmx
from tournament.models import REVISOR_CODE_ALPHABET, RevisorStation
from tournament.selectors.stations import station_with_key
from tournament.services import revisor_access
from tournament.services.revisor_stations import station_held
from tournament.views.access import HtmxHttpRequest
from tournament.views.revisor.binding import (
    bind,
    bind_station,
    current_binding,
    cut_off_reason,
    device_id,
    refuse,
    send_to,
)


def code(request: HttpRequest) -> HttpResponse:
    """Type the short code (or see why this device was cut off)."""
    status = 200
    form = ShortCodeForm(request.POST or None)
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                table = revisor_access.table_for_code(
                    code=form.cleaned_data["code"],
                    device=device_id(request),
                    client=client_ip(request),
                )
            except revisor_access.WrongCodesPaused as error:
                form.add_error(None, error.message)
                status = 429
            except InvalidEntry as error:
                form.add_error("code", error.message)
            else:
                if isinstance(table, RevisorStation):
                    bind_station(request, table)
                else:
                    bind(request, table)
                return redirect("revisor:card")
    binding = current_binding(request)
    return render(
        request,
        "tournament/revisor/code.html",
        {
            "form": form,
            "bound_table": binding.table,
            "cut_off": cut_off_reason(request, binding),
            "alphabet": REVISOR_CODE_ALPHABET,
        },
        status=status,
    )


def link(request: HttpRequest, key: str) -> HttpResponse:
    """The private link from the QR code: bind this device to its table."""
    table = revisor_access.table_in_play(revisor_key=key)
    if table is None:
        messages.error(
            request,
            _(
                "This link is not valid (any more): the TD may have issued a new one, or the "
                "draw was redone. Scan the QR code on your table's card."
            ),
        )
        return redirect("revisor:code")
    if table.draw.released_at is None:
        messages.error(request, revisor_access.not_released_message(table))
        return redirect("revisor:code")
    bind(request, table)
    return redirect("revisor:card")


def station_link(request: HttpRequest, key: str) -> HttpResponse:
    """A station's private link (its card is printed once for the event): bind to it."""
    station = station_with_key(key)
    if station is None:
        messages.error(
            request,
            _(
                "This station link is not valid (any more): the TD may have issued a new one. "
                "Scan the QR code on your station's card."
            ),
        )
        return redirect("revisor:code")
    bind_station(request, station)
    return redirect("revisor:card")


def station_waiting(request: HtmxHttpRequest) -> HttpResponseBase:
    """A station whose number has no table at the level in play: say so, and poll until a
    draw seats it (the poll then opens the card)."""
    binding = current_binding(request)
    if binding.station is None:
        return refuse(request, binding)
    if binding.table is not None:
        return send_to(request, "revisor:card")
    station = binding.station
    finished = station.tournament.finished_at is not None
    # The tournament's end changes the page (and stops its poll): a device waiting at a
    # station the final did not use says so within a poll.
    token = f"station-{station.pk}-{'finished' if finished else 'waiting'}"
    if request.htmx:
        poll = unchanged(request, token)
        if poll is not None:
            return poll
    # Only for the page itself: an unchanged poll stays as cheap as before.
    held = not finished and station_held(station)
    return vary_on_htmx(
        render(
            request,
            "tournament/revisor/station_waiting.html",
            {
                "station": station,
                "finished": finished,
                "held": held,
                "token": token,
                "poll_url": reverse("revisor:station_waiting"),
            },
        )
    )
