"""Binding a revisor's device to one table, and the one access helper of the /r/ space.

Opening the table's private link (or typing its short code) stores the table and
its current key in this browser's session (server-side, signed cookie). Every
revisor request checks the binding before any view logic: the key must still be
the table's (the TD regenerating it cuts the device off) and the table's draw
must still be current (a redone draw ends it). The card itself names no table in
its URL, so a device can reach no other table.
"""

from dataclasses import dataclass
from functools import wraps

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from tournament.models import Table

SESSION_KEY = "revisor_binding"


@dataclass(frozen=True)
class Binding:
    table: Table | None
    problem: str | None  # why the device is not (or no longer) bound, for the person holding it


def bind(request, table):
    """Bind this device to `table` (a new session id: no fixation of an old one)."""
    request.session.cycle_key()
    request.session[SESSION_KEY] = {"table": table.pk, "key": table.revisor_key}


def unbind(request):
    request.session.pop(SESSION_KEY, None)


def current_binding(request):
    saved = request.session.get(SESSION_KEY)
    if not isinstance(saved, dict):
        return Binding(None, _("This device is not bound to a table yet."))
    table = (
        Table.objects.select_related("level__tournament", "draw", "winner")
        .filter(pk=saved.get("table"))
        .first()
    )
    if table is None or table.revisor_key != saved.get("key"):
        return Binding(
            None,
            _(
                "The TD has issued a new link for this table: scan the new QR code or type "
                "the new short code."
            ),
        )
    if table.draw.superseded_at is not None:
        return Binding(None, _("The draw was redone: scan the QR code on your new table's card."))
    if table.level.closed_at is not None:
        return Binding(None, _("This level is closed: its results are final."))
    return Binding(table, None)


def revisor_required(view):
    """Refuse before any view logic unless this device is bound to a table still in play."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        binding = current_binding(request)
        if binding.table is None:
            if request.session.get(SESSION_KEY) is not None:
                unbind(request)
            messages.error(request, binding.problem)
            return redirect("revisor:code")
        request.revisor_table = binding.table
        return view(request, *args, **kwargs)

    return wrapper
