"""TD pages: the tournament list (running first), a new tournament, its settings.

Settings can change until the first draw; after it the page shows them read-only
(the service refuses a change too).
"""

import uuid
from collections.abc import Callable
from typing import cast

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, override
from django.views.decorators.http import require_POST

from tournament.errors import ServiceError
from tournament.forms.fields import OnceForm
from tournament.forms.td import TournamentNameForm, TournamentSettingsForm
from tournament.models import Tournament
from tournament.rules.decisions import DECISIONS
from tournament.rules.validation import Label
from tournament.selectors.tournaments import td_tournament_list
from tournament.services import registration
from tournament.services.idempotency import AlreadyDone
from tournament.views.access import td_required
from tournament.views.refusals import add_service_error
from tournament.views.td.common import get_tournament
from tournament.views.td.prizes import section as prize_section
from tournament.views.td.submit import already_done, once_key

# Which rules decisions (tournament/rules/decisions.py, by their English title) are shown
# next to which setting; the page also lists every decision.
DECISIONS_BY_FIELD = {
    "min_hands": ["Ties for first"],
    "button_stays_in_fantasyland": ["Dealer"],
}


# What each rule variant means, shown with the setting (the rules.md text of each).
VARIANT_HELP: dict[str, dict[str | bool, Label]] = {
    "entry_mode": {
        "points": gettext_lazy(
            "The revisor types each player's points for the hand; they must sum to zero."
        ),
        "cards": gettext_lazy(
            "The revisor enters every player's three rows; the hand is scored from the "
            "cards: rows, royalties, fouls and Fantasyland."
        ),
        "either": gettext_lazy("The revisor chooses for every hand: points or cards."),
    },
    "royalties": {
        "us": gettext_lazy(
            "SM / US table: back straight 2, flush 4, full house 6, four of a kind 10, "
            "straight flush 15, royal flush 25; middle three of a kind 2, straight 4, flush 8, "
            "full house 12, four of a kind 20, straight flush 30, royal flush 50; front 66 1 "
            "up to AA 9, 222 10 up to AAA 22."
        ),
        "russian": gettext_lazy(
            "Russian table: as SM / US, except back four of a kind 8, straight flush 10, "
            "royal flush 15; middle four of a kind 16, straight flush 20, royal flush 30."
        ),
    },
    "scoring_method": {
        "1-6": gettext_lazy(
            "1-6 (SM): against each opponent 1 point per row won, 3 more for winning all "
            "three rows (6 in all); 6 against a fouled hand. Royalties on top."
        ),
        "2-4": gettext_lazy(
            "2-4: against each opponent 1 point per row won, 1 more for winning two or three "
            "rows; 4 against a fouled hand. Royalties on top."
        ),
    },
    "fantasyland_repeat": {
        "unlimited": gettext_lazy(
            "Repeats while qualified (SM): trips in front, a full house or better in the "
            "middle, or quads or better in the back keep the player in Fantasyland, hand "
            "after hand."
        ),
        "once": gettext_lazy(
            "Repeats once: a player may stay only after his first Fantasyland hand."
        ),
        "never": gettext_lazy(
            "Never repeats: after a Fantasyland hand the player returns to normal play."
        ),
    },
    "button_stays_in_fantasyland": {
        False: gettext_lazy("Off (SM): the deal passes to the next seat after every hand."),
        True: gettext_lazy(
            "On: when a player plays the next hand in Fantasyland, the same dealer deals it "
            "again (the button stays put)."
        ),
    },
}


# Settings whose own help text says what their first (SM) variant says: shown once.
HELP_IN_VARIANTS = {"fantasyland_repeat", "button_stays_in_fantasyland"}


