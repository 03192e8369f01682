"""Checks every service applies to what it is given, whoever calls it.

The forms check the same limits for the pages, but a service also serves the
admin, the commands, the import and tests: it trusts nothing. Each function
returns the clean value or raises `InvalidEntry` with a message for the person
who typed it.
"""

import unicodedata
from typing import TYPE_CHECKING

from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext as _

from tournament.errors import InvalidEntry

# What a field is called in a message: plain text or a lazy translation (django-stubs
# names the lazy one's type, which exists only for the type checker).
if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise as Label
else:
    Label = str | Promise

# The largest value of a PositiveSmallIntegerField on every database (a hand's or a
# level's number): checked before it reaches the column.
MAX_SMALL_NUMBER = 32767

# Unicode categories never allowed in stored text: control characters (NUL, escapes...),
# lone surrogates (not valid UTF-8, PostgreSQL refuses them), unassigned code points.
_FORBIDDEN = {"Cc", "Cs", "Cn"}
_MULTILINE_ALLOWED = {"\n", "\t"}


def clean_text(
    value: object,
    *,
    label: Label,
    max_length: int,
    required: bool = True,
    multiline: bool = False,
    empty: Label | None = None,
) -> str:
    """Text as it is kept: NFC-normalized, trimmed, no control characters, not too long.

    A single-line text also has its runs of blanks folded into one space, so that
    "Anna  Berg" and "Anna Berg" are the same name. `empty`: the message when a
    required text is empty (default: "<label> must not be empty.").
    """
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise InvalidEntry(_("%(label)s must be text.") % {"label": label})
    text = unicodedata.normalize("NFC", value)
    allowed: set[str] = _MULTILINE_ALLOWED if multiline else set()
    text = text.replace("\r\n", "\n").strip() if multiline else " ".join(text.split())
    bad = next(
        (c for c in text if c not in allowed and unicodedata.category(c) in _FORBIDDEN), None
    )
    if bad is not None:
        raise InvalidEntry(
            _("%(label)s contains a character that cannot be kept (U+%(code)04X).")
            % {"label": label, "code": ord(bad)}
        )
    if required and not text:
        raise InvalidEntry(empty or _("%(label)s must not be empty.") % {"label": label})
    if len(text) > max_length:
        raise InvalidEntry(
            _("%(label)s can have at most %(max)d characters (it has %(length)d).")
            % {"label": label, "max": max_length, "length": len(text)}
        )
    return text


def clean_bool(value: object, *, label: Label) -> bool:
    """Strictly True or False: "yes", 1 or None are refused rather than guessed."""
    if type(value) is not bool:
        raise InvalidEntry(_("%(label)s must be yes or no.") % {"label": label})
    return value


def clean_int(value: object, *, label: Label, minimum: int, maximum: int) -> int:
    """A whole number (not a boolean, not text) within the given range."""
    if type(value) is not int:
        raise InvalidEntry(_("%(label)s must be a whole number.") % {"label": label})
    if not minimum <= value <= maximum:
        raise InvalidEntry(
            _("%(label)s must be from %(min)d to %(max)d, not %(value)d.")
            % {"label": label, "min": minimum, "max": maximum, "value": value}
        )
    return value


def clean_choice(value: object, *, label: Label, choices: type[models.Choices]) -> str:
    """One of a model field's choices (a TextChoices class)."""
    if not isinstance(value, str) or value not in choices.values:
        shown = ", ".join(str(label) for label in choices.labels)
        raise InvalidEntry(
            _("%(label)s must be one of: %(choices)s.") % {"label": label, "choices": shown}
        )
    return value


def instance[M: models.Model](value: object, model: type[M], *, label: Label) -> M:
    """`value` must be a saved `model` row (not read again: the caller locks and reads it)."""
    if not isinstance(value, model) or value.pk is None:
        raise InvalidEntry(_("%(label)s is missing or unknown.") % {"label": label})
    return value


def saved[M: models.Model](value: object, model: type[M], *, label: Label, **scope: object) -> M:
    """The saved `model` row that `value` stands for, read afresh (within `scope`).

    Refuses anything that is not an instance of the model, an unsaved one, or one
    outside the scope (e.g. a player of another tournament).
    """
    if not isinstance(value, model) or value.pk is None:
        raise InvalidEntry(_("%(label)s is missing or unknown.") % {"label": label})
    found = model._default_manager.filter(pk=value.pk, **scope).first()
    if found is None:
        raise InvalidEntry(_("%(label)s is missing or unknown.") % {"label": label})
    return found


def column_length(model: type[models.Model], name: str) -> int:
    """A text column's limit, for the services that check a text before it is kept: the
    model says it once. Only for a field that has one (a CharField): otherwise a mistake
    in the code, seen when the module is imported."""
    length = getattr(model._meta.get_field(name), "max_length", None)
    if not isinstance(length, int):
        raise TypeError(f"{model.__name__}.{name} has no max_length")
    return length
