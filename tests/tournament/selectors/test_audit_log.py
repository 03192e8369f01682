"""The audit log's page (selectors/audit_log.py): 50 entries a page, newest first, each
put into words; filtered as the log's reader filters."""

import pytest

from tournament.selectors.audit_log import audit_log_page
from tournament.services import registration

pytestmark = pytest.mark.django_db


def words(page):
    return [(entry.sentence, entry.label, entry.who) for entry in page]


def test_a_page_of_the_log_in_words_newest_first(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo"], name="Vår Cup")
    page = audit_log_page(tournament)
    assert words(page) == [
        ("Registered Bo (#2)", "Player registered", "director"),
        ("Registered Anna (#1)", "Player registered", "director"),
        ("Created tournament Vår Cup", "Tournament created", "director"),
    ]
    assert (page.number, page.paginator.num_pages) == (1, 1)


def test_fifty_entries_a_page(make_tournament, td_user):
    tournament = make_tournament([], name="Vår Cup")
    for number in range(1, 52):
        registration.register_player(tournament=tournament, actor=td_user, name=f"P{number}")
    # 1 creation and 51 registrations: 52 entries, 50 on page 1 and 2 on page 2.
    first = audit_log_page(tournament, "1")
    assert len(first) == 50 and first[0].sentence == "Registered P51 (#51)"
    second = audit_log_page(tournament, "2")
    assert [entry.sentence for entry in second] == [
        "Registered P1 (#1)",
        "Created tournament Vår Cup",
    ]
    assert audit_log_page(tournament, "9").number == 2  # past the end: the last page
    assert audit_log_page(tournament, "x").number == 1  # not a number: the first


def test_a_filtered_page(make_tournament):
    tournament = make_tournament(["Anna", "Bo"], name="Vår Cup")
    page = audit_log_page(tournament, kind="tournament")
    assert words(page) == [("Created tournament Vår Cup", "Tournament created", "director")]
