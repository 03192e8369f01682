"""Random damage to a real backup: refused with an InvalidEntry, or harmless; never a crash.

Each round changes one field of the simulated backup (a value of another kind,
out of range, a character that cannot be kept, a missing field, a number moved
by one, a flag flipped) and imports it from bytes. A refusal must be an
InvalidEntry that leaves the database as it was; an accepted file must still
export as a file that imports (nothing half-checked got in).
"""

import copy
import json
import random
import uuid

import pytest

from tests.tournament.commands.test_import_damaged import (  # noqa: F401 (fixtures)
    as_bytes,
    simulated,
)
from tests.tournament.conftest import row_counts
from tournament import backups
from tournament.errors import InvalidEntry

ROUNDS = 25
VALUES = (
    None,
    True,
    False,
    0,
    -1,
    3,
    2**31,
    -(2**31) - 1,
    2**63,
    1.5,
    "",
    " ",
    "x",
    "\x00",
    "\ud800",
    "a" * 600,
    [],
    {},
    [1],
    "2026-01-01T00:00:00+00:00",
    "2026-01-01",
    "cards",
    10_000,
    32_768,
)


def places(data, path=()):
    """Every (path) to a value in the data, standings left out (not imported)."""
    if isinstance(data, dict):
        items = data.items()
    elif isinstance(data, list):
        items = enumerate(data)
    else:
        return
    for key, value in items:
        if path or key != "standings":
            yield (*path, key)
            yield from places(value, (*path, key))


def fresh(data, name):
    """A copy that may be imported beside others: its own name and submission keys."""
    data = copy.deepcopy(data)
    data["settings"]["name"] = name
    for level in data["levels"]:
        for draw in level["draws"]:
            for table in draw["tables"]:
                for hand in table["hands"]:
                    for version in hand["versions"]:
                        version["idempotency_key"] = str(uuid.uuid4())
    return data


def damage(data, path, rng):
    target = data
    for key in path[:-1]:
        target = target[key]
    key = path[-1]
    old = target[key]
    roll = rng.random()
    if roll < 0.2 and isinstance(target, dict):
        del target[key]
    elif roll < 0.5 and type(old) is int:
        target[key] = old + rng.choice((-1, 1, 7))
    elif roll < 0.5 and type(old) is bool:
        target[key] = not old
    else:
        target[key] = rng.choice(VALUES)


@pytest.mark.django_db
def test_random_damage_is_refused_cleanly_or_harmless(simulated):  # noqa: F811
    exported = simulated[0]
    paths = list(places(exported))
    rng = random.Random("damage")
    for round_number in range(ROUNDS):
        data = fresh(exported, f"Damaged {round_number}")
        path = rng.choice(paths)
        damage(data, path, rng)
        before = row_counts()
        try:
            restored = backups.import_backup(as_bytes(data))
        except InvalidEntry:
            assert row_counts() == before, path
            continue
        again = fresh(
            json.loads(json.dumps(backups.export_tournament(restored))), f"Again {round_number}"
        )
        backups.import_backup(as_bytes(again))
