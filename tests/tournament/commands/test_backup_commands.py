"""`manage.py export_tournament` and `import_tournament` with files."""

import io
import json
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.tournament.conftest import play, single_table
from tournament.models import Tournament


@pytest.fixture
def played(make_tournament, td_user):
    tournament = make_tournament(players=3, min_hands=1, name="Cup")
    table = single_table(tournament, td_user)
    play(table, 6, -6, 0, actor=td_user)
    return tournament


@pytest.mark.django_db(transaction=True)
def test_export_to_a_file_then_import_it_into_an_empty_database(played, tmp_path):
    path = tmp_path / "cup.json"
    call_command("export_tournament", str(played.pk), "--output", str(path), stderr=io.StringIO())
    assert json.loads(path.read_text(encoding="utf-8"))["settings"]["name"] == "Cup"

    call_command("flush", "--noinput")
    out = io.StringIO()
    call_command("import_tournament", str(path), stdout=out)

    restored = Tournament.objects.get()
    assert out.getvalue().splitlines() == [
        f"Imported Cup (id {restored.pk}).",
        "director had no login in this database: added, locked (no password), to keep who "
        "made each change.",
    ]
    table = restored.levels.get().tables.get()
    assert sorted(seat.total for seat in table.seats.all()) == [-6, 0, 6]


@pytest.mark.django_db
def test_export_writes_json_to_stdout(played):
    out = io.StringIO()
    call_command("export_tournament", str(played.pk), stdout=out)
    data = json.loads(out.getvalue())
    assert data["format"] == "pofc-shootout-tournament"
    assert [p["name"] for p in data["players"]] == ["Anna", "Bo", "Cia"]


@pytest.mark.django_db
def test_export_of_an_unknown_tournament_is_refused():
    with pytest.raises(CommandError, match="No tournament with id 999"):
        call_command("export_tournament", "999")


@pytest.mark.django_db
def test_import_refusals_are_told_plainly(played, tmp_path):
    path = tmp_path / "cup.json"
    call_command("export_tournament", str(played.pk), "--output", str(path), stderr=io.StringIO())
    with pytest.raises(CommandError, match="A tournament named “Cup” already exists"):
        call_command("import_tournament", str(path))
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError, match=re.escape("not valid JSON (line 1, column 2).")):
        call_command("import_tournament", str(path))
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_tournament", str(tmp_path / "missing.json"))
