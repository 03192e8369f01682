import uuid

import pytest

from tournament.models import (
    AuditEntry,
    Draw,
    Hand,
    HandResult,
    HandVersion,
    Level,
    Penalty,
    Player,
    Seat,
    Table,
    TieSettlement,
    Tournament,
)
from tournament.services import draws, hands, registration

# Every table a tournament writes to: a refused change must leave each as it was.
TOURNAMENT_MODELS = (
    Tournament,
    Player,
    Level,
    Draw,
    Table,
    Seat,
    Hand,
    HandVersion,
    HandResult,
    Penalty,
    TieSettlement,
    AuditEntry,
)


def row_counts():
    """The number of rows of every tournament table, by model name."""
    return {model.__name__: model.objects.count() for model in TOURNAMENT_MODELS}


def names(count):
    base = ["Anna", "Bo", "Cia", "Dan", "Eva", "Filip", "Gun", "Hugo", "Ida", "Jon", "Kim", "Lo"]
    return base[:count]


@pytest.fixture
def make_tournament(td_user):
    unnamed = []

    def make(players=3, **settings):
        # "SM 2026", then "SM 2026 (2)"...: no two tournaments have the same name.
        default = f"SM 2026 ({len(unnamed) + 1})" if unnamed else "SM 2026"
        if "name" not in settings:
            unnamed.append(default)
        tournament = registration.create_tournament(
            actor=td_user, name=settings.pop("name", default), **settings
        )
        for name in names(players) if isinstance(players, int) else players:
            registration.register_player(tournament=tournament, actor=td_user, name=name)
        return tournament

    return make


def seat_of(table, name):
    return Seat.objects.get(table=table, player__name=name)


def positions(table):
    """Player name -> seat position at the table."""
    return {s.player.name: s.position for s in table.seats.select_related("player")}


def play(table, *by_name, fantasyland=(), actor=None):
    """Record the next hand as points given in the order of seat positions."""
    table.refresh_from_db()
    seats = list(table.seats.order_by("position"))
    points = dict(
        zip([s.position for s in seats if s.left_after_hand is None], by_name, strict=True)
    )
    return hands.record_hand(
        table=table,
        hand_number=table.hands_played + 1,
        idempotency_key=uuid.uuid4(),
        points=points,
        fantasyland=fantasyland,
        actor=actor,
    )


def play_named(table, points_by_name, fantasyland_names=(), actor=None):
    table.refresh_from_db()
    pos = positions(table)
    return hands.record_hand(
        table=table,
        hand_number=table.hands_played + 1,
        idempotency_key=uuid.uuid4(),
        points={pos[name]: value for name, value in points_by_name.items()},
        fantasyland={pos[name] for name in fantasyland_names},
        actor=actor,
    )


def log_lines(tournament, **filters):
    """The tournament's audit log as the TD's page reads it (its entries and its hands'
    lines), oldest first."""
    from tournament.audit.reading import audit_entries

    log = audit_entries(tournament, **filters)
    return log[0 : log.count()][::-1]


def totals(table):
    """Each player's total at `table` as the database holds it now (not `table`'s copy)."""
    seats = Seat.objects.filter(table_id=table.pk).select_related("player", "table")
    return {s.player.name: s.total for s in seats}


def single_table(tournament, td_user, seed="fixed-seed"):
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed=seed)
    return level.tables.get()


def walked(table):
    """The table's state walked again from its whole history (not from the caches)."""
    from tournament.tables.state import history_state, load_table

    history = history_state(load_table(table.pk))
    return history.state, history.seats


def dealers(table):
    """Who dealt each recorded hand, then who deals the next, as seat positions."""
    table.refresh_from_db()
    dealt = list(table.hands.order_by("number").values_list("dealer_position", flat=True))
    return [*dealt, table.next_dealer_position]
