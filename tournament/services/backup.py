"""A tournament as one JSON document, and back: the TD's backup (docs/export-format.md).

The export holds the whole history (every draw, hand version, penalty and audit
entry) and the cached numbers as they were. The import writes the rows as they
are, timestamps included, and then recomputes the open levels from their
history: if the caches come out different, the file was altered or damaged and
the import is refused.
"""

import datetime
import uuid

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Prefetch

from tournament import selectors
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
from tournament.services import audit
from tournament.services.errors import InvalidEntry
from tournament.services.recompute import recompute_table, recompute_warnings
from tournament.services.registration import SETTINGS

FORMAT = "pofc-shootout-tournament"
VERSION = 1
ROWS = ("front", "middle", "back")


# ---------------------------------------------------------------- export


def _time(value):
    return value.astimezone(datetime.UTC).isoformat() if value is not None else None


def _user(user):
    return user.get_username() if user is not None else None


def _number(player):
    return player.number if player is not None else None


def _result(result):
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


def _version(version):
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


def _table(table):
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
                "hand_points": seat.hand_points,
                "penalty_points": seat.penalty_points,
                "total": seat.total,
                "place": seat.place,
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


def _levels(tournament):
    """Every level down to the hand results, in a fixed number of queries."""
    return (
        Level.objects.filter(tournament=tournament)
        .order_by("number")
        .prefetch_related(
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


def _table_ref(table):
    if table is None:
        return None
    return {"level": table.level.number, "draw": table.draw.number, "table": table.number}


def export_tournament(tournament):
    """The whole tournament as plain JSON-ready data (see docs/export-format.md)."""
    tournament = Tournament.objects.select_related("created_by", "champion").get(pk=tournament.pk)
    penalties = (
        Penalty.objects.filter(tournament=tournament)
        .select_related("player", "table__level", "table__draw", "created_by", "rescinded_by")
        .order_by("created_at", "id")
    )
    entries = (
        AuditEntry.objects.filter(tournament=tournament)
        .select_related("actor")
        .order_by("at", "id")
    )
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _time(datetime.datetime.now(datetime.UTC)),
        "settings": {name: getattr(tournament, name) for name in SETTINGS},
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
            }
            for player in Player.objects.filter(tournament=tournament).order_by("number")
        ],
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
            }
            for standing in selectors.standings(tournament)
        ],
        "audit": [
            {
                "at": _time(entry.at),
                "actor": _user(entry.actor),
                "actor_label": entry.actor_label,
                "action": entry.action,
                "summary": entry.summary,
                "before": entry.before,
                "after": entry.after,
            }
            for entry in entries
        ],
    }


# ---------------------------------------------------------------- import


ROOT = "the file"


def _path(where, key):
    return key if where == ROOT else f"{where}.{key}"


def _malformed(where, problem):
    return InvalidEntry(f"This is not a valid tournament backup: {where} {problem}.")


_KINDS = {
    str: "text",
    int: "a whole number",
    bool: "true or false",
    list: "a list",
    dict: "an object",
}


def _get(obj, key, where, kind, *, null=False):
    """obj[key], checked to be of `kind` (a type, "time" or "json")."""
    if not isinstance(obj, dict):
        raise _malformed(where, "must be an object")
    if key not in obj:
        raise _malformed(where, f"has no {key!r}")
    value = obj[key]
    here = _path(where, key)
    if value is None:
        if null or kind == "json":
            return None
        raise _malformed(here, "must not be null")
    if kind == "json":
        return value
    if kind == "time":
        try:
            parsed = datetime.datetime.fromisoformat(value)
        except (TypeError, ValueError):
            raise _malformed(here, f"must be an ISO 8601 time, not {value!r}") from None
        if parsed.tzinfo is None:
            raise _malformed(here, f"must be a time with its UTC offset, not {value!r}")
        return parsed
    if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
        raise _malformed(here, f"must be {_KINDS[kind]}, not {value!r}")
    return value


def _items(obj, key, where):
    return [
        (f"{_path(where, key)}[{i}]", item) for i, item in enumerate(_get(obj, key, where, list))
    ]


def _choice(obj, key, where, choices):
    value = _get(obj, key, where, str)
    if value not in choices:
        raise _malformed(_path(where, key), f"must be one of {', '.join(choices)}, not {value!r}")
    return value


