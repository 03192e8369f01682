"""Every change of state of a tournament is one function here.

Each runs in a transaction, takes the acting user, validates, and writes an
audit entry. Views, admin, management commands and tests all call these.
"""

from tournament.errors import (
    Conflict,
    DrawLocked,
    HandConflict,
    InvalidEntry,
    KeyInUse,
    NotAllowed,
    ServiceError,
    TableOver,
)

__all__ = [
    "Conflict",
    "DrawLocked",
    "HandConflict",
    "InvalidEntry",
    "KeyInUse",
    "NotAllowed",
    "ServiceError",
    "TableOver",
]
