"""A TD form's change made once, however often it is sent (double click, resend, retry).

The form carries a one-time key (`OnceForm`'s hidden field). `submit_once` keeps
the key and makes the change in one transaction: if the key is already kept, the
change was made before and nothing happens again. A key kept for another change (the
form's key sent to another address, or with other values: a page brought back and
changed, a key copied) is refused as such, and nothing is changed: "already done" would
say a change was made that was not.
"""

import hashlib
import json

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from tournament.errors import KeyInUse
from tournament.models import FormSubmission
from tournament.selectors.submissions import form_kept

ALREADY_DONE = object()


def fingerprint(request):
    """What a submission asks for, as a digest: its address and all it sent (the files'
    contents too) but the CSRF token. The same form sent again gives the same."""
    digest = hashlib.sha256(request.path.encode())
    for name, values in sorted(request.POST.lists()):
        if name != "csrfmiddlewaretoken":
            digest.update(json.dumps(["field", name, values]).encode())
    for name, uploads in sorted(request.FILES.lists()):
        for upload in uploads:
            digest.update(json.dumps(["file", name, upload.name, upload.size]).encode())
            for chunk in upload.chunks():
                digest.update(chunk)
            upload.seek(0)
    return digest.hexdigest()


def already_submitted(request, key):
    """Whether this very submission (its key, sent as it is now) was carried out."""
    return form_kept(key, fingerprint(request))


def submit_once(request, key, change):
    """Run `change()` unless a submission with `key` already ran; return its result.

    Returns ALREADY_DONE for a repeated submission; raises KeyInUse when the key was
    kept for another change. A ServiceError from `change` rolls the key back too, so the
    corrected form can be sent again.
    """
    user = request.user if request.user.is_authenticated else None
    sent = fingerprint(request)
    with transaction.atomic():
        try:
            with transaction.atomic():
                FormSubmission.objects.create(key=key, user=user, fingerprint=sent)
        except IntegrityError:
            if form_kept(key, sent):
                return ALREADY_DONE
            raise KeyInUse(
                gettext(
                    "This form's key was already used for another change, which was made: "
                    "nothing was changed now. Reload the page and send it again."
                )
            ) from None
        return change()
