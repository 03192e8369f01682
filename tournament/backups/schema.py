"""The backup file's shape, checked before anything is written (docs/export-format.md).

No database here. `parse_backup` turns the file's raw bytes into JSON data,
refusing a file that is too large, not UTF-8 or nested too deeply *before* the
JSON parser sees it; `check_backup` checks that data field by field against the
models (every number within its column's range and check constraints, every
text within its length and free of control characters, booleans strictly
`true`/`false`, times with their UTC offset) and that the file agrees with
itself (numbering without gaps, one current draw per level, every reference to a
player, seat or table found) and holds nothing the services never make (two players
of the same name, two whose names differ only in case or accents without the TD's
confirmation, a withdrawn player seated, a correction or a redone draw without a
reason). It returns a copy with times as datetimes and
submission keys as UUIDs, for `restore` to write without checking again.

Every refusal is an `InvalidEntry` whose message names the place in the file,
e.g. "levels[0].draws[0].tables[2].seats[1].total".
"""

import datetime
import json
import math
import re
import unicodedata
import uuid
from array import array
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate
from typing import Any, NoReturn, cast

from django.contrib.auth import get_user_model
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.models import CheckConstraint, Field, Model, Q
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _

from tournament.backups.export import FORMAT, ROWS, VERSION
from tournament.errors import InvalidEntry
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
from tournament.rules.names import check_shown, same_key
from tournament.rules.payouts import WHOLE
from tournament.rules.validation import clean_text

MAX_BYTES = 20 * 1024 * 1024
MAX_DEPTH = 64  # brackets inside brackets; an export nests 12 deep, its audit JSON a little more
SHOWN = 40  # a wrong value is shown cut to this many characters

# Unicode categories never stored: control characters, lone surrogates, unassigned.
_FORBIDDEN = {"Cc", "Cs", "Cn"}
# In free JSON: NUL (PostgreSQL's jsonb cannot hold it) and lone surrogates (not UTF-8).
_NOT_IN_JSON = re.compile("[\x00\ud800-\udfff]")


# ---------------------------------------------------------------- the bytes


_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"[]{}")
_DEPTH_STEP = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")  # +1, +1, -1, -1 as signed bytes


def nesting_depth(raw: bytes) -> int:
    """The deepest nesting of brackets in JSON bytes, not counting brackets in strings.

    About a second for 20 MB of nothing but brackets, without recursion.
    """
    brackets = _STRING.sub(b"", raw).translate(None, _NOT_BRACKETS).translate(_DEPTH_STEP)
    return max(accumulate(array("b", brackets)), default=0)


