"""What the rules decisions tell the TD about issue 17's changes, in both languages."""

import pytest
from django.utils import translation

from tournament.decisions import DECISIONS


def decision(title):
    return next(str(text) for name, text in DECISIONS if str(name) == title)


@pytest.mark.parametrize(
    ("language", "title", "said"),
    [
        (
            "en",
            "Player names",
            "Names that differ only in case, accents, spacing or punctuation (“asa öberg” and "
            "“Åsa Öberg”, “Per Olof” and “Per-Olof”) may be two players: the TD is asked, on "
            "add, paste and rename",
        ),
        (
            "sv",
            "Spelarnamn",
            "Namn som bara skiljer sig i stora och små bokstäver, accenter, mellanrum eller "
            "skiljetecken (”asa öberg” och ”Åsa Öberg”, ”Per Olof” och ”Per-Olof”) kan vara "
            "två spelare",
        ),
    ],
)
def test_the_player_names_decision_says_a_near_duplicate_is_asked_about(language, title, said):
    with translation.override(language):
        text = decision(title)
    assert said in text
    assert "are the same name" not in text and "är samma namn" not in text
