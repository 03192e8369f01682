"""What every TD view shares: finding the tournament and table of a URL, or 404."""

from django.http import Http404

from tournament.models import Level, Player, Table, Tournament
from tournament.selectors.tables import tournament_table
from tournament.selectors.tournaments import td_tournament, tournament_level, tournament_player


def get_tournament(tournament_id: int) -> Tournament:
    tournament = td_tournament(tournament_id)
    if tournament is None:
        raise Http404("No Tournament matches the given query.")
    return tournament


def get_table(tournament: Tournament, table_id: int) -> Table:
    """A table of this tournament (any level, any draw), with its level and draw."""
    table = tournament_table(tournament, table_id)
    if table is None:
        raise Http404("No such table in this tournament.")
    return table


def get_level(tournament: Tournament, number: int) -> Level:
    """The tournament's level of this number, with its tournament; a 404 if it has none."""
    level = tournament_level(tournament, number)
    if level is None:
        raise Http404("No Level matches the given query.")
    return level


def get_player(tournament: Tournament, player_id: int) -> Player:
    """A player of this tournament; a 404 if it has none of that id."""
    player = tournament_player(tournament, player_id)
    if player is None:
        raise Http404("No Player matches the given query.")
    return player