def _no_constant(name: str) -> NoReturn:
    raise InvalidEntry(
        _("The backup file holds a number that cannot be kept: %(value)s.") % {"value": name}
    )


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        _no_constant(text[:SHOWN])
    return value


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        # set.add answers None: a key is taken the second time it is seen
        key = next(k for k, _v in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise InvalidEntry(
            _("The backup file has the key %(key)s twice in one object.") % {"key": shown(key)}
        )
    return data


def too_large(size: int | None = None) -> InvalidEntry:
    """The refusal of a file over MAX_BYTES: its size (`size` bytes), or "more than" the
    limit when only its beginning was read (`size` None) or its size reads as the limit's
    (20.0 MB, and 20 MB and a byte)."""
    limit = filesizeformat(MAX_BYTES)
    if size is None or filesizeformat(size) == limit:
        return InvalidEntry(
            _("The file is more than %(max)s; a backup can be at most %(max)s.") % {"max": limit}
        )
    return InvalidEntry(
        _("The file is %(size)s; a backup can be at most %(max)s.")
        % {"size": filesizeformat(size), "max": limit}
    )


def parse_backup(raw: object) -> Any:
    """The JSON data in a backup file's bytes: size, encoding and nesting checked first."""
    if not isinstance(raw, (bytes, bytearray, memoryview)):
        raise InvalidEntry(_("The backup file is empty."))
    raw = bytes(raw)
    if len(raw) > MAX_BYTES:
        raise too_large(len(raw))
    if not raw.strip():
        raise InvalidEntry(_("The backup file is empty."))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidEntry(_("The backup file is not UTF-8 text.")) from None
    if nesting_depth(raw) > MAX_DEPTH:
        raise InvalidEntry(
            _("The backup file is nested too deeply (more than %(max)d levels of brackets).")
            % {"max": MAX_DEPTH}
        )
    try:
        return json.loads(
            text, object_pairs_hook=_object, parse_constant=_no_constant, parse_float=_finite
        )
    except json.JSONDecodeError as exc:
        raise InvalidEntry(
            _("The backup file is not valid JSON (line %(line)d, column %(column)d).")
            % {"line": exc.lineno, "column": exc.colno}
        ) from None
    except (ValueError, RecursionError):  # e.g. an integer of thousands of digits
        raise InvalidEntry(_("The backup file is not valid JSON.")) from None


# ---------------------------------------------------------------- fields


def shown(value: object) -> str:
    """A value as the file has it, cut short, safe to print (no lone surrogates)."""
    text = json.dumps(value, ensure_ascii=False)
    if len(text) > SHOWN:
        text = text[: SHOWN - 1] + "…"
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _path(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _and_terms(condition: Q) -> Iterator[tuple[str, object]]:
    """The (lookup, value) pairs a check constraint's condition requires all of."""
    if condition.negated or (condition.connector != Q.AND and len(condition.children) > 1):
        return
    for child in condition.children:
        if isinstance(child, Q):
            yield from _and_terms(child)
        else:  # a (lookup, value) pair
            yield cast(tuple[str, object], child)


def _column(model: type[Model], name: str) -> Field:
    """The model's field `name`: one of its own columns, never a relation's other end."""
    field = model._meta.get_field(name)
    assert isinstance(field, Field), f"{model.__name__}.{name} is not a column"
    return field


def int_range(model: type[Model], name: str) -> tuple[int, int]:
    """The whole numbers `model.name` can hold: its column's range and its check constraints."""
    field = _column(model, name)
    low, high = BaseDatabaseOperations.integer_field_ranges[field.get_internal_type()]
    for constraint in model._meta.constraints:
        if not isinstance(constraint, CheckConstraint) or not isinstance(constraint.condition, Q):
            continue
        for lookup, value in _and_terms(constraint.condition):
            if type(value) is not int or not lookup.startswith(f"{name}__"):
                continue
            operator = lookup.removeprefix(f"{name}__")
            if operator == "gte":
                low = max(low, value)
            elif operator == "gt":
                low = max(low, value + 1)
            elif operator == "lte":
                high = min(high, value)
            elif operator == "lt":
                high = min(high, value - 1)
    return low, high


SIGNED = BaseDatabaseOperations.integer_field_ranges["IntegerField"]
SMALL = BaseDatabaseOperations.integer_field_ranges["PositiveSmallIntegerField"]


class Spec:
    """How one value of the file is checked (and converted)."""

    null = False

    @property
    def kind(self) -> str:
        return ""

    def __call__(self, value: Any, where: str) -> Any:
        if value is None:
            if self.null:
                return None
            raise self.wrong(value, where)
        return self.check(value, where)

    def wrong(self, value: object, where: str) -> InvalidEntry:
        return InvalidEntry(
            _("%(where)s must be %(kind)s, not %(value)s.")
            % {"where": where, "kind": self.kind, "value": shown(value)}
        )

    def check(self, value: Any, where: str) -> Any:
        raise NotImplementedError


class Int(Spec):
    def __init__(self, model: type[Model], name: str, *, null: bool | None = None) -> None:
        self.low, self.high = int_range(model, name)
        self.null = _column(model, name).null if null is None else null

    @classmethod
    def between(cls, low: int, high: int, *, null: bool = False) -> "Int":
        """A whole number kept in a JSON field (no column to take the range from)."""
        spec = cls.__new__(cls)
        spec.low, spec.high, spec.null = low, high, null
        return spec

    @property
    def kind(self) -> str:
        return _("a whole number")

    def check(self, value: Any, where: str) -> Any:
        if type(value) is not int:  # true and false are not numbers here
            raise self.wrong(value, where)
        if not self.low <= value <= self.high:
            raise InvalidEntry(
                _("%(where)s must be a whole number from %(min)d to %(max)d, not %(value)s.")
                % {"where": where, "min": self.low, "max": self.high, "value": shown(value)}
            )
        return value


class Bool(Spec):
    def __init__(self, *, null: bool = False) -> None:
        self.null = null

    @property
    def kind(self) -> str:
        return _("true or false")

    def check(self, value: Any, where: str) -> Any:
        if type(value) is not bool:
            raise self.wrong(value, where)
        return value


def _cannot_keep(where: str, char: str) -> InvalidEntry:
    return InvalidEntry(
        _("%(label)s contains a character that cannot be kept (U+%(code)04X).")
        % {"label": where, "code": ord(char)}
    )


def check_text(
    value: object, where: str, *, max_length: int, required: bool, multiline: bool = False
) -> str:
    """Text as the services keep it (`clean_text`'s rules), checked but not changed.

    Stricter than `clean_text` in one way: a single-line text may not hold a tab
    or a line break either (`clean_text` would fold them into a space).
    """
    if not isinstance(value, str):
        raise InvalidEntry(_("%(label)s must be text.") % {"label": where})
    if len(value) > max_length:  # before reading it through: it may be megabytes long
        raise InvalidEntry(
            _("%(label)s can have at most %(max)d characters (it has %(length)d).")
            % {"label": where, "max": max_length, "length": len(value)}
        )
    allowed: set[str] = {"\n", "\t"} if multiline else set()
    bad = next(
        (c for c in value if c not in allowed and unicodedata.category(c) in _FORBIDDEN), None
    )
    if bad is not None:
        raise _cannot_keep(where, bad)
    clean_text(value, label=where, max_length=max_length, required=required, multiline=multiline)
    return value


class Text(Spec):
    def __init__(
        self,
        model: type[Model],
        name: str,
        *,
        required: bool | None = None,
        multiline: bool = False,
        null: bool = False,
    ) -> None:
        field = _column(model, name)
        assert field.max_length is not None, f"{model.__name__}.{name} has no length"
        self.max_length = field.max_length
        self.required = not field.blank if required is None else required
        self.multiline = multiline
        self.null = null

    @property
    def kind(self) -> str:
        return _("text")

    def check(self, value: Any, where: str) -> Any:
        return check_text(
            value,
            where,
            max_length=self.max_length,
            required=self.required,
            multiline=self.multiline,
        )


class Name(Text):
    """A player's name: text that shows as something (`names.check_shown`)."""

    def check(self, value: Any, where: str) -> Any:
        return check_shown(super().check(value, where), label=where)


class Username(Text):
    """A user by username, or null."""

    def __init__(self) -> None:
        model = get_user_model()
        super().__init__(model, model.USERNAME_FIELD, required=True, null=True)


class Choice(Spec):
    def __init__(self, model: type[Model], name: str) -> None:
        self.values = [value for value, _label in _column(model, name).choices or ()]

    @property
    def kind(self) -> str:
        return _("text")

    def check(self, value: Any, where: str) -> Any:
        if not isinstance(value, str):
            raise self.wrong(value, where)
        if value not in self.values:
            raise InvalidEntry(
                _("%(where)s must be one of %(choices)s, not %(value)s.")
                % {"where": where, "choices": ", ".join(self.values), "value": shown(value)}
            )
        return value


class Time(Spec):
    def __init__(self, *, null: bool = False) -> None:
        self.null = null

    @property
    def kind(self) -> str:
        return _("a time")

    def check(self, value: Any, where: str) -> Any:
        try:
            parsed = datetime.datetime.fromisoformat(value)
            if parsed.tzinfo is None or parsed.utcoffset() is None:
                raise ValueError
            parsed.astimezone(datetime.UTC)  # year 1 or 9999 may not survive the move
        except (TypeError, ValueError, OverflowError):
            raise InvalidEntry(
                _("%(where)s must be an ISO 8601 time with its UTC offset, not %(value)s.")
                % {"where": where, "value": shown(value)}
            ) from None
        return parsed


class Key(Spec):
    def __init__(self, *, null: bool = False) -> None:
        self.null = null

    @property
    def kind(self) -> str:
        return _("text")

    def check(self, value: Any, where: str) -> Any:
        try:
            return uuid.UUID(value)
        except (TypeError, ValueError, AttributeError):
            raise InvalidEntry(
                _("%(where)s must be a UUID, not %(value)s.")
                % {"where": where, "value": shown(value)}
            ) from None


class Json(Spec):
    """Free JSON (a card entry's detail, an audit entry's before and after).

    Its text may not hold NUL (PostgreSQL cannot keep it) or lone surrogates.
    """

    null = True

    def __init__(self, *, dict_only: bool = False, null: bool | None = None) -> None:
        self.dict_only = dict_only
        self.null = not dict_only if null is None else null

    @property
    def kind(self) -> str:
        return _("an object")

    def check(self, value: Any, where: str) -> Any:
        if self.dict_only and not isinstance(value, dict):
            raise self.wrong(value, where)
        self.scan(value, where)
        return value

    def scan(self, value: object, where: str) -> None:
        if isinstance(value, str):
            bad = _NOT_IN_JSON.search(value)
            if bad is not None:
                raise _cannot_keep(where, bad.group())
        elif isinstance(value, list):
            for index, item in enumerate(value):
                self.scan(item, f"{where}[{index}]")
        elif isinstance(value, dict):
            for key, item in value.items():
                self.scan(key, where)
                self.scan(item, _path(where, key))


class Ignored(Spec):
    """Written for people reading the file; not imported."""

    null = True

    def check(self, value: Any, where: str) -> Any:
        return None


class ListOf(Spec):
    def __init__(self, item: Spec) -> None:
        self.item = item

    @property
    def kind(self) -> str:
        return _("a list")

    def check(self, value: Any, where: str) -> Any:
        if not isinstance(value, list):
            raise self.wrong(value, where)
        return [self.item(item, f"{where}[{index}]") for index, item in enumerate(value)]


class Obj(Spec):
    def __init__(
        self, fields: dict[str, Spec], *, null: bool = False, optional: Iterable[str] = ()
    ) -> None:
        self.fields = fields
        self.null = null
        # Fields a file may leave out (added to the format later): None when missing.
        self.optional = frozenset(optional)

    @property
    def kind(self) -> str:
        return _("an object")

    def check(self, value: Any, where: str) -> Any:
        if not isinstance(value, dict):
            raise self.wrong(value, where)
        out: dict[str, Any] = {}
        for key, spec in self.fields.items():
            if key not in value and key in self.optional:
                out[key] = None
                continue
            if key not in value:
                raise InvalidEntry(_("%(where)s is missing.") % {"where": _path(where, key)})
            out[key] = spec(value[key], _path(where, key))
        unknown = next((key for key in value if key not in self.fields), None)
        if unknown is not None:
            raise InvalidEntry(
                _("%(where)s is not a field of this backup format.")
                % {"where": _path(where, shown(unknown).strip('"'))}
            )
        return out


def schema() -> Obj:
    """The whole file's spec, from the models' fields (built when needed: apps loaded)."""
    user = Username()
    player = Int(Player, "number", null=False)
    result = Obj(
        {
            "position": Int(Seat, "position"),
            "points": Int(HandResult, "points"),
            "fouled": Bool(null=True),
            "royalties": Int(HandResult, "royalties"),
            "in_fantasyland": Bool(),
            "fantasyland_next": Bool(),
            "cards": Obj({row: Text(HandResult, row) for row in ROWS}, null=True),
            "detail": Json(dict_only=True),
        }
    )
    version = Obj(
        {
            "version": Int(HandVersion, "version"),
            "mode": Choice(HandVersion, "mode"),
            "idempotency_key": Key(),
            "created_at": Time(),
            "created_by": user,
            "entered_by_label": Text(HandVersion, "entered_by_label"),
            "reason": Text(HandVersion, "reason"),
            "superseded_at": Time(null=True),
            "results": ListOf(result),
        }
    )
    seat = Obj(
        {
            "position": Int(Seat, "position"),
            "player": player,
            # Kept in the table's `seat_caches`: the ranges their columns had.
            "hand_points": Int.between(*SIGNED),
            "penalty_points": Int.between(*SIGNED),
            "total": Int.between(*SIGNED),
            "place": Int.between(*SMALL, null=True),
            "left_after_hand": Int(Seat, "left_after_hand"),
        }
    )
    table = Obj(
        {
            "number": Int(Table, "number"),
            "first_dealer_position": Int(Table, "first_dealer_position"),
            "hands_played": Int(Table, "hands_played"),
            "required_hands": Int(Table, "required_hands"),
            "is_over": Bool(),
            "winner": Int(Player, "number", null=True),
            "seats": ListOf(seat),
            "hands": ListOf(
                Obj(
                    {
                        "number": Int(Hand, "number"),
                        "created_at": Time(),
                        "versions": ListOf(version),
                    }
                )
            ),
            "tie_settlements": ListOf(
                Obj(
                    {
                        "winner": player,
                        "reason": Text(TieSettlement, "reason", required=True),
                        "created_at": Time(),
                        "created_by": user,
                    }
                )
            ),
        }
    )
    draw = Obj(
        {
            "number": Int(Draw, "number"),
            "seed": Text(Draw, "seed"),
            "created_at": Time(),
            "created_by": user,
            "superseded_at": Time(null=True),
            "reason": Text(Draw, "reason"),
            "held": Bool(),
            "tables": ListOf(table),
        },
        # Backups written before draws were released: every draw was shown when made.
        optional=("held",),
    )
    level = Obj(
        {
            "number": Int(Level, "number"),
            "created_at": Time(),
            "closed_at": Time(null=True),
            "draws": ListOf(draw),
        }
    )
    penalty = Obj(
        {
            "player": player,
            "table": Obj(
                {
                    "level": Int(Level, "number"),
                    "draw": Int(Draw, "number"),
                    "table": Int(Table, "number"),
                },
                null=True,
            ),
            "kind": Choice(Penalty, "kind"),
            "note": Text(Penalty, "note", multiline=True),
            "after_hand": Int(Penalty, "after_hand"),
            "created_at": Time(),
            "created_by": user,
            "rescinded_at": Time(null=True),
            "rescinded_by": user,
            "rescind_reason": Text(Penalty, "rescind_reason"),
            "warning_number": Int(Penalty, "warning_number"),
            "points": Int(Penalty, "points"),
        }
    )
    audit = Obj(
        {
            "at": Time(),
            "actor": user,
            "actor_label": Text(AuditEntry, "actor_label"),
            "action": Text(AuditEntry, "action"),
            # In English, for people reading the file (and versions that read no params).
            "summary": Text(AuditEntry, "summary", required=True),
            # What happened as data; backups written before the log kept it have none.
            "params": Json(dict_only=True, null=True),
            "before": Json(),
            "after": Json(),
        },
        optional=("params",),
    )
    return Obj(
        {
            "format": Ignored(),  # checked first, by _check_format
            "version": Ignored(),
            "exported_at": Time(),
            "settings": Obj(
                {
                    "name": Text(Tournament, "name"),
                    "min_hands": Int(Tournament, "min_hands"),
                    "entry_mode": Choice(Tournament, "entry_mode"),
                    "royalties": Choice(Tournament, "royalties"),
                    "scoring_method": Choice(Tournament, "scoring_method"),
                    "fantasyland_repeat": Choice(Tournament, "fantasyland_repeat"),
                    "button_stays_in_fantasyland": Bool(),
                    "table_confirms_points": Bool(),
                    "release_draws_at_once": Bool(),
                },
                # Backups written before the setting existed: as it was then.
                optional=("table_confirms_points", "release_draws_at_once"),
            ),
            "prizes": Obj(
                {
                    "currency": Choice(Tournament, "currency"),
                    "buy_in": Int(Tournament, "buy_in"),
                    "fee": Int(Tournament, "fee"),
                    "added_money": Int(Tournament, "added_money"),
                    # Basis points, 1st first; their sum is checked with the rest of the
                    # prize settings (verify.check_facts).
                    "payout_shares": ListOf(Int.between(1, WHOLE)),
                    "prize_rounding": Int(Tournament, "prize_rounding"),
                    "prizes_public": Bool(),
                }
            ),
            "created_at": Time(),
            "created_by": user,
            "finished_at": Time(null=True),
            "champion": Int(Player, "number", null=True),
            "players": ListOf(
                Obj(
                    {
                        "number": player,
                        "name": Name(Player, "name"),
                        "registered_at": Time(),
                        "withdrawn_at": Time(null=True),
                        "disqualified": Bool(),
                        "alike_confirmed": Bool(),
                        # The uuid of his entry in "register"; null: none (docs/register.md).
                        "register": Key(null=True),
                    },
                    # Backups written before the field existed: no confirmation (false);
                    # before the register: none (linked by name on restore).
                    optional=("alike_confirmed", "register"),
                )
            ),
            "register": ListOf(
                Obj(
                    {
                        "uuid": Key(),
                        "name": Name(RegisterEntry, "name"),
                        "merged": ListOf(Key()),
                    }
                )
            ),
            "earlier_results_public": Bool(),
            "levels": ListOf(level),
            "penalties": ListOf(penalty),
            "standings": Ignored(),
            "audit": ListOf(audit),
        },
        # Backups written before buy-ins and prizes: none (the defaults, no prizes); before
        # the register of players: none (each player linked by his name on restore).
        optional=("prizes", "register", "earlier_results_public"),
    )


# ---------------------------------------------------------------- the whole file


def _check_format(data: object) -> None:
    if not isinstance(data, dict):
        raise InvalidEntry(_("This is not a tournament backup: the file must hold a JSON object."))
    if data.get("format") != FORMAT:
        raise InvalidEntry(
            _("This is not a tournament backup (its format is not “%(format)s”).")
            % {"format": FORMAT}
        )
    version = data.get("version")
    if type(version) is not int or version != VERSION:  # `true == 1` in Python
        raise InvalidEntry(
            _(
                "This backup has format version %(version)s; this version of the product "
                "reads version %(expected)d."
            )
            % {"version": shown(version), "expected": VERSION}
        )


def _numbered(items: Sequence[dict[str, Any]], where: str, key: str = "number") -> None:
    """Items numbered 1, 2, 3… in order."""
    for index, item in enumerate(items):
        if item[key] != index + 1:
            raise InvalidEntry(
                _("%(where)s is %(number)d but must be %(expected)d: numbered 1, 2, 3… in order.")
                % {"where": f"{where}[{index}].{key}", "number": item[key], "expected": index + 1}
            )


def _not_empty(items: Sequence[object], where: str) -> None:
    if not items:
        raise InvalidEntry(_("%(label)s must not be empty.") % {"label": where})


def _only_last_current(items: Sequence[dict[str, Any]], where: str) -> None:
    """Of draws or hand versions, only the last is current (superseded_at null)."""
    last = len(items) - 1
    for index, item in enumerate(items):
        here = f"{where}[{index}].superseded_at"
        if index < last and item["superseded_at"] is None:
            raise InvalidEntry(
                _("%(where)s must be a time: a later one in the list replaced this one.")
                % {"where": here}
            )
        if index == last and item["superseded_at"] is not None:
            raise InvalidEntry(
                _("%(where)s must be null: the last one in the list is the current one.")
                % {"where": here}
            )


def _reason(item: dict[str, Any], where: str, why: str) -> None:
    """A redone draw and a corrected hand carry the TD's reason, as the services require."""
    if not " ".join(item["reason"].split()):
        raise InvalidEntry(
            _("%(where)s must not be empty: %(why)s") % {"where": f"{where}.reason", "why": why}
        )


def _refers(number: int | None, known: set[int], where: str) -> None:
    if number is not None and number not in known:
        raise InvalidEntry(
            _("%(where)s refers to player %(number)d, who is not in the players list.")
            % {"where": where, "number": number}
        )


class _Structure:
    """The file agrees with itself: numbering, references, one current draw, keys."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.players: set[int] = set()
        # (level, draw, table) numbers -> (path, table item)
        self.tables: dict[tuple[int, int, int], tuple[str, dict[str, Any]]] = {}
        self.keys: dict[uuid.UUID, str] = {}
        self.withdrawn: set[int] = set()  # player numbers

    @staticmethod
    def _new_name(names: dict[str, Any], name: str, where: str, confirmed: bool) -> None:
        """No two players of the same name, and no two whose names differ only in case or
        accents unless the TD confirmed them as two players (tournament/rules/names.py).

        The services refuse the same name, and give a near-duplicate only with the TD's
        confirmation, which the player registered (or renamed) into it carries: so of the
        players whose names differ only in case or accents, all but one carry it.
        """
        group = names.setdefault(same_key(name), {"names": {}, "unconfirmed": None})
        if name in group["names"]:
            raise InvalidEntry(
                _("%(where)s repeats the name of %(other)s.")
                % {"where": where, "other": group["names"][name]}
            )
        group["names"][name] = where
        if confirmed:
            return
        if group["unconfirmed"] is None:
            group["unconfirmed"] = (where, name)
            return
        other, other_name = group["unconfirmed"]
        raise InvalidEntry(
            _(
                "%(where)s %(name)s differs from %(other)s %(other_name)s only in case or "
                "accents, and neither carries the TD's confirmation that they are two players "
                "(alike_confirmed)."
            )
            % {
                "where": where,
                "name": shown(name),
                "other": other,
                "other_name": shown(other_name),
            }
        )

    def check_register(self) -> None:
        """Each register entry once (no uuid twice, merged ones included); each player's
        entry listed, and no two players one entry (a person plays a tournament once)."""
        data = self.data
        seen: dict[uuid.UUID, str] = {}
        for index, entry in enumerate(data["register"] or []):
            where = f"register[{index}]"
            keys = [(entry["uuid"], f"{where}.uuid")]
            keys += [(key, f"{where}.merged[{n}]") for n, key in enumerate(entry["merged"])]
            for key, path in keys:
                if key in seen:
                    raise InvalidEntry(
                        _("%(where)s repeats the register entry of %(other)s.")
                        % {"where": path, "other": seen[key]}
                    )
                seen[key] = path
        listed = {entry["uuid"] for entry in data["register"] or []}
        used: dict[uuid.UUID, str] = {}
        for index, player in enumerate(data["players"]):
            key, where = player["register"], f"players[{index}].register"
            if key is None:
                continue
            if key not in listed:
                raise InvalidEntry(
                    _("%(where)s is not an entry of the file's register.") % {"where": where}
                )
            if key in used:
                raise InvalidEntry(
                    _(
                        "%(where)s is the register entry of %(other)s too: two players "
                        "are two people."
                    )
                    % {"where": where, "other": used[key]}
                )
            used[key] = f"players[{index}]"

    def check(self) -> None:
        data = self.data
        names: dict[
            str, Any
        ] = {}  # same_key -> {"names": {name: path}, "unconfirmed": (path, name)}
        for index, player in enumerate(data["players"]):
            where = f"players[{index}]"
            if player["number"] in self.players:
                raise InvalidEntry(
                    _("%(where)s repeats start number %(number)d.")
                    % {"where": f"{where}.number", "number": player["number"]}
                )
            self._new_name(names, player["name"], f"{where}.name", player["alike_confirmed"])
            self.players.add(player["number"])
            if player["withdrawn_at"] is not None:
                self.withdrawn.add(player["number"])
        _refers(data["champion"], self.players, "champion")
        self.check_register()
        levels = data["levels"]
        _numbered(levels, "levels")
        for index, level in enumerate(levels):
            where = f"levels[{index}]"
            if index < len(levels) - 1 and level["closed_at"] is None:
                raise InvalidEntry(
                    _("%(where)s must be a time: a later level was drawn, so this one is closed.")
                    % {"where": f"{where}.closed_at"}
                )
            self.level(level, where)
        for index, penalty in enumerate(data["penalties"]):
            self.penalty(penalty, f"penalties[{index}]")

    def level(self, level: dict[str, Any], where: str) -> None:
        draws = level["draws"]
        _not_empty(draws, f"{where}.draws")
        _numbered(draws, f"{where}.draws")
        _only_last_current(draws, f"{where}.draws")
        for index, draw in enumerate(draws):
            draw_where = f"{where}.draws[{index}]"
            if index > 0:
                _reason(draw, draw_where, _("a redone draw needs a reason."))
            tables = draw["tables"]
            _not_empty(tables, f"{draw_where}.tables")
            _numbered(tables, f"{draw_where}.tables")
            seated: dict[int, str] = {}
            for table_index, table in enumerate(tables):
                table_where = f"{draw_where}.tables[{table_index}]"
                self.table(table, table_where, seated, current=draw["superseded_at"] is None)
                key = (level["number"], draw["number"], table["number"])
                self.tables[key] = (table_where, table)

    def table(
        self, table: dict[str, Any], where: str, seated: dict[int, str], *, current: bool
    ) -> None:
        seats = table["seats"]
        positions = [seat["position"] for seat in seats]
        if positions not in ([0, 1], [0, 1, 2]):
            raise InvalidEntry(
                _("%(where)s must be 2 or 3 seats at positions 0, 1 (and 2), in order.")
                % {"where": f"{where}.seats"}
            )
        if table["first_dealer_position"] not in positions:
            raise InvalidEntry(
                _("%(where)s is %(value)d, which is not a seat at the table.")
                % {
                    "where": f"{where}.first_dealer_position",
                    "value": table["first_dealer_position"],
                }
            )
        for index, seat in enumerate(seats):
            seat_where = f"{where}.seats[{index}]"
            number = seat["player"]
            _refers(number, self.players, f"{seat_where}.player")
            # A player withdrawn after the first draw (before play) sits in its superseded
            # draw: only the draw in play must not seat him.
            if current and number in self.withdrawn:
                raise InvalidEntry(
                    _("%(where)s seats player %(number)d, who has withdrawn.")
                    % {"where": f"{seat_where}.player", "number": number}
                )
            if number in seated:
                raise InvalidEntry(
                    _("%(where)s seats player %(number)d, who is already at %(other)s.")
                    % {"where": f"{seat_where}.player", "number": number, "other": seated[number]}
                )
            seated[number] = seat_where
            expected = seat["hand_points"] - seat["penalty_points"]
            if seat["total"] != expected:
                raise InvalidEntry(
                    _(
                        "%(where)s must be the hand points less the penalty points "
                        "(%(expected)d), not %(value)d."
                    )
                    % {"where": f"{seat_where}.total", "expected": expected, "value": seat["total"]}
                )
        players = {seat["player"] for seat in seats}
        if table["winner"] is not None and table["winner"] not in players:
            raise InvalidEntry(
                _("%(where)s is player %(number)d, who has no seat at this table.")
                % {"where": f"{where}.winner", "number": table["winner"]}
            )
        for index, settlement in enumerate(table["tie_settlements"]):
            if settlement["winner"] not in players:
                raise InvalidEntry(
                    _("%(where)s is player %(number)d, who has no seat at this table.")
                    % {
                        "where": f"{where}.tie_settlements[{index}].winner",
                        "number": settlement["winner"],
                    }
                )
        hands = table["hands"]
        if hands and not current:
            raise InvalidEntry(
                _("%(where)s must be empty: a draw can only be redone before its first hand.")
                % {"where": f"{where}.hands"}
            )
        _numbered(hands, f"{where}.hands")
        for index, hand in enumerate(hands):
            self.hand(hand, f"{where}.hands[{index}]", set(positions))

    def hand(self, hand: dict[str, Any], where: str, positions: set[int]) -> None:
        versions = hand["versions"]
        _not_empty(versions, f"{where}.versions")
        _numbered(versions, f"{where}.versions", key="version")
        _only_last_current(versions, f"{where}.versions")
        first = None
        for index, version in enumerate(versions):
            version_where = f"{where}.versions[{index}]"
            if index > 0:
                _reason(version, version_where, _("a correction needs a reason."))
            key = version["idempotency_key"]
            if key in self.keys:
                raise InvalidEntry(
                    _("%(where)s is the submission key of %(other)s too.")
                    % {"where": f"{version_where}.idempotency_key", "other": self.keys[key]}
                )
            self.keys[key] = version_where
            results = version["results"]
            seen = []
            for result_index, result in enumerate(results):
                result_where = f"{version_where}.results[{result_index}]"
                position = result["position"]
                if position not in positions:
                    raise InvalidEntry(
                        _("%(where)s refers to seat %(position)d, which the table does not have.")
                        % {"where": f"{result_where}.position", "position": position}
                    )
                if position in seen:
                    raise InvalidEntry(
                        _("%(where)s repeats seat %(position)d.")
                        % {"where": f"{result_where}.position", "position": position}
                    )
                seen.append(position)
                self.result(result, result_where, version["mode"])
            if len(seen) < 2:
                raise InvalidEntry(
                    _("%(where)s must have a result for each of the 2 or 3 players of the hand.")
                    % {"where": f"{version_where}.results"}
                )
            if first is None:
                first = set(seen)
            elif set(seen) != first:
                raise InvalidEntry(
                    _("%(where)s must be for the same seats as the hand's first version.")
                    % {"where": f"{version_where}.results"}
                )
            total = sum(result["points"] for result in results)
            if total:
                raise InvalidEntry(
                    _("%(where)s has points adding up to %(total)+d, not 0.")
                    % {"where": version_where, "total": total}
                )

    def result(self, result: dict[str, Any], where: str, mode: str) -> None:
        if mode == HandVersion.Mode.CARDS:
            for key in ("cards", "fouled", "royalties"):
                if result[key] is None:
                    raise InvalidEntry(
                        _("%(where)s must not be null for a hand entered as cards.")
                        % {"where": f"{where}.{key}"}
                    )
        else:
            for key in ("cards", "fouled", "royalties"):
                if result[key] is not None:
                    raise InvalidEntry(
                        _("%(where)s must be null for a hand entered as points.")
                        % {"where": f"{where}.{key}"}
                    )

    def penalty(self, penalty: dict[str, Any], where: str) -> None:
        _refers(penalty["player"], self.players, f"{where}.player")
        ref = penalty["table"]
        if ref is not None:
            key = (ref["level"], ref["draw"], ref["table"])
            if key not in self.tables:
                raise InvalidEntry(
                    _("%(where)s refers to a table that is not in the levels list.")
                    % {"where": f"{where}.table"}
                )
            _table_where, table = self.tables[key]
            if penalty["player"] not in {seat["player"] for seat in table["seats"]}:
                raise InvalidEntry(
                    _("%(where)s refers to a table where player %(number)d has no seat.")
                    % {"where": f"{where}.table", "number": penalty["player"]}
                )
            if penalty["after_hand"] > len(table["hands"]):
                raise InvalidEntry(
                    _(
                        "%(where)s is %(value)d, more than the number of hands recorded at "
                        "that table (%(hands)d)."
                    )
                    % {
                        "where": f"{where}.after_hand",
                        "value": penalty["after_hand"],
                        "hands": len(table["hands"]),
                    }
                )
        if penalty["rescinded_at"] is not None and not penalty["rescind_reason"].strip():
            raise InvalidEntry(
                _("%(label)s must not be empty.") % {"label": f"{where}.rescind_reason"}
            )


def check_backup(data: object) -> dict[str, Any]:
    """The file's data checked field by field and against itself; returns it converted.

    In the result, times are aware datetimes, submission keys UUIDs, and
    `standings` is None (it is not imported).
    """
    _check_format(data)
    checked = schema()(data, "")
    _Structure(checked).check()
    return checked


def read_backup(raw: object) -> dict[str, Any]:
    """A backup file's bytes, parsed and checked (`parse_backup`, then `check_backup`)."""
    return check_backup(parse_backup(raw))
