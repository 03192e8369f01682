"""What every TD view shares: finding the tournament and table of a URL, or 404."""

from django.http import Http404
from django.shortcuts import get_object_or_404

from tournament.models import Level, Table, Tournament
from tournament.selectors.announcements import announcement_of, with_announcement


def get_tournament(tournament_id):
    # With its standing announcement (`.announcement`) in the same query: the projectors show it.
    tournament = get_object_or_404(
        with_announcement(Tournament.objects.select_related("champion")), pk=tournament_id
    )
    announcement_of(tournament)
    return tournament


def get_table(tournament, table_id):
    """A table of this tournament (any level, any draw), with its level and draw."""
    table = (
        Table.objects.select_related("level", "draw", "winner")
        .filter(pk=table_id, level__tournament=tournament)
        .first()
    )
    if table is None:
        raise Http404("No such table in this tournament.")
    table.level.tournament = tournament
    return table


def get_level(tournament, number):
    """The tournament's level of this number, with its tournament; a 404 if it has none."""
    level = get_object_or_404(Level, tournament=tournament, number=number)
    level.tournament = tournament
    return level
