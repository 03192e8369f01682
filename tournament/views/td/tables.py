"""TD pages: a table's page.

The full score card (a polled region: it updates itself as the revisor enters
hands), the TD's own hand entry (the paper fallback: the same forms as the
revisor's), corrections with their history, penalties with a confirmation that
states the cost first, rescinding, settling a tie (confirmed first: who wins, why,
and what it ends), and clearing a revisor's call.

Every change is one service call; every refusal re-renders the page it came from
with the form bound (nothing typed is lost) and the service's message, status 400;
409 (`Conflict`) when what the form was based on changed since its page was shown (a
correction made from an older version of the hand, a tie decided meanwhile).
"""

from collections.abc import Iterable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournament.errors import Conflict, HandConflict, ServiceError
from tournament.forms.fields import OnceForm
from tournament.forms.hands import (
    CorrectCardsForm,
    CorrectPointsForm,
    HandCardsForm,
    HandPointsForm,
)
from tournament.forms.td import RescindOnceForm, TablePenaltyForm, TieOnceForm
from tournament.live.polling import unchanged, vary_on_htmx
from tournament.models import Hand, HandVersion, Penalty, Table, Tournament
from tournament.selectors.hands import Correction, first_version, hand_to_correct
from tournament.selectors.penalties import (
    cost_text,
    penalty_confirmation,
    tournament_penalty,
)
from tournament.selectors.score_card import ScoreCard, score_card
from tournament.selectors.tables import is_final_table
from tournament.selectors.tokens import revision_token
from tournament.services import calls, hands, penalties, ties
from tournament.services.idempotency import AlreadyDone, kept_for
from tournament.services.penalties import CostChanged, PenaltyCost, given_cost, penalty_cost
from tournament.services.stale import by_whom, clock
from tournament.views.access import HtmxHttpRequest, post_only, td_required
from tournament.views.refusals import add_service_error
from tournament.views.td.common import get_table, get_tournament
from tournament.views.td.submit import carry_out

TEMPLATE = "tournament/td/tables/table.html"
CORRECT_TEMPLATE = "tournament/td/tables/correct.html"
CONFIRM_TEMPLATE = "tournament/td/tables/penalty_confirm.html"
RESCIND_TEMPLATE = "tournament/td/tables/rescind.html"
TIE_CONFIRM_TEMPLATE = "tournament/td/tables/tie_confirm.html"

POINTS, CARDS = HandVersion.Mode.POINTS, HandVersion.Mode.CARDS
HAND_FORMS: dict[str, type[HandPointsForm | HandCardsForm]] = {
    POINTS: HandPointsForm,
    CARDS: HandCardsForm,
}
CORRECT_FORMS: dict[str, type[CorrectPointsForm | CorrectCardsForm]] = {
    POINTS: CorrectPointsForm,
    CARDS: CorrectCardsForm,
}


# ---------------------------------------------------------------- helpers


def entry_modes(tournament: Tournament) -> tuple[str, ...]:
    """The ways this tournament records a hand: points, cards, or both."""
    if tournament.entry_mode == Tournament.EntryMode.EITHER:
        return (POINTS, CARDS)
    return (CARDS,) if tournament.entry_mode == Tournament.EntryMode.CARDS else (POINTS,)


def chosen_mode(request: HttpRequest, tournament: Tournament, default: str | None = None) -> str:
    """`?mode=cards` or `?mode=points` where the tournament allows it, else the default."""
    modes = entry_modes(tournament)
    for mode in (request.GET.get("mode"), default):
        if mode in modes:
            return mode
    return modes[0]


def mode_links(url: str, tournament: Tournament, mode: str) -> list[dict[str, object]]:
    """The tabs between the points and the cards form ([] when only one is allowed)."""
    modes = entry_modes(tournament)
    if len(modes) < 2:
        return []
    labels: dict[str, str] = {POINTS: _("Enter points"), CARDS: _("Enter cards")}
    return [
        {"mode": m, "label": labels[m], "url": f"{url}?mode={m}", "current": m == mode}
        for m in modes
    ]


