"""Amounts and shares as the TD types and reads them, kept as whole numbers.

An amount is kept in the currency's smallest unit (öre, cents: every currency offered has
100 of them to the unit), a share in basis points (tournament/rules/payouts.py). They are
read from text without floats ("500", "12,50", "1 000"), and written in the reader's
language ("1,000 SEK", "1 000 SEK"; "6.5%", "6,5 %").
"""

import re
from collections.abc import Sequence
from decimal import Decimal

from django.utils import formats
from django.utils.translation import gettext as _

from tournament.errors import InvalidEntry
from tournament.rules.payouts import WHOLE
from tournament.rules.validation import Label

MINOR_UNITS = 100  # smallest units to one unit of every currency offered
MAX_AMOUNT = 1_000_000_000  # in the smallest unit (10 million kronor): the columns' bound
MAX_PLACES = 100  # places paid, at most
NBSP = "\u00a0"

# Digits, then at most one decimal sign (point or comma) and 1-2 digits: "1,000" has 3
# digits after its comma and is refused, never read as one krona.
_AMOUNT = re.compile(r"(\d+)(?:[.,](\d{1,2}))?")
_SHARE = re.compile(r"(\d+)(?:[.,](\d{1,2}))?%?")
# Blanks a number may be grouped with: spaces, no-break and thin spaces.
_GROUPING = re.compile(r"[ \u00a0\u202f\u2009]")


def parse_amount(text: object, *, label: Label) -> int:
    """An amount typed in units ("500", "12.50", "12,5", "1 000") as smallest units."""
    if isinstance(text, int) and not isinstance(text, bool):
        text = str(text)
    if not isinstance(text, str):
        raise InvalidEntry(_("%(label)s must be an amount.") % {"label": label})
    found = _AMOUNT.fullmatch(_GROUPING.sub("", text.strip()))
    if found is None:
        raise InvalidEntry(
            _(
                "%(label)s must be an amount such as 500 or 12.50 (at most 2 decimals, "
                "no thousands separators but spaces)."
            )
            % {"label": label}
        )
    units, cents = found.group(1), (found.group(2) or "").ljust(2, "0")
    amount = int(units) * MINOR_UNITS + int(cents)
    return check_amount(amount, label=label)


def check_amount(amount: object, *, label: Label) -> int:
    """An amount in smallest units within what is kept (0 to MAX_AMOUNT)."""
    if type(amount) is not int or not 0 <= amount <= MAX_AMOUNT:
        raise InvalidEntry(
            _("%(label)s must be from 0 to %(max)s.")
            % {"label": label, "max": amount_text(MAX_AMOUNT)}
        )
    return amount


def amount_text(amount: int) -> str:
    """An amount in units, in the reader's language: "12,150" / "12 150", "6,575.50"."""
    if amount % MINOR_UNITS == 0:
        return formats.number_format(amount // MINOR_UNITS, force_grouping=True)
    value = Decimal(amount) / MINOR_UNITS  # exact: a whole number over 100
    return formats.number_format(value, decimal_pos=2, force_grouping=True)


def money(amount: int, currency: str) -> str:
    """An amount with its currency: "13,150 SEK" (a no-break space between)."""
    return f"{amount_text(amount)}{NBSP}{currency}"


def amount_input(amount: int) -> str:
    """An amount as a form shows it to be edited: no grouping, the reader's decimal sign."""
    if amount % MINOR_UNITS == 0:
        return str(amount // MINOR_UNITS)
    value = Decimal(amount) / MINOR_UNITS
    return formats.number_format(value, decimal_pos=2, use_l10n=True)


def share_text(share: int) -> str:
    """A share (basis points) as a percent number without the sign: "50", "6.5", "1.04"."""
    whole, rest = divmod(share, 100)
    if not rest:
        return str(whole)
    decimals = f"{rest:02d}".rstrip("0")
    return f"{whole}{formats.get_format('DECIMAL_SEPARATOR')}{decimals}"


def percent(share: int) -> str:
    """A share as a percent, as the reader's language writes it: "6.5%" / "6,5 %"."""
    return _("%(share)s%%") % {"share": share_text(share)}


def shares_input(shares: Sequence[int]) -> str:
    """Shares as the form shows them: "50 30 20" (empty: the standard structure)."""
    return " ".join(share_text(share) for share in shares)


def parse_shares(text: object, *, label: Label) -> list[int]:
    """Shares typed as percents, 1st place first, separated by blanks, semicolons or
    lines ("50 30 20", "50; 30; 20", "50, 30, 20"): basis points, each at least 0.01 %,
    none larger than the one before, adding up to 100 %. Empty text: no shares (the
    standard structure)."""
    if not isinstance(text, str):
        raise InvalidEntry(_("%(label)s must be text.") % {"label": label})
    shares = []
    for word in re.split(r"[\s;/]+", text.strip()):
        word = word.rstrip(",")  # "50, 30, 20": the comma before a blank parts them
        if not word:
            continue
        found = _SHARE.fullmatch(word)
        if found is None:
            raise InvalidEntry(
                _(
                    "%(label)s: “%(word)s” is not a percent. Write the places' shares "
                    "with blanks between them, 1st place first: 50 30 20."
                )
                % {"label": label, "word": word[:20]}
            )
        whole, decimals = found.group(1), (found.group(2) or "").ljust(2, "0")
        shares.append(int(whole) * 100 + int(decimals))
    return check_shares(shares, label=label)


def check_shares(shares: object, *, label: Label) -> list[int]:
    """Shares in basis points, as kept: a list, 1st first, each from 0.01 % to 100 %, none
    larger than the one above it, adding up to exactly 100 % (empty: standard)."""
    if not isinstance(shares, (list, tuple)) or not all(type(share) is int for share in shares):
        raise InvalidEntry(_("%(label)s must be a list of whole numbers.") % {"label": label})
    shares = list(shares)
    if not shares:
        return shares
    if len(shares) > MAX_PLACES:
        raise InvalidEntry(
            _("%(label)s: at most %(max)d places can be paid.")
            % {"label": label, "max": MAX_PLACES}
        )
    for place, share in enumerate(shares, start=1):
        if not 1 <= share <= WHOLE:
            raise InvalidEntry(
                _("%(label)s: place %(place)d's share must be more than 0 and at most 100%%.")
                % {"label": label, "place": place}
            )
        if place > 1 and share > shares[place - 2]:
            raise InvalidEntry(
                _(
                    "%(label)s: place %(place)d (%(share)s) would be paid more than "
                    "place %(above)d (%(above_share)s)."
                )
                % {
                    "label": label,
                    "place": place,
                    "share": percent(share),
                    "above": place - 1,
                    "above_share": percent(shares[place - 2]),
                }
            )
    total = sum(shares)
    if total != WHOLE:
        raise InvalidEntry(
            _("%(label)s add up to %(total)s; they must add up to 100%%.")
            % {"label": label, "total": percent(total)}
        )
    return shares
