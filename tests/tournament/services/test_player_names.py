"""The registration services and names: one that would not show, the same name, a lookalike,
and a pasted list whose names already registered are skipped."""

import pytest

from tests.tournament.conftest import play, row_counts
from tournament.errors import InvalidEntry, NotAllowed
from tournament.models import AuditEntry, Player
from tournament.services import draws, registration

pytestmark = pytest.mark.django_db


def names_in_db(tournament):
    return list(tournament.players.order_by("number").values_list("number", "name"))


def refused(call, message):
    before = row_counts()
    with pytest.raises(InvalidEntry) as caught:
        call()
    assert caught.value.message == message
    assert row_counts() == before


# ---------------------------------------------------------------- names that would not show


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "\u200b\u200b",
            "The player's name is made only of invisible characters (such as U+200B): "
            "it would show as nothing.",
        ),
        (
            " \u3164 ",
            "The player's name is made only of invisible characters (such as U+3164): "
            "it would show as nothing.",
        ),
        (
            "\u202eAnna",
            "The player's name contains a character that changes the direction of the text "
            "(U+202E): the name could show as something it is not.",
        ),
    ],
)
def test_register_and_rename_refuse_a_name_that_would_not_show(
    make_tournament, td_user, name, message
):
    tournament = make_tournament(players=["Bo"])
    refused(
        lambda: registration.register_player(tournament=tournament, actor=td_user, name=name),
        message,
    )
    bo = tournament.players.get()
    refused(lambda: registration.rename_player(player=bo, actor=td_user, name=name), message)


def test_a_pasted_list_with_a_name_that_would_not_show_registers_nothing(make_tournament, td_user):
    tournament = make_tournament(players=0)
    refused(
        lambda: registration.register_players(
            tournament=tournament, actor=td_user, names=["Anna", "\u2800"]
        ),
        "Name 2 of the list is made only of invisible characters (such as U+2800): "
        "it would show as nothing.",
    )


# ---------------------------------------------------------------- the same name


def test_the_very_same_name_is_refused_even_when_confirmed(make_tournament, td_user):
    tournament = make_tournament(players=["Åsa Öberg", "Bo"])
    message = "Åsa Öberg is already registered (no. 1)."
    refused(
        lambda: registration.register_player(
            tournament=tournament, actor=td_user, name="  Åsa   Öberg ", lookalike_confirmed=True
        ),
        message,
    )
    bo = tournament.players.get(name="Bo")
    refused(
        lambda: registration.rename_player(
            player=bo, actor=td_user, name="Åsa Öberg", lookalike_confirmed=True
        ),
        message,
    )


@pytest.mark.parametrize("typed", ["asa öberg", "ÅSA  OBERG"])
def test_a_name_that_differs_only_in_case_or_accents_is_asked_about_then_confirmed(
    make_tournament, td_user, typed
):
    """§5: "asa öberg" beside "Åsa Öberg" gets a warning the TD confirms, on add and
    rename; the player the TD confirmed carries it."""
    tournament = make_tournament(players=["Åsa Öberg", "Bo"])
    shown = " ".join(typed.split())
    question = f"{shown} is very like Åsa Öberg (no. 1). Is this another player?"
    refused(
        lambda: registration.register_player(tournament=tournament, actor=td_user, name=typed),
        question,
    )
    bo = tournament.players.get(name="Bo")
    refused(lambda: registration.rename_player(player=bo, actor=td_user, name=typed), question)
    player = registration.register_player(
        tournament=tournament, actor=td_user, name=typed, lookalike_confirmed=True
    )
    assert (player.number, player.name, player.alike_confirmed) == (3, shown, True)
    assert list(
        tournament.players.order_by("number").values_list("alike_confirmed", flat=True)
    ) == [
        False,
        False,
        True,
    ]
    entry = AuditEntry.objects.filter(action="player.register").order_by("pk").last()
    assert entry.after == {"number": 3, "name": shown, "confirmed_lookalike_of": "Åsa Öberg"}


def test_a_rename_carries_the_confirmation_only_while_the_name_needs_it(make_tournament, td_user):
    tournament = make_tournament(players=["Åsa Öberg", "Bo"])
    bo = tournament.players.get(name="Bo")
    registration.rename_player(player=bo, actor=td_user, name="asa oberg", lookalike_confirmed=True)
    bo.refresh_from_db()
    assert (bo.name, bo.alike_confirmed) == ("asa oberg", True)
    registration.rename_player(player=bo, actor=td_user, name="Bo Ek")
    bo.refresh_from_db()
    assert (bo.name, bo.alike_confirmed) == ("Bo Ek", False)


