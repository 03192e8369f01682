"""The public pages (/t/...): read-only, no login, for the players' phones and the big screen.

Nothing here writes but check_in.py (a player checking himself in at the door, with the
code shown there): no other service is called, no session is written for a visitor.
"""

from tournament.views.public.pages import (
    find,
    home,
    language,
    player,
    poster,
    standings,
    table,
    tournament,
)
from tournament.views.public.projector import standings_projector, tables_projector

__all__ = [
    "find",
    "home",
    "language",
    "player",
    "poster",
    "standings",
    "standings_projector",
    "table",
    "tables_projector",
    "tournament",
]
