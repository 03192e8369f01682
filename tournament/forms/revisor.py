"""The revisor's forms: the table's short code, a call of the TD (and the timer's), and a
fix of the last hand by cards."""

import uuid
from collections.abc import Iterable
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.errors import InvalidEntry
from tournament.forms.fields import (
    STALE_FORM,
    TextField,
    choice_field,
    choice_messages,
    lazy_format,
    max_length,
)
from tournament.forms.hands import CorrectCardsForm
from tournament.models import (
    REVISOR_CODE_LENGTH,
    Player,
    TableCall,
)
from tournament.services import revisor_access


class RevisorFixCardsForm(CorrectCardsForm):
    """The revisor's fix of the last hand by cards (entry, check, confirm).

    The version being fixed travels with the cards (CorrectionForm's `version`), so that
    a fix read out to the table as "was -14, now +36" is not saved over a correction made
    meanwhile.
    """


class _CallFormBase(forms.Form):
    """A call's note and one-time key (a double post, or the countdown's post at zero sent
    again, makes one call); the errors of fields shown nowhere of their own go above."""

    note = TextField(
        label=gettext_lazy("Note (optional)"),
        required=False,
        max_length=max_length(TableCall, "note"),
        widget=forms.TextInput(attrs={"maxlength": max_length(TableCall, "note")}),
    )
    submission_key = forms.UUIDField(
        widget=forms.HiddenInput,
        error_messages={"required": STALE_FORM, "invalid": STALE_FORM},
    )
    errors_above: tuple[str, ...] = ("note", "submission_key")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial["submission_key"] = uuid.uuid4()

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        for name in self.errors_above:
            errors = self.errors.pop(name, None)
            if errors:
                self.add_error(None, errors.as_data())
        return cleaned


class CallForm(_CallFormBase):
    """The timer's calls: a timeout naming the player timed out, or a warning asked for
    the one who acted in time."""

    kind = forms.ChoiceField(
        label=gettext_lazy("Why"),
        choices=TableCall.Kind.choices,
        error_messages=choice_messages(gettext_lazy("Why")),
    )
    player = forms.TypedChoiceField(
        label=gettext_lazy("Player"),
        required=False,
        coerce=int,
        empty_value=None,
        error_messages=choice_messages(gettext_lazy("Player")),
    )
    # The timer shows no place of its own for these fields' errors: said above the form.
    errors_above = ("kind", "note", "submission_key")

    def __init__(self, *args: Any, players: Iterable[Player] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choice_field(self, "player").choices = [("", _("Choose the player"))] + [
            (player.pk, player.name) for player in players
        ]
        # The timer's second form ("Call the TD for a warning") has a key of its own.
        self.warning_key = uuid.uuid4()

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if "player" in self.data and cleaned.get("player") is None and "player" not in self.errors:
            self.add_error("player", _("Choose the player."))
        return cleaned


class GeneralCallForm(_CallFormBase):
    """The card's "Call the TD": it asks why, and names nobody. A timeout is not among the
    reasons: "Time a player" times him and names him (left to its first reason, this form
    used to send "Timeout (count a player)" naming nobody)."""

    kind = forms.ChoiceField(
        label=gettext_lazy("Why do you call the TD?"),
        choices=[(k, label) for k, label in TableCall.Kind.choices if k != TableCall.Kind.TIMEOUT],
        widget=forms.RadioSelect,
        error_messages={
            "required": gettext_lazy("Choose why you call the TD."),
            "invalid_choice": gettext_lazy("Choose why you call the TD."),
        },
    )


class ShortCodeForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Table code"),
        max_length=20,
        help_text=gettext_lazy("The 6 letters and digits on your table's card."),
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
        ),
        # The same words as revisor_access.clean_code: a code far too long is of the wrong shape.
        error_messages={
            "required": gettext_lazy("Type the table's code."),
            "max_length": lazy_format(
                gettext_lazy(
                    "A table code is %(length)d letters and digits, without O, 0, I, L or 1. "
                    "Check the card and try again."
                ),
                length=REVISOR_CODE_LENGTH,
            ),
        },
    )

    def clean_code(self) -> str:
        try:
            return revisor_access.clean_code(self.cleaned_data["code"])
        except InvalidEntry as error:
            raise forms.ValidationError(error.message) from None
