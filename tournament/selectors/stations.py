"""Revisor stations (a table number's link and code for the whole event), as the TD's
station cards and a revisor's device read them: 1 query each."""

from tournament.models import RevisorStation, Tournament


def tournament_stations(tournament: Tournament) -> list[RevisorStation]:
    """The tournament's stations by number."""
    return list(RevisorStation.objects.filter(tournament=tournament).order_by("number"))


def station_numbered(tournament: Tournament, number: int) -> RevisorStation | None:
    """The tournament's station of this number (its `tournament` set), or None."""
    station = RevisorStation.objects.filter(tournament=tournament, number=number).first()
    if station is not None:
        station.tournament = tournament
    return station


def station_with_key(key: str) -> RevisorStation | None:
    """The station whose private link carries `key`, or None."""
    return RevisorStation.objects.filter(key=key).first()


def bound_station(station_id: int) -> RevisorStation | None:
    """The station a device is bound to, with its tournament, or None."""
    return RevisorStation.objects.select_related("tournament").filter(pk=station_id).first()
