"""Migration 0008: audit entries stored as English sentences are read back into params.

Rows are made as the code before 0008 stored them (at migration 0007, with the
historical models), then the migrations run forward; what each row's params must be is
worked out by hand from its sentence, and the page then writes it in Swedish.
"""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from tests.tournament.views.test_td_audit import summaries
from tournament.audit.reading import audit_entries
from tournament.models import AuditEntry, Tournament
from tournament.services import registration

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tournament", "0007_tournament_table_confirms_points")]
START = datetime(2025, 5, 10, 9, 0, tzinfo=UTC)


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def leaves():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.fixture
def old_schema():
    """The database at 0007 for the test's body; back at the newest migrations after it."""
    apps = migrate(BEFORE)
    try:
        yield apps
    finally:
        migrate(leaves())


# (minutes after START, action, the summary as stored, before, after) -> params by hand.
OLD_ROWS = [
    (0, "tournament.create", "Created tournament SM 2025", None, None, {"name": "SM 2025"}),
    (
        1,
        "player.register",
        "Registered Åsa Öberg (#1)",
        None,
        {"number": 1, "name": "Åsa Öberg"},
        {"name": "Åsa Öberg", "number": 1},
    ),
    (
        2,
        "player.rename",
        "Renamed Bo to Bo Ek (#2)",
        {"name": "Bo"},
        {"name": "Bo Ek"},
        {"old_name": "Bo", "name": "Bo Ek", "number": 2},
    ),
    (
        10,
        "draw.create",
        "Drew level 1: 6 players",
        None,
        {"seed": "x"},
        {"level": 1, "players": 6, "closed_level": None},
    ),
    # The form of before a redraw needed a reason.
    (11, "draw.redo", "Redrew level 1", None, None, {"level": 1, "reason": ""}),
    (
        20,
        "hand.record",
        "Level 1 table 2: hand 3 (cards)",
        None,
        {"hand": 3, "mode": "cards", "results": {}},
        {"level": 1, "table": 2, "hand": 3, "mode": "cards"},
    ),
    # Written while the TD's page was in Swedish: the kind and the place in Swedish.
    (
        21,
        "penalty.give",
        "Åsa Öberg: Långsamt spel (varning) — warning 2, 25 points (dras vid bord 2 efter hand 3)",
        None,
        {
            "player": "Åsa Öberg",
            "kind": "slow",
            "warning_number": 2,
            "points": 25,
            "table": 2,
            "rescinded": False,
            "disqualified": False,
        },
        {
            "player": "Åsa Öberg",
            "kind": "slow",
            "warning": 2,
            "points": 25,
            "level": 1,
            "table": 2,
            "after_hand": 3,
            "disqualified": False,
        },
    ),
    # The oldest form of the place.
    (
        22,
        "penalty.give",
        "Cia: Timeout (10 points and a warning) — warning 3, 10 points (table 1 after hand 4)"
        " — disqualified",
        None,
        {
            "player": "Cia",
            "kind": "timeout",
            "warning_number": 3,
            "points": 10,
            "table": 1,
            "rescinded": False,
            "disqualified": True,
        },
        {
            "player": "Cia",
            "kind": "timeout",
            "warning": 3,
            "points": 10,
            "level": 1,
            "table": 1,
            "after_hand": 4,
            "disqualified": True,
        },
    ),
    (
        23,
        "table.call",
        "Level 1 table 2 calls the TD: Dispute (card on the floor)",
        None,
        {"kind": "dispute", "note": "card on the floor"},
        {"level": 1, "table": 2, "kind": "dispute", "note": "card on the floor"},
    ),
    (
        24,
        "tie.settle",
        "Level 1 table 1: tie settled for Dan: High card: K against 9",
        {"tied": ["Dan", "Eva"]},
        {"winner": "Dan", "reason": "High card: K against 9"},
        {"level": 1, "table": 1, "winner": "Dan", "reason": "High card: K against 9"},
    ),
    (
        30,
        "draw.create",
        "Closed level 1; drew level 2: 2 players",
        None,
        {"seed": "y"},
        {"level": 2, "players": 2, "closed_level": 1},
    ),
    (40, "tournament.finish", "Champion: Dan", None, {"champion": "Dan"}, {"champion": "Dan"}),
    # Not a form the services ever wrote, and an action this version does not know.
    (41, "hand.record", "Hand seven was typed in by hand", None, None, None),
    (42, "legacy.note", "An old note", None, None, None),
]


