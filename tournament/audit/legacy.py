"""Audit entries written before the log was kept as data, read back into params.

Until migration 0008 every entry stored an English sentence (`summary`) made by a
known f-string in the services; this reads those sentences (every form they have had)
and the entries' before/after back into the params that `audit_sentences` writes in the
reader's language. Used by that migration and by the import of backups written before
it. The forms are frozen: nothing writes them any more.

What cannot be read back gives None, and the entry keeps showing its stored text.
"""

import re
from collections.abc import Callable
from typing import Any

from tournament.audit.sentences import fits

# What a sentence's groups, or an entry's before/after, hold: JSON's values by name.
Found = dict[str, Any]
# The number of the level open when the entry was made (None: none).
LevelAt = Callable[[], int | None]

LEVEL_TABLE = r"Level (?P<level>\d+) table (?P<table>\d+)"

# action -> the sentence's forms, anchored at both ends.
FORMS: dict[str, list[str]] = {
    "tournament.create": [r"Created tournament (?P<name>.+)"],
    "tournament.settings": [r"Changed settings"],
    "tournament.finish": [r"Champion: (?P<champion>.+)", r"Finished without a champion"],
    "tournament.import": [r"Imported (?P<name>.+) from a backup exported (?P<exported>.+)"],
    "player.register": [r"Registered (?P<name>.+) \(#(?P<number>\d+)\)"],
    "player.withdraw": [r"(?P<name>.+) withdrew"],
    "player.rename": [r"Renamed (?P<old_name>.+) to (?P<name>.+) \(#(?P<number>\d+)\)"],
    "draw.create": [
        r"Drew level (?P<level>\d+): (?P<players>\d+) players",
        r"Closed level (?P<closed_level>\d+); drew level (?P<level>\d+): (?P<players>\d+) players",
    ],
    "draw.redo": [r"Redrew level (?P<level>\d+)(: (?P<reason>.*))?"],
    "table.revisor_access": [
        LEVEL_TABLE + r": new revisor link and code \(the old code (?P<old_code>\S+) no longer "
        r"works\)"
    ],
    "table.call": [LEVEL_TABLE + r" calls the TD: .+"],
    "table.call_cleared": [LEVEL_TABLE + r": call cleared \(.+\)"],
    "hand.record": [LEVEL_TABLE + r": hand (?P<hand>\d+) \((?P<mode>points|cards)\)"],
    "hand.correct": [
        LEVEL_TABLE + r": corrected hand (?P<hand>\d+) \(version (?P<version>\d+)\): (?P<reason>.*)"
    ],
    "tie.settle": [LEVEL_TABLE + r": tie settled for .+"],
    "penalty.give": [
        r".+: .+ — warning (?P<warning>\d+), (?P<points>\d+) points \((?P<where>.*)\)"
        r"(?P<disqualified> — disqualified)?"
    ],
    "penalty.rescind": [r"Rescinded .+'s .+"],
}

NUMBERS = (
    "level",
    "table",
    "hand",
    "version",
    "number",
    "players",
    "closed_level",
    "warning",
    "points",
)


def _match(action: str, summary: str) -> Found | None:
    for form in FORMS.get(action, ()):
        found = re.fullmatch(form, summary, flags=re.DOTALL)
        if found:
            return {
                key: int(value) if key in NUMBERS and value is not None else value
                for key, value in found.groupdict().items()
            }
    return None


def read_back(
    *,
    action: str,
    summary: str | None,
    before: object = None,
    after: object = None,
    level_at: LevelAt | None = None,
) -> Found | None:
    """The params of an entry stored as an English sentence, or None if it cannot be read.

    `level_at`: a function giving the number of the tournament's level that was open when
    the entry was made (None if none), for penalties, whose sentence names no level.
    """
    found = _match(action, summary or "")
    if found is None:
        return None
    was = before if isinstance(before, dict) else {}
    now = after if isinstance(after, dict) else {}
    try:
        params = READERS.get(action, _as_found)(found, was, now, summary or "", level_at)
    except (KeyError, TypeError, ValueError):
        return None
    return params if fits(action, params) else None


