import uuid
from datetime import UTC, datetime

import pytest

from tests.tournament.conftest import play_named, positions, single_table, totals
from tests.tournament.services.test_hands import BOARDS, record_cards
from tournament.errors import HandConflict, InvalidEntry, NotAllowed
from tournament.models import AuditEntry, Hand, HandResult, HandVersion
from tournament.services import draws, hands

pytestmark = pytest.mark.django_db


def correct(
    table, number, points_by_name, actor, reason="Revisor swapped two players", fl=(), version=1
):
    """Correct hand `number`, made from its `version` (1: never corrected before)."""
    pos = positions(table)
    return hands.correct_hand(
        hand=Hand.objects.get(table=table, number=number),
        actor=actor,
        reason=reason,
        based_on_version=version,
        points={pos[name]: value for name, value in points_by_name.items()},
        fantasyland={pos[name] for name in fl},
    )


def test_correction_keeps_the_old_version_and_recomputes(make_tournament, td_user):
    table = single_table(make_tournament(3), td_user)
    play_named(table, {"Anna": 6, "Bo": -3, "Cia": -3})
    play_named(table, {"Anna": 1, "Bo": 1, "Cia": -2})
    correct(table, 1, {"Anna": -3, "Bo": 6, "Cia": -3}, td_user)
    table.refresh_from_db()
    # Hand 1 now -3/6/-3, hand 2 unchanged 1/1/-2.
    assert totals(table) == {"Anna": -2, "Bo": 7, "Cia": -5}
    old, new = HandVersion.objects.filter(hand__number=1).order_by("version")
    assert old.superseded_at is not None and new.superseded_at is None
    assert new.version == 2 and new.created_by == td_user
    assert new.reason == "Revisor swapped two players"
    kept = {r.seat.player.name: r.points for r in old.results.select_related("seat__player")}
    assert kept == {"Anna": 6, "Bo": -3, "Cia": -3}
    entry = AuditEntry.objects.get(action="hand.correct")
    assert entry.before["results"]["Anna"] == {
        "points": 6,
        "fantasyland_next": False,
        "fouled": None,
        "royalties": None,
        "front": "",
        "middle": "",
        "back": "",
    }
    assert entry.after["results"]["Anna"]["points"] == -3


def test_correction_needs_a_reason_and_valid_points(make_tournament, td_user):
    table = single_table(make_tournament(3), td_user)
    play_named(table, {"Anna": 6, "Bo": -3, "Cia": -3})
    with pytest.raises(InvalidEntry, match="needs a reason"):
        correct(table, 1, {"Anna": 0, "Bo": 0, "Cia": 0}, td_user, reason=" ")
    with pytest.raises(InvalidEntry, match="add up to zero"):
        correct(table, 1, {"Anna": 1, "Bo": 0, "Cia": 0}, td_user)
    assert HandVersion.objects.count() == 1
    table.refresh_from_db()
    assert totals(table) == {"Anna": 6, "Bo": -3, "Cia": -3}


def test_correcting_away_a_fantasyland_shortens_the_table(make_tournament, td_user):
    table = single_table(make_tournament(3, min_hands=2), td_user)
    play_named(table, {"Anna": 6, "Bo": -3, "Cia": -3}, fantasyland_names=["Anna"])
    play_named(table, {"Anna": 1, "Bo": 1, "Cia": -2})
    table.refresh_from_db()
    assert table.required_hands == 3 and not table.is_over
    correct(table, 1, {"Anna": 6, "Bo": -3, "Cia": -3}, td_user, reason="No Fantasyland: KK")
    table.refresh_from_db()
    # 2 hands of 2 played and Anna leads 7 to -2 and -5: the table is over.
    assert table.required_hands == 2 and table.is_over and table.winner.name == "Anna"


def test_correction_reevaluates_later_card_hands_fantasyland(make_tournament, td_user):
    table = single_table(make_tournament(3), td_user)
    play_named(table, {"Anna": 6, "Bo": -3, "Cia": -3}, fantasyland_names=["Anna"])
    record_cards(table, BOARDS)  # Anna in Fantasyland with QQ front: does not stay
    second = HandResult.objects.get(seat__player__name="Anna", version__hand__number=2)
    assert second.in_fantasyland and not second.fantasyland_next
    table.refresh_from_db()
    assert table.required_hands == 21
    correct(table, 1, {"Anna": 6, "Bo": -3, "Cia": -3}, td_user, reason="Anna had KK, not QQ")
    second.refresh_from_db()
    # Now Anna was not in Fantasyland in hand 2, so QQ there enters it.
    assert not second.in_fantasyland and second.fantasyland_next
    table.refresh_from_db()
    assert table.required_hands == 21


