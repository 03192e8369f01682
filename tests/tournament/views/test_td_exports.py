"""Exports: the JSON backup download, import by upload, CSV of standings and of every hand."""

import csv
import io
import json
import re
import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournament.commands.test_backup import comparable, empty_database, fresh_keys
from tests.tournament.conftest import play_named, positions, single_table
from tournament.backups import MAX_BYTES, export_tournament
from tournament.demo.autoplay import simulate
from tournament.models import AuditEntry, Hand, HandVersion, Tournament
from tournament.services import draws, hands

pytestmark = pytest.mark.django_db

BOM = "\ufeff"
# Hand 2, entered as cards: Ärla scoops Åsa (+6) and beats the fouled Örjan (+6); Åsa beats
# only Örjan (+6 -6); Örjan's kings in front over a high-card middle foul (-6 -6).
# No royalties: no pair of sixes or better in front, nothing in the middle or back that pays.
CARDS = {
    "Ärla": {"front": "Qs Jh 9c", "middle": "7c 7d 2s 3s 4h", "back": "Ac Ad 8c 8d 2h"},
    "Åsa": {"front": "Jd Th 8h", "middle": "6c 6d 2d 3d 4c", "back": "Kc Kd 5h 5s 9d"},
    "Örjan": {"front": "Ks Kh 2c", "middle": "3c 4d 6h 8s Tc", "back": "5c 5d 9h Jc Qd"},
}


@pytest.fixture
def played(make_tournament, td_user):
    """Åsa (no. 1), Örjan (no. 2), Ärla (no. 3) at one table of 2 hands, seats Ärla, Åsa,
    Örjan (Ärla deals first). Hand 1 in points, corrected; hand 2 in cards, from the
    revisor's tablet. Then the level closes: Ärla (4 + 12 = 16) is the champion,
    Åsa (-1 + 0 = -1) second, Örjan (-3 - 12 = -15) third."""
    tournament = make_tournament(players=["Åsa", "Örjan", "Ärla"], min_hands=2, name="Åre Öppna")
    table = single_table(tournament, td_user)
    assert positions(table) == {"Ärla": 0, "Åsa": 1, "Örjan": 2}
    assert table.first_dealer_position == 0
    play_named(table, {"Ärla": 5, "Åsa": -2, "Örjan": -3}, actor=td_user)
    hands.correct_hand(
        hand=Hand.objects.get(table=table, number=1),
        actor=td_user,
        reason="Typo on the tablet",
        based_on_version=1,
        points={0: 4, 1: -1, 2: -3},
    )
    hands.record_hand(
        table=table,
        hand_number=2,
        idempotency_key=uuid.uuid4(),
        boards={positions(table)[name]: rows for name, rows in CARDS.items()},
        actor_label="Revisor table 1",
    )
    table.refresh_from_db()
    assert table.is_over
    draws.advance(tournament=tournament, actor=td_user)
    tournament.refresh_from_db()
    assert tournament.champion.name == "Ärla"
    return tournament


def url(name, tournament):
    return reverse(f"td:{name}", args=[tournament.pk])


def rows_of(response, delimiter=","):
    """The CSV's cells: comma-separated in English, semicolon-separated in Swedish."""
    text = response.content.decode("utf-8")
    assert text.startswith(BOM)
    return list(csv.reader(io.StringIO(text[1:], newline=""), delimiter=delimiter))


# ---------------------------------------------------------------- CSV


def test_standings_csv(td_client, played):
    response = td_client.get(url("standings_csv", played))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="are-oppna-standings.csv"'
    assert response.content.startswith(b"\xef\xbb\xbf")  # the BOM, in UTF-8
    assert response.content.decode("utf-8") == (
        BOM + "Rank,Start number,Name,Status,Level,Place,Points\r\n"
        "1,3,Ärla,Champion,1,1,16\r\n"
        "2,1,Åsa,Out,1,2,-1\r\n"
        "3,2,Örjan,Out,1,3,-15\r\n"
    )


def test_hands_csv(td_client, played):
    response = td_client.get(url("hands_csv", played))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="are-oppna-hands.csv"'
    rows = rows_of(response)
    assert rows[0] == [
        "Level",
        "Table",
        "Hand",
        "Version",
        "Entry",
        "Dealer",
        "Player",
        "Seat",
        "Points",
        "In Fantasyland",
        "To Fantasyland next",
        "Fouled",
        "Royalties",
        "Front",
        "Middle",
        "Back",
        "Entered by",
        "At",
        "Correction reason",
    ]
    at = {
        v.hand.number: timezone.localtime(v.created_at).strftime("%Y-%m-%d %H:%M:%S")
        for v in HandVersion.objects.current().select_related("hand")
    }
    typo = "Typo on the tablet"
    # Only the current version of hand 1 (the correction), dealt by Ärla; hand 2 by Åsa.
    assert rows[1:] == [
        ["1", "1", "1", "2", "Points", "Ärla", "Ärla", "1", "4", "no", "no", "", "", "", "", "",
         "director", at[1], typo],
        ["1", "1", "1", "2", "Points", "Ärla", "Åsa", "2", "-1", "no", "no", "", "", "", "", "",
         "director", at[1], typo],
        ["1", "1", "1", "2", "Points", "Ärla", "Örjan", "3", "-3", "no", "no", "", "", "", "", "",
         "director", at[1], typo],
        ["1", "1", "2", "1", "Cards", "Åsa", "Ärla", "1", "12", "no", "no", "no", "0",
         "Qs Jh 9c", "7c 7d 2s 3s 4h", "Ac Ad 8c 8d 2h", "Revisor table 1", at[2], ""],
        ["1", "1", "2", "1", "Cards", "Åsa", "Åsa", "2", "0", "no", "no", "no", "0",
         "Jd Th 8h", "6c 6d 2d 3d 4c", "Kc Kd 5h 5s 9d", "Revisor table 1", at[2], ""],
        ["1", "1", "2", "1", "Cards", "Åsa", "Örjan", "3", "-12", "no", "no", "yes", "0",
         "Ks Kh 2c", "3c 4d 6h 8s Tc", "5c 5d 9h Jc Qd", "Revisor table 1", at[2], ""],
    ]  # fmt: skip


