"""Player names (tournament/rules/names.py): shows as something; the same name; a lookalike."""

import pytest
from django.utils import translation

from tournament.errors import InvalidEntry
from tournament.rules.names import Known, Taken, check_shown, compare_list, lookalike_key, same_key

# ---------------------------------------------------------------- shown


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("\u200b", "200B"),  # zero-width space
        ("\u2060", "2060"),  # word joiner
        ("\ufeff", "FEFF"),  # byte order mark
        ("\u200b\u200c\u200d", "200B"),  # zero-width space, non-joiner, joiner
        ("\u3164", "3164"),  # Hangul filler (a letter that draws nothing)
        ("\u115f\u1160", "115F"),  # Hangul choseong and jungseong fillers
        ("\u2800", "2800"),  # blank Braille pattern
        ("\u2800 \u3164", "2800"),
        ("\u0301\u0308", "0301"),  # combining marks with no letter
        ("\U000e0041\U000e0042", "E0041"),  # tag characters
        ("\u00ad", "00AD"),  # soft hyphen
    ],
)
def test_a_name_made_only_of_invisible_characters_is_refused(text, code):
    with pytest.raises(InvalidEntry) as caught:
        check_shown(text, label="Name")
    assert caught.value.message == (
        f"Name is made only of invisible characters (such as U+{code}): it would show as nothing."
    )


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("\u202eAnna", "202E"),  # right-to-left override: "Anna" shows as "annA"
        ("Anna \u202dBerg", "202D"),  # left-to-right override
        ("\u202aBo", "202A"),  # left-to-right embedding
        ("\u202bBo", "202B"),  # right-to-left embedding
        ("Bo\u202c", "202C"),  # pop directional formatting
        ("\u2066Bo\u2069", "2066"),  # left-to-right isolate ... pop isolate
        ("\u2067Bo", "2067"),  # right-to-left isolate
        ("\u2068Bo", "2068"),  # first strong isolate
        ("\u2069", "2069"),  # pop directional isolate alone: refused for its direction first
    ],
)
def test_a_name_that_turns_the_direction_of_text_is_refused(text, code):
    with pytest.raises(InvalidEntry) as caught:
        check_shown(text, label="Name")
    assert caught.value.message == (
        f"Name contains a character that changes the direction of the text (U+{code}): "
        "the name could show as something it is not."
    )


@pytest.mark.parametrize(
    "text",
    [
        "Anna",
        "Åsa Öberg",
        "Zoë",
        "李小龍",
        "محمد\u200f",  # Arabic with a right-to-left mark: a mark, not an override
        "Anna\u200bBerg",  # something to see, with a zero-width space inside
        "♠",
        "A",
    ],
)
def test_names_that_show_are_kept_as_they_are(text):
    assert check_shown(text, label="Name") == text


def test_the_messages_speak_swedish():
    with translation.override("sv"), pytest.raises(InvalidEntry) as invisible:
        check_shown("\u200b", label="Namn")
    assert invisible.value.message == (
        "Namn består bara av osynliga tecken (som U+200B) och skulle inte synas."
    )
    with translation.override("sv"), pytest.raises(InvalidEntry) as turned:
        check_shown("\u202eAnna", label="Namn")
    assert turned.value.message == (
        "Namn innehåller ett tecken som ändrar textens riktning (U+202E): namnet kunde "
        "visas som något annat än det är."
    )


# ---------------------------------------------------------------- the same name, a lookalike


@pytest.mark.parametrize(
    ("name", "key"),
    [
        # Worked out by hand: lower case, accents gone, one space between words.
        ("Åsa Öberg", "asa oberg"),
        ("asa öberg", "asa oberg"),
        ("ÅSA   ÖBERG", "asa oberg"),
        ("Zoë Ångström", "zoe angstrom"),
        ("Søren Ærø", "soren aero"),  # letters Unicode does not decompose, spelled out
        ("Anna\u200bBerg", "annaberg"),  # a zero-width space is not a space
        ("Anna\u3164Berg", "anna berg"),  # a Hangul filler shows as a space
        ("Per-Olof Svensson", "per-olof svensson"),  # punctuation stays: not the same name
    ],
)
def test_the_same_name_sets_case_accents_and_blanks_aside(name, key):
    assert same_key(name) == key


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Per-Olof Svensson", "perolofsvensson"),
        ("Per Olof  Svensson", "perolofsvensson"),
        ("PerOlof Svensson", "perolofsvensson"),
        ("O'Brien", "obrien"),
        ("Anna Berg 2", "annaberg2"),
        ("♠ ♠", "♠ ♠"),  # no letter or digit: only like the same name
    ],
)
def test_a_lookalike_sets_spacing_and_punctuation_aside_too(name, key):
    assert lookalike_key(name) == key


def test_taken_tells_the_same_name_from_a_near_duplicate():
    taken = Taken.of_players(
        [
            (number, name, None)
            for number, name in enumerate(
                ["Åsa Öberg", "Per-Olof Svensson", "♠", "Per Olof", "per-olof"], 1
            )
        ]
    )
    assert taken.same("Åsa Öberg") == Known("Åsa Öberg", number=1)
    assert taken.alike("Åsa Öberg") is None  # the very same name is not "alike": it is taken
    # Case and accents aside: a near-duplicate, asked about like a spacing variant.
    assert taken.same("asa oberg") is None
    assert taken.alike("asa oberg") == Known("Åsa Öberg", number=1)
    assert taken.alike("ÅSA ÖBERG") == Known("Åsa Öberg", number=1)
    assert taken.same("Per Olof Svensson") is None
    assert taken.alike("Per Olof Svensson") == Known("Per-Olof Svensson", number=2)
    assert taken.alike("PEROLOF svensson") == Known("Per-Olof Svensson", number=2)
    # The name that differs only in case or accents is named before a spacing variant.
    assert taken.alike("PER-OLOF") == Known("per-olof", number=5)
    assert taken.same("Åsa Berg") is None and taken.alike("Åsa Berg") is None
    assert taken.alike("♥") is None


def test_a_list_is_compared_with_the_players_and_its_earlier_lines():
    taken = Taken.of_players([(1, "Anna Berg", None)])
    lines = compare_list(
        [
            ("Anna Berg", 1),
            ("anna berg", 2),
            ("Bo Ek", 3),
            ("Bo-Ek", 4),
            ("BO EK", 5),
            ("AnnaBerg", 6),
            ("Bo Ek", 7),
        ],
        taken,
    )
    assert [(line.name, line.same, line.alike) for line in lines] == [
        ("Anna Berg", Known("Anna Berg", number=1), None),  # registered: skipped
        ("anna berg", None, Known("Anna Berg", number=1)),  # case aside: asked about
        ("Bo Ek", None, None),
        ("Bo-Ek", None, Known("Bo Ek", line=3)),
        ("BO EK", None, Known("Bo Ek", line=3)),
        ("AnnaBerg", None, Known("Anna Berg", number=1)),
        ("Bo Ek", Known("Bo Ek", line=3), None),  # higher up in the list: skipped
    ]
