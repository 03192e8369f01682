"""A TD form's change made once, however often it is sent (double click, resend, retry).

The form carries a one-time key (`OnceForm`'s hidden field). `submit_once` keeps
the key and makes the change in one transaction: if the key is already kept, the
change was made before and nothing happens again.
"""

import uuid

from django import forms
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from tournament.models import FormSubmission

ALREADY_DONE = object()
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


def submit_once(request, key, change):
    """Run `change()` unless a submission with `key` already ran; return its result.

    Returns ALREADY_DONE for a repeated submission. A ServiceError from `change`
    rolls the key back too, so the corrected form can be sent again.
    """
    user = request.user if request.user.is_authenticated else None
    with transaction.atomic():
        try:
            with transaction.atomic():
                FormSubmission.objects.create(key=key, user=user)
        except IntegrityError:
            return ALREADY_DONE
        return change()
