"""What every role's forms share: text and number fields that apply the services' checks,
the messages of a choice, the limits read from the models' columns, and the one-time key a
form that changes something carries (`OnceForm`)."""

import re
import uuid
from collections.abc import Callable
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Field, Model
from django.utils.functional import lazy
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from tournament.backups.schema import MAX_BYTES
from tournament.errors import InvalidEntry
from tournament.rules.names import (
    check_shown,
    strip_invisible,
)
from tournament.rules.validation import MAX_SMALL_NUMBER, Label, clean_int, clean_text

MAX_HAND_NUMBER = MAX_SMALL_NUMBER  # the Hand.number column


MAX_ID = 2**63 - 1  # a primary key (BigAutoField)


MAX_LIST_LINES = 1000  # a pasted player list longer than this is refused whole


MAX_BACKUP_BYTES = MAX_BYTES


def max_length(model: type[Model], field: str) -> int:
    """The column's limit: forms never repeat it as a literal."""
    column = model._meta.get_field(field)
    assert isinstance(column, Field) and column.max_length is not None, (model, field)
    return column.max_length


def verbose_label(model: type[Model], field: str) -> Label:
    column = model._meta.get_field(field)
    assert isinstance(column, Field), (model, field)
    return capfirst(column.verbose_name)


def _interpolate(message: Label, params: dict[str, object]) -> str:
    return str(message) % params


# `message % params`, translated when shown (message is a gettext_lazy string).
_lazy_interpolate = lazy(_interpolate, str)


def lazy_format(message: Label, **params: object) -> Label:
    return _lazy_interpolate(message, params)


def checked[**P, T](func: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Run a validation.* check; its InvalidEntry becomes the form's error, same message."""
    try:
        return func(*args, **kwargs)
    except InvalidEntry as exc:
        raise ValidationError(exc.message, code="invalid") from exc


def choice_field(form: forms.BaseForm, name: str) -> forms.ChoiceField:
    """The form's choice field `name`, to set its choices."""
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField), name
    return field


def model_choice_field(form: forms.BaseForm, name: str) -> "forms.ModelChoiceField[Any]":
    """The form's model choice field `name`, to set its queryset."""
    field = form.fields[name]
    assert isinstance(field, forms.ModelChoiceField), name
    return field


def choice_messages(label: Label | None) -> dict[str, Label]:
    """A choice field's messages naming it (the revisor's call form uses them too)."""
    message = lazy_format(_("%(label)s: choose one of the options."), label=label)
    return {"required": message, "invalid_choice": message}


class TextField(forms.CharField):
    """Text as the services keep it (validation.clean_text): NFC, trimmed, no control
    characters, at most `max_length` characters; single-line text has its blanks folded.
    """

    def __init__(self, *, max_length: int, multiline: bool = False, **kwargs: Any) -> None:
        self.text_max_length = max_length
        self.multiline = multiline
        if "widget" not in kwargs:
            kwargs["widget"] = forms.Textarea(attrs={"rows": 3}) if multiline else forms.TextInput
        super().__init__(strip=False, **kwargs)

    def clean(self, value: Any) -> str:
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

    def __init__(
        self, *, min_value: int, max_value: int, message: Label | None = None, **kwargs: Any
    ) -> None:
        self.message = message
        # Always given, and whole numbers (Django's own may be callables, or None).
        self.minimum = min_value
        self.maximum = max_value
        super().__init__(min_value=min_value, max_value=max_value, **kwargs)

    def clean(self, value: Any) -> int | None:
        try:
            return self._clean(value)
        except ValidationError:
            if self.message is None:
                raise
            raise ValidationError(self.message, code="invalid") from None

    def _clean(self, value: Any) -> int | None:
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
        return checked(clean_int, number, label=label, minimum=self.minimum, maximum=self.maximum)


def reason_field(model: type[Model], field: str = "reason", **kwargs: Any) -> "TextField":
    return TextField(
        max_length=max_length(model, field), multiline=True, label=_("Reason"), **kwargs
    )


class NameField(TextField):
    """A name as the services keep it (`names.clean_name`): clean text that shows as
    something, without characters that turn its direction, nor invisible ones at its ends."""

    def to_python(self, value: Any) -> str:
        return strip_invisible(super().to_python(value) or "")

    def clean(self, value: Any) -> str:
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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("submission_key", uuid.uuid4())
