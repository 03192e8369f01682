"""The TD's draw pages: preview, a level's draws and seating."""

from dataclasses import dataclass

from django.db.models import Prefetch

from tournament.models import (
    Level,
    Player,
    Seat,
    Table,
)
from tournament.selectors.core import seats_with_players


@dataclass(frozen=True)
class DrawPreview:
    players: int  # players who would be drawn: registered, not withdrawn, not disqualified
    table_sizes: tuple  # the tables the draw makes, e.g. (3, 3, 2, 2); () below 2 players
    drawn: bool  # the first level is drawn already


def draw_preview(tournament):
    """What drawing the first level would make: 2 queries."""
    from tournament.seating import table_sizes

    count = Player.objects.filter(
        tournament=tournament, withdrawn_at__isnull=True, disqualified=False
    ).count()
    drawn = Level.objects.filter(tournament=tournament).exists()
    return DrawPreview(
        players=count,
        table_sizes=tuple(table_sizes(count)) if count >= 2 else (),
        drawn=drawn,
    )


def level_draws(level):
    """Every draw of a level, newest first, with who made it, its tables, seats and
    players: 3 queries. The first is the current draw, the others were superseded."""
    from tournament.models import Draw

    return list(
        Draw.objects.filter(level=level)
        .select_related("created_by")
        .order_by("-number")
        .prefetch_related(
            Prefetch("tables", queryset=Table.objects.order_by("number")),
            Prefetch("tables__seats", queryset=seats_with_players()),
        )
    )


def level_seating(level):
    """The seats of a level's current draw, with player and table, sorted by the
    player's name the Swedish way (Å, Ä, Ö after Z): 1 query."""
    from tournament.text import swedish_sort_key

    seats = (
        Seat.objects.current()
        .filter(draw__level=level)
        .select_related("player", "table")
        .order_by("table__number", "position")
    )
    return sorted(seats, key=lambda seat: swedish_sort_key(seat.player.name))