def test_a_player_may_change_the_case_and_accents_of_his_own_name(make_tournament, td_user):
    tournament = make_tournament(players=["asa oberg"])
    player = tournament.players.get()
    registration.rename_player(player=player, actor=td_user, name="Åsa Öberg")
    assert names_in_db(tournament) == [(1, "Åsa Öberg")]


# ---------------------------------------------------------------- a lookalike


def test_a_lookalike_is_registered_only_when_the_td_confirms(make_tournament, td_user):
    tournament = make_tournament(players=["Per-Olof Svensson"])
    refused(
        lambda: registration.register_player(
            tournament=tournament, actor=td_user, name="Per Olof Svensson"
        ),
        "Per Olof Svensson is very like Per-Olof Svensson (no. 1). Is this another player?",
    )
    player = registration.register_player(
        tournament=tournament, actor=td_user, name="Per Olof Svensson", lookalike_confirmed=True
    )
    assert (player.number, player.name, player.alike_confirmed) == (2, "Per Olof Svensson", True)
    entry = AuditEntry.objects.filter(action="player.register").order_by("pk").last()
    assert entry.after == {
        "number": 2,
        "name": "Per Olof Svensson",
        "confirmed_lookalike_of": "Per-Olof Svensson",
    }


def test_a_rename_into_a_lookalike_needs_the_confirmation_too(make_tournament, td_user):
    tournament = make_tournament(players=["Per-Olof Svensson", "P. Svensson"])
    other = tournament.players.get(name="P. Svensson")
    refused(
        lambda: registration.rename_player(player=other, actor=td_user, name="PerOlof Svensson"),
        "PerOlof Svensson is very like Per-Olof Svensson (no. 1). Is this another player?",
    )
    registration.rename_player(
        player=other, actor=td_user, name="PerOlof Svensson", lookalike_confirmed=True
    )
    assert names_in_db(tournament) == [(1, "Per-Olof Svensson"), (2, "PerOlof Svensson")]
    entry = AuditEntry.objects.get(action="player.rename")
    assert entry.after == {
        "name": "PerOlof Svensson",
        "confirmed_lookalike_of": "Per-Olof Svensson",
    }


def test_the_confirmation_is_yes_or_no(make_tournament, td_user):
    tournament = make_tournament(players=0)
    refused(
        lambda: registration.register_player(
            tournament=tournament, actor=td_user, name="Anna", lookalike_confirmed="yes"
        ),
        "The confirmation must be yes or no.",
    )


# ---------------------------------------------------------------- a pasted list


def test_a_list_skips_the_names_already_registered_and_registers_the_rest(make_tournament, td_user):
    tournament = make_tournament(players=["Anna Berg", "Åsa Öberg", "Bo Ek"])
    done = registration.register_players(
        tournament=tournament,
        actor=td_user,
        names=["Anna Berg", " Åsa  Öberg", "Cia Holm", "Bo Ek", "Dan Lind", "Cia Holm"],
    )
    assert [(p.number, p.name) for p in done.players] == [(4, "Cia Holm"), (5, "Dan Lind")]
    assert [p.alike_confirmed for p in done.players] == [False, False]
    skipped = [(line.name, line.same.name, line.same.number) for line in done.skipped]
    assert skipped == [
        ("Anna Berg", "Anna Berg", 1),
        ("Åsa Öberg", "Åsa Öberg", 2),  # the same once trimmed
        ("Bo Ek", "Bo Ek", 3),
        ("Cia Holm", "Cia Holm", None),  # the same name higher up in the list
    ]
    assert names_in_db(tournament)[3:] == [(4, "Cia Holm"), (5, "Dan Lind")]
    assert AuditEntry.objects.filter(action="player.register").count() == 5


def test_a_case_or_accent_variant_in_a_list_is_asked_about_not_skipped(make_tournament, td_user):
    tournament = make_tournament(players=["Anna Berg", "Åsa Öberg"])
    listed = ["Anna Berg", "asa oberg", "Cia Holm", "CIA HOLM"]
    refused(
        lambda: registration.register_players(tournament=tournament, actor=td_user, names=listed),
        "asa oberg is very like Åsa Öberg (no. 2). Is this another player?",
    )
    refused(
        lambda: registration.register_players(
            tournament=tournament, actor=td_user, names=listed, confirmed=["asa oberg"]
        ),
        "CIA HOLM is very like Cia Holm, earlier in the list. Is this another player?",
    )
    done = registration.register_players(
        tournament=tournament, actor=td_user, names=listed, confirmed=["asa oberg", "CIA HOLM"]
    )
    assert [(p.number, p.name, p.alike_confirmed) for p in done.players] == [
        (3, "asa oberg", True),
        (4, "Cia Holm", False),
        (5, "CIA HOLM", True),
    ]
    assert [line.name for line in done.skipped] == ["Anna Berg"]