def variants(field_name: str, field: forms.Field) -> list[tuple[Label, Label]]:
    """(label, explanation) of each variant of a setting, in the order of its choices."""
    helps = VARIANT_HELP.get(field_name)
    if not helps:
        return []
    if field_name == "button_stays_in_fantasyland":
        return [(_("Yes") if value else _("No"), helps[value]) for value in (False, True)]
    # Django makes a form field's choices (value, label) pairs when the field is made.
    choices = (
        cast(list[tuple[str, Label]], field.choices) if isinstance(field, forms.ChoiceField) else []
    )
    return [(label, helps[value]) for value, label in choices if value in helps]


def decisions_by_title() -> dict[str, tuple[Label, Label]]:
    with override("en"):
        return {str(title): (title, text) for title, text in DECISIONS}


def _field_decisions() -> dict[str, list[tuple[Label, Label]]]:
    titled = decisions_by_title()
    return {
        field: [titled[title] for title in titles if title in titled]
        for field, titles in DECISIONS_BY_FIELD.items()
    }


# The one-time key's prefix of the earlier results' setting (views/td/register.py): the
# settings page has other forms.
EARLIER_ONCE = "earlier"


def earlier_results_section() -> dict[str, object]:
    """The settings page's section for the earlier results' setting: its one-time key."""
    return {"earlier_once": OnceForm(prefix=EARLIER_ONCE)}


def _settings_context(
    form: TournamentSettingsForm, once: OnceForm, **extra: object
) -> dict[str, object]:
    field_decisions = _field_decisions()
    for name in form.Meta.fields:  # every setting's help (variants, decisions) is described
        attrs = form.fields[name].widget.attrs
        attrs.setdefault("aria-describedby", f"{form[name].auto_id}_helptext")
    return {
        "form": form,
        "once": once,
        "fields": [
            {
                "field": form[name],
                "decisions": field_decisions.get(name, []),
                "variants": variants(name, form.fields[name]),
                "help": "" if name in HELP_IN_VARIANTS else form.fields[name].help_text,
            }
            for name in form.Meta.fields
        ],
        "decisions": DECISIONS,
        **extra,
    }


def _carry_out[R](
    request: HttpRequest, form: forms.BaseForm, change: Callable[[uuid.UUID], R]
) -> tuple[OnceForm, R | AlreadyDone | None]:
    """(once, result): `change(key)` with the form's one-time key, made once (an
    AlreadyDone for the same submission sent again); result None when the key, the form or
    the service refused (then the reason is on `form`: a name another tournament has next
    to the name field)."""
    once, key = once_key(request, form)
    if key is None or not form.is_valid():
        return once, None
    try:
        return once, change(key)
    except AlreadyDone as repeat:
        return once, repeat
    except registration.TournamentNameTaken as error:
        form.add_error("name", str(error))
        return once, None
    except ServiceError as error:
        add_service_error(form, error)
        return once, None


@td_required
def dashboard(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournament/td/tournaments/list.html",
        {"rows": td_tournament_list()},
    )


@td_required
def create(request: HttpRequest) -> HttpResponse:
    template = "tournament/td/tournaments/create.html"
    if request.method != "POST":
        defaults = registration.settings_of(Tournament())  # the SM defaults
        defaults.pop("name")
        form = TournamentSettingsForm(initial=defaults)
        return render(request, template, _settings_context(form, OnceForm()))
    form = TournamentSettingsForm(request.POST)
    once, created = _carry_out(
        request,
        form,
        lambda key: registration.create_tournament(actor=request.user, key=key, **form.values()),
    )
    if isinstance(created, AlreadyDone):
        already_done(request)
        return redirect("td:dashboard")
    if created is not None:
        messages.success(
            request,
            _("Tournament %(name)s created. Register its players.") % {"name": created.name},
        )
        return redirect("td:players", created.pk)
    return render(request, template, _settings_context(form, once), status=400)