def test_corrections_as_cards_and_double_submission(make_tournament, td_user):
    table = single_table(make_tournament(3), td_user)
    play_named(table, {"Anna": 0, "Bo": 0, "Cia": 0})
    pos = positions(table)
    key = uuid.uuid4()
    for _ in range(2):
        hands.correct_hand(
            hand=Hand.objects.get(table=table),
            actor=td_user,
            reason="Entered the cards",
            based_on_version=1,
            boards={pos[name]: board for name, board in BOARDS.items()},
            idempotency_key=key,
        )
    assert HandVersion.objects.count() == 2
    table.refresh_from_db()
    assert totals(table) == {"Anna": 36, "Bo": -9, "Cia": -27}


def test_a_correction_that_changes_nothing_is_refused(make_tournament, td_user):
    """The same points again, or the same cards typed another way ("qs qh 2c"), would only
    mark the hand as corrected on every page: refused, and nothing is written. Changing
    only who goes to Fantasyland is a change."""
    table = single_table(make_tournament(3), td_user)
    play_named(table, {"Anna": 6, "Bo": -3, "Cia": -3})
    with pytest.raises(InvalidEntry, match="Hand 1 already says this"):
        correct(table, 1, {"Anna": 6, "Bo": -3, "Cia": -3}, td_user)
    assert HandVersion.objects.count() == 1
    assert not AuditEntry.objects.filter(action="hand.correct").exists()
    correct(table, 1, {"Anna": 6, "Bo": -3, "Cia": -3}, td_user, fl=["Anna"])
    assert HandVersion.objects.count() == 2

    record_cards(table, BOARDS)
    pos = positions(table)
    retyped = {
        pos[name]: {row: cards.lower() for row, cards in board.items()}
        for name, board in BOARDS.items()
    }
    with pytest.raises(InvalidEntry, match="Hand 2 already says this"):
        hands.correct_hand(
            hand=Hand.objects.get(table=table, number=2),
            actor=td_user,
            reason="Typed again",
            based_on_version=1,
            boards=retyped,
        )
    assert HandVersion.objects.filter(hand__number=2).count() == 1


def test_closed_level_cannot_be_corrected(make_tournament, td_user):
    tournament = make_tournament(3, min_hands=1)
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 2, "Bo": -1, "Cia": -1})
    draws.advance(tournament=tournament, actor=td_user)
    with pytest.raises(NotAllowed, match="closed"):
        correct(table, 1, {"Anna": -2, "Bo": 1, "Cia": 1}, td_user)


def test_correction_cannot_store_a_repeat_the_once_rule_forbids(make_tournament, td_user):
    table = single_table(make_tournament(3, fantasyland_repeat="once"), td_user)
    play_named(table, {"Anna": 4, "Bo": -2, "Cia": -2}, ["Anna"])  # Anna enters Fantasyland
    play_named(table, {"Anna": 4, "Bo": -2, "Cia": -2}, ["Anna"])  # her one repeat
    play_named(table, {"Anna": 0, "Bo": 0, "Cia": 0})  # 2nd Fantasyland hand in a row: out
    # Ticking her again in hand 3 would be a 2nd repeat: refused, as when recording it.
    with pytest.raises(InvalidEntry, match="Anna has already repeated Fantasyland once"):
        correct(table, 3, {"Anna": 0, "Bo": 0, "Cia": 0}, td_user, fl=["Anna"])
    assert HandVersion.objects.filter(hand__table=table).count() == 3
    table.refresh_from_db()
    assert table.required_hands == 22


def test_correction_refused_when_it_makes_a_later_tick_a_forbidden_repeat(make_tournament, td_user):
    table = single_table(make_tournament(3, fantasyland_repeat="never"), td_user)
    play_named(table, {"Anna": 1, "Bo": 0, "Cia": -1})
    play_named(table, {"Anna": 1, "Bo": 0, "Cia": -1}, ["Anna"])  # enters after hand 2
    # Anna in Fantasyland after hand 1 too would make hand 2's tick a repeat.
    with pytest.raises(InvalidEntry, match="Anna played hand 2 in Fantasyland"):
        correct(table, 1, {"Anna": 1, "Bo": 0, "Cia": -1}, td_user, fl=["Anna"])
    assert not HandVersion.objects.filter(version=2).exists()


