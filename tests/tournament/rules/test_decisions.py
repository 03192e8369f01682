"""What the rules decisions tell the TD about issue 17's changes, in both languages."""

import pytest
from django.utils import translation

from tournament.rules.decisions import DECISIONS


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


@pytest.mark.parametrize(
    ("language", "title", "said"),
    [
        (
            "en",
            "The TD's notes",
            "Reasons and notes stay on the TD's pages: the reason for a correction, for "
            "settling a tie, for rescinding a penalty and for redoing a draw, a penalty's note "
            "and a call's note. The players' pages and the projectors show only that a hand "
            "was corrected, and its versions, never why.",
        ),
        (
            "sv",
            "TL:s anteckningar",
            "Skäl och anteckningar stannar på TL:s sidor: skälet till en rättelse, till att "
            "avgöra en delad förstaplats, till att återkalla ett straff och till att göra om en "
            "lottning, ett straffs anteckning och en tillkallnings anteckning. Spelarnas sidor "
            "och projektorerna visar bara att en hand har rättats, och dess versioner, aldrig "
            "varför.",
        ),
    ],
)
def test_the_td_is_told_that_reasons_and_notes_stay_on_the_tds_pages(language, title, said):
    with translation.override(language):
        assert decision(title) == said