@td_required
def settings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_tournament(tournament_id)
    if registration.first_draw_made(tournament):
        return _fixed_settings_page(request, tournament)
    initial = registration.settings_of(tournament)
    if request.method != "POST":
        form = TournamentSettingsForm(initial=initial)
        return _settings_page(request, tournament, form, OnceForm())
    form = TournamentSettingsForm(request.POST, initial=initial)
    once, done = _carry_out(
        request,
        form,
        lambda key: registration.update_settings(
            tournament=tournament, actor=request.user, key=key, **form.values()
        ),
    )
    if done is None:
        return _settings_page(request, tournament, form, once, status=400)
    if isinstance(done, AlreadyDone):
        already_done(request)
    else:
        messages.success(request, _("Settings saved."))
    return redirect(reverse("td:settings", args=[tournament.pk]))


SETTINGS_TEMPLATE = "tournament/td/tournaments/settings.html"


def _settings_page(
    request: HttpRequest,
    tournament: Tournament,
    form: TournamentSettingsForm,
    once: OnceForm,
    status: int = 200,
) -> HttpResponse:
    """The settings as a form (before the first draw), with the prizes' and the earlier
    results' sections."""
    context = _settings_context(form, once, tournament=tournament)
    context.update(prize_section(tournament))
    context.update(earlier_results_section())
    return render(request, SETTINGS_TEMPLATE, context, status=status)


def _fixed_settings_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The settings read-only once the first draw is made, the name still correctable; a
    change sent anyway is refused on the page (as the service refuses it)."""
    context = _locked_context(tournament, TournamentNameForm(initial={"name": tournament.name}))
    context.update(prize_section(tournament))  # buy-ins and prizes can still change
    context.update(earlier_results_section())
    if request.method == "POST":
        context["refusal"] = _("Settings are fixed once the first draw is made.")
        return render(request, SETTINGS_TEMPLATE, context, status=400)
    return render(request, SETTINGS_TEMPLATE, context)


@td_required
@require_POST
def rename(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The name, corrected once the rules are fixed (a typo would stay on every page)."""
    tournament = get_tournament(tournament_id)
    form = TournamentNameForm(request.POST)
    once, done = _carry_out(
        request,
        form,
        lambda key: registration.rename_tournament(
            tournament=tournament, actor=request.user, name=form.cleaned_data["name"], key=key
        ),
    )
    if done is not None:
        if isinstance(done, AlreadyDone):
            already_done(request)
        else:
            messages.success(
                request, _("The tournament is now called %(name)s.") % {"name": done.name}
            )
        return redirect(reverse("td:settings", args=[tournament.pk]))
    context = {**_locked_context(tournament, form, once), **prize_section(tournament)}
    return render(request, SETTINGS_TEMPLATE, context, status=400)


def _locked_context(
    tournament: Tournament, name_form: TournamentNameForm, once: OnceForm | None = None
) -> dict[str, object]:
    return {
        "tournament": tournament,
        "locked": True,
        "decisions": DECISIONS,
        "shown": _shown_settings(tournament),
        "name_form": name_form,
        "once": once or OnceForm(),
    }


def _shown_settings(tournament: Tournament) -> list[dict[str, object]]:
    """The settings as a TD reads them: (label, value, help, decisions) per setting."""
    form = TournamentSettingsForm(initial=registration.settings_of(tournament))
    field_decisions = _field_decisions()
    shown: list[dict[str, object]] = []
    for name in form.Meta.fields:
        if name == "name":  # the name has its own form: it can still be corrected
            continue
        field = form.fields[name]
        value = getattr(tournament, name)
        if isinstance(value, bool):
            value = _("Yes") if value else _("No")
        elif hasattr(tournament, f"get_{name}_display"):
            value = getattr(tournament, f"get_{name}_display")()
        chosen = VARIANT_HELP.get(name, {}).get(getattr(tournament, name))
        shown.append(
            {
                "label": field.label,
                "value": value,
                "help": chosen or field.help_text,
                "decisions": field_decisions.get(name, []),
            }
        )
    return shown
