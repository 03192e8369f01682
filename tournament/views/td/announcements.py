"""The TD's announcement to the room: write one (with an optional end), see the one standing,
withdraw it. The players' pages and the projectors show it at their next poll."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from tournament.errors import ServiceError
from tournament.forms.fields import OnceForm
from tournament.forms.td import AnnouncementForm
from tournament.models import Tournament
from tournament.services import announcements
from tournament.services.idempotency import AlreadyDone, kept_for
from tournament.views.access import post_only, td_required
from tournament.views.td.common import get_tournament
from tournament.views.td.submit import (
    already_done,
    already_sent,
    carry_out,
    once_key,
    stale_form_message,
)

TEMPLATE = "tournament/td/announcements/announcement.html"


def _page(
    request: HttpRequest,
    tournament: Tournament,
    form: AnnouncementForm,
    once: OnceForm,
    *,
    status: int = 200,
) -> HttpResponse:
    context = {
        "tournament": tournament,
        "form": form,
        "once": once,
        "withdraw_once": OnceForm(prefix="withdraw"),
    }
    return render(request, TEMPLATE, context, status=status)


def _back(tournament: Tournament) -> str:
    return reverse("td:announcement", args=[tournament.pk])


@td_required
def announcement(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The standing announcement and the form to make a new one (which replaces it)."""
    tournament = get_tournament(tournament_id)
    if request.method != "POST":
        return _page(request, tournament, AnnouncementForm(), OnceForm())
    form = AnnouncementForm(request.POST)
    once, key = once_key(request, form)
    if key is not None and form.is_valid():
        text = {"tournament": tournament, "actor": request.user, **form.service_kwargs()}
        up = _("The announcement is up: the room sees it at its next poll.")
        made = carry_out(
            request,
            form,
            lambda: announcements.announce(key=key, **text),
            repeated=already_sent(),
            said=up,
        )
        if made is not None:
            return redirect(_back(tournament))
    elif key is not None and kept_for(key, "announcement.make"):
        already_done(request)  # made, and refused now (its end has passed)
        return redirect(_back(tournament))
    return _page(request, tournament, form, once, status=400)


@td_required
@post_only(lambda tournament_id: _back(get_tournament(tournament_id)))
def announcement_withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Take the standing announcement down."""
    tournament = get_tournament(tournament_id)
    once = OnceForm(request.POST, prefix="withdraw")
    if not once.is_valid():
        messages.error(request, stale_form_message())
        return redirect(_back(tournament))
    try:
        announcements.withdraw_announcement(
            tournament=tournament, actor=request.user, key=once.cleaned_data["submission_key"]
        )
    except AlreadyDone:
        already_done(request)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("The announcement is withdrawn."))
    return redirect(_back(tournament))
