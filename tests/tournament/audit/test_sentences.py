"""The log's words for an entry's before and after (tournament/audit/sentences.py)."""

from django.utils import translation

from tournament.audit.sentences import details


def test_a_key_named_as_a_tournaments_related_rows_shows_as_words_made_of_it():
    # "penalties" and "audit_entries" are no setting of a tournament but the names of its
    # related rows: once an AttributeError (a 500 on the TD's log page), now words, as any
    # key this version does not know (a newer backup's).
    with translation.override("en"):
        assert details("tournament.import", {"penalties": 3, "audit_entries": [1, 2]}) == [
            ("Penalties", "3"),
            ("Audit entries", "1, 2"),
        ]
        # A setting still reads as its field's name on the settings page.
        assert details("tournament.settings", {"min_hands": 12}) == [
            ("Minimum hands per table", "12")
        ]