class _Importer:
    """Writes the file's rows; every reference is checked on the way."""

    def __init__(self, data):
        self.data = data
        self.users = {}
        self.players = {}
        self.tables = {}
        # auto_now_add fields are overwritten on create: the file's times are put back after.
        self.stamps = {}

    def user(self, obj, key, where):
        username = _get(obj, key, where, str, null=True)
        if username is None:
            return None
        if username not in self.users:
            self.users[username] = get_user_model().objects.filter(username=username).first()
        return self.users[username]

    def stamp(self, obj, field, value):
        self.stamps.setdefault((type(obj), field), []).append((obj, value))

    def player(self, number, where):
        if number is None:
            return None
        if number not in self.players:
            raise _malformed(where, f"refers to player {number}, who is not in the players list")
        return self.players[number]

    def write(self):
        data = self.data
        settings = _get(data, "settings", ROOT, dict)
        values = {
            "name": _get(settings, "name", "settings", str).strip(),
            "min_hands": _get(settings, "min_hands", "settings", int),
            "entry_mode": _choice(settings, "entry_mode", "settings", Tournament.EntryMode.values),
            "royalties": _choice(settings, "royalties", "settings", Tournament.Royalties.values),
            "scoring_method": _choice(
                settings, "scoring_method", "settings", Tournament.Method.values
            ),
            "fantasyland_repeat": _choice(
                settings, "fantasyland_repeat", "settings", Tournament.FantasylandRepeat.values
            ),
            "button_stays_in_fantasyland": _get(
                settings, "button_stays_in_fantasyland", "settings", bool
            ),
        }
        tournament = Tournament.objects.create(
            created_by=self.user(data, "created_by", ROOT), **values
        )
        self.stamp(tournament, "created_at", _get(data, "created_at", ROOT, "time"))
        self.write_players(tournament)
        for where, level in _items(data, "levels", ROOT):
            self.write_level(tournament, level, where)
        self.write_penalties(tournament)
        self.write_audit(tournament)
        Tournament.objects.filter(pk=tournament.pk).update(
            finished_at=_get(data, "finished_at", ROOT, "time", null=True),
            champion=self.player(_get(data, "champion", ROOT, int, null=True), "champion"),
        )
        for (model, field), pairs in self.stamps.items():
            for obj, value in pairs:
                setattr(obj, field, value)
            model.objects.bulk_update([obj for obj, _ in pairs], [field], batch_size=500)
        tournament.refresh_from_db()
        return tournament

    def write_players(self, tournament):
        rows = []
        for where, item in _items(self.data, "players", ROOT):
            player = Player(
                tournament=tournament,
                number=_get(item, "number", where, int),
                name=_get(item, "name", where, str),
                withdrawn_at=_get(item, "withdrawn_at", where, "time", null=True),
                disqualified=_get(item, "disqualified", where, bool),
            )
            self.stamp(player, "registered_at", _get(item, "registered_at", where, "time"))
            rows.append(player)
        Player.objects.bulk_create(rows)
        self.players = {player.number: player for player in rows}

    def write_level(self, tournament, item, where):
        number = _get(item, "number", where, int)
        level = Level.objects.create(
            tournament=tournament,
            number=number,
            closed_at=_get(item, "closed_at", where, "time", null=True),
        )
        self.stamp(level, "created_at", _get(item, "created_at", where, "time"))
        for draw_where, draw_item in _items(item, "draws", where):
            draw = Draw.objects.create(
                level=level,
                number=_get(draw_item, "number", draw_where, int),
                seed=_get(draw_item, "seed", draw_where, str),
                created_by=self.user(draw_item, "created_by", draw_where),
                superseded_at=_get(draw_item, "superseded_at", draw_where, "time", null=True),
                reason=_get(draw_item, "reason", draw_where, str),
            )
            self.stamp(draw, "created_at", _get(draw_item, "created_at", draw_where, "time"))
            for table_where, table_item in _items(draw_item, "tables", draw_where):
                table = self.write_table(level, draw, table_item, table_where)
                self.tables[(level.number, draw.number, table.number)] = table

    def write_table(self, level, draw, item, where):
        table = Table.objects.create(
            level=level,
            draw=draw,
            number=_get(item, "number", where, int),
            first_dealer_position=_get(item, "first_dealer_position", where, int),
            hands_played=_get(item, "hands_played", where, int),
            required_hands=_get(item, "required_hands", where, int),
            is_over=_get(item, "is_over", where, bool),
            winner=self.player(_get(item, "winner", where, int, null=True), f"{where}.winner"),
        )
        seats = []
        for seat_where, seat in _items(item, "seats", where):
            seats.append(
                Seat(
                    table=table,
                    draw=draw,
                    player=self.player(_get(seat, "player", seat_where, int), seat_where),
                    position=_get(seat, "position", seat_where, int),
                    hand_points=_get(seat, "hand_points", seat_where, int),
                    penalty_points=_get(seat, "penalty_points", seat_where, int),
                    total=_get(seat, "total", seat_where, int),
                    place=_get(seat, "place", seat_where, int, null=True),
                    left_after_hand=_get(seat, "left_after_hand", seat_where, int, null=True),
                )
            )
        Seat.objects.bulk_create(seats)
        self.write_hands(table, {seat.position: seat for seat in seats}, item, where)
        for tie_where, tie in _items(item, "tie_settlements", where):
            settlement = TieSettlement.objects.create(
                table=table,
                winner=self.player(_get(tie, "winner", tie_where, int), tie_where),
                reason=_get(tie, "reason", tie_where, str),
                created_by=self.user(tie, "created_by", tie_where),
            )
            self.stamp(settlement, "created_at", _get(tie, "created_at", tie_where, "time"))
        return table

    def write_hands(self, table, seats, item, where):
        hands, versions, results = [], [], []
        for hand_where, hand_item in _items(item, "hands", where):
            hand = Hand(table=table, number=_get(hand_item, "number", hand_where, int))
            self.stamp(hand, "created_at", _get(hand_item, "created_at", hand_where, "time"))
            hands.append(hand)
            for version_where, version_item in _items(hand_item, "versions", hand_where):
                version = self.version(version_item, version_where)
                versions.append((hand, version))
                lines = [
                    self.result(seats, result_item, result_where)
                    for result_where, result_item in _items(version_item, "results", version_where)
                ]
                total = sum(line.points for line in lines)
                if total != 0:
                    raise _malformed(version_where, f"has points adding up to {total:+d}, not 0")
                results.extend((version, line) for line in lines)
        keys = [version.idempotency_key for _, version in versions]
        if HandVersion.objects.filter(idempotency_key__in=keys).exists():
            raise InvalidEntry(
                f"The hands of {where} are already in this database (their submission keys "
                "are taken): this backup was restored here before under another name."
            )
        Hand.objects.bulk_create(hands)
        for hand, version in versions:
            version.hand = hand
        HandVersion.objects.bulk_create([version for _, version in versions])
        for version, result in results:
            result.version = version
        HandResult.objects.bulk_create([result for _, result in results])

    def version(self, item, where):
        key = _get(item, "idempotency_key", where, str)
        try:
            key = uuid.UUID(key)
        except ValueError:
            raise _malformed(f"{where}.idempotency_key", f"must be a UUID, not {key!r}") from None
        version = HandVersion(
            version=_get(item, "version", where, int),
            mode=_choice(item, "mode", where, HandVersion.Mode.values),
            idempotency_key=key,
            created_by=self.user(item, "created_by", where),
            entered_by_label=_get(item, "entered_by_label", where, str),
            reason=_get(item, "reason", where, str),
            superseded_at=_get(item, "superseded_at", where, "time", null=True),
        )
        self.stamp(version, "created_at", _get(item, "created_at", where, "time"))
        return version

    def result(self, seats, item, where):
        position = _get(item, "position", where, int)
        if position not in seats:
            raise _malformed(where, f"refers to seat {position}, which the table does not have")
        cards = _get(item, "cards", where, dict, null=True) or {}
        return HandResult(
            seat=seats[position],
            points=_get(item, "points", where, int),
            fouled=_get(item, "fouled", where, bool, null=True),
            royalties=_get(item, "royalties", where, int, null=True),
            in_fantasyland=_get(item, "in_fantasyland", where, bool),
            fantasyland_next=_get(item, "fantasyland_next", where, bool),
            **{row: _get(cards, row, f"{where}.cards", str) for row in ROWS if cards},
            detail=_get(item, "detail", where, dict),
        )

    def write_penalties(self, tournament):
        for where, item in _items(self.data, "penalties", ROOT):
            ref = _get(item, "table", where, dict, null=True)
            table = None
            if ref is not None:
                key = tuple(
                    _get(ref, name, f"{where}.table", int) for name in ("level", "draw", "table")
                )
                table = self.tables.get(key)
                if table is None:
                    raise _malformed(where, "refers to a table that is not in the levels list")
            penalty = Penalty.objects.create(
                tournament=tournament,
                player=self.player(_get(item, "player", where, int), where),
                table=table,
                kind=_choice(item, "kind", where, Penalty.Kind.values),
                note=_get(item, "note", where, str),
                after_hand=_get(item, "after_hand", where, int),
                created_by=self.user(item, "created_by", where),
                rescinded_at=_get(item, "rescinded_at", where, "time", null=True),
                rescinded_by=self.user(item, "rescinded_by", where),
                rescind_reason=_get(item, "rescind_reason", where, str),
                warning_number=_get(item, "warning_number", where, int, null=True),
                points=_get(item, "points", where, int),
            )
            self.stamp(penalty, "created_at", _get(item, "created_at", where, "time"))

    def write_audit(self, tournament):
        entries = []
        for where, item in _items(self.data, "audit", ROOT):
            entry = AuditEntry(
                tournament=tournament,
                actor=self.user(item, "actor", where),
                actor_label=_get(item, "actor_label", where, str),
                action=_get(item, "action", where, str),
                summary=_get(item, "summary", where, str),
                before=_get(item, "before", where, "json"),
                after=_get(item, "after", where, "json"),
            )
            self.stamp(entry, "at", _get(item, "at", where, "time"))
            entries.append(entry)
        # In file order, so that the ids keep the order of entries made in the same instant.
        AuditEntry.objects.bulk_create(entries)