def test_the_revisor_fixes_only_the_last_hand(make_tournament, td_user):
    table = single_table(make_tournament(3), td_user)
    play_named(table, {"Anna": 2, "Bo": -1, "Cia": -1})
    pos = positions(table)
    fix = {pos["Anna"]: -2, pos["Bo"]: 1, pos["Cia"]: 1}
    hands.correct_hand(
        hand=Hand.objects.get(table=table, number=1),
        actor=None,
        actor_label="Revisor, table 1",
        reason="Signs swapped",
        based_on_version=1,
        points=fix,
        only_if_last=True,
    )
    assert totals(table) == {"Anna": -2, "Bo": 1, "Cia": 1}
    assert HandVersion.objects.get(version=2).entered_by_label == "Revisor, table 1"
    play_named(table, {"Anna": 0, "Bo": 0, "Cia": 0})
    with pytest.raises(NotAllowed, match="Hand 1 is no longer the last hand"):
        hands.correct_hand(
            hand=Hand.objects.get(table=table, number=1),
            actor=None,
            reason="Again",
            based_on_version=2,
            points=fix,
            only_if_last=True,
        )


# ---------------------------------------------------------------- a correction made stale
# 07:41 UTC on 9 May 2026 is 09:41 at the venue (Stockholm, summer time: UTC+2).
AT_0941 = datetime(2026, 5, 9, 7, 41, tzinfo=UTC)


@pytest.fixture
def stockholm(settings):
    settings.TIME_ZONE = "Europe/Stockholm"


def current_points(table, number):
    version = HandVersion.objects.get(hand__table=table, hand__number=number, superseded_at=None)
    return version.version, {
        r.seat.player.name: r.points for r in version.results.select_related("seat__player")
    }


def test_a_correction_made_from_an_older_version_is_refused(make_tournament, td_user, stockholm):
    """Two tabs on hand 1's correction page (version 1): tab B saves; tab A, still showing
    version 1, would silently replace B's version. Refused: nothing written, B's stays."""
    table = single_table(make_tournament(3), td_user)
    play_named(table, {"Anna": 6, "Bo": -3, "Cia": -3})
    correct(table, 1, {"Anna": -3, "Bo": 6, "Cia": -3}, td_user, reason="Tab B")
    HandVersion.objects.filter(version=2).update(created_at=AT_0941)
    with pytest.raises(HandConflict) as refused:
        correct(table, 1, {"Anna": 0, "Bo": 3, "Cia": -3}, td_user, reason="Tab A")
    assert refused.value.message == (
        "Hand 1 was changed at 09:41 by director after this page was opened: "
        "reload to see it, then correct it again."
    )
    table.refresh_from_db()
    assert current_points(table, 1) == (2, {"Anna": -3, "Bo": 6, "Cia": -3})
    assert HandVersion.objects.count() == 2
    assert totals(table) == {"Anna": -3, "Bo": 6, "Cia": -3}
    assert AuditEntry.objects.filter(action="hand.correct").count() == 1
    # Made from version 2, as the reloaded page shows it: corrected.
    correct(table, 1, {"Anna": 0, "Bo": 3, "Cia": -3}, td_user, reason="Tab A", version=2)
    assert current_points(table, 1) == (3, {"Anna": 0, "Bo": 3, "Cia": -3})


def test_a_stale_correction_names_the_revisor_who_fixed_the_hand(
    make_tournament, td_user, stockholm
):
    """The revisor fixed the last hand (no user: the entry's label) while the TD's page of
    it was open: the TD's correction is refused, saying so."""
    table = single_table(make_tournament(3), td_user)
    play_named(table, {"Anna": 2, "Bo": -1, "Cia": -1})
    pos = positions(table)
    hands.correct_hand(
        hand=Hand.objects.get(table=table),
        actor=None,
        actor_label="Revisor, table 1",
        reason="Signs swapped",
        based_on_version=1,
        points={pos["Anna"]: -2, pos["Bo"]: 1, pos["Cia"]: 1},
        only_if_last=True,
    )
    HandVersion.objects.filter(version=2).update(created_at=AT_0941)
    with pytest.raises(HandConflict, match=r"^Hand 1 was changed at 09:41 by Revisor, table 1 "):
        correct(table, 1, {"Anna": 4, "Bo": -2, "Cia": -2}, td_user)
    assert current_points(table, 1) == (2, {"Anna": -2, "Bo": 1, "Cia": 1})
    assert HandVersion.objects.count() == 2


def test_a_correction_without_the_version_it_was_made_from_is_refused(make_tournament, td_user):
    table = single_table(make_tournament(3), td_user)
    play_named(table, {"Anna": 6, "Bo": -3, "Cia": -3})
    for missing in (None, "1"):
        with pytest.raises(InvalidEntry, match=r"^The hand's version is missing; reload"):
            correct(table, 1, {"Anna": -3, "Bo": 6, "Cia": -3}, td_user, version=missing)
    assert HandVersion.objects.count() == 1
