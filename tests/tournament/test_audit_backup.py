"""The audit log in the backup: params as data, an English sentence for people reading the
file, and backups written before the log kept params still import (read back)."""

import json

import pytest
from django.urls import reverse
from django.utils import translation

from tests.tournament.commands.test_backup import empty_database
from tests.tournament.conftest import play, single_table
from tests.tournament.views.test_td_audit import summaries
from tournament.backups import export_tournament, import_tournament
from tournament.models import AuditEntry, Tournament
from tournament.services import draws

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def one_table(make_tournament, td_user):
    tournament = make_tournament(["Åsa", "Bo", "Cia"], min_hands=5)
    table = single_table(tournament, td_user)
    play(table, 3, -1, -2)
    return tournament


def as_in_a_file(data):
    return json.loads(json.dumps(data))


def test_the_file_holds_params_and_the_english_sentence(one_table):
    with translation.override("sv"):  # the TD's page is in Swedish: the file is not
        audit = as_in_a_file(export_tournament(one_table))["audit"]
    assert [(e["action"], e["summary"], e["params"]) for e in audit] == [
        ("tournament.create", "Created tournament SM 2026", {"name": "SM 2026"}),
        ("player.register", "Registered Åsa (#1)", {"name": "Åsa", "number": 1}),
        ("player.register", "Registered Bo (#2)", {"name": "Bo", "number": 2}),
        ("player.register", "Registered Cia (#3)", {"name": "Cia", "number": 3}),
        (
            "draw.create",
            "Drew level 1: 3 players",
            {"level": 1, "players": 3, "closed_level": None},
        ),
        (
            "hand.record",
            "Level 1 table 1: hand 1 (points)",
            {"level": 1, "table": 1, "hand": 1, "mode": "points"},
        ),
    ]


def test_params_come_back_from_the_file(one_table, django_user_model):
    exported = as_in_a_file(export_tournament(one_table))
    empty_database(django_user_model)
    restored = import_tournament(exported)
    entries = AuditEntry.objects.filter(tournament=restored).order_by("at", "id")
    kept = [(e.action, e.params, e.summary) for e in entries][:-1]  # then the import's own
    assert kept == [(e["action"], e["params"], "") for e in exported["audit"]]


def test_a_backup_from_before_params_is_read_back_and_shown_in_swedish(
    one_table, django_user_model, client
):
    old = as_in_a_file(export_tournament(one_table))
    for entry in old["audit"]:
        del entry["params"]  # as the format was before the log kept params
    old["audit"].append(dict(old["audit"][-1], summary="Hand two, scribbled in by hand"))
    empty_database(django_user_model)
    restored = import_tournament(old)
    entries = list(AuditEntry.objects.filter(tournament=restored).order_by("at", "id"))
    assert entries[5].params == {"level": 1, "table": 1, "hand": 1, "mode": "points"}
    assert entries[5].summary == ""
    # What cannot be read back keeps its text.
    assert (entries[6].params, entries[6].summary) == (None, "Hand two, scribbled in by hand")
    client.force_login(django_user_model.objects.get(username="director"))
    client.cookies["django_language"] = "sv"
    html = client.get(reverse("td:audit", args=[restored.pk])).content.decode()
    assert summaries(html)[1:] == [
        "Hand two, scribbled in by hand",
        "Nivå 1 bord 1: hand 1 (poäng)",
        "Lottade nivå 1: 3 spelare",
        "Registrerade Cia (nr 3)",
        "Registrerade Bo (nr 2)",
        "Registrerade Åsa (nr 1)",
        "Skapade turneringen SM 2026",
    ]
    assert summaries(html)[0].startswith("Importerade SM 2026 från en säkerhetskopia exporterad ")


def test_params_that_do_not_fit_their_action_are_read_back_from_the_sentence(
    one_table, django_user_model
):
    data = as_in_a_file(export_tournament(one_table))
    data["audit"][5]["params"] = {"hand": "one"}  # no level, no table
    empty_database(django_user_model)
    restored = import_tournament(data)
    entry = AuditEntry.objects.filter(tournament=restored, action="hand.record").get()
    assert entry.params == {"level": 1, "table": 1, "hand": 1, "mode": "points"}


def test_params_must_be_an_object(one_table):
    from tournament.errors import InvalidEntry

    data = as_in_a_file(export_tournament(one_table))
    data["settings"]["name"] = "Other"
    data["audit"][0]["params"] = ["SM 2026"]
    with pytest.raises(InvalidEntry, match=r"audit\[0\]\.params must be an object"):
        import_tournament(data)


def test_a_long_reason_stays_whole_in_params_and_the_sentence_is_cut_to_fit(
    make_tournament, td_user, django_user_model
):
    tournament = make_tournament(3)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="a")
    reason = "The list had a name twice. " * 11  # 297 characters
    draws.redraw_level(level=level, actor=td_user, reason=reason.strip(), seed="b")
    exported = as_in_a_file(export_tournament(tournament))
    redo = next(e for e in exported["audit"] if e["action"] == "draw.redo")
    assert redo["params"]["reason"] == reason.strip()
    assert len(redo["summary"]) == 300 and redo["summary"].startswith("Redrew level 1: The list")
    empty_database(django_user_model)
    restored = import_tournament(exported)
    kept = AuditEntry.objects.get(tournament=restored, action="draw.redo")
    assert kept.params["reason"] == reason.strip()
    assert Tournament.objects.count() == 1