def _caches(export):
    """The numbers recomputed from the history, by a readable label (open levels only)."""
    out = {}
    for player in export["players"]:
        out[f"player {player['number']} disqualified"] = player["disqualified"]
    for number, penalty in enumerate(export["penalties"], start=1):
        out[f"penalty {number} warning number"] = penalty["warning_number"]
        out[f"penalty {number} points"] = penalty["points"]
    for level in export["levels"]:
        if level["closed_at"] is not None:
            continue  # a closed level's results are final and never recomputed
        for draw in level["draws"]:
            if draw["superseded_at"] is not None:
                continue
            for table in draw["tables"]:
                where = f"level {level['number']} table {table['number']}"
                for key in ("hands_played", "required_hands", "is_over", "winner"):
                    out[f"{where} {key}"] = table[key]
                for seat in table["seats"]:
                    for key in ("hand_points", "penalty_points", "total", "place"):
                        out[f"{where} seat {seat['position']} {key}"] = seat[key]
                for hand in table["hands"]:
                    for version in hand["versions"]:
                        if version["superseded_at"] is None:
                            for result in version["results"]:
                                label = f"{where} hand {hand['number']} seat {result['position']}"
                                out[f"{label} in_fantasyland"] = result["in_fantasyland"]
                                out[f"{label} fantasyland_next"] = result["fantasyland_next"]
    return out


