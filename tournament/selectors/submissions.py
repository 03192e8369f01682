"""Whether a submission was recorded, by its one-time key: asked when the connection to the
database was lost while it was sent (tournament/web/faults/outcome.py)."""

import uuid
from collections.abc import Collection

from tournament.models import (
    FormSubmission,
    HandVersion,
)


def hand_entry(key: uuid.UUID) -> tuple[int, int] | None:
    """(hand number, version) of the hand entry or correction made with `key`, or None.
    1 query."""
    return (
        HandVersion.objects.filter(idempotency_key=key)
        .values_list("hand__number", "version")
        .order_by()
        .first()
    )


def form_submitted(keys: Collection[uuid.UUID]) -> bool:
    """Whether a form's change with one of `keys` was made (services/idempotency.py). 1 query."""
    return FormSubmission.objects.filter(key__in=keys).exists()
