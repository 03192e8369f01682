"""Stations: a tournament's table numbers, each with a private link and short code printed
once for the whole event (docs/revisor-access.md, "Stations").

A device bound to station 3 opens, at every request, the table numbered 3 of the current
draw of the level in play; when that level has no table 3 it says so and waits.
"""

from django.db import transaction
from django.utils.translation import gettext as _

from tournament import audit
from tournament.errors import NotAllowed
from tournament.models import RevisorStation, Table, TableQuerySet, Tournament, new_revisor_key
from tournament.rules.validation import instance, saved
from tournament.services.idempotency import idempotent
from tournament.services.revisor_access import unused_revisor_code
from tournament.tables.locking import lock_tournament


def _station_tables(station: RevisorStation) -> TableQuerySet:
    return Table.objects.filter(
        level__tournament_id=station.tournament_id,
        level__closed_at__isnull=True,
        draw__superseded_at__isnull=True,
        number=station.number,
    )


def station_table(station: RevisorStation) -> Table | None:
    """The table numbered like `station` in the current, released draw of the open level,
    or None (one indexed query; nothing kept in the process)."""
    return (
        _station_tables(station)
        .shown()
        .select_related("level__tournament", "draw", "winner")
        .first()
    )


def station_held(station: RevisorStation) -> bool:
    """The level in play has a table with the station's number that the TD has not
    released yet (issue 19 §5): the station's device waits for the release."""
    return _station_tables(station).filter(draw__released_at__isnull=True).exists()


def station_numbers_wanted(tournament: Tournament) -> int:
    """The table numbers of the tournament's first level (its largest): 1..n."""
    return (
        Table.objects.current()
        .filter(level__tournament=tournament, level__number=1)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
        or 0
    )


@idempotent("station.create")
@transaction.atomic
def create_stations(*, tournament: Tournament, actor: audit.Actor) -> list[int]:
    """A station for every table number of the first level that has none yet."""
    tournament = lock_tournament(saved(tournament, Tournament, label=_("The tournament")))
    count = station_numbers_wanted(tournament)
    if count == 0:
        raise NotAllowed(_("Make the first draw first: stations follow its table numbers."))
    have = set(
        RevisorStation.objects.filter(tournament=tournament).values_list("number", flat=True)
    )
    missing = [number for number in range(1, count + 1) if number not in have]
    for number in missing:
        RevisorStation.objects.create(
            tournament=tournament,
            number=number,
            key=new_revisor_key(),
            code=unused_revisor_code(),
        )
    if missing:
        audit.record(
            tournament=tournament,
            actor=actor,
            action="station.create",
            params={"first": missing[0], "last": missing[-1], "count": len(missing)},
            after={"stations": missing},
        )
    return missing


@idempotent("station.revisor_access")
@transaction.atomic
def regenerate_station_access(*, station: RevisorStation, actor: audit.Actor) -> RevisorStation:
    """New key and code for a station: every device bound with the old ones is cut off."""
    station = instance(station, RevisorStation, label=_("The station"))
    lock_tournament(station.tournament)
    station = RevisorStation.objects.get(pk=station.pk)
    old_code = station.code
    station.key = new_revisor_key()
    station.code = unused_revisor_code()
    RevisorStation.objects.filter(pk=station.pk).update(key=station.key, code=station.code)
    audit.record(
        tournament=station.tournament,
        actor=actor,
        action="station.revisor_access",
        params={"station": station.number, "old_code": old_code},
        before={"code": old_code},
        after={"code": station.code},
    )
    return station
