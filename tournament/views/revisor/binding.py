"""Binding a revisor's device to one table, and the one access helper of the /r/ space.

Opening the table's private link (or typing its short code) stores the table and
its current key in this browser's session (server-side, signed cookie). Every
revisor request checks the binding before any view logic: the key must still be
the table's (the TD regenerating it cuts the device off) and the table's draw
must still be current (a redone draw ends it). The card itself names no table in
its URL, so a device can reach no other table.

A device that was cut off is sent to the code page by a real navigation, even from
an htmx poll or form (htmx would otherwise follow the redirect itself and swap the
code page into the card, at the card's address), and is told there why, until it
is bound again. Only that device's session holds the reason.

A device can instead be bound to a station (a table number for the whole event, its
card printed once): each request then opens the current draw's table with that number,
or the waiting page when the level in play has none. When the station's table changes
(the next level, a redone draw), anything but a plain load of the card is sent to the
card afresh, so nothing typed for the old table is recorded at the new one.
"""

import secrets
from dataclasses import dataclass
from functools import wraps
from typing import Any, cast

from django.contrib import messages
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect

from tournament.live.polling import vary_on_htmx
from tournament.models import RevisorStation, Table
from tournament.selectors.stations import bound_station
from tournament.selectors.tables import bound_table
from tournament.services.revisor_stations import station_table
from tournament.views.access import HtmxHttpRequest, View

SESSION_KEY = "revisor_binding"
CUT_OFF_KEY = "revisor_cut_off"  # why this device lost its table: {"why", "table", "level"}
DEVICE_KEY = "revisor_device"  # a random id of this device, for counting its wrong codes


@dataclass(frozen=True)
class Binding:
    table: Table | None
    lost: dict[str, Any] | None = (
        None  # why a device that was bound is not any more (see cut_off_reason)
    )
    station: RevisorStation | None = None  # the station this device is bound to, if any


class RevisorRequest(HtmxHttpRequest):
    """A request `revisor_required` let through: the table this device keeps (and its
    station, when it is bound to one), for the type checker."""

    revisor_table: Table
    revisor_station: RevisorStation | None


def bind(request: HttpRequest, table: Table) -> None:
    """Bind this device to `table` (a new session id: no fixation of an old one)."""
    request.session.cycle_key()
    request.session.pop(CUT_OFF_KEY, None)
    request.session[SESSION_KEY] = {"table": table.pk, "key": table.revisor_key}


def bind_station(request: HttpRequest, station: RevisorStation) -> None:
    """Bind this device to `station`: to its table number at every level."""
    request.session.cycle_key()
    request.session.pop(CUT_OFF_KEY, None)
    request.session[SESSION_KEY] = {"station": station.pk, "key": station.key, "table": None}


def unbind(request: HttpRequest) -> None:
    request.session.pop(SESSION_KEY, None)


def device_id(request: HttpRequest) -> str:
    """This device's id for the code throttle, made on first use; kept across bindings."""
    device = request.session.get(DEVICE_KEY)
    if not isinstance(device, str) or not device:
        device = secrets.token_hex(16)
        request.session[DEVICE_KEY] = device
    return device


def current_binding(request: HttpRequest) -> Binding:
    saved = request.session.get(SESSION_KEY)
    if not isinstance(saved, dict):
        return Binding(None)
    if "station" in saved:
        return _station_binding(saved)
    table_id = saved.get("table")  # the session is the server's: an id, or none
    table = bound_table(table_id) if isinstance(table_id, int) else None
    if table is None:
        return Binding(None)
    numbers = {"table": table.number, "level": table.level.number}
    if table.revisor_key != saved.get("key"):
        return Binding(None, {"why": "replaced", **numbers})
    if table.draw.superseded_at is not None:
        return Binding(None, {"why": "redrawn", **numbers})
    if table.level.closed_at is not None:
        return Binding(None, {"why": "closed", **numbers})
    return Binding(table)


def _station_binding(saved: dict[str, Any]) -> Binding:
    station_id = saved.get("station")
    station = bound_station(station_id) if isinstance(station_id, int) else None
    if station is None:
        return Binding(None)
    if station.key != saved.get("key"):
        return Binding(None, {"why": "station_replaced", "table": station.number, "level": 0})
    return Binding(station_table(station), station=station)


