from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournament.conftest import play_named, single_table, totals
from tournament.errors import Conflict, InvalidEntry, NotAllowed
from tournament.models import AuditEntry, Player, TieSettlement
from tournament.services import hands
from tournament.tables.state import cached_state, load_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def tied_table(make_tournament, td_user):
    tournament = make_tournament(3, min_hands=2)
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 4, "Bo": 0, "Cia": -4})
    play_named(table, {"Anna": -2, "Bo": 2, "Cia": 0})
    table.refresh_from_db()
    assert totals(table) == {"Anna": 2, "Bo": 2, "Cia": -4}
    assert not table.is_over
    return table


def test_td_settles_a_tie_with_a_reason(tied_table, td_user):
    bo = Player.objects.get(name="Bo")
    hands.settle_tie(table=tied_table, actor=td_user, winner=bo, reason="High card draw: K vs 9")
    tied_table.refresh_from_db()
    assert tied_table.is_over and tied_table.winner == bo
    assert tied_table.hands_played == 2
    settlement = TieSettlement.objects.get()
    assert settlement.created_by == td_user and settlement.reason == "High card draw: K vs 9"
    entry = AuditEntry.objects.get(action="tie.settle")
    assert entry.before == {"tied": ["Anna", "Bo"]}
    assert entry.after == {"winner": "Bo", "reason": "High card draw: K vs 9"}


def test_settling_needs_a_reason_and_a_tied_leader(tied_table, td_user):
    with pytest.raises(InvalidEntry, match="written reason"):
        hands.settle_tie(
            table=tied_table, actor=td_user, winner=Player.objects.get(name="Bo"), reason=""
        )
    with pytest.raises(InvalidEntry, match="Cia is not tied for first"):
        hands.settle_tie(
            table=tied_table, actor=td_user, winner=Player.objects.get(name="Cia"), reason="x"
        )
    assert TieSettlement.objects.count() == 0


def test_a_settled_tie_can_be_decided_again_for_another_tied_player(tied_table, td_user):
    """Bo was named by mistake (Anna drew the king): the TD decides again, for Anna. Anna
    now wins (place 1, Bo 2nd on 2 points, Cia 3rd); both settlements are kept, and the
    log says who it was and who it is now."""
    bo, anna = Player.objects.get(name="Bo"), Player.objects.get(name="Anna")
    hands.settle_tie(table=tied_table, actor=td_user, winner=bo, reason="High card: K vs 9")
    hands.settle_tie(table=tied_table, actor=td_user, winner=anna, reason="Anna held the K")
    tied_table.refresh_from_db()
    assert tied_table.is_over and tied_table.winner == anna
    places = {s.player.name: s.place for s in tied_table.seats.select_related("player")}
    assert places == {"Anna": 1, "Bo": 2, "Cia": 3}
    kept = TieSettlement.objects.order_by("id").values_list("winner__name", "reason")
    assert list(kept) == [("Bo", "High card: K vs 9"), ("Anna", "Anna held the K")]
    entry = AuditEntry.objects.get(action="tie.change")
    assert entry.params == {
        "level": 1,
        "table": 1,
        "winner": "Anna",
        "previous": "Bo",
        "reason": "Anna held the K",
    }
    assert entry.before == {"winner": "Bo"}
    assert entry.after == {"winner": "Anna", "reason": "Anna held the K"}
    assert AuditEntry.objects.filter(action="tie.settle").count() == 1


def test_deciding_again_needs_another_tied_player(tied_table, td_user):
    bo = Player.objects.get(name="Bo")
    hands.settle_tie(table=tied_table, actor=td_user, winner=bo, reason="High card")
    with pytest.raises(InvalidEntry, match="already settled for Bo: choose another player"):
        hands.settle_tie(table=tied_table, actor=td_user, winner=bo, reason="again")
    with pytest.raises(InvalidEntry, match=r"Cia is not tied for first \(tied: Anna, Bo\)"):
        hands.settle_tie(
            table=tied_table, actor=td_user, winner=Player.objects.get(name="Cia"), reason="x"
        )
    assert TieSettlement.objects.count() == 1
    assert not AuditEntry.objects.filter(action="tie.change").exists()


def test_a_decision_from_a_page_that_showed_the_tie_open_is_refused_once_decided(
    tied_table, td_user, settings
):
    """Tab A reviews "Bo wins", tab B "Anna wins", both on the open tie. A confirms; B's
    confirmation would decide it again without the TD ever choosing to: refused, and the
    tie stays decided for Bo."""
    settings.TIME_ZONE = "Europe/Stockholm"
    bo, anna = Player.objects.get(name="Bo"), Player.objects.get(name="Anna")
    hands.settle_tie(
        table=tied_table, actor=td_user, winner=bo, reason="Tab A", based_on_settlement=None
    )
    first = TieSettlement.objects.get()
    # 07:50 UTC on 9 May 2026: 09:50 at the venue (Stockholm, summer time).
    TieSettlement.objects.update(created_at=datetime(2026, 5, 9, 7, 50, tzinfo=UTC))
    with pytest.raises(Conflict) as refused:
        hands.settle_tie(
            table=tied_table, actor=td_user, winner=anna, reason="Tab B", based_on_settlement=None
        )
    assert refused.value.message == (
        "The tie at table 1 was already decided for Bo by director at 09:50: "
        "use “Decide the tie again” to change it."
    )
    tied_table.refresh_from_db()
    assert tied_table.winner == bo
    assert list(TieSettlement.objects.values_list("pk", flat=True)) == [first.pk]
    assert not AuditEntry.objects.filter(action="tie.change").exists()

    # Decided again from a page that showed Bo's win: Anna wins.
    hands.settle_tie(
        table=tied_table,
        actor=td_user,
        winner=anna,
        reason="Anna held the K",
        based_on_settlement=first.pk,
    )
    tied_table.refresh_from_db()
    assert tied_table.winner == anna
    second = TieSettlement.objects.latest("id")
    # A page still showing Bo's win cannot decide it again over Anna's.
    with pytest.raises(Conflict, match=r"^The tie at table 1 was already decided for Anna by"):
        hands.settle_tie(
            table=tied_table,
            actor=td_user,
            winner=bo,
            reason="Old tab",
            based_on_settlement=first.pk,
        )
    tied_table.refresh_from_db()
    assert tied_table.winner == anna
    assert TieSettlement.objects.latest("id") == second and TieSettlement.objects.count() == 2


