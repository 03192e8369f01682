"""Whether a submission was recorded, by its one-time key: asked when the connection to the
database was lost while it was sent (tournament/web/faults/outcome.py)."""

from tournament.models import (
    FormSubmission,
    HandVersion,
)


def hand_entry(key):
    """(hand number, version) of the hand entry or correction made with `key`, or None.
    1 query."""
    return (
        HandVersion.objects.filter(idempotency_key=key)
        .values_list("hand__number", "version")
        .order_by()
        .first()
    )


def form_submitted(keys):
    """Whether a form's change with one of `keys` was made (views/once.py). 1 query."""
    return FormSubmission.objects.filter(key__in=keys).exists()


def form_kept(key, fingerprint):
    """Whether a TD form with this one-time key was already carried out, sent as it is
    now (`fingerprint`, views/once.py): 1 query. A key kept for another change is not.

    Checked before a form is validated against the database, so that a double
    click is answered "already done" rather than "Anna is already registered".
    """
    kept = FormSubmission.objects.filter(key=key).values_list("fingerprint", flat=True)
    return kept.first() in ("", fingerprint)  # "": kept before fingerprints were