def cut_off_reason(request: HttpRequest, binding: Binding) -> str | None:
    """Why this device lost its table, for the person holding it; None if it did not."""
    lost = binding.lost or request.session.get(CUT_OFF_KEY)
    if not isinstance(lost, dict) or not isinstance(lost.get("table"), int):
        return None
    reasons = {
        "replaced": _(
            "This device's access to table %(table)d was replaced by the TD: type the table's "
            "new code, or scan its new QR code."
        ),
        "redrawn": _(
            "The TD redid the draw of level %(level)d, so this device no longer keeps table "
            "%(table)d: type the code on your new table's card, or scan its QR code."
        ),
        "station_replaced": _(
            "This device's access to station %(table)d was replaced by the TD: type the "
            "station's new code, or scan its new QR code."
        ),
        "closed": _(
            "Level %(level)d is closed and its results are final: this device no longer keeps "
            "table %(table)d."
        ),
    }
    reason = reasons.get(str(lost.get("why")))
    if reason is None:
        return None
    return reason % {"table": lost["table"], "level": lost.get("level") or 0}


def refuse(request: HtmxHttpRequest, binding: Binding) -> HttpResponseBase:
    """Send this device to the code page, as a whole page whatever asked."""
    if request.session.get(SESSION_KEY) is not None:
        unbind(request)
    if binding.lost is not None:
        request.session[CUT_OFF_KEY] = binding.lost
    elif request.session.get(CUT_OFF_KEY) is None:
        messages.error(request, _("This device is not bound to a table yet."))
    url = reverse("revisor:code")
    if request.htmx:
        # htmx follows a 302 itself and swaps what it gets in place: HX-Redirect makes it
        # load the code page as the page, at its own address.
        return vary_on_htmx(HttpResponseClientRedirect(url))
    return vary_on_htmx(redirect(url))


def send_to(request: HtmxHttpRequest, name: str) -> HttpResponseBase:
    """A whole page at `name`'s address, whatever asked (as `refuse`)."""
    url = reverse(name)
    if request.htmx:
        return vary_on_htmx(HttpResponseClientRedirect(url))
    return vary_on_htmx(redirect(url))


def station_moved(request: HtmxHttpRequest, binding: Binding) -> bool:
    """Whether the station's table is another than the one this device last showed
    (remembered now); a plain load of the card shows the new one and is let through."""
    saved = request.session[SESSION_KEY]
    table = binding.table
    assert table is not None  # a station's binding with a table to show
    if saved.get("table") == table.pk:
        return False
    request.session[SESSION_KEY] = {**saved, "table": table.pk}
    return not (
        request.method == "GET"
        and not request.htmx
        and request.resolver_match
        and (request.resolver_match.view_name == "revisor:card")
    )


SHOWN_HEADER = "X-Revisor-Table"
SHOWN_FIELD = "revisor_table"


def shown_table(request: HttpRequest) -> int | None:
    """The table the page that made this request showed (static/js/revisor.js sends it with
    every htmx request and every form), or None when it does not say.

    The binding is the browser's, the page a tab's: a tab left open on table 1 after table
    2's link was opened in another tab would otherwise record its hand at table 2."""
    value = request.headers.get(SHOWN_HEADER)
    if value is None and request.method == "POST":
        value = request.POST.get(SHOWN_FIELD)
    if value is None:
        return None
    return int(value) if value.isdigit() and len(value) < 12 else -1


def revisor_required[V: View](view: V) -> V:
    """Refuse before any view logic unless this device is bound to a table still in play."""

    @wraps(view)
    def wrapper(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        binding = current_binding(request)
        table = binding.table
        if table is None:
            if binding.station is not None:
                return send_to(request, "revisor:station_waiting")
            return refuse(request, binding)
        if binding.station is not None and station_moved(request, binding):
            messages.info(
                request,
                _("Level %(level)d: this device now keeps table %(table)d.")
                % {"level": table.level.number, "table": table.number},
            )
            return send_to(request, "revisor:card")
        shown = shown_table(request)
        if shown is not None and shown != table.pk:
            messages.error(
                request,
                _(
                    "This device now keeps table %(table)d: its link or code was opened in "
                    "another tab or window. Nothing was recorded from the page of the other "
                    "table; this is table %(table)d's card."
                )
                % {"table": table.number},
            )
            return send_to(request, "revisor:card")
        revisor = cast(RevisorRequest, request)  # what the revisor's views read, set here
        revisor.revisor_table = table
        revisor.revisor_station = binding.station
        return view(revisor, *args, **kwargs)

    return wrapper  # type: ignore[return-value]  # wraps() keeps the view's own signature
