"""What every role's forms share: text and number fields that apply the services' checks,
the messages of a choice, the limits read from the models' columns, and the one-time key a
form that changes something carries (`OnceForm`)."""

import re
import uuid

from django import forms
from django.core.exceptions import ValidationError
from django.utils.functional import lazy
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from tournament.backups.schema import MAX_BYTES
from tournament.errors import InvalidEntry
from tournament.rules.names import (
    check_shown,
    strip_invisible,
)
from tournament.rules.validation import MAX_SMALL_NUMBER, clean_int, clean_text

MAX_HAND_NUMBER = MAX_SMALL_NUMBER  # the Hand.number column


MAX_ID = 2**63 - 1  # a primary key (BigAutoField)


MAX_LIST_LINES = 1000  # a pasted player list longer than this is refused whole


MAX_BACKUP_BYTES = MAX_BYTES


def max_length(model, field):
    """The column's limit: forms never repeat it as a literal."""
    return model._meta.get_field(field).max_length


def verbose_label(model, field):
    return capfirst(model._meta.get_field(field).verbose_name)


def _interpolate(message, params):
    return str(message) % params


# `message % params`, translated when shown (message is a gettext_lazy string).
_lazy_interpolate = lazy(_interpolate, str)


def lazy_format(message, **params):
    return _lazy_interpolate(message, params)


def checked(func, *args, **kwargs):
    """Run a validation.* check; its InvalidEntry becomes the form's error, same message."""
    try:
        return func(*args, **kwargs)
    except InvalidEntry as exc:
        raise ValidationError(exc.message, code="invalid") from exc


def choice_messages(label):
    """A choice field's messages naming it (the revisor's call form uses them too)."""
    message = lazy_format(_("%(label)s: choose one of the options."), label=label)
    return {"required": message, "invalid_choice": message}


class TextField(forms.CharField):
    """Text as the services keep it (validation.clean_text): NFC, trimmed, no control
    characters, at most `max_length` characters; single-line text has its blanks folded.
    """

    def __init__(self, *, max_length, multiline=False, **kwargs):
        self.text_max_length = max_length
        self.multiline = multiline
        if "widget" not in kwargs:
            kwargs["widget"] = forms.Textarea(attrs={"rows": 3}) if multiline else forms.TextInput
        super().__init__(strip=False, **kwargs)

    def clean(self, value):
        value = self.to_python(value)
        text = checked(
            clean_text,
            value,
            label=str(self.label or _("This field")),
            max_length=self.text_max_length,
            required=self.required,
            multiline=self.multiline,
        )
        self.run_validators(text)
        return text


_WHOLE_NUMBER = re.compile(r"[+-]?\d+")


class WholeNumberField(forms.IntegerField):
    """A whole number in a range, checked by validation.clean_int (same messages).

    `message` replaces every error message (for hidden fields: "reload the page").
    A typographic minus (U+2212, as some phones type it) is read as "-".
    """

    def __init__(self, *, message=None, **kwargs):
        self.message = message
        super().__init__(**kwargs)

    def clean(self, value):
        try:
            return self._clean(value)
        except ValidationError:
            if self.message is None:
                raise
            raise ValidationError(self.message, code="invalid") from None

    def _clean(self, value):
        label = str(self.label or _("This field"))
        text = "" if value is None else str(value).strip()
        if not text:
            if not self.required:
                return None
            checked(clean_text, "", label=label, max_length=0)  # "... must not be empty."
        text = text.replace("\u2212", "-")
        try:
            number = int(text) if _WHOLE_NUMBER.fullmatch(text) else text  # text: refused below
        except ValueError:  # thousands of digits: more than int() reads from text
            number = text
        return checked(
            clean_int, number, label=label, minimum=self.min_value, maximum=self.max_value
        )


def reason_field(model, field="reason", **kwargs):
    return TextField(
        max_length=max_length(model, field), multiline=True, label=_("Reason"), **kwargs
    )


class NameField(TextField):
    """A name as the services keep it (`names.clean_name`): clean text that shows as
    something, without characters that turn its direction, nor invisible ones at its ends."""

    def to_python(self, value):
        return strip_invisible(super().to_python(value))

    def clean(self, value):
        text = super().clean(value)
        if text:
            checked(check_shown, text, label=str(self.label or _("This field")))
        return text


# A hidden field's message: nothing to correct in the form, only a page to read again.
STALE_FORM = _("This form is out of date: reload the page and send it again.")


class OnceForm(forms.Form):
    """A form whose submission is carried out at most once."""

    submission_key = forms.UUIDField(
        widget=forms.HiddenInput,
        error_messages={"required": STALE_FORM, "invalid": STALE_FORM},
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("submission_key", uuid.uuid4())