def test_csv_in_swedish_for_a_swedish_td(td_client, played):
    td_client.cookies["django_language"] = "sv"
    standings = rows_of(td_client.get(url("standings_csv", played)), ";")
    assert standings[0] == [
        "Placering",
        "Startnummer",
        "Namn",
        "Status",
        "Nivå",
        "Placering vid bordet",
        "Poäng",
    ]
    assert standings[1] == ["1", "3", "Ärla", "Mästare", "1", "1", "16"]
    assert standings[2][3] == "Ute"
    hand_rows = rows_of(td_client.get(url("hands_csv", played)), ";")
    assert hand_rows[1][4] == "Poäng" and hand_rows[1][9] == "nej"
    assert hand_rows[6][4] == "Kort" and hand_rows[6][11] == "ja"


def test_a_name_a_spreadsheet_would_run_as_a_formula_is_kept_as_text(td_client, make_tournament):
    tournament = make_tournament(players=["=SUM(A1)", "Bo"], name="+++")
    response = td_client.get(url("standings_csv", tournament))
    assert response["Content-Disposition"] == (
        f'attachment; filename="tournament-{tournament.pk}-standings.csv"'
    )
    rows = rows_of(response)
    assert [row[2] for row in rows[1:]] == ["'=SUM(A1)", "Bo"]
    assert rows[1][:2] == ["1", "1"]  # registered, not drawn: both ranked first


def test_the_hands_csv_in_a_fixed_number_of_queries(td_client, td_user, django_assert_num_queries):
    for players in (9, 30):
        tournament = simulate(
            players=players, seed=f"csv{players}", min_hands=3, stop_after_level=1, actor=td_user
        ).tournament
        # session, user, tournament, hand lines
        with django_assert_num_queries(4):
            response = td_client.get(url("hands_csv", tournament))
        lines = HandVersion.objects.current().filter(hand__table__level__tournament=tournament)
        expected = sum(version.results.count() for version in lines)
        assert len(rows_of(response)) == expected + 1 > 30


@pytest.mark.parametrize("name", ["standings_csv", "hands_csv", "backup"])
def test_downloads_refusals(name, outsider, td_client, played):
    client = Client()
    response = client.get(url(name, played))
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    client.force_login(outsider)
    assert client.get(url(name, played)).status_code == 403
    assert td_client.get(reverse(f"td:{name}", args=[99999])).status_code == 404
    assert td_client.post(url(name, played)).status_code == 405


# ---------------------------------------------------------------- backup and import


def upload(content, name="backup.json"):
    if not isinstance(content, bytes):
        content = json.dumps(content, ensure_ascii=False, indent=2).encode("utf-8")
    return SimpleUploadedFile(name, content, content_type="application/json")


def import_post(client, content, key=None):
    return client.post(
        reverse("td:import"),
        {"submission_key": key or uuid.uuid4(), "backup": upload(content)},
    )


def test_the_backup_download(td_client, played):
    response = td_client.get(url("backup", played))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="are-oppna-backup.json"'
    text = response.content.decode("utf-8")
    assert text.startswith('{\n  "format": "pofc-shootout-tournament",\n')  # indent 2
    assert '"name": "Åre Öppna"' in text  # UTF-8, not \u escapes
    assert comparable(json.loads(text)) == comparable(
        json.loads(json.dumps(export_tournament(played)))
    )


@pytest.mark.django_db(transaction=True)  # the database is flushed: no test transaction
def test_backup_download_then_import_into_an_empty_database(td_client, played, django_user_model):
    exported = json.loads(td_client.get(url("backup", played)).content)
    empty_database(django_user_model)
    client = Client()
    client.force_login(django_user_model.objects.get(username="director"))
    page = client.get(reverse("td:import"))
    assert page.status_code == 200
    assert re.search(r'<label for="id_backup">Backup file \(JSON\)</label>', page.content.decode())
    response = import_post(client, exported)
    restored = Tournament.objects.get()
    assert response.status_code == 302 and response.url == url("tournament", restored)
    assert comparable(export_tournament(restored)) == comparable(exported)
    entry = AuditEntry.objects.get(tournament=restored, action="tournament.import")
    assert entry.actor.username == "director"


