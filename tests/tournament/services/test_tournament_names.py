"""A tournament's name: no two tournaments have the same one, case, accents and blanks aside
(as two players' names are compared, `names.same_key`), and invisible characters at either
end of a name (a tournament's, a player's) are dropped."""

import time

import pytest
from django.db import connection

from tests.tournament.conftest import row_counts
from tests.tournament.services.test_concurrency import run_together
from tournament import backups
from tournament.errors import InvalidEntry
from tournament.models import AuditEntry, Tournament
from tournament.rules.names import strip_invisible
from tournament.services import draws, registration

pytestmark = pytest.mark.django_db


def refused(call, message):
    before = row_counts()
    with pytest.raises(InvalidEntry) as caught:
        call()
    assert caught.value.message == message
    assert row_counts() == before


def taken(name):
    return (
        f"A tournament named “{name}” already exists: choose another name (add the year or "
        "the city)."
    )


# ---------------------------------------------------------------- the same name


@pytest.mark.parametrize(
    "name",
    [
        "SM 2026",  # the very same
        "sm 2026",  # case
        "  SM   2026 ",  # blanks (kept as "SM 2026")
        "Sm 2026\u200b",  # an invisible character at the end
        "SM\u200b 2026",  # and one inside: same_key sets it aside
    ],
)
def test_a_new_tournament_may_not_take_another_ones_name(td_user, name):
    registration.create_tournament(actor=td_user, name="SM 2026")
    refused(lambda: registration.create_tournament(actor=td_user, name=name), taken("SM 2026"))
    assert list(Tournament.objects.values_list("name", flat=True)) == ["SM 2026"]


def test_accents_aside_the_name_is_the_same(td_user):
    registration.create_tournament(actor=td_user, name="Malmö Öppna")
    refused(
        lambda: registration.create_tournament(actor=td_user, name="MALMO oppna"),
        taken("Malmö Öppna"),
    )


def test_another_name_is_taken_the_year_or_the_city_added(td_user):
    registration.create_tournament(actor=td_user, name="SM")
    for name in ("SM 2026", "SM Göteborg", "SM-2026"):  # punctuation makes another name
        registration.create_tournament(actor=td_user, name=name)
    assert Tournament.objects.count() == 4


def test_renaming_into_another_tournaments_name_is_refused(td_user, make_tournament):
    registration.create_tournament(actor=td_user, name="Malmö Open")
    tournament = make_tournament(players=3, name="Lund Open")
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="rename")
    refused(
        lambda: registration.rename_tournament(
            tournament=tournament, actor=td_user, name="malmo open"
        ),
        taken("Malmö Open"),
    )
    tournament.refresh_from_db()
    assert tournament.name == "Lund Open"
    assert not AuditEntry.objects.filter(action="tournament.rename").exists()


def test_a_tournament_may_be_renamed_into_its_own_name_in_other_case(td_user):
    tournament = registration.create_tournament(actor=td_user, name="malmö open")
    registration.rename_tournament(tournament=tournament, actor=td_user, name="Malmö Open")
    tournament.refresh_from_db()
    assert tournament.name == "Malmö Open"


def test_the_settings_may_not_take_another_tournaments_name(td_user):
    registration.create_tournament(actor=td_user, name="Cup")
    tournament = registration.create_tournament(actor=td_user, name="Other")
    refused(
        lambda: registration.update_settings(tournament=tournament, actor=td_user, name="CUP"),
        taken("Cup"),
    )
    # Its own name, kept, is no refusal: the other settings are saved.
    registration.update_settings(tournament=tournament, actor=td_user, min_hands=10)
    tournament.refresh_from_db()
    assert (tournament.name, tournament.min_hands) == ("Other", 10)


def test_a_backup_is_not_imported_beside_a_tournament_of_that_name_in_other_case(
    td_user, make_tournament
):
    tournament = make_tournament(players=3, name="Åre Öppna")
    data = backups.export_tournament(tournament)
    registration.rename_tournament(tournament=tournament, actor=td_user, name="Åre Öppna 2025")
    registration.create_tournament(actor=td_user, name="are oppna")
    refused(
        lambda: backups.import_tournament(data, actor=td_user),
        "A tournament named “are oppna” already exists: the backup is not imported.",
    )