def with_mode(url: str, tournament: Tournament, mode: str) -> str:
    """`url?mode=...` where the tournament takes both points and cards, else `url`."""
    return f"{url}?mode={mode}" if len(entry_modes(tournament)) > 1 else url


def safe_next(request: HttpRequest, fallback: str) -> str:
    """`next` (form field or query) when it is a local URL, else `fallback`."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


def replayed(request: HttpRequest, action: str) -> bool:
    """A once-only form refused by the page's own checks (the tie is settled, the player
    disqualified) whose key made this `action`: that submission sent again, its change
    made."""
    return kept_for(request.POST.get("submission_key"), action)


def table_url(tournament: Tournament, table: Table, mode: str | None = None) -> str:
    url = reverse("td:table", args=[tournament.pk, table.pk])
    return f"{url}?mode={mode}" if mode else url


def _card_context(
    tournament: Tournament, table: Table, card: ScoreCard, token: str | None
) -> dict[str, object]:
    """What the polled region (the score card and the table's status) needs."""
    return {
        "tournament": tournament,
        "table": table,
        "card": card,
        "rev": token,
        "can_correct": card.in_play,
        "poll_url": reverse("td:table", args=[tournament.pk, table.pk]),
        "call_form": OnceForm(auto_id="call_%s"),
    }


def render_page(
    request: HttpRequest,
    tournament: Tournament,
    table: Table,
    *,
    status: int = 200,
    mode: str | None = None,
    hand_form: HandPointsForm | HandCardsForm | None = None,
    penalty_form: TablePenaltyForm | None = None,
    tie_form: TieOnceForm | None = None,
    page_errors: Iterable[str] = (),
    after_error: dict[str, object] | None = None,
) -> HttpResponse:
    """The whole table page, read afresh, with any bound form given in its place."""
    token = revision_token(tournament.pk)  # first: never newer than the card
    card = score_card(table)
    mode = mode or chosen_mode(request, tournament)
    errors: list[object] = list(page_errors)  # messages, and refused forms' errors
    if hand_form is not None and not card.accepts_hands:
        # The table cannot take a hand any more: the refusal goes to the top of the page.
        errors.extend(hand_form.non_field_errors())
        hand_form = None
    if hand_form is None and card.accepts_hands:
        hand_form = HAND_FORMS[mode](seats=card.active_seats, hand_number=card.next_hand)
    if penalty_form is not None and not card.in_play:
        errors.extend(penalty_form.non_field_errors())
        penalty_form = None
    if penalty_form is None and card.in_play:
        penalty_form = TablePenaltyForm(tournament=tournament, table=table)
    if tie_form is not None and not (card.in_play and card.tie_leaders):
        errors.extend(tie_form.non_field_errors())
        tie_form = None
    if tie_form is None and card.in_play and card.tie_leaders:
        # Settled or not: a settled tie can be decided again until the level closes.
        tie_form = TieOnceForm(leaders=card.tie_leaders, settlement=card.settlement)
    url = reverse("td:table", args=[tournament.pk, table.pk])
    context = {
        **_card_context(tournament, table, card, token),
        "mode": mode,
        "modes": mode_links(url, tournament, mode),
        "hand_form": hand_form,
        "hand_action": with_mode(
            reverse("td:hand_new", args=[tournament.pk, table.pk]), tournament, mode
        ),
        "hand_number": hand_form["hand_number"].value() if hand_form is not None else None,
        "fl_positions": [s.position for s in card.next_fantasyland],
        "cards_help": mode == CARDS,
        "penalty_form": penalty_form,
        "tie_form": tie_form,
        "page_errors": errors,
        "after_error": after_error,
    }
    return vary_on_htmx(render(request, TEMPLATE, context, status=status))


def _tables(tournament_id: int, table_id: int) -> tuple[Tournament, Table]:
    tournament = get_tournament(tournament_id)
    return tournament, get_table(tournament, table_id)


def _table_page(tournament_id: int, table_id: int) -> str:
    """Where a GET of the table's form-only URLs goes back to (views/access.post_only)."""
    return table_url(*_tables(tournament_id, table_id))


# ---------------------------------------------------------------- the page


@td_required
@require_GET
def table(request: HtmxHttpRequest, tournament_id: int, table_id: int) -> HttpResponse:
    """The table page; for the poll (htmx, `?rev=`) its score card region, or 204."""
    if request.htmx:
        token = revision_token(tournament_id)
        if token is not None and (response := unchanged(request, token)) is not None:
            return response
        tournament, table = _tables(tournament_id, table_id)
        card = score_card(table)
        context = _card_context(tournament, table, card, token)
        return vary_on_htmx(render(request, f"{TEMPLATE}#card", context))
    tournament, table = _tables(tournament_id, table_id)
    return render_page(request, tournament, table)


# ---------------------------------------------------------------- hand entry


@td_required
def hand_new(request: HttpRequest, tournament_id: int, table_id: int) -> HttpResponse:
    """The TD records the next hand (as points or as cards), for a table on paper."""
    tournament, table = _tables(tournament_id, table_id)
    mode = chosen_mode(request, tournament)
    if request.method != "POST":
        return redirect(table_url(tournament, table, mode if mode == CARDS else None))
    card = score_card(table)
    form = HAND_FORMS[mode](request.POST, seats=card.active_seats)
    if not form.is_valid():
        return render_page(request, tournament, table, status=400, mode=mode, hand_form=form)
    try:
        recorded = hands.record_hand(table=table, actor=request.user, **form.service_kwargs())
    except ServiceError as error:
        return _hand_refused(request, tournament, table, mode, form, error)
    _said_recorded(request, recorded)
    return redirect(table_url(tournament, table, mode if mode == CARDS else None))


def _hand_refused(
    request: HttpRequest,
    tournament: Tournament,
    table: Table,
    mode: str,
    form: HandPointsForm | HandCardsForm,
    error: ServiceError,
) -> HttpResponse:
    """The page again with the hand as typed and why; a hand recorded meanwhile says by
    whom and when, and the page goes to it."""
    after_error = None
    said: ServiceError | str = error
    if isinstance(error, HandConflict):
        number = form.cleaned_data["hand_number"]
        said = recorded_meanwhile(table, number) or error
        after_error = {"conflict": True, "number": number}
    add_service_error(form, said)
    return render_page(
        request, tournament, table, status=400, mode=mode, hand_form=form, after_error=after_error
    )


def _said_recorded(request: HttpRequest, recorded: Any) -> None:
    number = recorded.hand.number
    if recorded.created:
        messages.success(request, _("Hand %(hand)d recorded.") % {"hand": number})
    else:
        messages.info(
            request,
            _("Hand %(hand)d was already recorded from this form: nothing was recorded twice.")
            % {"hand": number},
        )


# ---------------------------------------------------------------- corrections


def _initial(version: HandVersion, mode: str) -> dict[str, object]:
    """A hand version's content as the correction form's initial values."""
    initial: dict[str, object] = {}
    for result in version.results.all():
        position = result.seat.position
        if mode == POINTS:
            initial[f"points_{position}"] = result.points
            initial[f"fantasyland_{position}"] = result.fantasyland_next
        elif version.mode == CARDS:
            for row in ("front", "middle", "back"):
                initial[f"{row}_{position}"] = getattr(result, row)
    return initial


@td_required
def hand_correct(
    request: HttpRequest, tournament_id: int, table_id: int, number: int
) -> HttpResponse:
    """The TD corrects a recorded hand: its content prefilled, a reason required."""
    tournament, table = _tables(tournament_id, table_id)
    correction = hand_to_correct(table, number)
    if correction is None:
        raise Http404("No Hand matches the given query.")
    current = correction.current
    mode = chosen_mode(request, tournament, default=current.mode)
    form_class = CORRECT_FORMS[mode]
    if request.method != "POST":
        initial = {**_initial(current, mode), "version": current.version}
        form = form_class(
            seats=correction.seats, hand_number=correction.hand.number, initial=initial
        )
        return _correct_page(request, tournament, table, correction, form, mode)
    form = form_class(request.POST, seats=correction.seats)
    status = _save_correction(request, correction.hand, form)
    if status is None:
        return redirect(table_url(tournament, table))
    return _correct_page(request, tournament, table, correction, form, mode, status=status)


def _save_correction(
    request: HttpRequest, hand: Hand, form: CorrectPointsForm | CorrectCardsForm
) -> int | None:
    """Correct the hand from the posted form: None once done (said in a message), else
    the status of the form shown again with what went wrong."""
    if not form.is_valid():
        return 400
    if form.cleaned_data["hand_number"] != hand.number:
        form.add_error(None, _("This form was for another hand; reload the page."))
        return 400
    try:
        recorded = hands.correct_hand(hand=hand, actor=request.user, **form.service_kwargs())
    except ServiceError as error:
        # Corrected meanwhile (HandConflict): what was typed stays, made from the old
        # version; the message says to reload and see the new one.
        add_service_error(form, error)
        return 409 if isinstance(error, Conflict) else 400
    if recorded.created:
        messages.success(request, _("Hand %(hand)d corrected.") % {"hand": hand.number})
    else:
        messages.info(
            request,
            _("This correction of hand %(hand)d was already saved.") % {"hand": hand.number},
        )
    return None


def _correct_page(
    request: HttpRequest,
    tournament: Tournament,
    table: Table,
    correction: Correction,
    form: CorrectPointsForm | CorrectCardsForm,
    mode: str,
    status: int = 200,
) -> HttpResponse:
    url = reverse("td:hand_correct", args=[tournament.pk, table.pk, correction.hand.number])
    context = {
        "tournament": tournament,
        "table": table,
        "hand": correction.hand,
        "history": correction.history,
        "current": correction.current,
        "form": form,
        "mode": mode,
        "modes": mode_links(url, tournament, mode),
        "action": with_mode(url, tournament, mode),
        "in_play": correction.in_play,
        "same_mode": mode == correction.current.mode,
        "fl_positions": correction.fl_positions,
        "cards_help": mode == CARDS,
    }
    return render(request, CORRECT_TEMPLATE, context, status=status)


# ---------------------------------------------------------------- penalties


@td_required
@post_only(_table_page)
def penalty_new(request: HttpRequest, tournament_id: int, table_id: int) -> HttpResponse:
    """Step 1 (the table page's form): state the cost; step 2 (`confirm`): give it."""
    tournament, table = _tables(tournament_id, table_id)
    form = TablePenaltyForm(request.POST, tournament=tournament, table=table)
    try:
        penalties.check_table_takes_penalty(table)
    except ServiceError as error:
        return _penalty_refused(request, tournament, table, form, error)
    if not form.is_valid():
        return _penalty_refused(request, tournament, table, form)
    if "edit" in request.POST:  # back from the confirmation to change it: nothing lost
        return render_page(request, tournament, table, penalty_form=form)
    if "confirm" not in request.POST:
        cost = penalty_cost(form.cleaned_data["player"], form.cleaned_data["kind"])
        return _confirm(request, tournament, table, form, cost)
    return _give_penalty(request, tournament, table, form)


def _penalty_refused(
    request: HttpRequest,
    tournament: Tournament,
    table: Table,
    form: TablePenaltyForm,
    error: ServiceError | None = None,
) -> HttpResponse:
    """Refused by the page's own checks (the player disqualified, the level closed): a
    confirmation whose key gave a penalty is that confirmation sent again, else the table
    page with the form as typed and why."""
    if "confirm" in request.POST and replayed(request, "penalty.give"):
        return _penalty_given_before(request, tournament, table)
    return _refused_in_page(request, tournament, table, form, error)


def _refused_in_page(
    request: HttpRequest,
    tournament: Tournament,
    table: Table,
    form: TablePenaltyForm | TieOnceForm,
    error: ServiceError | None,
) -> HttpResponse:
    """The table page, status 400, with the refused form as typed, its errors and `error`."""
    form.is_valid()
    if error is not None:
        add_service_error(form, error)
    if isinstance(form, TablePenaltyForm):
        return render_page(request, tournament, table, status=400, penalty_form=form)
    return render_page(request, tournament, table, status=400, tie_form=form)


def _penalty_given_before(
    request: HttpRequest, tournament: Tournament, table: Table
) -> HttpResponse:
    messages.info(request, _("This penalty was already given: nothing was given twice."))
    return redirect(table_url(tournament, table) + "#penalties")


def _give_penalty(
    request: HttpRequest, tournament: Tournament, table: Table, form: TablePenaltyForm
) -> HttpResponse:
    """Step 2: the penalty at the cost stated (checked again), clearing the call it answers."""
    try:
        given = penalties.give_stated_penalty(
            actor=request.user,
            stated_warning=request.POST.get("warning_number"),
            call=form.call_id(),
            key=form.cleaned_data["submission_key"],
            **form.service_kwargs(),
        )
    except AlreadyDone:
        return _penalty_given_before(request, tournament, table)
    except CostChanged as changed:
        return _confirm(request, tournament, table, form, changed.cost, changed=True, status=400)
    except ServiceError as error:
        add_service_error(form, error)
        return render_page(request, tournament, table, status=400, penalty_form=form)
    messages.success(
        request,
        _("Penalty given to %(name)s: %(cost)s.")
        % {"name": form.cleaned_data["player"].name, "cost": cost_text(given_cost(given))},
    )
    return redirect(table_url(tournament, table) + "#penalties")


def recorded_meanwhile(table: Table, number: int) -> str | None:
    """What the TD is told when the hand he typed on paper was recorded meanwhile (by the
    revisor's tablet, or another TD): by whom and when, and where it is; None if it was not.
    (The revisor's words, "the TD can correct it", were the service's.)"""
    version = first_version(table, number)
    if version is None:
        return None
    who = by_whom(version.created_by, version.entered_by_label)
    params = {"hand": number, "who": who, "time": clock(version.created_at)}
    if who:
        return (
            _(
                "Hand %(hand)d was recorded meanwhile, by %(who)s at %(time)s: it is on the score "
                "card below. Correct it there if it is wrong, or enter the next hand."
            )
            % params
        )
    return (
        _(
            "Hand %(hand)d was recorded meanwhile, at %(time)s: it is on the score card below. "
            "Correct it there if it is wrong, or enter the next hand."
        )
        % params
    )


def _confirm(
    request: HttpRequest,
    tournament: Tournament,
    table: Table,
    form: TablePenaltyForm,
    cost: PenaltyCost,
    *,
    changed: bool = False,
    status: int = 200,
) -> HttpResponse:
    player = form.cleaned_data["player"]
    facts = penalty_confirmation(table, player, cost)
    context = {
        "tournament": tournament,
        "table": table,
        "form": form,
        "player": player,
        "kind_label": dict(Penalty.Kind.choices)[form.cleaned_data["kind"]],
        "cost": cost,
        "cost_text": cost_text(cost),
        "seat": facts.seat,
        "at_this_table": facts.at_this_table,
        "total_after": facts.total_after,
        "outcome": facts.outcome,
        "changed": changed,
        "call_id": form.call_id(),
    }
    return render(request, CONFIRM_TEMPLATE, context, status=status)


@td_required
def penalty_rescind(request: HttpRequest, tournament_id: int, penalty_id: int) -> HttpResponse:
    """Rescind a penalty, with a reason; it stays on record, marked."""
    tournament = get_tournament(tournament_id)
    penalty = tournament_penalty(tournament, penalty_id)
    if penalty is None:
        raise Http404("No Penalty matches the given query.")
    back = safe_next(request, _penalty_back(tournament, penalty))
    if request.method != "POST":
        return _rescind_page(request, tournament, penalty, RescindOnceForm(), back)
    form = RescindOnceForm(request.POST)
    if form.is_valid() and _rescinded(request, penalty, form):
        return redirect(back)
    return _rescind_page(request, tournament, penalty, form, back, status=400)


def _penalty_back(tournament: Tournament, penalty: Penalty) -> str:
    """Where the rescind page goes back to: the penalty's table, or the tournament's page."""
    if penalty.table is not None:
        return table_url(tournament, penalty.table) + "#penalties"
    return reverse("td:tournament", args=[tournament.pk])


def _rescinded(request: HttpRequest, penalty: Penalty, form: RescindOnceForm) -> bool:
    """Rescind it (said in a message): False when refused (the reason is on `form`)."""
    done = carry_out(
        request,
        form,
        lambda: penalties.rescind_penalty(
            penalty=penalty,
            actor=request.user,
            key=form.cleaned_data["submission_key"],
            **form.service_kwargs(),
        ),
        repeated=_("This penalty was already rescinded."),
        said=_("%(name)s's penalty is rescinded.") % {"name": penalty.player.name},
    )
    return done is not None


def _rescind_page(
    request: HttpRequest,
    tournament: Tournament,
    penalty: Penalty,
    form: RescindOnceForm,
    back: str,
    status: int = 200,
) -> HttpResponse:
    context = {
        "tournament": tournament,
        "penalty": penalty,
        "where": penalties.where_deducted(penalty),
        "form": form,
        "back": back,
    }
    return render(request, RESCIND_TEMPLATE, context, status=status)


# ---------------------------------------------------------------- ties and calls


@td_required
def tie(request: HttpRequest, tournament_id: int, table_id: int) -> HttpResponse:
    """Step 1 (the table page's form): state who wins, why and what it ends; step 2
    (`confirm`): settle the tie for first. A GET goes to the table page's tie section."""
    tournament, table = _tables(tournament_id, table_id)
    if request.method != "POST":
        return redirect(table_url(tournament, table) + "#tie")
    card = score_card(table)
    form = TieOnceForm(request.POST, leaders=card.tie_leaders, settlement=card.settlement)
    try:
        ties.check_tie_to_settle(table, card.tie_leaders)  # a closed level is final
    except ServiceError as error:
        return _tie_form_refused(request, tournament, table, form, error)
    if not form.is_valid():
        return _tie_form_refused(request, tournament, table, form)
    if "edit" in request.POST:  # back from the confirmation to change it: nothing lost
        return render_page(request, tournament, table, tie_form=form)
    if "confirm" not in request.POST:
        return _tie_step_one(request, tournament, table, card, form)
    return _settle_tie(request, tournament, table, card, form)


def _tie_form_refused(
    request: HttpRequest,
    tournament: Tournament,
    table: Table,
    form: TieOnceForm,
    error: ServiceError | None = None,
) -> HttpResponse:
    """Refused by the page's own checks: a key that settled the tie is that submission sent
    again; else the table page with the form as typed and why."""
    if replayed(request, "tie.settle"):
        return _tie_already_settled(request, tournament, table)
    return _refused_in_page(request, tournament, table, form, error)


def _tie_step_one(
    request: HttpRequest, tournament: Tournament, table: Table, card: ScoreCard, form: TieOnceForm
) -> HttpResponse:
    """The confirmation; refused already when the tie was decided meanwhile (it would
    state a change the page never showed), as the service refuses it on confirming."""
    try:
        ties.check_decision_shown(table, card.settlement, form.cleaned_data["settlement"])
    except Conflict as error:
        return _tie_refused(request, tournament, table, error)
    return _tie_confirm(request, tournament, table, card, form)


def _settle_tie(
    request: HttpRequest, tournament: Tournament, table: Table, card: ScoreCard, form: TieOnceForm
) -> HttpResponse:
    """Step 2: settle it (or decide it again), once for the form's key."""
    try:
        hands.settle_tie(
            table=table,
            actor=request.user,
            key=form.cleaned_data["submission_key"],
            **form.service_kwargs(),
        )
    except AlreadyDone:
        return _tie_already_settled(request, tournament, table)
    except Conflict as error:
        return _tie_refused(request, tournament, table, error)
    except ServiceError as error:
        add_service_error(form, error)
        return render_page(request, tournament, table, status=400, tie_form=form)
    done = (
        _("Tie decided again: %(name)s wins table %(table)d.")
        if card.settlement is not None
        else _("Tie settled: %(name)s wins table %(table)d.")
    )
    messages.success(
        request, done % {"name": form.cleaned_data["winner"].name, "table": table.number}
    )
    return redirect(table_url(tournament, table))


def _tie_already_settled(
    request: HttpRequest, tournament: Tournament, table: Table
) -> HttpResponse:
    messages.info(request, _("This tie was already settled."))
    return redirect(table_url(tournament, table))


def _tie_refused(
    request: HttpRequest, tournament: Tournament, table: Table, error: ServiceError
) -> HttpResponse:
    """A decision on the tie made from a page that showed it otherwise (decided meanwhile,
    in another tab or by another TD): the table page as it stands, status 409, with the
    message and the winner and reason as typed, in the section that decides the tie again.
    The form now stands on the decision shown: deciding again is confirmed first, and
    that confirmation names whose win it replaces."""
    card = score_card(table)
    data = request.POST.copy()
    data["settlement"] = str(card.settlement.pk) if card.settlement is not None else ""
    form = TieOnceForm(data, leaders=card.tie_leaders, settlement=card.settlement)
    form.is_valid()
    add_service_error(form, error)
    return render_page(request, tournament, table, status=409, tie_form=form)


def _tie_confirm(
    request: HttpRequest, tournament: Tournament, table: Table, card: ScoreCard, form: TieOnceForm
) -> HttpResponse:
    """Who wins, the reason, and what it ends: the table, and where the winner goes next
    (and, for a tie decided again, whose win it replaces)."""
    winner = form.cleaned_data["winner"]
    context = {
        "tournament": tournament,
        "table": table,
        "form": form,
        "winner": winner,
        "card": card,
        "tied_names": ", ".join(s.player.name for s in card.tie_leaders),
        # Everyone else still playing at the table: the shootout ends for them here.
        "others": ", ".join(s.player.name for s in card.active_seats if s.player != winner),
        # The only table of its draw: its winner is the champion once the level is closed.
        "final": is_final_table(table),
        "next_level": table.level.number + 1,
    }
    return render(request, TIE_CONFIRM_TEMPLATE, context)


@td_required
@post_only(_table_page)
def call_clear(request: HttpRequest, tournament_id: int, table_id: int) -> HttpResponse:
    """The TD has dealt with the revisor's call; back to `next` or the table page."""
    tournament, table = _tables(tournament_id, table_id)
    back = safe_next(request, table_url(tournament, table))
    form = OnceForm(request.POST)
    if not form.is_valid():
        return render_page(
            request,
            tournament,
            table,
            status=400,
            page_errors=[_("The form was incomplete; reload the page and try again.")],
        )
    try:
        calls.clear_call(table=table, actor=request.user, key=form.cleaned_data["submission_key"])
    except AlreadyDone:
        messages.info(request, _("This call was already cleared."))
    except ServiceError as error:
        return render_page(request, tournament, table, status=400, page_errors=[str(error)])
    else:
        messages.success(
            request, _("The call at table %(table)d is cleared.") % {"table": table.number}
        )
    return redirect(back)