def test_a_list_of_names_all_registered_changes_nothing(make_tournament, td_user):
    tournament = make_tournament(players=["Anna", "Bo"])
    tournament.refresh_from_db()
    revision = tournament.revision
    done = registration.register_players(tournament=tournament, actor=td_user, names=["Bo "])
    assert done.players == [] and [line.name for line in done.skipped] == ["Bo"]
    tournament.refresh_from_db()
    assert tournament.revision == revision


def test_a_lookalike_in_a_list_registers_nothing_until_it_is_confirmed(make_tournament, td_user):
    tournament = make_tournament(players=["Per-Olof Svensson"])
    listed = ["Anna", "Per Olof Svensson", "Bo", "Bo-"]
    refused(
        lambda: registration.register_players(
            tournament=tournament, actor=td_user, names=listed, confirmed=["Bo-"]
        ),
        "Per Olof Svensson is very like Per-Olof Svensson (no. 1). Is this another player?",
    )
    refused(
        lambda: registration.register_players(
            tournament=tournament, actor=td_user, names=listed, confirmed=["Per Olof Svensson"]
        ),
        "Bo- is very like Bo, earlier in the list. Is this another player?",
    )
    done = registration.register_players(
        tournament=tournament,
        actor=td_user,
        names=listed,
        confirmed=["Per Olof Svensson", "Bo-"],
    )
    assert [p.name for p in done.players] == listed
    assert names_in_db(tournament) == [
        (1, "Per-Olof Svensson"),
        (2, "Anna"),
        (3, "Per Olof Svensson"),
        (4, "Bo"),
        (5, "Bo-"),
    ]


@pytest.mark.parametrize(
    ("names", "confirmed", "message"),
    [
        ([], (), "Enter at least one name."),
        ("Anna", (), "The names must be a list."),
        (["Anna"] * 1001, (), "The list has 1001 names; at most 1000 can be registered at once."),
        (["Anna", 7], (), "Name 2 of the list must be text."),
        (["Anna"], "Anna", "The confirmed names must be a list of names."),
        (["Anna"], [None], "The confirmed names must be a list of names."),
    ],
)
def test_a_list_that_is_not_a_list_of_names_is_refused(
    make_tournament, td_user, names, confirmed, message
):
    tournament = make_tournament(players=0)
    refused(
        lambda: registration.register_players(
            tournament=tournament, actor=td_user, names=names, confirmed=confirmed
        ),
        message,
    )


def test_a_list_once_play_started_is_refused(make_tournament, td_user):
    tournament = make_tournament(players=2)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="late")
    play(level.tables.get(), 1, -1)
    with pytest.raises(NotAllowed, match="Play has started"):
        registration.register_players(tournament=tournament, actor=td_user, names=["Cia"])
    assert Player.objects.filter(tournament=tournament).count() == 2


# ---------------------------------------------------------------- the backup


def test_confirmed_case_and_accent_variants_go_through_the_backup(make_tournament, td_user):
    """What the services make, the import takes back, the TD's confirmations with it."""
    import json

    from tournament import backups

    tournament = make_tournament(players=["Åsa Öberg", "Bo"], name="Names")
    registration.register_player(
        tournament=tournament, actor=td_user, name="asa oberg", lookalike_confirmed=True
    )
    bo = tournament.players.get(name="Bo")
    registration.rename_player(player=bo, actor=td_user, name="ÅSA ÖBERG", lookalike_confirmed=True)
    data = json.loads(json.dumps(backups.export_tournament(tournament)))
    assert [(p["name"], p["alike_confirmed"]) for p in data["players"]] == [
        ("Åsa Öberg", False),
        ("ÅSA ÖBERG", True),
        ("asa oberg", True),
    ]
    data["settings"]["name"] = "Names (copy)"
    restored = backups.import_backup(json.dumps(data).encode())
    assert list(
        restored.players.order_by("number").values_list("number", "name", "alike_confirmed")
    ) == [(1, "Åsa Öberg", False), (2, "ÅSA ÖBERG", True), (3, "asa oberg", True)]
