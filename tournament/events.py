"""What a change of state announces, once its transaction has committed.

A service writes its rows and its audit entry, then announces what happened here; what
follows from it elsewhere (the automatic backup, `tournament/backups/automatic.py`) is a
receiver, connected in `TournamentConfig.ready()`. No service imports its receivers.

Receivers run after the commit (`transaction.on_commit`): they read what was committed, a
change rolled back announces nothing, and a receiver that fails (a full disk) is logged and
can never undo or fail the change. A receiver may say, at the announcement, whether it has
anything to do (`wanted`: a look in memory, no I/O): a change that nothing waits for then
leaves nothing to run at its commit, which is what a hand costs most of the time.
"""

from collections.abc import Callable
from functools import partial

from django.db import transaction

# A receiver is called with the announcement's facts as keywords; `wanted` likewise.
Receiver = Callable[..., object]
Wanted = Callable[..., bool]


class Event:
    """One kind of change; `announce(**facts)` inside the change's transaction."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._receivers: list[tuple[Receiver, Wanted | None]] = []

    def __repr__(self) -> str:
        return f"<Event {self.name}>"

    def connect(self, receiver: Receiver, *, wanted: Wanted | None = None) -> None:
        """Call `receiver(**facts)` after each announcement commits; `wanted(**facts)`, when
        given, is asked at the announcement whether the receiver needs to run."""
        if (receiver, wanted) not in self._receivers:
            self._receivers.append((receiver, wanted))

    def disconnect(self, receiver: Receiver) -> None:
        self._receivers = [(r, w) for r, w in self._receivers if r is not receiver]

    def announce(self, **facts: object) -> None:
        for receiver, wanted in self._receivers:
            if wanted is None or wanted(**facts):
                transaction.on_commit(partial(receiver, **facts), robust=True)


# A tournament changed (`tournament_id`): every audit entry, every hand recorded.
changed = Event("changed")
# A tournament's name changed (`tournament_id`, `old_name`).
renamed = Event("renamed")
# A level closed (`tournament_id`): its tables' winners are known.
level_closed = Event("level_closed")
