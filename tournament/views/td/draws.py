"""TD pages: the draw, a level's seating (with its redraws), its projector and print views,
closing a level, and the standings with the champion.

Every change goes through one service (`tournament.services.draws`) with the form's key,
so a double click or a resent form draws once. A refusal is shown in place: on the
page the form is on (bound, status 400; 409 for a redraw asked for from a page showing
a draw that was redone meanwhile); closing a level has its own confirmation page,
which lists what still blocks it and shows a refusal there.
"""

from collections.abc import Sequence

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournament.errors import Conflict, ServiceError
from tournament.forms.td import AdvanceForm, DrawForm, RedrawLevelForm, ReleaseForm
from tournament.live.polling import polling_ends, unchanged, vary_on_htmx
from tournament.models import Level, Tournament
from tournament.selectors import standings as standings_reads
from tournament.selectors.draws import (
    draw_preview,
    level_close_review,
    level_draws,
    level_page,
    room_seating,
    seats_by_name,
)
from tournament.selectors.prizes import prized_standings
from tournament.selectors.tokens import revision_token, tournament_revision
from tournament.services import draws
from tournament.services.idempotency import AlreadyDone
from tournament.views.access import HtmxHttpRequest, td_required
from tournament.views.refusals import add_service_error
from tournament.views.td.common import get_level, get_tournament
from tournament.views.td.submit import carry_out

TEMPLATES = "tournament/td/draws/"
# Seconds between two polls of the projector and standings regions.
POLL_SECONDS = 5


# ---------------------------------------------------------------- helpers


def held_print(
    request: HttpRequest, tournament: Tournament, level: Level, what: str
) -> HttpResponse:
    """A page for the players' paper ("seating" or "cards") asked for while the level's
    seating is held (§5): it prints nothing of the seating, says it waits for the release
    and links to the level page's "Release the seating"."""
    return render(
        request,
        TEMPLATES + "held_print.html",
        {"tournament": tournament, "level": level, "what": what},
    )


def _poll_or_none(request: HttpRequest, tournament_id: int) -> tuple[HttpResponse | None, str]:
    """A poll that shows the newest revision gets 204 after one query; None otherwise.

    Returns (response, token); a tournament that does not exist is a 404.
    """
    token = revision_token(tournament_id)
    if token is None:
        raise Http404("No such tournament.")
    return unchanged(request, token), token


def _stale_key_message(form: forms.BaseForm) -> None:
    """A form whose hidden one-time key (or draw) is missing or damaged: say what to do."""
    if [name for name in ("submission_key", "draw") if form.errors.pop(name, None)]:
        form.add_error(None, _("This form is out of date: reload the page and send it again."))


# ---------------------------------------------------------------- the first draw


@td_required
@require_http_methods(["GET", "POST"])
def draw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """What the first draw will make (players → tables), and the button that makes it."""
    tournament = get_tournament(tournament_id)
    if request.method != "POST":
        return _draw_page(request, tournament, DrawForm())
    form = DrawForm(request.POST or None)
    if form.is_valid():
        drawn = carry_out(
            request,
            form,
            lambda: draws.draw_first_level(
                tournament=tournament, actor=request.user, **form.service_kwargs()
            ),
            said=_("Level 1 is drawn."),
        )
        if drawn is not None:
            return redirect("td:level", tournament.pk, 1)
    _stale_key_message(form)
    return _draw_page(request, tournament, form, status=400)


def _draw_page(
    request: HttpRequest, tournament: Tournament, form: DrawForm, status: int = 200
) -> HttpResponse:
    preview = draw_preview(tournament)
    return render(
        request,
        TEMPLATES + "draw.html",
        {
            "tournament": tournament,
            "form": form,
            "preview": preview,
            "threes": preview.table_sizes.count(3),
            "twos": preview.table_sizes.count(2),
        },
        status=status,
    )


# ---------------------------------------------------------------- a level and its redraws


