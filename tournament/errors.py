"""Errors a service raises: each message is meant for the person who typed the input."""

from typing import TYPE_CHECKING

# django-stubs names the type of a lazy translation, which exists only for the type checker
# (ValidationError takes it, not any Promise).
if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class ServiceError(Exception):
    """A refused change. `str(error)` is shown to the user on the page they used."""

    # A lazy translation is said in the language of the page that shows it.
    def __init__(self, message: "StrOrPromise") -> None:
        super().__init__(message)
        self.message = message


class InvalidEntry(ServiceError):
    """The input itself is wrong (points that do not sum to zero, a card twice...)."""


class Conflict(ServiceError):
    """The form was based on something that changed since its page was shown (another tab,
    another device, another TD): refused, so that an older page never overrides a newer
    decision. The message says what changed, who changed it and when, and what to do."""


class HandConflict(Conflict):
    """Another submission already recorded this hand number (e.g. a second tablet), or
    corrected the hand since the correction's page was shown."""


class KeyInUse(Conflict):
    """The submission's one-time key already belongs to another change, which was made
    (another hand, another form, the same form with other values): nothing is changed, and
    no "already done" is answered for a change that was not asked for."""


class TableOver(ServiceError):
    """The table has played all its hands."""


class DrawLocked(ServiceError):
    """The level's first hand is recorded: its draw can no longer be redone."""


class NotAllowed(ServiceError):
    """The change does not fit the tournament's state."""