# ---------------------------------------------------------------- invisible at the ends


INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]


@pytest.mark.parametrize("char", INVISIBLE)
def test_invisible_characters_at_the_ends_of_a_tournaments_name_are_dropped(td_user, char):
    tournament = registration.create_tournament(actor=td_user, name=f"{char} Cup {char}{char}")
    assert tournament.name == "Cup"
    registration.rename_tournament(tournament=tournament, actor=td_user, name=f"Big Cup{char}")
    tournament.refresh_from_db()
    assert tournament.name == "Big Cup"


@pytest.mark.parametrize("char", INVISIBLE)
def test_invisible_characters_at_the_ends_of_a_players_name_are_dropped(
    td_user, make_tournament, char
):
    tournament = make_tournament(players=["Anna"])
    refused(
        lambda: registration.register_player(
            tournament=tournament, actor=td_user, name=f"Anna{char}"
        ),
        "Anna is already registered (no. 1).",
    )
    bo = registration.register_player(tournament=tournament, actor=td_user, name=f"{char}Bo ")
    assert bo.name == "Bo"
    registration.rename_player(player=bo, actor=td_user, name=f"Bo Ek{char}")
    bo.refresh_from_db()
    assert bo.name == "Bo Ek"
    listed = registration.register_players(
        tournament=tournament, actor=td_user, names=[f"Cia{char}", f"{char}Anna"]
    )
    assert [p.name for p in listed.players] == ["Cia"]
    assert [line.name for line in listed.skipped] == ["Anna"]


def test_invisible_characters_inside_a_name_are_kept(td_user, make_tournament):
    tournament = make_tournament(players=0)
    player = registration.register_player(
        tournament=tournament, actor=td_user, name="\u200bAnna\u200bBerg\u200b"
    )
    assert player.name == "Anna\u200bBerg"


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("Anna\u200b", "Anna"),
        ("\ufeffAnna", "Anna"),
        ("Anna \u200b \u2060", "Anna"),  # blanks and invisible characters mixed
        ("Anna\u3164", "Anna"),  # a Hangul filler draws nothing either
        ("Anna\u00ad", "Anna"),  # a soft hyphen at the end breaks nothing
        ("An\u200bna", "An\u200bna"),  # inside: as typed
        ("محمد\u200f", "محمد\u200f"),  # a right-to-left mark is the name's own
        ("ന്\u200d", "ന്\u200d"),  # a joiner after a virama shapes the letter (Malayalam)
        ("👍\U000e0067\U000e007f", "👍\U000e0067\U000e007f"),  # tag characters end a flag
        ("\u200b", "\u200b"),  # nothing to see: left whole, for check_shown to say so
    ],
)
def test_strip_invisible(typed, kept):
    assert strip_invisible(typed) == kept


def test_a_name_of_invisible_characters_only_is_still_told_what_it_is(td_user):
    refused(
        lambda: registration.create_tournament(actor=td_user, name="\u200b\u2060"),
        "Name is made only of invisible characters (such as U+200B): it would show as nothing.",
    )


# ---------------------------------------------------------------- two TDs at once


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locking needs PostgreSQL (DATABASE_URL)"
)
def test_two_tds_creating_the_same_name_at_once_make_one_tournament(td_user, monkeypatch):
    """Checked and written under the names' lock: the second waits, then finds the name.
    (Each check made slow: without the lock, all three were created.)"""
    check = registration.tournament_named_like

    def slow_check(*args, **kwargs):
        found = check(*args, **kwargs)
        time.sleep(0.2)
        return found

    monkeypatch.setattr(registration, "tournament_named_like", slow_check)
    outcomes = run_together(
        *[
            lambda name=name: registration.create_tournament(actor=td_user, name=name)
            for name in ("Race Cup", "race cup", "RACE CUP")
        ]
    )
    made = [o for o in outcomes if isinstance(o, Tournament)]
    refusals = [o for o in outcomes if isinstance(o, InvalidEntry)]
    assert len(made) == 1 and len(refusals) == 2, outcomes
    assert {r.message for r in refusals} == {taken(made[0].name)}
    assert Tournament.objects.count() == 1
