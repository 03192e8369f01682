"""A tournament as one JSON document: the TD's backup (docs/export-format.md).

The export holds the whole history (every draw, hand version, penalty and audit
entry) and the cached numbers as they are stored. `restore` reads it back.
"""

import datetime
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import connection, transaction
from django.db.models import Prefetch, QuerySet
from django.utils import translation

from tournament.audit import sentences
from tournament.audit.reading import for_their_lines, hand_recorded_line, hands_recorded
from tournament.models import (
    AuditEntry,
    Draw,
    Hand,
    HandResult,
    HandVersion,
    Level,
    Penalty,
    Player,
    RegisterEntry,
    Seat,
    Table,
    TieSettlement,
    Tournament,
)
from tournament.selectors.prizes import with_prizes
from tournament.selectors.register import file_register
from tournament.selectors.standings import standings

FORMAT = "pofc-shootout-tournament"
VERSION = 1
SUMMARY_LENGTH = AuditEntry._meta.get_field("summary").max_length
ROWS = ("front", "middle", "back")

# A seat's standing as the file keeps it (whether it plays the next hand in Fantasyland
# follows from its hands, walked again on import).
FILE_SEAT_CACHES = ("hand_points", "penalty_points", "total", "place")


def _time(value: datetime.datetime | None) -> str | None:
    return value.astimezone(datetime.UTC).isoformat() if value is not None else None


def _user(user: AbstractBaseUser | None) -> str | None:
    return user.get_username() if user is not None else None


def _uuid(entry: RegisterEntry | None) -> str | None:
    return None if entry is None else str(entry.uuid)


def _entry(entry: RegisterEntry, merged: list[RegisterEntry]) -> dict[str, Any]:
    return {
        "uuid": str(entry.uuid),
        "name": entry.name,
        "merged": [str(other.uuid) for other in merged],
    }


def _number(player: Player | None) -> int | None:
    return player.number if player is not None else None


def _result(result: HandResult) -> dict[str, Any]:
    cards = (
        {row: getattr(result, row) for row in ROWS}
        if any(getattr(result, row) for row in ROWS)
        else None
    )
    return {
        "position": result.seat.position,
        "points": result.points,
        "fouled": result.fouled,
        "royalties": result.royalties,
        "in_fantasyland": result.in_fantasyland,
        "fantasyland_next": result.fantasyland_next,
        "cards": cards,
        "detail": result.detail,
    }


def _version(version: HandVersion) -> dict[str, Any]:
    return {
        "version": version.version,
        "mode": version.mode,
        "idempotency_key": str(version.idempotency_key),
        "created_at": _time(version.created_at),
        "created_by": _user(version.created_by),
        "entered_by_label": version.entered_by_label,
        "reason": version.reason,
        "superseded_at": _time(version.superseded_at),
        "results": [_result(result) for result in version.results.all()],
    }


def _table(table: Table) -> dict[str, Any]:
    return {
        "number": table.number,
        "first_dealer_position": table.first_dealer_position,
        "hands_played": table.hands_played,
        "required_hands": table.required_hands,
        "is_over": table.is_over,
        "winner": _number(table.winner),
        "seats": [
            {
                "position": seat.position,
                "player": seat.player.number,
                **{name: getattr(seat, name) for name in FILE_SEAT_CACHES},
                "left_after_hand": seat.left_after_hand,
            }
            for seat in table.seats.all()
        ],
        "hands": [
            {
                "number": hand.number,
                "created_at": _time(hand.created_at),
                "versions": [_version(version) for version in hand.versions.all()],
            }
            for hand in table.hands.all()
        ],
        "tie_settlements": [
            {
                "winner": settlement.winner.number,
                "reason": settlement.reason,
                "created_at": _time(settlement.created_at),
                "created_by": _user(settlement.created_by),
            }
            for settlement in table.tie_settlements.all()
        ],
    }


def _levels(tournament: Tournament) -> QuerySet[Level]:
    """Every level down to the hand results, in a fixed number of queries."""
    return (
        Level.objects.filter(tournament=tournament)
        .order_by("number")
        # django-stubs cannot join the Prefetches of several models into one type.
        .prefetch_related(  # type: ignore[type-var]
            Prefetch("draws", Draw.objects.select_related("created_by").order_by("number")),
            Prefetch("draws__tables", Table.objects.select_related("winner").order_by("number")),
            Prefetch(
                "draws__tables__seats", Seat.objects.select_related("player").order_by("position")
            ),
            Prefetch("draws__tables__hands", Hand.objects.order_by("number")),
            Prefetch(
                "draws__tables__hands__versions",
                HandVersion.objects.select_related("created_by").order_by("version"),
            ),
            Prefetch(
                "draws__tables__hands__versions__results",
                HandResult.objects.select_related("seat").order_by("seat__position"),
            ),
            Prefetch(
                "draws__tables__tie_settlements",
                TieSettlement.objects.select_related("winner", "created_by").order_by("id"),
            ),
        )
    )


def _table_ref(table: Table | None) -> dict[str, int] | None:
    if table is None:
        return None
    return {"level": table.level.number, "draw": table.draw.number, "table": table.number}


def _in_english(entry: AuditEntry) -> str:
    """An audit entry's sentence in English, for people reading the file."""
    with translation.override("en"):
        return (sentences.sentence(entry) or entry.action)[:SUMMARY_LENGTH]


