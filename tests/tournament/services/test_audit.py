import uuid

import pytest

from tests.tournament.conftest import log_lines, play, positions, single_table
from tournament.models import AuditEntry, Hand, Player, Tournament

pytestmark = pytest.mark.django_db


def test_nothing_can_be_deleted(make_tournament, td_user):
    tournament = make_tournament(3)
    table = single_table(tournament, td_user)
    play(table, 1, 0, -1)
    with pytest.raises(PermissionError):
        Hand.objects.get().delete()
    with pytest.raises(PermissionError):
        Player.objects.all().delete()
    with pytest.raises(PermissionError):
        Tournament.objects.get().delete()
    with pytest.raises(PermissionError):
        AuditEntry.objects.all().delete()
    assert Hand.objects.count() == 1


def test_audit_entries_cannot_be_changed(make_tournament, td_user):
    make_tournament(3)
    entry = AuditEntry.objects.filter(action="player.register").first()
    entry.summary = "rewritten"
    with pytest.raises(PermissionError):
        entry.save()


def test_every_change_leaves_an_audit_entry_with_who(make_tournament, td_user):
    tournament = make_tournament(3)
    table = single_table(tournament, td_user)
    play(table, 1, 0, -1, actor=td_user)
    actions = [(line.action, line.actor_label) for line in log_lines(tournament)]
    assert actions == [
        ("tournament.create", "director"),
        ("player.register", "director"),
        ("player.register", "director"),
        ("player.register", "director"),
        ("draw.create", "director"),
        ("hand.record", "director"),
    ]