def test_a_page_that_showed_a_decision_no_longer_standing_is_out_of_date(tied_table, td_user):
    """Settled for Bo; then hand 2 is corrected from Anna -2, Bo +2, Cia 0 to Anna -2,
    Bo -4, Cia +6: totals Anna 2, Bo -4, Cia 2, so Anna and Cia are tied and Bo's win
    decides nothing. A page that showed Bo's win is out of date; one showing the new tie
    open decides it."""
    bo, cia = Player.objects.get(name="Bo"), Player.objects.get(name="Cia")
    hands.settle_tie(table=tied_table, actor=td_user, winner=bo, reason="draw")
    shown = TieSettlement.objects.get().pk
    seat = {s.player.name: s.position for s in tied_table.seats.select_related("player")}
    hands.correct_hand(
        hand=tied_table.hands.get(number=2),
        actor=td_user,
        reason="Cia's points",
        based_on_version=1,
        points={seat["Anna"]: -2, seat["Bo"]: -4, seat["Cia"]: 6},
    )
    tied_table.refresh_from_db()
    assert totals(tied_table) == {"Anna": 2, "Bo": -4, "Cia": 2} and not tied_table.is_over
    with pytest.raises(Conflict, match=r"^This form is out of date: reload the page"):
        hands.settle_tie(
            table=tied_table, actor=td_user, winner=cia, reason="x", based_on_settlement=shown
        )
    assert TieSettlement.objects.count() == 1
    hands.settle_tie(
        table=tied_table, actor=td_user, winner=cia, reason="Cut", based_on_settlement=None
    )
    tied_table.refresh_from_db()
    assert tied_table.winner == cia and TieSettlement.objects.count() == 2


def test_a_tie_cannot_be_decided_again_once_the_level_is_closed(tied_table, td_user):
    from tournament.services import draws

    bo, anna = Player.objects.get(name="Bo"), Player.objects.get(name="Anna")
    hands.settle_tie(table=tied_table, actor=td_user, winner=bo, reason="High card")
    draws.advance(tournament=tied_table.level.tournament, actor=td_user)
    with pytest.raises(NotAllowed, match="This level is closed"):
        hands.settle_tie(table=tied_table, actor=td_user, winner=anna, reason="too late")
    tied_table.refresh_from_db()
    assert tied_table.winner == bo and TieSettlement.objects.count() == 1


def test_no_tie_to_settle_before_the_required_hands(make_tournament, td_user):
    table = single_table(make_tournament(3, min_hands=5), td_user)
    play_named(table, {"Anna": 0, "Bo": 0, "Cia": 0})
    with pytest.raises(NotAllowed, match=r"no tie for first to settle \(1 of 5 hands played\)"):
        hands.settle_tie(
            table=table, actor=td_user, winner=Player.objects.get(name="Anna"), reason="draw"
        )


def test_playing_on_breaks_the_tie_without_the_td(tied_table):
    play_named(tied_table, {"Anna": 1, "Bo": -1, "Cia": 0})
    tied_table.refresh_from_db()
    assert tied_table.is_over and tied_table.winner.name == "Anna"
    assert tied_table.hands_played == 3


def test_the_state_reads_a_settlement_only_while_the_lead_is_tied(
    tied_table, make_tournament, td_user
):
    """Anna and Bo share the lead after the 2 required hands: the state reads the TD's
    settlement (a second query), and with it Bo has won. A table with one leader never
    reads it: its one query is its seats."""
    hands.settle_tie(
        table=tied_table, actor=td_user, winner=Player.objects.get(name="Bo"), reason="draw"
    )
    state, names, queries = state_and_queries(tied_table)
    assert state.is_over and names[state.winner_seat_id] == "Bo"
    assert queries == 2

    table = single_table(make_tournament(3, min_hands=2, name="One leader"), td_user)
    play_named(table, {"Anna": 4, "Bo": 0, "Cia": -4})
    play_named(table, {"Anna": 1, "Bo": 1, "Cia": -2})
    state, names, queries = state_and_queries(table)
    assert state.is_over and names[state.winner_seat_id] == "Anna"
    assert queries == 1


def state_and_queries(table):
    table = load_table(table.pk)
    with CaptureQueriesContext(connection) as captured:
        state, seats = cached_state(table)
    names = {seat.id: seat.player.name for seat in seats}
    return state, names, len(captured.captured_queries)
