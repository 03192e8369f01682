"""TD pages: the players of a tournament.

Add one, paste a list (all or none; names already registered are skipped), rename,
withdraw or undo a withdrawal (each with a confirmation). A near-duplicate of a registered
name (the same letters but for case, accents, spacing or punctuation) is asked about first
(tournament/rules/names.py). Adding and withdrawing (and undoing it) stay open until the first
hand of level 1: after the first draw each of them redoes level 1's draw (a late player, a
no-show), and the page says so before. A name can always be corrected.
"""

import uuid
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from tournament.errors import InvalidEntry, ServiceError
from tournament.forms.fields import OnceForm
from tournament.forms.td import AddPlayerForm, PlayerListForm, RenamePlayerForm
from tournament.lib.search import search
from tournament.live.polling import unchanged, vary_on_htmx
from tournament.models import Player, Tournament
from tournament.rules.names import Line
from tournament.selectors.prizes import paying_players, pool_change
from tournament.selectors.tokens import tournament_revision
from tournament.selectors.tournaments import player_roster
from tournament.services import checkin, registration
from tournament.services.idempotency import AlreadyDone, kept_for
from tournament.services.registration import ListRegistered
from tournament.views.access import td_required
from tournament.views.refusals import add_service_error
from tournament.views.td.check_in import self_check_in_context
from tournament.views.td.common import get_player, get_tournament
from tournament.views.td.submit import already_done, stale_form_message

PAGE = "tournament/td/players/players.html"


def _players_url(tournament: Tournament, **query: object) -> str:
    url = reverse("td:players", args=[tournament.pk])
    if query:
        url += "?" + "&".join(f"{name}={value}" for name, value in query.items())
    return url


def _closed_message() -> str:
    return _("Play has started: players can no longer be added or withdrawn.")


def _redrawn(request: HttpRequest, tournament: Tournament) -> None:
    """What a change of the field after the first draw did to level 1 (services/registration)."""
    if tournament.release_draws_at_once:
        done = _(
            "Level 1 is drawn again with the change: every table's seating is new (the old "
            "draw is kept on the level's page). Print the new table cards."
        )
    else:
        done = _(
            "Level 1 is drawn again with the change, and held: only you see the new seating "
            "until you release it on the level's page."
        )
    messages.info(request, done)


def _key(
    request: HttpRequest, form: forms.BaseForm, prefix: str | None = None
) -> tuple[OnceForm, uuid.UUID | None]:
    """The POST's one-time key (a bound OnceForm), or None with the problem on `form`."""
    once = OnceForm(request.POST, prefix=prefix)
    if once.is_valid():
        return once, once.cleaned_data["submission_key"]
    form.add_error(None, stale_form_message())
    return OnceForm(prefix=prefix), None


def _carry_out[R](
    request: HttpRequest,
    form: forms.BaseForm,
    change: Callable[[dict[str, Any], uuid.UUID], R],
    *,
    action: str,
    prefix: str | None = None,
    refused: str | None = None,
) -> tuple[OnceForm, R | AlreadyDone | None]:
    """A player form's POST, carried out at most once: `change(cleaned_data, key)` runs when
    the form is valid, with the one-time key (services/idempotency.py). Returns the OnceForm
    to show again and what came of it: an AlreadyDone for the same submission sent again
    (also when the form is now refused by its own checks and its key made this `action`:
    "Anna is already registered" is Anna registered by it), the change's result, or None
    when the form goes back with its errors (a refused change's, then `refused` if given)."""
    once, key = _key(request, form, prefix=prefix)
    if key is None:
        return once, None
    if not form.is_valid():
        return once, (AlreadyDone() if kept_for(key, action) else None)
    try:
        return once, change(form.cleaned_data, key)
    except AlreadyDone as repeat:
        return once, repeat
    except ServiceError as error:
        add_service_error(form, error)
        if refused:
            form.add_error(None, refused)
        return once, None


def _add_form(tournament: Tournament, data: object = None) -> AddPlayerForm:
    """The add form, offering earlier players as the TD types (docs/register.md)."""
    url = reverse("td:earlier_players", args=[tournament.pk])
    return AddPlayerForm(data, tournament=tournament, suggestions_url=url)


