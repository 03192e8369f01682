"""Stations: a table number's revisor link and code for the whole event (issue 19 §7)."""

import pytest

from tests.tournament.conftest import play
from tournament.audit.sentences import sentence
from tournament.errors import InvalidEntry, NotAllowed
from tournament.models import AuditEntry, RevisorCodeAttempt, RevisorStation
from tournament.services import draws
from tournament.services.revisor_access import (
    WRONG_CODES_PER_DEVICE,
    WrongCodesPaused,
    table_for_code,
)
from tournament.services.revisor_stations import (
    create_stations,
    regenerate_station_access,
    station_table,
)

pytestmark = pytest.mark.django_db


def finish_level(level):
    """One hand at every table (min_hands=1): seat 0 wins."""
    points = {3: (4, -1, -3), 2: (2, -2)}
    for table in level.tables.filter(draw__superseded_at__isnull=True).order_by("number"):
        play(table, *points[table.seats.count()])


@pytest.fixture
def seven(make_tournament, td_user):
    """7 players: level 1 has tables 1-3 (3, 2 and 2 players); level 2 one table of 3."""
    tournament = make_tournament(7, min_hands=1)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="st")
    return tournament, level


def test_stations_are_made_for_every_table_number_of_the_first_level(seven, td_user):
    tournament, _level = seven
    assert create_stations(tournament=tournament, actor=td_user) == [1, 2, 3]
    stations = list(RevisorStation.objects.filter(tournament=tournament).order_by("number"))
    assert [s.number for s in stations] == [1, 2, 3]
    assert len({s.code for s in stations}) == 3 and len({s.key for s in stations}) == 3
    entry = AuditEntry.objects.get(action="station.create")
    assert entry.actor == td_user
    assert sentence(entry) == "Station cards made for tables 1–3"
    # Made once: a second time makes nothing and writes nothing.
    assert create_stations(tournament=tournament, actor=td_user) == []
    assert RevisorStation.objects.count() == 3
    assert AuditEntry.objects.filter(action="station.create").count() == 1


def test_no_stations_before_the_first_draw(make_tournament, td_user):
    tournament = make_tournament(4)
    with pytest.raises(NotAllowed, match="Make the first draw first"):
        create_stations(tournament=tournament, actor=td_user)
    assert RevisorStation.objects.count() == 0
    assert not AuditEntry.objects.filter(action="station.create").exists()


def test_a_station_codes_never_equal_a_table_code(seven, td_user):
    tournament, level = seven
    create_stations(tournament=tournament, actor=td_user)
    table_codes = set(level.tables.values_list("revisor_code", flat=True))
    station_codes = set(RevisorStation.objects.values_list("code", flat=True))
    assert table_codes.isdisjoint(station_codes)


def test_a_station_follows_its_number_to_the_next_level(seven, td_user):
    tournament, level = seven
    create_stations(tournament=tournament, actor=td_user)
    one, two = (RevisorStation.objects.get(number=n) for n in (1, 2))
    assert station_table(two) == level.tables.get(number=2)
    finish_level(level)
    level2 = draws.advance(tournament=tournament, actor=td_user, seed="st2")
    # Level 2 has one table: station 1 opens it, station 2 has none this level.
    assert station_table(one) == level2.tables.get(number=1)
    assert station_table(two) is None


def test_a_station_follows_a_redone_draw(seven, td_user):
    tournament, level = seven
    create_stations(tournament=tournament, actor=td_user)
    station = RevisorStation.objects.get(number=3)
    old = level.tables.get(number=3)
    draws.redraw_level(level=level, actor=td_user, reason="Wrong list", seed="again")
    new = station_table(station)
    assert new.number == 3 and new.pk != old.pk and new.draw.superseded_at is None


def test_the_station_code_is_found_like_a_table_code(seven, td_user):
    tournament, _level = seven
    create_stations(tournament=tournament, actor=td_user)
    station = RevisorStation.objects.get(number=2)
    typed = station.code.lower()
    assert table_for_code(code=typed, device="d", client="10.0.0.1") == station


def test_wrong_codes_pause_station_codes_too(seven, td_user):
    tournament, _level = seven
    create_stations(tournament=tournament, actor=td_user)
    station = RevisorStation.objects.get(number=1)
    # 10 different codes no table or station has (a code is 6 of the 31 symbols).
    wrong = [f"ZZZZZ{c}" for c in "ABCDEFGHJK"]
    assert station.code not in wrong
    for code in wrong[:WRONG_CODES_PER_DEVICE]:
        with pytest.raises(InvalidEntry):
            table_for_code(code=code, device="dev", client="10.0.0.1")
    assert RevisorCodeAttempt.objects.count() == 10
    with pytest.raises(WrongCodesPaused):
        table_for_code(code=station.code, device="dev", client="10.0.0.1")
    # Another device at the address is not paused.
    assert table_for_code(code=station.code, device="other", client="10.0.0.1") == station


def test_regenerating_a_station_gives_it_a_new_key_and_code(seven, td_user):
    tournament, _level = seven
    create_stations(tournament=tournament, actor=td_user)
    station = RevisorStation.objects.get(number=2)
    old_key, old_code = station.key, station.code
    regenerate_station_access(station=station, actor=td_user)
    station.refresh_from_db()
    assert station.key != old_key and station.code != old_code
    entry = AuditEntry.objects.get(action="station.revisor_access")
    assert entry.actor == td_user
    assert sentence(entry) == (
        f"Station 2: new revisor link and code (the old code {old_code} no longer works)"
    )
    with pytest.raises(InvalidEntry):
        table_for_code(code=old_code, device="d", client="10.0.0.1")
