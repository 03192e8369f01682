"""The TD's buy-ins and prizes form (services/prizes.py): amounts typed in units, as the
TD thinks of them ("500", "12,50"), kept in the smallest unit; the places' shares typed as
percents ("50 30 20"), kept in basis points (tournament/rules/money.py)."""

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournament.forms.fields import checked, choice_field, choice_messages, verbose_label
from tournament.models import Tournament
from tournament.rules.money import (
    amount_input,
    amount_text,
    parse_amount,
    parse_shares,
    shares_input,
)

AMOUNTS = ("buy_in", "fee", "added_money")


class AmountField(forms.CharField):
    """An amount in units, kept in the smallest unit (`money.parse_amount`, same message)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
            **kwargs,
        )

    def clean(self, value: Any) -> int:
        text = super().clean(value)
        return checked(parse_amount, text, label=str(self.label))


class SharesField(forms.CharField):
    """The places' shares as percents, 1st first (`money.parse_shares`); empty: standard."""

    def clean(self, value: Any) -> list[int]:
        text = super().clean(value)
        return checked(parse_shares, text, label=str(self.label))


class PrizeSettingsForm(forms.Form):
    """The view calls `prizes.update_prizes(tournament=..., actor=..., **form.values())`."""

    currency = forms.ChoiceField(
        label=verbose_label(Tournament, "currency"), choices=Tournament.Currency.choices
    )
    buy_in = AmountField(
        label=verbose_label(Tournament, "buy_in"),
        help_text=Tournament._meta.get_field("buy_in").help_text,
    )
    fee = AmountField(
        label=verbose_label(Tournament, "fee"),
        help_text=Tournament._meta.get_field("fee").help_text,
    )
    added_money = AmountField(
        label=verbose_label(Tournament, "added_money"),
        help_text=Tournament._meta.get_field("added_money").help_text,
    )
    payout_shares = SharesField(
        label=_("The places' shares (%)"),
        required=False,
        max_length=600,
        help_text=_(
            "Percent of the pool for 1st, 2nd, 3rd… place, with blanks between them, e.g. "
            "50 30 20; decimals with a point or a comma (6.5). Leave it empty for the "
            "standard structure for the field's size, which follows late registrations "
            "and withdrawals."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    prize_rounding = forms.TypedChoiceField(
        label=verbose_label(Tournament, "prize_rounding"),
        coerce=int,
        help_text=_(
            "Each prize is rounded down to this; what the rounding leaves goes to 1st place."
        ),
    )
    prizes_public = forms.BooleanField(
        label=verbose_label(Tournament, "prizes_public"),
        required=False,
        help_text=Tournament._meta.get_field("prizes_public").help_text,
    )

    def __init__(self, *args: Any, tournament: Tournament | None = None, **kwargs: Any) -> None:
        if tournament is not None and not args and "data" not in kwargs:
            kwargs.setdefault("initial", initial_of(tournament))
        super().__init__(*args, **kwargs)
        # The units in the reader's language (0,01, 1, 5 … 1 000), shown when rendered.
        choice_field(self, "prize_rounding").choices = [
            (unit, amount_text(unit)) for unit, _text in Tournament.PRIZE_ROUNDING
        ]
        for name in ("currency", "prize_rounding"):
            field = self.fields[name]
            field.error_messages.update(choice_messages(field.label))
        for name, field in self.fields.items():
            if field.help_text:
                field.widget.attrs.setdefault("aria-describedby", f"id_{name}_helptext")

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        fee, buy_in = data.get("fee"), data.get("buy_in")
        if fee is not None and buy_in is not None and fee > buy_in:
            self.add_error("fee", ValidationError(_("The fee cannot be more than the buy-in.")))
        return data

    def values(self) -> dict[str, Any]:
        """The settings as `prizes.update_prizes` takes them (after is_valid())."""
        return {name: self.cleaned_data[name] for name in Tournament.PRIZE_SETTINGS}


def initial_of(tournament: Tournament) -> dict[str, object]:
    """The tournament's prize settings as the form shows them to be edited."""
    return {
        "currency": tournament.currency,
        **{name: amount_input(getattr(tournament, name)) for name in AMOUNTS},
        "payout_shares": shares_input(tournament.payout_shares),
        "prize_rounding": tournament.prize_rounding,
        "prizes_public": tournament.prizes_public,
    }