def _page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    status: int = 200,
    add: tuple[AddPlayerForm, OnceForm] | None = None,
    paste: tuple[PlayerListForm, OnceForm] | None = None,
    refusal: str | None = None,
    template: str = PAGE,
) -> HttpResponse:
    roster = player_roster(tournament)
    add_form, add_once = add or (_add_form(tournament), OnceForm(prefix="add"))
    paste_form, paste_once = paste or (
        PlayerListForm(tournament=tournament),
        OnceForm(prefix="paste"),
    )
    # The check-in list's name filter, as "Where do I sit?" finds a name (lib/search.py).
    query = request.GET.get("q", "").strip()[:80]
    shown = roster.entries
    if query:
        shown = search(query, roster.entries, name=lambda entry: entry.player.name)
    field = registration.field_state(tournament)
    if request.GET.get("added") and add is None:
        add_form.fields["name"].widget.attrs["autofocus"] = True
    context = {
        "tournament": tournament,
        "roster": roster,
        "shown": shown,
        # Each row's tick or undo is a form of its own, with its own one-time key.
        "rows": [(entry, OnceForm(auto_id=False)) for entry in shown],
        "query": query,
        # Before the first draw the check-in list is a live region (docs/live.md): players
        # check themselves in.
        "rev": tournament_revision(tournament.pk) if field == registration.FIELD_OPEN else "",
        "self_check_in": self_check_in_context(request, tournament),
        "add_form": add_form,
        "add_once": add_once,
        "paste_form": paste_form,
        "paste_once": paste_once,
        "can_draw": not roster.drawn and roster.active >= 2,
        "field": field,
        "refusal": refusal,
        # What one more player does to the prize pool, shown by the add form.
        "pool": pool_change(tournament, roster.active, +1),
    }
    return vary_on_htmx(render(request, template, context, status=status))