def _as_found(
    found: Found, before: Found, after: Found, summary: str, level_at: LevelAt | None
) -> Found:
    return found


def _finish(
    found: Found, before: Found, after: Found, summary: str, level_at: LevelAt | None
) -> Found:
    return {"champion": found.get("champion")}


def _rename(
    found: Found, before: Found, after: Found, summary: str, level_at: LevelAt | None
) -> Found:
    # The names are in before/after whole, whatever " to " a name may hold.
    return {"old_name": before["name"], "name": after["name"], "number": found["number"]}


def _draw_create(
    found: Found, before: Found, after: Found, summary: str, level_at: LevelAt | None
) -> Found:
    return {**found, "closed_level": found.get("closed_level")}


def _draw_redo(
    found: Found, before: Found, after: Found, summary: str, level_at: LevelAt | None
) -> Found:
    return {"level": found["level"], "reason": found["reason"] or ""}


def _call(
    found: Found, before: Found, after: Found, summary: str, level_at: LevelAt | None
) -> Found:
    kind = after["kind"]
    note = after.get("note") or ""
    return {"level": found["level"], "table": found["table"], "kind": kind, "note": note}


def _call_cleared(
    found: Found, before: Found, after: Found, summary: str, level_at: LevelAt | None
) -> Found:
    return {"level": found["level"], "table": found["table"], "kind": before["kind"]}


def _tie(
    found: Found, before: Found, after: Found, summary: str, level_at: LevelAt | None
) -> Found:
    winner, reason = after["winner"], after["reason"]
    if not isinstance(winner, str) or not isinstance(reason, str):
        raise TypeError
    return {"level": found["level"], "table": found["table"], "winner": winner, "reason": reason}


def _penalty_give(
    found: Found, before: Found, after: Found, summary: str, level_at: LevelAt | None
) -> Found:
    player, table = after["player"], after["table"]
    if not summary.startswith(f"{player}: "):
        raise ValueError
    params = {
        "player": player,
        "kind": after["kind"],
        "warning": found["warning"],
        "points": found["points"],
        "level": None,
        "table": table,
        "after_hand": None,
        "disqualified": found["disqualified"] is not None,
    }
    if table is not None:
        # "deducted at table 2 after hand 5", older "table 2 after hand 5", or the Swedish
        # words of the first: the table's number, then the hand's.
        numbers = [int(n) for n in re.findall(r"\d+", found["where"])]
        if len(numbers) != 2 or numbers[0] != table:
            raise ValueError
        params["after_hand"] = numbers[1]
        params["level"] = level_at() if level_at else None
    return params


def _penalty_rescind(
    found: Found, before: Found, after: Found, summary: str, level_at: LevelAt | None
) -> Found:
    player, kind, table = after["player"], after["kind"], after["table"]
    prefix = f"Rescinded {player}'s "
    if not summary.startswith(prefix):
        raise ValueError
    # The kind's label (in the language of the day) holds no ": "; the reason follows it.
    label_and_reason = summary[len(prefix) :]
    if ": " not in label_and_reason or not isinstance(kind, str):
        raise ValueError
    return {
        "player": player,
        "kind": kind,
        "reason": label_and_reason.split(": ", 1)[1],
        "level": level_at() if level_at and table is not None else None,
        "table": table,
    }


READERS: dict[str, Callable[[Found, Found, Found, str, LevelAt | None], Found]] = {
    "tournament.finish": _finish,
    "player.rename": _rename,
    "draw.create": _draw_create,
    "draw.redo": _draw_redo,
    "table.call": _call,
    "table.call_cleared": _call_cleared,
    "tie.settle": _tie,
    "penalty.give": _penalty_give,
    "penalty.rescind": _penalty_rescind,
}