def test_every_service_keeps_what_happened_as_data(make_tournament, td_user):
    """Each action's params, worked out by hand; no sentence is stored (it is written in the
    reader's language when shown), and every action the log can put into words is made."""
    from tournament import backups
    from tournament.audit.sentences import ACTIONS
    from tournament.services import (
        announcements,
        calls,
        checkin,
        draws,
        hands,
        held_hands,
        penalties,
        prizes,
        register,
        registration,
        revisor_access,
        revisor_stations,
    )

    tournament = make_tournament(["Anna", "Bo", "Cia", "Dan"], min_hands=1)
    registration.update_settings(tournament=tournament, actor=td_user, min_hands=1)
    registration.rename_tournament(tournament=tournament, actor=td_user, name="SM 2026 Open")
    prizes.update_prizes(
        tournament=tournament,
        actor=td_user,
        currency="SEK",
        buy_in=50_000,
        fee=5_000,
        added_money=0,
        payout_shares=[],
        prize_rounding=100,
        prizes_public=False,
    )
    register.set_earlier_results_public(tournament=tournament, actor=td_user, public=True)
    registration.rename_player(
        player=tournament.players.get(name="Dan"), actor=td_user, name="Dan Ek"
    )
    registration.withdraw_player(player=tournament.players.get(name="Dan Ek"), actor=td_user)
    registration.reinstate_player(player=tournament.players.get(name="Dan Ek"), actor=td_user)
    registration.withdraw_player(player=tournament.players.get(name="Dan Ek"), actor=td_user)
    checkin.check_in(player=tournament.players.get(name="Bo"), actor=td_user)
    checkin.undo_check_in(player=tournament.players.get(name="Bo"), actor=td_user)
    checkin.set_self_check_in(tournament=tournament, actor=td_user, open=True)
    checkin.renew_check_in_code(tournament=tournament, actor=td_user)
    tournament.refresh_from_db()
    bo = tournament.players.get(name="Bo")
    checkin.self_check_in(player=bo, code=tournament.check_in_code, client="10.0.0.9")
    checkin.undo_check_in(player=bo, actor=td_user)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="a")
    type(tournament).objects.filter(pk=tournament.pk).update(release_draws_at_once=False)
    draws.redraw_level(level=level, actor=td_user, reason="wrong list", seed="b")
    draws.release_draw(level=level, actor=td_user)
    table = level.tables.get(draw__superseded_at__isnull=True)
    old_code = table.revisor_code
    revisor_access.regenerate_revisor_access(table=table, actor=td_user)
    revisor_stations.create_stations(tournament=tournament, actor=td_user)
    station = tournament.revisor_stations.get()
    station_code = station.code
    revisor_stations.regenerate_station_access(station=station, actor=td_user)
    calls.call_td(table=table, kind="misdeal")
    calls.clear_call(table=table, actor=td_user)
    anna = tournament.players.get(name="Anna")
    slow = penalties.give_penalty(tournament=tournament, player=anna, kind="slow", actor=td_user)
    penalties.rescind_penalty(penalty=slow, actor=td_user, reason="not her")
    # Hand 1 comes from an offline card: held, then recorded by the TD; a second is discarded.
    pos = positions(table)
    typed = {
        "mode": "points",
        "points": {str(pos["Anna"]): 3, str(pos["Bo"]): 3, str(pos["Cia"]): -6},
    }
    why = "Sent from a card no longer bound."
    kept = held_hands.hold_hand(table=table, number=1, key=uuid.uuid4(), entry=typed, reason=why)
    held_hands.record_held_hand(tournament=tournament, held_id=kept.pk, actor=td_user)
    again = held_hands.hold_hand(table=table, number=2, key=uuid.uuid4(), entry=typed, reason=why)
    held_hands.discard_held_hand(
        tournament=tournament, held_id=again.pk, reason="sent twice", actor=td_user
    )
    hands.correct_hand(
        hand=table.hands.get(),
        actor=td_user,
        reason="typo",
        based_on_version=1,
        points={0: 2, 1: 2, 2: -4},
    )
    bo = tournament.players.get(name="Bo")
    hands.settle_tie(table=table, actor=td_user, winner=bo, reason="high card")
    hands.settle_tie(table=table, actor=td_user, winner=anna, reason="misread")
    announcements.announce(tournament=tournament, actor=td_user, text="Final at 14:00")
    announcements.withdraw_announcement(tournament=tournament, actor=td_user)
    draws.advance(tournament=tournament, actor=td_user)
    data = backups.export_tournament(tournament)
    data["settings"]["name"] = "Copy"
    for level_data in data["levels"]:  # restored beside the original: new submission keys
        for draw in level_data["draws"]:
            for table_data in draw["tables"]:
                for hand in table_data["hands"]:
                    for version in hand["versions"]:
                        version["idempotency_key"] = str(uuid.uuid4())
    copy = backups.import_tournament(data, actor=td_user)

    entries = log_lines(tournament)
    assert {e.summary for e in entries} == {""}
    assert [(e.action, e.params) for e in entries] == [
        ("tournament.create", {"name": "SM 2026"}),
        ("player.register", {"name": "Anna", "number": 1}),
        ("player.register", {"name": "Bo", "number": 2}),
        ("player.register", {"name": "Cia", "number": 3}),
        ("player.register", {"name": "Dan", "number": 4}),
        ("tournament.settings", {}),
        ("tournament.rename", {"old_name": "SM 2026", "name": "SM 2026 Open"}),
        (
            "tournament.prizes",
            {"currency": "SEK", "buy_in": 50_000, "fee": 5_000, "added_money": 0, "shares": []},
        ),
        ("tournament.earlier_results", {"public": True}),
        ("player.rename", {"old_name": "Dan", "name": "Dan Ek", "number": 4}),
        ("player.withdraw", {"name": "Dan Ek", "number": 4}),
        ("player.reinstate", {"name": "Dan Ek", "number": 4}),
        ("player.withdraw", {"name": "Dan Ek", "number": 4}),
        ("player.check_in", {"name": "Bo", "number": 2}),
        ("player.check_in_undo", {"name": "Bo", "number": 2}),
        ("tournament.self_check_in", {"open": True}),
        ("tournament.check_in_code", {}),
        ("player.check_in", {"name": "Bo", "number": 2}),
        ("player.check_in_undo", {"name": "Bo", "number": 2}),
        ("draw.create", {"level": 1, "players": 3, "closed_level": None}),
        ("draw.redo", {"level": 1, "reason": "wrong list"}),
        ("draw.release", {"level": 1, "draw": 2}),
        ("table.revisor_access", {"level": 1, "table": 1, "old_code": old_code}),
        ("station.create", {"first": 1, "last": 1, "count": 1}),
        ("station.revisor_access", {"station": 1, "old_code": station_code}),
        ("table.call", {"level": 1, "table": 1, "kind": "misdeal", "note": ""}),
        ("table.call_cleared", {"level": 1, "table": 1, "kind": "misdeal"}),
        (
            "penalty.give",
            {
                "player": "Anna",
                "kind": "slow",
                "warning": 1,
                "points": 0,
                "level": 1,
                "table": 1,
                "after_hand": 0,
                "disqualified": False,
            },
        ),
        (
            "penalty.rescind",
            {"player": "Anna", "kind": "slow", "reason": "not her", "level": 1, "table": 1},
        ),
        (
            "hand.held",
            {
                "level": 1,
                "table": 1,
                "hand": 1,
                "reason": "Sent from a card no longer bound.",
                "why": {},
            },
        ),
        ("hand.record", {"level": 1, "table": 1, "hand": 1, "mode": "points"}),
        ("held.record", {"level": 1, "table": 1, "held": 1, "hand": 1}),
        (
            "hand.held",
            {
                "level": 1,
                "table": 1,
                "hand": 2,
                "reason": "Sent from a card no longer bound.",
                "why": {},
            },
        ),
        ("held.discard", {"level": 1, "table": 1, "hand": 2, "reason": "sent twice"}),
        (
            "hand.correct",
            {"level": 1, "table": 1, "hand": 1, "version": 2, "reason": "typo"},
        ),
        ("tie.settle", {"level": 1, "table": 1, "winner": "Bo", "reason": "high card"}),
        (
            "tie.change",
            {"level": 1, "table": 1, "winner": "Anna", "previous": "Bo", "reason": "misread"},
        ),
        ("announcement.make", {"text": "Final at 14:00", "ends_at": None}),
        ("announcement.withdraw", {"text": "Final at 14:00"}),
        ("tournament.finish", {"champion": "Anna"}),
    ]
    imported = AuditEntry.objects.filter(tournament=copy).latest("id")
    assert imported.action == "tournament.import"
    assert imported.params == {"name": "Copy", "exported": data["exported_at"]}
    # A merge of the register changes no tournament: its entry is the server's.
    eva = make_tournament(["Eva"], name="Other").players.get()
    register.merge_entries(entry=eva.register_entry, into=anna.register_entry, actor=td_user)
    merged = AuditEntry.objects.get(action="register.merge")
    assert (merged.tournament, merged.params) == (None, {"name": "Eva", "into": "Anna"})
    made = set(AuditEntry.objects.values_list("action", flat=True))
    assert made == set(ACTIONS)


def test_an_action_without_words_is_refused(make_tournament, td_user):
    from tournament import audit

    tournament = make_tournament(1)
    with pytest.raises(ValueError, match="has no sentence"):
        audit.record(tournament=tournament, actor=td_user, action="hand.lost", params={})
    with pytest.raises(TypeError):
        audit.record(
            tournament=tournament, actor=td_user, action="hand.record", params="Level 1 table 1"
        )
