"""POST /r/card/queued/: one hand the card queued while offline, sent when the network is
back (static/js/revisor-queue.js), answered as JSON: recorded, already recorded, or
refused with why (and then held for the TD). See services/held_hands.py, docs/offline.md.

The card names its table by a signed token it was given with the page (`queue_token`):
a device whose binding ended meanwhile (the level closed, the draw redone, its access
replaced) still has its hands kept, as held hands, never recorded by it nor lost.
"""

import json
from dataclasses import dataclass
from typing import Any

from django.core import signing
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.errors import ServiceError
from tournament.forms.hands import HandCardsForm
from tournament.models import Table
from tournament.selectors.card import read_card
from tournament.selectors.tables import bound_table
from tournament.services import held_hands
from tournament.views.revisor.binding import current_binding, cut_off_reason
from tournament.views.revisor.card import QUEUE_SALT, label

MAX_BODY = 20_000


def _token_table(token: object) -> Table | None:
    try:
        data = signing.loads(str(token), salt=QUEUE_SALT)
    except signing.BadSignature:
        return None
    table_id = data.get("table") if isinstance(data, dict) else None
    return bound_table(table_id) if isinstance(table_id, int) else None


def _expected(value: Any) -> held_hands.Expected:
    if not isinstance(value, dict):
        raise ValueError("expect")
    playing = tuple(int(p) for p in value["playing"])
    fl = value.get("fantasyland")
    totals = value.get("totals")
    dealer = value.get("dealer")
    return held_hands.Expected(
        playing=playing,
        fantasyland=None if fl is None else tuple(int(p) for p in fl),
        dealer=None if dealer is None else int(dealer),
        totals=None if totals is None else {int(p): int(t) for p, t in totals.items()},
    )


def _cards(
    table: Table, number: int, key: object, entry: dict[str, Any], playing: tuple[int, ...]
) -> tuple[dict[str, Any], str | None]:
    """A hand typed by cards offline, read as the cards page reads it: the entry with its
    boards, or why it cannot be (held: the TD sees what was typed)."""
    fields = entry.get("fields")
    if not isinstance(fields, dict):
        return entry, _("Enter the cards of every player in the hand.")
    seats = [seat for seat in read_card(table).seats if seat.position in playing]
    data = {**fields, "hand_number": str(number), "idempotency_key": str(key)}
    form = HandCardsForm(data, seats=seats)
    if not form.is_valid():
        errors = [str(e) for errors in form.errors.values() for e in errors]
        return entry, " ".join(errors)
    return {"mode": "cards", "fields": fields, "boards": form.boards()}, None


def _refused(reason: str, status: int = 400) -> JsonResponse:
    return JsonResponse(
        {"status": held_hands.REFUSED, "reason": reason, "kept": False}, status=status
    )


@dataclass(frozen=True)
class Sent:
    """One queued hand as the card sent it."""

    token: object
    number: int
    key: object
    entry: dict[str, Any]
    expect: held_hands.Expected
    after_refused: int | None


def _read(raw: bytes) -> Sent | None:
    """The card's JSON, or None when it cannot be read."""
    try:
        body = json.loads(raw)
        number, expect, entry = int(body["hand"]), _expected(body["expect"]), body["entry"]
        after = body.get("after_refused")
        if not isinstance(entry, dict) or not 1 <= number <= 999:
            return None
        return Sent(
            body.get("token"),
            number,
            body.get("key"),
            entry,
            expect,
            None if after is None else int(after),
        )
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def _hold_reason(request: HttpRequest, table: Table) -> str | None:
    """Why the device's hands are held whatever they say: it no longer keeps the table."""
    binding = current_binding(request)
    if binding.table is not None and binding.table.pk == table.pk:
        return None
    return cut_off_reason(request, binding) or _("This device no longer keeps this table.")


@require_POST
def queued(request: HttpRequest) -> HttpResponse:
    sent = _read(request.body) if len(request.body) <= MAX_BODY else None
    if sent is None:
        return _refused(_("This entry could not be read; it is kept on this device."))
    table = _token_table(sent.token)
    if table is None:
        return _refused(_("This device is not bound to a table."), status=403)
    hold, entry = _hold_reason(request, table), sent.entry
    if entry.get("mode") == "cards":
        entry, unreadable = _cards(table, sent.number, sent.key, entry, sent.expect.playing)
        hold = hold or unreadable
    try:
        answer = held_hands.receive_queued_hand(
            table=table,
            number=sent.number,
            key=sent.key,
            entry=entry,
            expect=sent.expect,
            actor_label=label(table),
            after_refused=sent.after_refused,
            hold_reason=hold,
        )
    except ServiceError as error:
        return _refused(str(error))
    return JsonResponse(
        {"status": answer.status, "hand": answer.hand, "reason": answer.reason, "kept": True}
    )
