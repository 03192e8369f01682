"""A TD's change carried out from a posted form: done, a repeat of one done, or refused.

What the TD views share once a form is valid: the one service call with the form's key,
a repeat of the same submission said in a message (nothing is changed twice), a refusal
shown in the form it came from (views/refusals.py).
"""

import uuid
from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.http import HttpRequest
from django.utils.translation import gettext as _

from tournament.errors import ServiceError
from tournament.forms.fields import OnceForm
from tournament.services.idempotency import AlreadyDone
from tournament.views.refusals import add_service_error


def stale_form_message() -> str:
    return _("This form is out of date (its key is missing). Check the values and send it again.")


def already_sent() -> str:
    return _("This form was already sent; nothing was changed again.")


def already_done(request: HttpRequest) -> None:
    messages.info(request, already_sent())


def once_key(
    request: HttpRequest, form: forms.BaseForm, *, prefix: str | None = None
) -> tuple[OnceForm, uuid.UUID | None]:
    """(once, key): the posted form's one-time key. A missing or broken one is reported on
    `form` (its own errors checked too), and `once` is a fresh key for the next try."""
    once = OnceForm(request.POST, prefix=prefix)
    if once.is_valid():
        return once, once.cleaned_data["submission_key"]
    form.is_valid()
    form.add_error(None, stale_form_message())
    return OnceForm(prefix=prefix), None


def carry_out[R](
    request: HttpRequest,
    form: forms.BaseForm,
    change: Callable[[], R],
    *,
    repeated: str | None = None,
    said: str | None = None,
) -> R | AlreadyDone | None:
    """`change()`'s result (a service's: what it made, never None), said in `said` when
    given; its AlreadyDone for the same submission sent again (said in `repeated`, when
    given); None when the service refused it (the reason is on `form`)."""
    try:
        done = change()
    except AlreadyDone as repeat:
        if repeated is not None:
            messages.info(request, repeated)
        return repeat
    except ServiceError as error:
        add_service_error(form, error)
        return None
    if said is not None:
        messages.success(request, said)
    return done