def _verify(tournament, data):
    """Recompute the open levels and the warnings; refuse if the file's caches differ."""
    for player in Player.objects.filter(tournament=tournament, penalties__isnull=False).distinct():
        recompute_warnings(player)
    for table in Table.objects.filter(
        level__tournament=tournament,
        level__closed_at__isnull=True,
        draw__superseded_at__isnull=True,
    ).select_related("level__tournament"):
        recompute_table(table)
    expected, actual = _caches(data), _caches(export_tournament(tournament))
    wrong = [label for label in expected if expected[label] != actual.get(label)]
    if wrong:
        first = wrong[0]
        more = f" (and {len(wrong) - 1} more)" if len(wrong) > 1 else ""
        raise InvalidEntry(
            "The backup does not add up: recomputed from its hands and penalties, "
            f"{first} is {actual.get(first)!r} but the file says {expected[first]!r}{more}. "
            "The file was altered or damaged; nothing was imported."
        )


def _check_format(data):
    if not isinstance(data, dict):
        raise InvalidEntry("This is not a tournament backup: the file must hold a JSON object.")
    if data.get("format") != FORMAT:
        raise InvalidEntry(f"This is not a tournament backup (its format is not {FORMAT!r}).")
    if data.get("version") != VERSION:
        raise InvalidEntry(
            f"This backup has format version {data.get('version')!r}; "
            f"this version of the product reads version {VERSION}."
        )


@transaction.atomic
def import_tournament(data, *, actor=None):
    """Restore a tournament from `export_tournament`'s data, all or nothing.

    Refused (InvalidEntry) when the data is malformed, does not add up, or a
    tournament of that name already exists. Users are matched by username; a
    missing user leaves the field empty (audit entries keep the label).
    """
    _check_format(data)
    name = _get(_get(data, "settings", ROOT, dict), "name", "settings", str).strip()
    if not name:
        raise _malformed("settings.name", "must not be empty")
    if Tournament.objects.filter(name=name).exists():
        raise InvalidEntry(
            f"A tournament named {name!r} already exists: the backup is not imported."
        )
    try:
        with transaction.atomic():
            tournament = _Importer(data).write()
    except IntegrityError as exc:
        raise InvalidEntry(
            f"This backup contradicts itself or this database and is not imported ({exc})."
        ) from exc
    _verify(tournament, data)
    audit.record(
        tournament=tournament,
        actor=actor,
        action="tournament.import",
        summary=f"Imported {name} from a backup exported {data.get('exported_at') or '(unknown)'}",
        after={"levels": len(data["levels"]), "players": len(data["players"])},
    )
    return tournament