def make_old_rows(apps):
    Tournament = apps.get_model("tournament", "Tournament")
    Level = apps.get_model("tournament", "Level")
    Entry = apps.get_model("tournament", "AuditEntry")
    tournament = Tournament.objects.create(name="SM 2025")
    for number, opened, closed in ((1, 5, 30), (2, 30, 40)):
        level = Level.objects.create(tournament=tournament, number=number)
        Level.objects.filter(pk=level.pk).update(
            created_at=START + timedelta(minutes=opened),
            closed_at=START + timedelta(minutes=closed),
        )
    for minutes, action, summary, before, after, _params in OLD_ROWS:
        entry = Entry.objects.create(
            tournament=tournament,
            actor_label="director",
            action=action,
            summary=summary,
            before=before,
            after=after,
        )
        Entry.objects.filter(pk=entry.pk).update(at=START + timedelta(minutes=minutes))
    return tournament.pk


def test_old_sentences_are_read_back_into_params_and_kept(old_schema):
    tournament_id = make_old_rows(old_schema)
    migrate(leaves())
    rows = list(AuditEntry.objects.filter(tournament_id=tournament_id).order_by("at", "id"))
    assert [(e.action, e.params) for e in rows] == [(row[1], row[5]) for row in OLD_ROWS]
    # The stored sentences stay as they were written.
    assert [e.summary for e in rows] == [row[2] for row in OLD_ROWS]


def test_old_entries_are_shown_in_the_readers_language(old_schema, client, td_user):
    tournament_id = make_old_rows(old_schema)
    migrate(leaves())
    client.force_login(td_user)
    client.cookies["django_language"] = "sv"
    html = client.get(reverse("td:audit", args=[tournament_id])).content.decode()
    assert summaries(html) == [
        "An old note",
        "Hand seven was typed in by hand",
        "Mästare: Dan",
        "Stängde nivå 1; lottade nivå 2: 2 spelare",
        "Nivå 1 bord 1: delad förstaplats avgjord till Dan: High card: K against 9",
        "Nivå 1 bord 2 tillkallar TL: Tvist (card on the floor)",
        "Cia: Timeout (10 poäng och en varning) — varning 3, 10 poäng "
        "(dras vid bord 1 efter hand 4) — utesluten",
        "Åsa Öberg: Långsamt spel (varning) — varning 2, 25 poäng (dras vid bord 2 efter hand 3)",
        "Nivå 1 bord 2: hand 3 (kort)",
        "Lottade om nivå 1",
        "Lottade nivå 1: 6 spelare",
        "Bytte namn på Bo till Bo Ek (nr 2)",
        "Registrerade Åsa Öberg (nr 1)",
        "Skapade turneringen SM 2025",
    ]
    # The action's name, not its code; an unknown code as it is.
    assert '<span class="audit-action">Straff givet</span>' in html
    assert '<span class="audit-action">legacy.note</span>' in html
    assert "penalty.give" not in html


def test_the_table_filter_finds_old_penalties_by_the_level_open_then(old_schema):
    tournament_id = make_old_rows(old_schema)
    migrate(leaves())
    tournament = Tournament.objects.get(pk=tournament_id)
    at_table_2 = audit_entries(tournament, table=(1, 2))
    assert [e.action for e in at_table_2] == ["table.call", "penalty.give", "hand.record"]
    assert list(audit_entries(tournament, table=(2, 2))) == []


def test_going_back_gives_new_entries_their_english_sentence(td_user):
    tournament = registration.create_tournament(actor=td_user, name="SM 2026")
    registration.register_player(tournament=tournament, actor=td_user, name="Åsa")
    assert set(AuditEntry.objects.values_list("summary", flat=True)) == {""}
    try:
        apps = migrate(BEFORE)
        Entry = apps.get_model("tournament", "AuditEntry")
        assert list(Entry.objects.order_by("id").values_list("summary", flat=True)) == [
            "Created tournament SM 2026",
            "Registered Åsa (#1)",
        ]
    finally:
        migrate(leaves())
