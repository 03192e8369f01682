"""Backups carry the register entries their players are, and a restore links them to the
register without duplicating (docs/register.md, docs/export-format.md "register")."""

import uuid

import pytest

from tests.tournament.commands.test_backup import fresh_keys as as_copy
from tournament import backups
from tournament.errors import InvalidEntry
from tournament.models import Player, RegisterEntry
from tournament.services import register

pytestmark = pytest.mark.django_db


def entry_of(tournament, name):
    return Player.objects.get(tournament=tournament, name=name).register_entry


def test_the_backup_carries_each_players_entry(make_tournament):
    sm24 = make_tournament(["Åsa Öberg", "Bo"], name="SM 2024")
    asa, bo = entry_of(sm24, "Åsa Öberg"), entry_of(sm24, "Bo")
    data = backups.export_tournament(sm24)
    # By folded name: "asa oberg" before "bo".
    assert data["register"] == [
        {"uuid": str(asa.uuid), "name": "Åsa Öberg", "merged": []},
        {"uuid": str(bo.uuid), "name": "Bo", "merged": []},
    ]
    assert [(p["name"], p["register"]) for p in data["players"]] == [
        ("Åsa Öberg", str(asa.uuid)),
        ("Bo", str(bo.uuid)),
    ]


def test_a_round_trip_links_the_same_entries_without_duplicates(make_tournament, td_user):
    sm24 = make_tournament(["Åsa Öberg", "Bo"], name="SM 2024")
    register.set_earlier_results_public(tournament=sm24, actor=td_user, public=True)
    data = backups.export_tournament(sm24)
    assert data["earlier_results_public"] is True
    restored = backups.import_tournament(as_copy(data, "SM 2024 (copy)"))
    assert restored.earlier_results_public is True
    assert entry_of(restored, "Åsa Öberg") == entry_of(sm24, "Åsa Öberg")
    assert entry_of(restored, "Bo") == entry_of(sm24, "Bo")
    assert RegisterEntry.objects.count() == 2


def test_a_restore_follows_a_merge_made_since(make_tournament, td_user):
    sm24 = make_tournament(["Åsa Öberg", "Bo"], name="SM 2024")
    data = backups.export_tournament(sm24)
    lind = entry_of(make_tournament(["Åsa Öberg-Lind"], name="SM 2025"), "Åsa Öberg-Lind")
    register.merge_entries(entry=entry_of(sm24, "Åsa Öberg"), into=lind, actor=td_user)
    restored = backups.import_tournament(as_copy(data, "SM 2024 (copy)"))
    assert entry_of(restored, "Åsa Öberg") == lind
    assert RegisterEntry.objects.count() == 3


def test_an_entry_this_server_lacks_is_made_with_the_files_uuid_once(make_tournament):
    sm24 = make_tournament(["Åsa Öberg", "Bo"], name="SM 2024")
    data = backups.export_tournament(sm24)
    elsewhere = str(uuid.uuid4())  # Bo as another server knows him
    data["register"][1]["uuid"] = elsewhere
    data["players"][1]["register"] = elsewhere
    first = backups.import_tournament(as_copy(data, "SM 2024 (copy)"))
    made = entry_of(first, "Bo")
    assert str(made.uuid) == elsewhere and made != entry_of(sm24, "Bo")
    second = backups.import_tournament(as_copy(data, "SM 2024 (second copy)"))
    assert entry_of(second, "Bo") == made
    assert RegisterEntry.objects.count() == 3  # Åsa, Bo, the other server's Bo


def test_an_entry_merged_in_the_file_is_found_by_its_old_uuid(make_tournament):
    sm24 = make_tournament(["Åsa Öberg"], name="SM 2024")
    known = entry_of(sm24, "Åsa Öberg")
    data = backups.export_tournament(sm24)
    # The other server merged its Åsa into an entry this server has never seen.
    data["register"][0] = {
        "uuid": str(uuid.uuid4()),
        "name": "Åsa Öberg",
        "merged": [str(known.uuid)],
    }
    data["players"][0]["register"] = data["register"][0]["uuid"]
    restored = backups.import_tournament(as_copy(data, "SM 2024 (copy)"))
    assert entry_of(restored, "Åsa Öberg") == known


def test_an_older_backup_without_a_register_links_players_by_name(make_tournament):
    sm24 = make_tournament(["Åsa Öberg", "Bo"], name="SM 2024")
    make_tournament(["Bo"], name="SM 2023")  # two Bos: the name alone cannot tell which
    data = backups.export_tournament(sm24)
    del data["register"]
    del data["earlier_results_public"]
    for player in data["players"]:
        del player["register"]
    data["players"][0]["name"] = "asa oberg"  # as its TD typed her then
    restored = backups.import_tournament(as_copy(data, "SM 2024 (old file)"))
    assert restored.earlier_results_public is False
    assert entry_of(restored, "asa oberg") == entry_of(sm24, "Åsa Öberg")
    bo = entry_of(restored, "Bo")
    assert bo.name == "Bo" and bo not in {entry_of(sm24, "Bo")}
    assert RegisterEntry.objects.count() == 4  # Åsa, two Bos, and a third: the old file's


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d["players"][0].update(register=str(uuid.uuid4())), "is not an entry"),
        (lambda d: d["players"][1].update(register=d["players"][0]["register"]), "too: two"),
        (lambda d: d["register"].append(dict(d["register"][0])), "repeats the register entry"),
        (lambda d: d["register"][0].update(name=""), r"register\[0\]\.name must not be empty"),
    ],
)
def test_a_register_the_services_never_make_is_refused(make_tournament, change, message):
    data = as_copy(backups.export_tournament(make_tournament(["Anna", "Bo"])), "Copy")
    change(data)
    with pytest.raises(InvalidEntry, match=message):
        backups.import_tournament(data)
    assert RegisterEntry.objects.count() == 2
