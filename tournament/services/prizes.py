"""The tournament's buy-in, fee, added money and payout structure (docs/prizes.md).

They can change at any time, before play or after (a typo in the buy-in, added money
announced late, the structure agreed at the final table): they move no result, only
what the standings show each winner wins. Every change is kept in the audit log with
who made it and when, its values before and after.
"""

from collections.abc import Mapping

from django.db import models, transaction
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from tournament import audit
from tournament.errors import InvalidEntry
from tournament.models import Tournament
from tournament.rules.money import check_amount, check_shares
from tournament.rules.validation import Label, clean_bool, clean_choice, saved
from tournament.services.idempotency import idempotent
from tournament.tables.locking import lock_tournament, touch_tournament


def prize_settings_of(tournament: Tournament) -> dict[str, object]:
    return {name: getattr(tournament, name) for name in Tournament.PRIZE_SETTINGS}


def _label(name: str) -> Label:
    field = Tournament._meta.get_field(name)
    assert isinstance(field, models.Field), f"Tournament.{name} is not a column"
    return capfirst(field.verbose_name)


def clean_prize_settings(values: Mapping[str, object]) -> dict[str, object]:
    """Every prize setting checked, whoever calls: amounts whole numbers of the smallest
    unit within range, the fee within the buy-in, shares adding up to 100 %."""
    unknown = set(values) - set(Tournament.PRIZE_SETTINGS)
    missing = set(Tournament.PRIZE_SETTINGS) - set(values)
    if unknown or missing:
        names = ", ".join(sorted(map(str, unknown | missing)))
        raise InvalidEntry(_("Unknown or missing prize settings: %(names)s.") % {"names": names})
    clean: dict[str, object] = {
        "currency": clean_choice(
            values["currency"], label=_label("currency"), choices=Tournament.Currency
        ),
        "prizes_public": clean_bool(values["prizes_public"], label=_label("prizes_public")),
        "payout_shares": check_shares(values["payout_shares"], label=_("The places' shares")),
    }
    amounts = {
        field: check_amount(values[field], label=_label(field))
        for field in ("buy_in", "fee", "added_money")
    }
    clean.update(amounts)
    if amounts["fee"] > amounts["buy_in"]:
        raise InvalidEntry(_("The fee cannot be more than the buy-in."))
    units = [unit for unit, _text in Tournament.PRIZE_ROUNDING]
    if type(values["prize_rounding"]) is not int or values["prize_rounding"] not in units:
        raise InvalidEntry(
            _("%(label)s: choose one of the options.") % {"label": _label("prize_rounding")}
        )
    clean["prize_rounding"] = values["prize_rounding"]
    return {name: clean[name] for name in Tournament.PRIZE_SETTINGS}  # in the form's order


@idempotent("tournament.prizes", load=Tournament)
@transaction.atomic
def update_prizes(*, tournament: Tournament, actor: audit.Actor, **values: object) -> Tournament:
    """Set the tournament's buy-in, fee, added money, shares (empty: the standard
    structure), rounding unit and whether the public standings show prizes."""
    tournament = lock_tournament(saved(tournament, Tournament, label=_("The tournament")))
    clean = clean_prize_settings(values)
    before = prize_settings_of(tournament)
    if clean == before:
        return tournament
    for name, value in clean.items():
        setattr(tournament, name, value)
    tournament.save(update_fields=list(Tournament.PRIZE_SETTINGS))
    touch_tournament(tournament)  # the standings' pages show the new figures
    audit.record(
        tournament=tournament,
        actor=actor,
        action="tournament.prizes",
        params={
            "currency": clean["currency"],
            "buy_in": clean["buy_in"],
            "fee": clean["fee"],
            "added_money": clean["added_money"],
            "shares": clean["payout_shares"],
        },
        before=before,
        after=clean,
    )
    return tournament
