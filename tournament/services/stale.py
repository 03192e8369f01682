"""Who changed something and when, in the words of a refusal of a stale form.

A form carries what its page showed (a hand's version, a level's draw, a tie's decision);
the service compares it under its lock and, when it changed meanwhile, refuses with a
`Conflict` that says who changed it and at what time, so that the person knows what
happened before reloading.
"""

import datetime

from django.utils import formats, timezone

from tournament.audit import Actor
from tournament.audit.sentences import actor_name


def clock(moment: datetime.datetime) -> str:
    """The local time of day of `moment`, as on the wall clock of the venue: "09:41"."""
    return formats.time_format(timezone.localtime(moment), "H:i")


def by_whom(user: Actor, label: str = "") -> str:
    """Who made a change: the TD's user name, else the entry's label (a revisor's, in the
    reader's language), or ""."""
    if user is not None:
        return user.get_username()
    return actor_name(label) or ""