def _render_level(
    request: HttpRequest,
    tournament: Tournament,
    level: Level,
    form: RedrawLevelForm | None,
    status: int = 200,
    release_form: ReleaseForm | None = None,
) -> HttpResponse:
    """The level page; `form`: the redraw form as sent (None: a fresh one, made from the
    draw shown)."""
    page = level_page(tournament, level)
    if form is None:
        form = RedrawLevelForm(initial={"draw": page.current.pk})
    return render(
        request,
        TEMPLATES + "level.html",
        {
            "tournament": tournament,
            "level": level,
            "draw": page.current,
            "tables": page.current.tables.all(),
            "history": page.history,
            "locked": page.locked,
            "started": page.started,
            "form": form,
            "can_advance": page.can_advance,
            "release_form": release_form or ReleaseForm(),
        },
        status=status,
    )


@td_required
@require_http_methods(["GET"])
def level(request: HttpRequest, tournament_id: int, level: int) -> HttpResponse:
    """A level's current draw: tables, seats, first dealers and the seed; older draws below."""
    tournament = get_tournament(tournament_id)
    level_obj = get_level(tournament, level)
    return _render_level(request, tournament, level_obj, None)


@td_required
@require_http_methods(["GET", "POST"])
def redraw(request: HttpRequest, tournament_id: int, level: int) -> HttpResponse:
    """Redo a level's draw with a reason, until the first hand of the level is recorded."""
    tournament = get_tournament(tournament_id)
    level_obj = get_level(tournament, level)
    if request.method == "GET":
        return redirect("td:level", tournament.pk, level_obj.number)
    form = RedrawLevelForm(request.POST)
    if form.is_valid():
        return _redraw(request, tournament, level_obj, form)
    _stale_key_message(form)
    return _render_level(request, tournament, level_obj, form, status=400)


def _redraw(
    request: HttpRequest, tournament: Tournament, level: Level, form: RedrawLevelForm
) -> HttpResponse:
    """Draw the level again, once for the form's key; a refusal is shown in the form."""
    key = form.cleaned_data["submission_key"]
    try:
        draws.redraw_level(level=level, actor=request.user, key=key, **form.service_kwargs())
    except AlreadyDone:
        return redirect("td:level", tournament.pk, level.number)
    except Conflict as error:
        # Redone meanwhile: the page shows the new seating now, and the form (reason
        # as typed) stands on it, so that redoing it again is a choice made seeing it.
        form = _form_on_current_draw(request, level)
        add_service_error(form, error)
        return _render_level(request, tournament, level, form, status=409)
    except ServiceError as error:
        add_service_error(form, error)
        return _render_level(request, tournament, level, form, status=400)
    messages.success(
        request,
        _("Level %(level)d is drawn again. The old draw is kept below.") % {"level": level.number},
    )
    return redirect("td:level", tournament.pk, level.number)


def _form_on_current_draw(request: HttpRequest, level: Level) -> RedrawLevelForm:
    """The redraw form as sent, made to stand on the level's current draw."""
    data = request.POST.copy()
    data["draw"] = str(draws.current_draw(level).pk)  # as a posted form sends it
    form = RedrawLevelForm(data)
    form.is_valid()
    return form


@td_required
@require_http_methods(["GET", "POST"])
def release(request: HttpRequest, tournament_id: int, level: int) -> HttpResponse:
    """Show a held draw to the players, the big screen and the revisors (issue 19 §5)."""
    tournament = get_tournament(tournament_id)
    level_obj = get_level(tournament, level)
    if request.method == "GET":
        return redirect("td:level", tournament.pk, level_obj.number)
    form = ReleaseForm(request.POST)
    if form.is_valid():
        released = carry_out(
            request,
            form,
            lambda: draws.release_draw(
                level=level_obj, actor=request.user, key=form.cleaned_data["submission_key"]
            ),
            said=_("The seating of level %(level)d is released: the room sees it now.")
            % {"level": level_obj.number},
        )
        if released is not None:
            return redirect("td:level", tournament.pk, level_obj.number)
    _stale_key_message(form)
    return _render_level(request, tournament, level_obj, None, status=400, release_form=form)


