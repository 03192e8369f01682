"""Every form of sentence the services stored before the log kept params, read back by hand.

(The migration's test covers the forms of registering, renaming, draws, hands, penalties,
calls and ties; these are the rest.)
"""

import pytest

from tournament.audit.legacy import read_back


@pytest.mark.parametrize(
    ("action", "summary", "before", "after", "params"),
    [
        ("tournament.settings", "Changed settings", {"min_hands": 20}, {"min_hands": 8}, {}),
        ("tournament.finish", "Finished without a champion", None, None, {"champion": None}),
        (
            "tournament.import",
            "Imported SM 2024 from a backup exported 2024-11-02T21:14:05.120000+00:00",
            None,
            {"levels": 3, "players": 20},
            {"name": "SM 2024", "exported": "2024-11-02T21:14:05.120000+00:00"},
        ),
        # The first import's form, when a file could lack its time.
        (
            "tournament.import",
            "Imported SM 2024 from a backup exported (unknown)",
            None,
            None,
            {"name": "SM 2024", "exported": "(unknown)"},
        ),
        (
            "player.withdraw",
            "Karl-Erik Lindqvist withdrew",
            None,
            None,
            {"name": "Karl-Erik Lindqvist"},
        ),
        (
            "table.revisor_access",
            "Level 2 table 11: new revisor link and code (the old code K7PX3M no longer works)",
            {"code": "K7PX3M"},
            {"code": "Q9RT2W"},
            {"level": 2, "table": 11, "old_code": "K7PX3M"},
        ),
        (
            "table.call",
            "Level 1 table 3 calls the TD: Misdeal",
            None,
            {"kind": "misdeal", "note": ""},
            {"level": 1, "table": 3, "kind": "misdeal", "note": ""},
        ),
        # Written while the page was in Swedish: the call's kind in Swedish.
        (
            "table.call_cleared",
            "Level 1 table 3: call cleared (Tvist)",
            {"kind": "dispute", "note": ""},
            None,
            {"level": 1, "table": 3, "kind": "dispute"},
        ),
        (
            "hand.correct",
            "Level 3 table 1: corrected hand 12 (version 2): Bo's points were typed as Cia's",
            None,
            {"version": 2, "mode": "points", "results": {}},
            {
                "level": 3,
                "table": 1,
                "hand": 12,
                "version": 2,
                "reason": "Bo's points were typed as Cia's",
            },
        ),
        (
            "penalty.rescind",
            "Rescinded Åsa Öberg's Osportsligt beteende (varning): wrong player: it was Bo",
            {"player": "Åsa Öberg", "kind": "conduct", "table": None},
            {"player": "Åsa Öberg", "kind": "conduct", "table": None, "rescinded": True},
            {
                "player": "Åsa Öberg",
                "kind": "conduct",
                "reason": "wrong player: it was Bo",
                "level": None,
                "table": None,
            },
        ),
        (
            "penalty.give",
            "Bo: Other (warning) — warning 1, 0 points (no table)",
            None,
            {"player": "Bo", "kind": "other", "warning_number": 1, "points": 0, "table": None},
            {
                "player": "Bo",
                "kind": "other",
                "warning": 1,
                "points": 0,
                "level": None,
                "table": None,
                "after_hand": None,
                "disqualified": False,
            },
        ),
    ],
)
def test_an_old_sentence_is_read_back(action, summary, before, after, params):
    found = read_back(action=action, summary=summary, before=before, after=after)
    assert found == params


@pytest.mark.parametrize(
    ("action", "summary", "after"),
    [
        # The table's number in the sentence is not the penalty's.
        (
            "penalty.give",
            "Bo: Other (warning) — warning 1, 0 points (table 2 after hand 4)",
            {"player": "Bo", "kind": "other", "table": 3},
        ),
        # The name in the sentence is not the penalised player's.
        (
            "penalty.give",
            "Bo: Other (warning) — warning 1, 0 points (no table)",
            {"player": "Cia", "kind": "other", "table": None},
        ),
        # A call whose after lost its kind.
        ("table.call", "Level 1 table 3 calls the TD: Misdeal", {}),
        ("hand.record", "Level 1 table 3: hand 4 (by carrier pigeon)", {}),
        ("hand.record", "", {}),
        ("nothing.known", "Level 1 table 3: hand 4 (points)", {}),
    ],
)
def test_what_cannot_be_read_back_gives_none(action, summary, after):
    assert read_back(action=action, summary=summary, after=after) is None