@td_required
def players(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The player list; a POST adds one player. An htmx poll (`?rev=`) gets the check-in
    list's region, or 204 when nothing changed."""
    if request.method != "POST" and request.htmx and "rev" in request.GET:  # type: ignore[attr-defined]
        unmoved = unchanged(request, tournament_revision(tournament_id))
        if unmoved is not None:
            return unmoved
        return _page(request, get_tournament(tournament_id), template=PAGE + "#check_in_list")
    tournament = get_tournament(tournament_id)
    if request.method != "POST":
        return _page(request, tournament)
    field = registration.field_state(tournament)
    if field == registration.FIELD_CLOSED:
        return _page(request, tournament, status=400, refusal=_closed_message())
    # Level 1 drawn, no hand yet: the change draws it again (services/registration.py).
    late = field == registration.FIELD_LATE
    form = _add_form(tournament, request.POST)
    once, player = _carry_out(
        request,
        form,
        lambda data, key: registration.register_player(
            tournament=tournament, actor=request.user, key=key, **form.service_kwargs()
        ),
        action="player.register",
        prefix="add",
    )
    if isinstance(player, AlreadyDone):
        already_done(request)
        return redirect(_players_url(tournament))
    if player is not None:
        messages.success(
            request,
            _("%(name)s registered with start number %(number)d.")
            % {"name": player.name, "number": player.number},
        )
        if late:
            _redrawn(request, tournament)
        return redirect(_players_url(tournament, added=1))
    return _page(request, tournament, status=400, add=(form, once))


@td_required
def paste(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A pasted list, one name a line: every name registered, or none."""
    tournament = get_tournament(tournament_id)
    if request.method != "POST":
        return redirect(_players_url(tournament))
    field = registration.field_state(tournament)
    if field == registration.FIELD_CLOSED:
        return _page(request, tournament, status=400, refusal=_closed_message())
    # Level 1 drawn, no hand yet: the change draws it again (services/registration.py).
    late = field == registration.FIELD_LATE
    form = PlayerListForm(request.POST, tournament=tournament)
    once, done = _carry_out(
        request,
        form,
        lambda data, key: registration.register_players(
            tournament=tournament, actor=request.user, key=key, **form.service_kwargs()
        ),
        action="player.register_list",
        prefix="paste",
        refused=_("Nothing from the list was registered."),
    )
    if isinstance(done, AlreadyDone):
        already_done(request)
        return redirect(_players_url(tournament))
    if done is not None:
        _report_list(request, done)
        if late and done.players:
            _redrawn(request, tournament)
        return redirect(_players_url(tournament))
    return _page(request, tournament, status=400, paste=(form, once))


def _report_list(request: HttpRequest, done: ListRegistered) -> None:
    """What a pasted list did: the players registered, and the names skipped (no error)."""
    players = done.players
    if players:
        messages.success(
            request,
            _("Registered from the list: %(count)d (start numbers %(first)d to %(last)d).")
            % {"count": len(players), "first": players[0].number, "last": players[-1].number},
        )
    else:
        messages.info(request, _("Nothing new in the list: every name is already registered."))
    if done.linked:
        messages.info(
            request,
            _("Played here before, linked to the register by name: %(names)s.")
            % {"names": ", ".join(player.name for player in done.linked)},
        )
    registered = [line for line in done.skipped if line.same and line.same.number is not None]
    if registered:
        shown = ", ".join(_as_registered(line) for line in registered)
        messages.info(
            request,
            ngettext(
                "Skipped %(count)d name already registered: %(names)s.",
                "Skipped %(count)d names already registered: %(names)s.",
                len(registered),
            )
            % {"count": len(registered), "names": shown},
        )
    repeated = [line.name for line in done.skipped if line.same and line.same.number is None]
    if repeated:
        messages.info(
            request,
            ngettext(
                "Skipped %(count)d name that was already higher up in the list: %(names)s.",
                "Skipped %(count)d names that were already higher up in the list: %(names)s.",
                len(repeated),
            )
            % {"count": len(repeated), "names": ", ".join(repeated)},
        )


def _as_registered(line: Line) -> str:
    """A skipped name, with the start number of the player who has it (and whether he has
    withdrawn: the list does not bring him back, "Undo withdrawal" does)."""
    same = line.same
    assert same is not None  # a skipped line: the name it repeats
    known = {"name": same.name, "number": same.number}
    if same.withdrawn:
        return _("%(name)s (no. %(number)d, withdrawn)") % known
    return _("%(name)s (no. %(number)d)") % known


def _player(tournament: Tournament, player_id: int) -> Player:
    return get_player(tournament, player_id)


@td_required
def rename(request: HttpRequest, tournament_id: int, player_id: int) -> HttpResponse:
    tournament = get_tournament(tournament_id)
    player = _player(tournament, player_id)
    player.tournament = tournament
    template = "tournament/td/players/rename.html"
    if request.method != "POST":
        form = RenamePlayerForm(player=player)
        context = {"tournament": tournament, "player": player, "form": form, "once": OnceForm()}
        return render(request, template, context)
    form = RenamePlayerForm(request.POST, player=player)
    once, done = _carry_out(
        request,
        form,
        lambda data, key: registration.rename_player(
            player=player, actor=request.user, key=key, **form.service_kwargs()
        ),
        action="player.rename",
    )
    if isinstance(done, AlreadyDone):
        already_done(request)
        return redirect(_players_url(tournament))
    if done is not None:
        messages.success(
            request,
            _("Start number %(number)d is now called %(name)s.")
            % {"number": done.number, "name": done.name},
        )
        return redirect(_players_url(tournament))
    context = {"tournament": tournament, "player": player, "form": form, "once": once}
    return render(request, template, context, status=400)


@td_required
def withdraw(request: HttpRequest, tournament_id: int, player_id: int) -> HttpResponse:
    """A confirmation that names the player; its POST withdraws him (until level 1's first
    hand: after the first draw, level 1 is drawn again without him)."""
    return _change_status(
        request,
        tournament_id,
        player_id,
        change="withdraw",
        done_already=lambda player: player.withdrawn_at is not None,
        already=_("%(name)s has already withdrawn."),
        service=registration.withdraw_player,
        done=_("%(name)s has withdrawn."),
    )


@td_required
def reinstate(request: HttpRequest, tournament_id: int, player_id: int) -> HttpResponse:
    """A confirmation that names the player; its POST undoes his withdrawal (until level 1's
    first hand): the TD withdrew the wrong player, or the player came after all."""
    return _change_status(
        request,
        tournament_id,
        player_id,
        change="reinstate",
        done_already=lambda player: player.withdrawn_at is None,
        already=_("%(name)s has not withdrawn."),
        service=registration.reinstate_player,
        done=_("%(name)s is back in the draw."),
    )


def _change_status(
    request: HttpRequest,
    tournament_id: int,
    player_id: int,
    *,
    change: str,
    done_already: Callable[[Player], bool],
    already: str,
    service: Callable[..., object],
    done: str,
) -> HttpResponse:
    tournament = get_tournament(tournament_id)
    player = _player(tournament, player_id)
    player.tournament = tournament
    template = "tournament/td/players/status_change.html"
    field = registration.field_state(tournament)
    context = {
        "tournament": tournament,
        "player": player,
        "once": OnceForm(),
        "change": change,
        "late": field == registration.FIELD_LATE,
        # The prize pool before and after, shown before the TD confirms.
        "pool": pool_change(
            tournament, paying_players(tournament), -1 if change == "withdraw" else +1
        ),
    }
    if field == registration.FIELD_CLOSED:
        context["refusal"] = _closed_message()
        return render(request, template, context, status=400 if request.method == "POST" else 200)
    if done_already(player) and request.method != "POST":
        context["refusal"] = already % {"name": player.name}
        return render(request, template, context)
    if request.method != "POST":
        return render(request, template, context)
    form = OnceForm(request.POST)
    if not form.is_valid():
        context["refusal"] = stale_form_message()
        return render(request, template, context, status=400)
    try:
        service(player=player, actor=request.user, key=form.cleaned_data["submission_key"])
    except AlreadyDone:
        already_done(request)
    except ServiceError as error:
        context["refusal"] = str(error)
        return render(request, template, context, status=400)
    else:
        messages.success(request, done % {"name": player.name})
        if context["late"]:
            _redrawn(request, tournament)
    return redirect(_players_url(tournament))


@td_required
@require_http_methods(["GET", "POST"])
def check_in(request: HttpRequest, tournament_id: int, player_id: int) -> HttpResponse:
    """A tick at the door (POST): the player is here. Back to the list, its filter kept."""
    return _check_in_change(
        request, tournament_id, player_id, checkin.check_in, _("%(name)s is checked in.")
    )


@td_required
@require_http_methods(["GET", "POST"])
def undo_check_in(request: HttpRequest, tournament_id: int, player_id: int) -> HttpResponse:
    """Undo a tick (POST): kept in the log with who and when."""
    return _check_in_change(
        request,
        tournament_id,
        player_id,
        checkin.undo_check_in,
        _("Check-in of %(name)s undone."),
    )


def _check_in_change(
    request: HttpRequest,
    tournament_id: int,
    player_id: int,
    service: Callable[..., object],
    done: str,
) -> HttpResponse:
    tournament = get_tournament(tournament_id)
    player = _player(tournament, player_id)
    player.tournament = tournament
    if request.method != "POST":
        return redirect(_players_url(tournament))
    once = OnceForm(request.POST)
    try:
        if not once.is_valid():
            raise InvalidEntry(stale_form_message())
        service(player=player, actor=request.user, key=once.cleaned_data["submission_key"])
    except AlreadyDone:
        already_done(request)  # the same tap sent twice: made once
    except ServiceError as error:
        # A tap from another page, or the draw made meanwhile: said, nothing changed.
        messages.error(request, str(error))
    else:
        messages.success(request, done % {"name": player.name})
    query = request.POST.get("q", "").strip()[:80]
    url = _players_url(tournament)
    if query:
        url += "?" + urlencode({"q": query})
    return redirect(url + "#check-in")