def test_backup_imported_beside_the_original_under_a_fresh_name(td_client, played):
    exported = json.loads(td_client.get(url("backup", played)).content)
    copy = fresh_keys(exported, "Åre Öppna (kopia)")
    response = import_post(td_client, copy)
    restored = Tournament.objects.get(name="Åre Öppna (kopia)")
    assert response.status_code == 302 and response.url == url("tournament", restored)
    assert comparable(export_tournament(restored)) == comparable(copy)
    assert restored.champion.name == "Ärla"
    # The restored tournament's CSV is the original's.
    original = rows_of(td_client.get(url("standings_csv", played)))
    assert rows_of(td_client.get(url("standings_csv", restored))) == original


def test_a_second_submission_of_the_same_import_imports_once(td_client, played):
    copy = fresh_keys(json.loads(td_client.get(url("backup", played)).content), "Kopia")
    key = uuid.uuid4()
    first = import_post(td_client, copy, key)
    second = import_post(td_client, copy, key)
    restored = Tournament.objects.get(name="Kopia")
    assert first.url == second.url == url("tournament", restored)
    assert Tournament.objects.count() == 2
    assert AuditEntry.objects.filter(action="tournament.import").count() == 1


def test_a_damaged_file_shows_the_import_message_and_creates_nothing(td_client, played):
    exported = fresh_keys(export_tournament(played), "Kopia")
    exported = json.loads(json.dumps(exported))
    first_result = exported["levels"][0]["draws"][0]["tables"][0]["hands"][0]["versions"][0]
    first_result["results"][0]["points"] += 1  # the hand no longer sums to zero
    before = (Tournament.objects.count(), AuditEntry.objects.count())
    for content, message in (
        (b"{not json", "The backup file is not valid JSON (line 1, column 2)."),
        ({"format": "csv"}, "This is not a tournament backup"),
        (exported, "levels[0].draws[0].tables[0].hands[0].versions[0]"),
        (export_tournament(played), "A tournament named “Åre Öppna” already exists"),
    ):
        response = import_post(td_client, content)
        assert response.status_code == 400
        page = response.content.decode()
        summary = re.search(r'<div class="error-summary" role="alert".*?</div>', page, re.S)
        assert summary and message in summary.group(0), (message, page[-3000:])
        assert 'type="file"' in page
    assert (Tournament.objects.count(), AuditEntry.objects.count()) == before


def test_the_import_messages_are_in_the_tds_language(td_client, played):
    td_client.cookies["django_language"] = "sv"
    response = import_post(td_client, export_tournament(played))
    assert response.status_code == 400
    assert "Det finns redan en turnering som heter ”Åre Öppna”" in response.content.decode()
    response = td_client.post(reverse("td:import"), {"submission_key": uuid.uuid4()})
    assert response.status_code == 400
    assert "Välj säkerhetskopian som ska importeras." in response.content.decode()


def test_import_form_errors(td_client):
    response = td_client.post(reverse("td:import"), {"submission_key": uuid.uuid4()})
    assert response.status_code == 400
    assert "Choose the backup file to import." in response.content.decode()
    response = td_client.post(reverse("td:import"), {"backup": upload(b"{}")})
    assert response.status_code == 400
    page = response.content.decode()
    assert "The form was out of date" in page
    assert re.search(r'name="submission_key" value="[0-9a-f-]{36}"', page)
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("size", "said"),
    [
        (50 * 1024 * 1024, "The file is 50.0\xa0MB; a backup can be at most 20.0\xa0MB."),
        # 20 MB and a byte reads as 20.0 MB: never "20.0 MB; at most 20.0 MB".
        (MAX_BYTES + 1, "The file is more than 20.0\xa0MB; a backup can be at most 20.0\xa0MB."),
    ],
)
def test_a_backup_over_the_size_limit_is_told_its_own_size(td_client, size, said):
    response = import_post(td_client, b" " * size)
    assert response.status_code == 400
    assert said in response.content.decode()
    assert not Tournament.objects.exists()


def test_an_import_that_adds_locked_logins_says_so(td_client, played):
    """The file's TD (`kim`) has no login here: the page says he was added, locked."""
    data = fresh_keys(export_tournament(played), "Kopia")
    data = json.loads(json.dumps(data).replace('"director"', '"kim"'))
    response = import_post(td_client, data)
    assert response.status_code == 302
    page = td_client.get(response.url).content.decode()
    assert (
        "kim had no login in this database: added, locked (no password), to keep who made "
        "each change."
    ) in page


def test_import_refusals(outsider, td_client, played):
    data = fresh_keys(export_tournament(played), "Kopia")
    data = json.loads(json.dumps(data))
    client = Client()
    response = import_post(client, data)
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    assert client.get(reverse("td:import")).status_code == 302
    client.force_login(outsider)
    assert import_post(client, data).status_code == 403
    assert client.get(reverse("td:import")).status_code == 403
    assert not Tournament.objects.filter(name="Kopia").exists()