# ---------------------------------------------------------------- projector and print


@td_required
@require_http_methods(["GET"])
def level_projector(request: HtmxHttpRequest, tournament_id: int, level: int) -> HttpResponse:
    """The seating for the room: every player by name (Swedish order), table and seat.

    Polls as the players' pages do (`polling_ends`): a redraw, the release and the TD's
    announcements reach it. Its token is the tournament's revision alone, which every one
    of them moves and no hand does: a hand changes nothing it shows, and a region swapped
    at every hand would start its pages again before turning them.
    """
    token = tournament_revision(tournament_id)
    if token is None:
        raise Http404("No such tournament.")
    poll = unchanged(request, token)
    if poll is not None:
        return poll
    tournament = get_tournament(tournament_id)
    level_obj = get_level(tournament, level)
    template = TEMPLATES + "level_projector.html" + ("#seating" if request.htmx else "")
    context = _projector_context(tournament, level_obj, token)
    return vary_on_htmx(render(request, template, context))


def _projector_context(tournament: Tournament, level: Level, token: str) -> dict[str, object]:
    # The projector is the room's: a draw the TD has not released shows no seat (§5).
    seating = room_seating(level)
    return {
        "tournament": tournament,
        "level": level,
        "seats": seating.seats,
        "table_count": seating.table_count,
        "held": seating.held,
        # The final's few players, large (the room watches it): one column.
        "size": "final" if seating.table_count == 1 else _list_size(len(seating.seats)),
        "rev": token,
        "poll_seconds": POLL_SECONDS,
        "stop": polling_ends(tournament),
    }


def _list_size(count: int) -> str:
    """The type size class of a long list on a projector: the longer, the smaller."""
    if count <= 24:
        return "l"
    if count <= 60:
        return "m"
    if count <= 150:
        return "s"
    return "xs"


@td_required
@require_http_methods(["GET"])
def level_print(request: HttpRequest, tournament_id: int, level: int) -> HttpResponse:
    """The seating on paper (A4): by name, then by table, with the seed."""
    tournament = get_tournament(tournament_id)
    level_obj = get_level(tournament, level)
    draw = level_draws(level_obj)[0]
    if draw.released_at is None:
        return held_print(request, tournament, level_obj, "seating")
    by_table = draw.tables.all()
    seats = seats_by_name(by_table)
    return render(
        request,
        TEMPLATES + "level_print.html",
        {
            "tournament": tournament,
            "level": level_obj,
            "draw": draw,
            "tables": by_table,
            "seats": seats,
        },
    )


# ---------------------------------------------------------------- closing a level

CLOSE_TEMPLATE = TEMPLATES + "close_confirm.html"


def _close_confirm(
    request: HttpRequest,
    tournament: Tournament,
    *,
    errors: Sequence[str] = (),
    status: int = 200,
) -> HttpResponse:
    """The confirmation page, read afresh: what closing does, what still blocks it (each
    linked), and a fresh one-time key for the level it shows."""
    review = level_close_review(tournament)
    assert review.level is not None  # advance() asks only while a level is in play
    # `.announcement` is set by get_tournament's query (td_tournament), not a field.
    shown = tournament.announcement is not None  # type: ignore[attr-defined]
    form = AdvanceForm.to_close(review.level.number, finishes=review.finishes, announced=shown)
    return render(
        request,
        CLOSE_TEMPLATE,
        {
            "tournament": tournament,
            "review": review,
            "form": form,
            "errors": list(errors),
            "alerts_board": review.board,  # the alerts bar's, read once
        },
        status=status,
    )


