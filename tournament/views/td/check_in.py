"""TD pages: players checking themselves in on their phones (docs/check-in.md).

The players page opens and closes self check-in and renews its code (one POST, by the
form's `change`); the door sign is a printable page with the code in big type and a QR
code of the public check-in page carrying it. The TD's own tick is in players.py.
"""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournament.errors import ServiceError
from tournament.forms.td import SelfCheckInForm
from tournament.models import Tournament
from tournament.services import checkin
from tournament.services.idempotency import AlreadyDone
from tournament.views.access import td_required
from tournament.views.td.common import get_tournament
from tournament.views.td.submit import already_done, stale_form_message
from tournament.web.public_address import address_warning, public_link
from tournament.web.qr import qr_svg


def check_in_link(request: HttpRequest, tournament: Tournament) -> str:
    """The public check-in page's address as phones reach it, carrying the code."""
    path = reverse("public:check_in", args=[tournament.pk])
    return public_link(request, path + "?" + urlencode({"code": tournament.check_in_code}))


def self_check_in_context(request: HttpRequest, tournament: Tournament) -> dict[str, object]:
    """What the players page shows of self check-in: open or not, the code, and a key for
    each of its two forms (open or close; a new code)."""
    return {
        "open": checkin.self_check_in_open(tournament),
        "code": tournament.check_in_code,
        "toggle": SelfCheckInForm(auto_id=False),
        "renew": SelfCheckInForm(auto_id=False),
    }


def _done_message(change: str) -> str:
    return {
        "open": _("Self check-in is open: players check themselves in with the door sign's code."),
        "close": _("Self check-in is closed: only you can check players in."),
        "renew": _("The check-in code is new: the old one no longer works. Print the sign again."),
    }[change]


@td_required
@require_http_methods(["GET", "POST"])
def self_check_in(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Open or close self check-in, or renew its code (POST); back to the list."""
    tournament = get_tournament(tournament_id)
    back = redirect(reverse("td:players", args=[tournament.pk]) + "#self-check-in")
    if request.method != "POST":
        return back
    form = SelfCheckInForm(request.POST)
    if not form.is_valid():
        messages.error(request, stale_form_message())
        return back
    change, key = form.cleaned_data["change"], form.cleaned_data["submission_key"]
    try:
        if change == "renew":
            checkin.renew_check_in_code(tournament=tournament, actor=request.user, key=key)
        else:
            opened = change == "open"
            checkin.set_self_check_in(
                tournament=tournament, actor=request.user, open=opened, key=key
            )
    except AlreadyDone:
        already_done(request)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _done_message(change))
    return back


@td_required
def door_sign(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The sign for the door, to print: the check-in code in big type and its QR code."""
    tournament = get_tournament(tournament_id)
    code = tournament.check_in_code
    link = check_in_link(request, tournament) if code else ""
    context = {
        "tournament": tournament,
        "open": checkin.self_check_in_open(tournament),
        "code": code,
        "link": link,
        "address": public_link(request, reverse("public:check_in", args=[tournament.pk])),
        "qr": qr_svg(link, title=_("QR code of the check-in page")) if code else "",
        **address_warning(request),
    }
    return render(request, "tournament/td/players/door_sign.html", context)