def export_tournament(tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as plain JSON-ready data (see docs/export-format.md), read from
    one snapshot of the database while other workers go on recording hands.

    Its dozen queries run in one transaction: on PostgreSQL at REPEATABLE READ, so that all
    of them see the database as it stood at the first (at the default READ COMMITTED each
    would see the hands committed meanwhile, and a table's hands_played could disagree with
    its hands, which the import refuses); on SQLite the transaction takes the write lock
    (transaction_mode IMMEDIATE), so a hand being recorded waits for the export to end,
    never fails: 0.6-1 s for 300 players after their first level (2,600 hands), once every
    BACKUP_MINUTES and at a level's close; the phones' reads never wait (WAL). Inside a
    caller's transaction it reads in that one. tests/tournament/backups/test_export_snapshot.py
    """
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            # Plain SQL, through Django's cursor: the ORM has no way to say it. It must be
            # the transaction's first statement.
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        return _export(tournament)


def audit_log_in_order(tournament: Tournament) -> list[AuditEntry]:
    """Every line of the tournament's audit log, oldest first: its audit entries and its
    hands' "hand recorded" lines (written out as entries, as the file always had them)."""
    entries = list(
        AuditEntry.objects.filter(tournament=tournament)
        .select_related("actor")
        .order_by("at", "id")
    )
    hands = [
        hand_recorded_line(version)
        for version in for_their_lines(hands_recorded(tournament).order_by("created_at", "id"))
    ]
    # At the same instant an entry comes before a hand's line, as the log shows them.
    return sorted(entries + hands, key=lambda entry: (entry.at, entry.pk is None, entry.pk or 0))


def _export(given: Tournament) -> dict[str, Any]:
    tournament = Tournament.objects.select_related("created_by", "champion").get(pk=given.pk)
    penalties = (
        Penalty.objects.filter(tournament=tournament)
        .select_related("player", "table__level", "table__draw", "created_by", "rescinded_by")
        .order_by("created_at", "id")
    )
    entries = audit_log_in_order(tournament)
    players = list(Player.objects.filter(tournament=tournament).order_by("number"))
    register = file_register(players)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _time(datetime.datetime.now(datetime.UTC)),
        "settings": {name: getattr(tournament, name) for name in Tournament.SETTINGS},
        "prizes": {name: getattr(tournament, name) for name in Tournament.PRIZE_SETTINGS},
        "created_at": _time(tournament.created_at),
        "created_by": _user(tournament.created_by),
        "finished_at": _time(tournament.finished_at),
        "champion": _number(tournament.champion),
        "players": [
            {
                "number": player.number,
                "name": player.name,
                "registered_at": _time(player.registered_at),
                "withdrawn_at": _time(player.withdrawn_at),
                "disqualified": player.disqualified,
                "alike_confirmed": player.alike_confirmed,
                # The person he is in the register (its standing entry: merges followed).
                "register": _uuid(register.of_player.get(player.pk)),
            }
            for player in players
        ],
        # The register's entries the players are (docs/register.md): who each person is
        # across this server's tournaments, and the entries merged into him.
        "register": [_entry(entry, register.merged[entry.pk]) for entry in register.entries],
        # Whether the players' public pages list their earlier results on the server.
        "earlier_results_public": tournament.earlier_results_public,
        "levels": [
            {
                "number": level.number,
                "created_at": _time(level.created_at),
                "closed_at": _time(level.closed_at),
                "draws": [
                    {
                        "number": draw.number,
                        "seed": draw.seed,
                        "created_at": _time(draw.created_at),
                        "created_by": _user(draw.created_by),
                        "superseded_at": _time(draw.superseded_at),
                        "reason": draw.reason,
                        "held": draw.released_at is None,
                        "tables": [_table(table) for table in draw.tables.all()],
                    }
                    for draw in level.draws.all()
                ],
            }
            for level in _levels(tournament)
        ],
        "penalties": [
            {
                "player": penalty.player.number,
                "table": _table_ref(penalty.table),
                "kind": penalty.kind,
                "note": penalty.note,
                "after_hand": penalty.after_hand,
                "created_at": _time(penalty.created_at),
                "created_by": _user(penalty.created_by),
                "rescinded_at": _time(penalty.rescinded_at),
                "rescinded_by": _user(penalty.rescinded_by),
                "rescind_reason": penalty.rescind_reason,
                "warning_number": penalty.warning_number,
                "points": penalty.points,
            }
            for penalty in penalties
        ],
        "standings": [
            {
                "rank": standing.rank,
                "player": standing.player.number,
                "name": standing.player.name,
                "status": standing.status,
                "level": standing.level,
                "place": standing.place,
                "points": standing.points,
                # What he wins, in the smallest unit (`prizes.currency`): null until the
                # standings are final, or when the tournament has no prizes.
                "prize": standing.prize,
            }
            for standing in with_prizes(tournament, standings(tournament))
        ],
        "audit": [
            {
                "at": _time(entry.at),
                "actor": _user(entry.actor),
                "actor_label": entry.actor_label,
                "action": entry.action,
                "summary": _in_english(entry),
                "params": entry.params,
                "before": entry.before,
                "after": entry.after,
            }
            for entry in entries
        ],
    }
