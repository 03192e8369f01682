"""What a change did whose connection to the database was lost while it was made.

Every entry carries a one-time key, written in the change's own transaction: the hand's
(`idempotency_key`, on its version) or a form's (`submission_key`, services/idempotency.py). So the
key, looked up on a fresh connection, tells whether the change was recorded (its commit
went through before the connection died) or not (rolled back whole). Nothing is run again:
whoever sent it sends it again with the same key, which records it once.
"""

import uuid
from collections.abc import Mapping
from dataclasses import dataclass

from django.db import DatabaseError

from tournament.selectors import submissions
from tournament.web.faults.kinds import forget_connection

HAND_KEY = "idempotency_key"
FORM_KEY = "submission_key"  # also with a form's prefix: "withdraw-submission_key"


@dataclass(frozen=True)
class Outcome:
    recorded: bool | None  # None: cannot be told (no key, or the database is still away)
    keyed: bool  # the request carried a one-time key: sending it again records it once
    hand: int | None = None  # the hand it was for, when it was a hand's entry
    correction: bool = False  # a correction of that hand, not its first entry
    looked_up: bool = False  # the database answered the key's lookup: it is back


# A POST that writes nothing (a check): sending it again is always safe.
NOTHING_TO_RECORD = Outcome(recorded=False, keyed=True)


def _key(value: object) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None


def _number(value: object) -> int | None:
    return int(value) if isinstance(value, str) and value.isdigit() and len(value) < 6 else None


def outcome(data: Mapping[str, str]) -> Outcome:
    """What the request with POST `data` did (see the module's docstring). Runs on a fresh
    connection; if that fails too, the outcome cannot be told."""
    hand_key = _key(data.get(HAND_KEY)) if HAND_KEY in data else None
    form_keys = [
        key
        for name, value in data.items()
        if name == FORM_KEY or name.endswith("-" + FORM_KEY)
        if (key := _key(value)) is not None
    ]
    hand = _number(data.get("hand_number")) if hand_key is not None else None
    correction = hand_key is not None and "version" in data
    if hand_key is None and not form_keys:
        return Outcome(recorded=None, keyed=False)
    try:
        entry = submissions.hand_entry(hand_key) if hand_key is not None else None
        if entry is not None:
            number, version = entry
            return Outcome(
                recorded=True, keyed=True, hand=number, correction=version > 1, looked_up=True
            )
        recorded = bool(form_keys) and submissions.form_submitted(form_keys)
    except DatabaseError:
        forget_connection()
        return Outcome(recorded=None, keyed=True, hand=hand, correction=correction)
    return Outcome(recorded=recorded, keyed=True, hand=hand, correction=correction, looked_up=True)