@td_required
@require_http_methods(["GET", "POST"])
def advance(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Close the current level and draw the next; the last one makes the champion.

    GET (and a POST without `confirm`) shows the confirmation page: what closing does,
    and what still blocks it (open calls, ties to settle, tables still playing), each
    linked. POST with `confirm` closes, once; a refusal re-renders the page, read afresh.
    """
    tournament = get_tournament(tournament_id)
    if (elsewhere := _nothing_to_close(tournament)) is not None:
        return elsewhere
    if request.method == "GET" or "confirm" not in request.POST:
        return _close_confirm(request, tournament)
    form = AdvanceForm(request.POST)
    if not form.is_valid():
        stale = _("This form is out of date: reload the page and send it again.")
        return _close_confirm(request, tournament, errors=[stale], status=400)
    try:
        result = draws.advance(tournament=tournament, actor=request.user, **form.service_kwargs())
    except AlreadyDone:  # a second click: show where the first one led
        return _where_the_first_click_led(tournament)
    except ServiceError as error:
        return _close_confirm(request, tournament, errors=[str(error)], status=400)
    return _advanced(request, tournament, result, form.announcement_choice())


def _nothing_to_close(tournament: Tournament) -> HttpResponse | None:
    """Where a close goes when no level is in play: the standings once the tournament is
    finished (also a second click on the final close), its page before the first draw."""
    if tournament.finished_at is not None:
        return redirect("td:standings", tournament.pk)
    if draws.current_level(tournament) is None:
        return redirect("td:tournament", tournament.pk)
    return None


def _where_the_first_click_led(tournament: Tournament) -> HttpResponse:
    """The standings when it finished the tournament, else the level it drew."""
    tournament.refresh_from_db()
    if tournament.finished_at is not None:
        return redirect("td:standings", tournament.pk)
    latest = draws.current_level(tournament)
    assert latest is not None  # not finished: the first click drew the next level
    return redirect("td:level", tournament.pk, latest.number)


def _advanced(
    request: HttpRequest, tournament: Tournament, result: Level | None, withdrawn: bool | None
) -> HttpResponse:
    """Say what closing did (the champion, or the level drawn) and go there."""
    if result is None:
        tournament.refresh_from_db()
        if tournament.champion is not None:
            messages.success(
                request,
                _("The tournament is finished. Champion: %(name)s.")
                % {"name": tournament.champion.name},
            )
        else:
            messages.success(request, _("The tournament is finished, without a champion."))
    else:
        messages.success(
            request,
            _("Level %(closed)d is closed and level %(level)d is drawn.")
            % {"closed": result.number - 1, "level": result.number},
        )
    if withdrawn:
        messages.success(request, _("The announcement is withdrawn."))
    if result is None:
        return redirect("td:standings", tournament.pk)
    return redirect("td:level", tournament.pk, result.number)


# ---------------------------------------------------------------- standings


def _standings(
    request: HtmxHttpRequest, tournament_id: int, template: str, *, for_room: bool = False
) -> HttpResponse:
    poll, token = _poll_or_none(request, tournament_id)
    if poll is not None:
        return poll
    tournament = get_tournament(tournament_id)
    prized = prized_standings(tournament, standings_reads.standings(tournament))
    # The big screen is the room's: its prizes only where the public standings show them.
    shows_prizes = not for_room or tournament.prizes_public
    if request.htmx:
        template += "#standings"
    response = render(
        request,
        template,
        {
            "tournament": tournament,
            "rows": prized.rows,
            "prizes": prized if shows_prizes else None,
            "rev": token,
            "poll_seconds": POLL_SECONDS,
            "finished": tournament.finished_at is not None,
            "stop": polling_ends(tournament),
            "csv_url": reverse("td:standings_csv", args=[tournament.pk]),
        },
    )
    return vary_on_htmx(response)


@td_required
@require_http_methods(["GET"])
def standings(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """The champion, then every player per rules.md section 6; live while play goes on."""
    return _standings(request, tournament_id, TEMPLATES + "standings.html")


@td_required
@require_http_methods(["GET"])
def standings_projector(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """The standings for the room: large type, no navigation, paging by itself."""
    return _standings(request, tournament_id, TEMPLATES + "standings_projector.html", for_room=True)
