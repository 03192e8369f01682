"""A hostile tester's damaged backups: each is refused with a message naming the place.

The backups are exported once per module from a simulated tournament (9 players,
level 1 closed, level 2 in play) and a finished one, then damaged one way each
and imported from bytes into an empty database. Every refusal is an
InvalidEntry and leaves the database as it was.
"""

import copy
import io
import json
import re
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.utils import translation

from tests.tournament.conftest import row_counts
from tournament import backups
from tournament.demo.autoplay import simulate
from tournament.errors import InvalidEntry
from tournament.models import (
    Hand,
    Table,
)


def walk_caches(tournament):
    """The caches a backup does not carry, per current table: they are rebuilt on import."""
    caches = {}
    for table in Table.objects.current().filter(level__tournament=tournament):
        caches[(table.level.number, table.number)] = (
            table.fantasyland_hands,
            table.last_dealer_position,
            table.next_dealer_position,
            list(table.hands.order_by("number").values_list("dealer_position", flat=True)),
            [
                (seat.in_fantasyland, seat.fantasyland_streak)
                for seat in table.seats.order_by("position")
            ],
        )
    return caches


def _exported(django_db_blocker, **options):
    """A simulated tournament's backup as read from a file, and its walk caches.

    The database is left empty.
    """
    with django_db_blocker.unblock(), transaction.atomic():
        user = get_user_model().objects.create_user("director", password="td-pass-123")
        outcome = simulate(actor=user, **options)
        data = json.loads(json.dumps(backups.export_tournament(outcome.tournament)))
        caches = walk_caches(outcome.tournament)
        transaction.set_rollback(True)
    return data, caches


@pytest.fixture(scope="module")
def simulated(django_db_setup, django_db_blocker):
    return _exported(django_db_blocker, players=9, seed="x", stop_after_level=1)


@pytest.fixture
def in_play(simulated):
    return copy.deepcopy(simulated[0])


@pytest.fixture(scope="module")
def finished(django_db_setup, django_db_blocker):
    return _exported(django_db_blocker, players=5, seed="five", min_hands=4)[0]


def refused(raw, message):
    """Importing `raw` (bytes) is refused with exactly `message`, and nothing is written."""
    before = row_counts()
    with pytest.raises(InvalidEntry) as caught:
        backups.import_backup(raw)
    assert caught.value.message == message
    assert row_counts() == before


def as_bytes(data):
    return json.dumps(data).encode("utf-8")


def closed_table(data, index=0):
    """A table of level 1 (closed): its numbers are final."""
    return data["levels"][0]["draws"][-1]["tables"][index]


CLOSED = "levels[0].draws[0].tables[0]"


def seat_of(table, number):
    return next(seat for seat in table["seats"] if seat["player"] == number)


# ---------------------------------------------------------------- the bytes


@pytest.mark.django_db
def test_a_file_that_is_not_utf8(in_play):
    raw = as_bytes(in_play).replace(b'"x"', b'"\xe5"', 1)
    refused(b"\xff\xfe" + raw, "The backup file is not UTF-8 text.")


@pytest.mark.django_db
def test_a_hundred_thousand_nested_brackets():
    raw = b"[" * 100_000 + b"]" * 100_000
    refused(raw, "The backup file is nested too deeply (more than 64 levels of brackets).")


@pytest.mark.django_db
def test_brackets_inside_text_do_not_count_as_nesting(in_play):
    data = copy.deepcopy(in_play)
    data["settings"]["name"] = "[[[{{" * 20
    data["version"] = 2  # refused after parsing: the brackets in the name did not stop it
    refused(
        as_bytes(data),
        "This backup has format version 2; this version of the product reads version 1.",
    )


@pytest.mark.django_db
def test_a_file_over_the_size_limit_is_told_its_own_size():
    """Its size, never the limit's: a byte over the limit reads as the limit (20.0 MB)."""
    refused(
        b" " * (30 * 1024 * 1024), "The file is 30.0\xa0MB; a backup can be at most 20.0\xa0MB."
    )
    refused(
        b" " * (backups.MAX_BYTES + 1),
        "The file is more than 20.0\xa0MB; a backup can be at most 20.0\xa0MB.",
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"", "The backup file is empty."),
        (b'{"a": 1,\n  oops}', "The backup file is not valid JSON (line 2, column 3)."),
        (b'{"a": NaN}', "The backup file holds a number that cannot be kept: NaN."),
        (b'{"a": 1e999}', "The backup file holds a number that cannot be kept: 1e999."),
        (b'{"a": 1, "a": 2}', 'The backup file has the key "a" twice in one object.'),
        (b"[]", "This is not a tournament backup: the file must hold a JSON object."),
        (b"1" * 5000, "The backup file is not valid JSON."),
    ],
)
def test_files_that_are_not_a_backup(raw, message):
    refused(raw, message)


# ---------------------------------------------------------------- fields


def damaged(change):
    def apply(data):
        change(data)
        return data

    return apply


def set_in(path, value):
    """Set data[...][...] = value along `path` (keys and indexes)."""

    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


TABLE = ["levels", 0, "draws", 0, "tables", 0]
RESULT = [*TABLE, "hands", 0, "versions", 0, "results", 0]

FIELDS = [
    # "version": true is 1 to Python: refused, it must be the number 1.
    (
        set_in(["version"], True),
        "This backup has format version true; this version of the product reads version 1.",
    ),
    # Numbers beyond their column (SQLite would store 2^40; PostgreSQL would raise).
    (
        set_in([*TABLE, "seats", 0, "total"], 2**40),
        f"{CLOSED}.seats[0].total must be a whole number from -2147483648 to 2147483647, "
        "not 1099511627776.",
    ),
    (
        set_in([*TABLE, "hands_played"], 32768),
        f"{CLOSED}.hands_played must be a whole number from 0 to 32767, not 32768.",
    ),
    (
        set_in(["players", 0, "number"], -1),
        "players[0].number must be a whole number from 0 to 2147483647, not -1.",
    ),
    (
        set_in([*RESULT, "points"], 10_000),
        f"{CLOSED}.hands[0].versions[0].results[0].points must be a whole number "
        "from -9999 to 9999, not 10000.",
    ),
    (
        set_in(["settings", "min_hands"], 201),
        "settings.min_hands must be a whole number from 1 to 200, not 201.",
    ),
    (
        set_in([*TABLE, "first_dealer_position"], 3),
        f"{CLOSED}.first_dealer_position must be a whole number from 0 to 2, not 3.",
    ),
    (
        set_in(["levels", 0, "number"], 10**30),
        "levels[0].number must be a whole number from 1 to 32767, "
        "not 1000000000000000000000000000000.",
    ),
    (
        set_in([*TABLE, "seats", 0, "hand_points"], 1.5),
        f"{CLOSED}.seats[0].hand_points must be a whole number, not 1.5.",
    ),
    # Booleans are strictly true or false.
    (set_in([*TABLE, "is_over"], 1), f"{CLOSED}.is_over must be true or false, not 1."),
    (
        set_in(["players", 0, "disqualified"], "no"),
        'players[0].disqualified must be true or false, not "no".',
    ),
    # Over-long text (SQLite would keep it).
    (
        set_in(["players", 0, "name"], "A" * 81),
        "players[0].name can have at most 80 characters (it has 81).",
    ),
    (
        set_in(["levels", 0, "draws", 0, "seed"], "s" * 65),
        "levels[0].draws[0].seed can have at most 64 characters (it has 65).",
    ),
    # Control characters and lone surrogates.
    (
        set_in(["players", 0, "name"], "An\x00na"),
        "players[0].name contains a character that cannot be kept (U+0000).",
    ),
    (
        set_in(["settings", "name"], "Cup \ud800"),
        "settings.name contains a character that cannot be kept (U+D800).",
    ),
    (
        set_in(["players", 1, "name"], "Bo\tLind"),
        "players[1].name contains a character that cannot be kept (U+0009).",
    ),
    (
        set_in([*RESULT, "detail", "categories", "front"], "pair\x00"),
        f"{CLOSED}.hands[0].versions[0].results[0].detail.categories.front contains "
        "a character that cannot be kept (U+0000).",
    ),
    (
        set_in(["audit", 0, "after"], {"name": "\udc80"}),
        "audit[0].after.name contains a character that cannot be kept (U+DC80).",
    ),
    # Required text.
    (set_in(["players", 0, "name"], ""), "players[0].name must not be empty."),
    (set_in(["players", 0, "name"], "   "), "players[0].name must not be empty."),
    (set_in(["settings", "name"], ""), "settings.name must not be empty."),
    # Times are ISO 8601 with their offset.
    (
        set_in(["players", 0, "registered_at"], "2026-03-14T18:00:00"),
        "players[0].registered_at must be an ISO 8601 time with its UTC offset, "
        'not "2026-03-14T18:00:00".',
    ),
    (
        set_in(["created_at"], "0001-01-01T00:00:00+05:00"),
        'created_at must be an ISO 8601 time with its UTC offset, not "0001-01-01T00:00:00+05:00".',
    ),
    # The shape.
    (damaged(lambda d: d["players"][0].pop("name")), "players[0].name is missing."),
    (
        set_in(["players", 0, "nickname"], "Ace"),
        "players[0].nickname is not a field of this backup format.",
    ),
    (set_in(["levels"], {}), "levels must be a list, not {}."),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("damage", "message"), FIELDS)
def test_fields_out_of_range_or_of_the_wrong_kind(in_play, damage, message):
    refused(as_bytes(damaged(damage)(copy.deepcopy(in_play))), message)


# ---------------------------------------------------------------- facts


@pytest.mark.django_db
def test_a_player_disqualified_without_three_warnings(in_play):
    data = copy.deepcopy(in_play)
    data["players"][4]["disqualified"] = True
    refused(
        as_bytes(data),
        "players[4].disqualified is true in the file, but its history gives false: "
        "the file was altered or damaged.",
    )


@pytest.mark.django_db
def test_a_level_with_no_draw(in_play):
    data = copy.deepcopy(in_play)
    data["levels"][1]["draws"] = []
    refused(as_bytes(data), "levels[1].draws must not be empty.")


@pytest.mark.django_db
def test_a_level_with_two_current_draws(in_play):
    data = copy.deepcopy(in_play)
    redo = copy.deepcopy(data["levels"][1]["draws"][0])
    redo.update(number=2, reason="Again")
    for table in redo["tables"]:
        table["hands"] = []
    data["levels"][1]["draws"].append(redo)
    refused(
        as_bytes(data),
        "levels[1].draws[0].superseded_at must be a time: a later one in the list "
        "replaced this one.",
    )


@pytest.mark.django_db
def test_a_changed_champion(finished):
    data = copy.deepcopy(finished)
    champion = data["champion"]
    other = next(p["number"] for p in data["players"] if p["number"] != champion)
    data["champion"] = other
    refused(
        as_bytes(data),
        f"champion is {other} in the file, but its history gives {champion}: "
        "the file was altered or damaged.",
    )


@pytest.mark.django_db
def test_a_finished_tournament_without_its_champion(finished):
    data = copy.deepcopy(finished)
    champion = data["champion"]
    data["champion"] = None
    refused(
        as_bytes(data),
        f"champion is null in the file, but its history gives {champion}: "
        "the file was altered or damaged.",
    )


@pytest.mark.django_db
def test_a_changed_winner_in_a_closed_level(in_play):
    data = copy.deepcopy(in_play)
    table = closed_table(data)
    winner = table["winner"]
    loser = next(s["player"] for s in table["seats"] if s["player"] != winner)
    table["winner"] = loser
    refused(
        as_bytes(data),
        f"{CLOSED}.winner is {loser} in the file, but its history gives {winner}: "
        "the file was altered or damaged.",
    )


@pytest.mark.django_db
def test_changed_totals_in_a_closed_level(in_play):
    data = copy.deepcopy(in_play)
    seat = closed_table(data)["seats"][1]
    true_points = seat["hand_points"]
    seat["hand_points"] += 50
    seat["total"] += 50
    refused(
        as_bytes(data),
        f"{CLOSED}.seats[1].hand_points is {true_points + 50} in the file, but its history "
        f"gives {true_points}: the file was altered or damaged.",
    )


@pytest.mark.django_db
def test_a_total_that_is_not_points_less_penalties(in_play):
    data = copy.deepcopy(in_play)
    seat = closed_table(data)["seats"][0]
    expected = seat["total"]
    seat["total"] += 1
    refused(
        as_bytes(data),
        f"{CLOSED}.seats[0].total must be the hand points less the penalty points "
        f"({expected}), not {expected + 1}.",
    )


@pytest.mark.django_db
def test_changed_points_of_a_hand_entered_as_cards(in_play):
    data = copy.deepcopy(in_play)
    results = closed_table(data)["hands"][0]["versions"][0]["results"]
    scored = results[0]["points"]
    results[0]["points"] += 2
    results[1]["points"] -= 2
    refused(
        as_bytes(data),
        f"{CLOSED}.hands[0].versions[0].results[0].points is {scored + 2} in the file, "
        f"but the cards score {scored}: the file was altered or damaged.",
    )


@pytest.mark.django_db
def test_a_next_level_that_seats_a_loser(in_play):
    data = copy.deepcopy(in_play)
    table = closed_table(data)
    loser = next(s["player"] for s in table["seats"] if s["player"] != table["winner"])
    winners = sorted(t["winner"] for t in data["levels"][0]["draws"][0]["tables"])
    seat = seat_of(data["levels"][1]["draws"][0]["tables"][0], table["winner"])
    seat["player"] = loser
    seated = sorted([loser, *(w for w in winners if w != table["winner"])])
    refused(
        as_bytes(data),
        "levels[1].draws[0] must seat exactly the winners of level 1 "
        f"(players {', '.join(map(str, winners))}), not players {', '.join(map(str, seated))}.",
    )


@pytest.mark.django_db
def test_a_tournament_marked_finished_while_a_level_is_played(in_play):
    data = copy.deepcopy(in_play)
    data["finished_at"] = data["levels"][0]["closed_at"]
    refused(
        as_bytes(data),
        f'finished_at is "{data["finished_at"]}" in the file, but its history gives null: '
        "the file was altered or damaged.",
    )


@pytest.mark.django_db
def test_a_hand_of_a_redone_draw(in_play):
    data = copy.deepcopy(in_play)
    level = data["levels"][1]
    redo = copy.deepcopy(level["draws"][0])
    redo.update(number=2, reason="Again", superseded_at=None)
    level["draws"][0]["superseded_at"] = level["draws"][0]["created_at"]
    for table in redo["tables"]:
        table["hands"] = []
    level["draws"].append(redo)
    refused(
        as_bytes(data),
        "levels[1].draws[0].tables[0].hands must be empty: a draw can only be redone "
        "before its first hand.",
    )


@pytest.mark.django_db
def test_a_submission_key_twice_in_the_file(in_play):
    data = copy.deepcopy(in_play)
    table = closed_table(data)
    key = table["hands"][0]["versions"][0]["idempotency_key"]
    table["hands"][1]["versions"][0]["idempotency_key"] = key
    refused(
        as_bytes(data),
        f"{CLOSED}.hands[1].versions[0].idempotency_key is the submission key of "
        f"{CLOSED}.hands[0].versions[0] too.",
    )


# ---------------------------------------------------------------- what the services never make


OPEN = "levels[1].draws[0].tables[0]"


def open_table(data):
    """Level 2's table (in play): its winner is not known yet."""
    return data["levels"][1]["draws"][0]["tables"][0]


def index_of(data, number):
    return next(i for i, player in enumerate(data["players"]) if player["number"] == number)


@pytest.mark.django_db
def test_a_withdrawn_player_seated_in_a_level(in_play):
    data = copy.deepcopy(in_play)
    number = closed_table(data)["seats"][1]["player"]
    data["players"][index_of(data, number)]["withdrawn_at"] = data["created_at"]
    refused(
        as_bytes(data),
        f"{CLOSED}.seats[1].player seats player {number}, who has withdrawn.",
    )


@pytest.mark.django_db
@pytest.mark.parametrize("other", ["ÄNNA BERG", "anna  berg", "Anna Bérg"])
@pytest.mark.parametrize("flag", ["absent", False])
def test_two_players_whose_names_differ_only_by_case_or_accents(in_play, other, flag):
    """Issue 17 §9: the services give such a pair only with the TD's confirmation, carried
    by the player confirmed; a backup without it (hand-written, or older) is refused."""
    data = copy.deepcopy(in_play)
    assert data["players"][0]["name"] == "Anna Berg"  # tournament/demo/autoplay.py's first name
    data["players"][3]["name"] = other
    for player in data["players"]:
        if flag == "absent":
            del player["alike_confirmed"]
        else:
            assert player["alike_confirmed"] is flag
    refused(
        as_bytes(data),
        f'players[3].name "{other}" differs from players[0].name "Anna Berg" only in case or '
        "accents, and neither carries the TD's confirmation that they are two players "
        "(alike_confirmed).",
    )


@pytest.mark.django_db
def test_the_same_name_twice_is_refused_even_when_confirmed(in_play):
    data = copy.deepcopy(in_play)
    data["players"][3]["name"] = "Anna Berg"
    data["players"][3]["alike_confirmed"] = True
    refused(as_bytes(data), "players[3].name repeats the name of players[0].name.")


@pytest.mark.django_db
@pytest.mark.parametrize("confirmed", [3, 0])  # registered so, or renamed into the pair
def test_two_such_players_one_of_them_confirmed_are_imported(in_play, confirmed):
    data = copy.deepcopy(in_play)
    data["players"][3]["name"] = "anna bérg"
    data["players"][confirmed]["alike_confirmed"] = True
    restored = backups.import_backup(as_bytes(data))
    assert list(restored.players.filter(alike_confirmed=True).values_list("number", flat=True)) == [
        data["players"][confirmed]["number"]
    ]
    assert restored.players.get(number=data["players"][3]["number"]).name == "anna bérg"


@pytest.mark.django_db
def test_of_three_such_players_two_must_carry_the_confirmation(in_play):
    data = copy.deepcopy(in_play)
    data["players"][3]["name"] = "ANNA BERG"
    data["players"][3]["alike_confirmed"] = True
    data["players"][5]["name"] = "anna berg"
    refused(
        as_bytes(data),
        'players[5].name "anna berg" differs from players[0].name "Anna Berg" only in case or '
        "accents, and neither carries the TD's confirmation that they are two players "
        "(alike_confirmed).",
    )


@pytest.mark.django_db
def test_a_backup_from_before_the_confirmation_is_imported_without_it(in_play):
    data = copy.deepcopy(in_play)
    for player in data["players"]:
        del player["alike_confirmed"]
    restored = backups.import_backup(as_bytes(data))
    assert not restored.players.filter(alike_confirmed=True).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "\u200b\u2800",
            "players[2].name is made only of invisible characters (such as U+200B): "
            "it would show as nothing.",
        ),
        (
            "Cia \u202eHolm",
            "players[2].name contains a character that changes the direction of the text "
            "(U+202E): the name could show as something it is not.",
        ),
    ],
)
def test_a_name_that_would_not_show(in_play, name, message):
    data = copy.deepcopy(in_play)
    data["players"][2]["name"] = name
    refused(as_bytes(data), message)


def _corrected(data, reason):
    """The closed table's first hand corrected to the same content, with `reason`."""
    versions = closed_table(data)["hands"][0]["versions"]
    assert len(versions) == 1
    again = copy.deepcopy(versions[0])
    again.update(version=2, idempotency_key=str(uuid.uuid4()), reason=reason)
    versions[0]["superseded_at"] = again["created_at"]
    versions.append(again)
    return data


@pytest.mark.django_db
@pytest.mark.parametrize("reason", ["", "   "])
def test_a_correction_without_a_reason(in_play, reason):
    refused(
        as_bytes(_corrected(copy.deepcopy(in_play), reason)),
        f"{CLOSED}.hands[0].versions[1].reason must not be empty: a correction needs a reason.",
    )


@pytest.mark.django_db
def test_the_same_correction_with_a_reason_is_imported(in_play):
    restored = backups.import_backup(as_bytes(_corrected(copy.deepcopy(in_play), "Typo")))
    hand = Hand.objects.get(
        table__level__tournament=restored, table__level__number=1, table__number=1, number=1
    )
    assert [v.reason for v in hand.versions.order_by("version")] == ["", "Typo"]


@pytest.mark.django_db
def test_a_redone_draw_without_a_reason(make_tournament, td_user):
    from tournament.services import draws

    tournament = make_tournament(players=5, name="Redone")
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="first")
    draws.redraw_level(level=level, actor=td_user, reason="Bo came late", seed="second")
    data = json.loads(json.dumps(backups.export_tournament(tournament)))
    data["settings"]["name"] = "Redone (copy)"
    assert data["levels"][0]["draws"][1]["reason"] == "Bo came late"
    data["levels"][0]["draws"][1]["reason"] = ""
    refused(
        as_bytes(data),
        "levels[0].draws[1].reason must not be empty: a redone draw needs a reason.",
    )
    data["levels"][0]["draws"][1]["reason"] = "Bo came late"
    assert backups.import_backup(as_bytes(data)).name == "Redone (copy)"


@pytest.mark.django_db
def test_two_players_seated_other_than_the_seed_draws_them(in_play):
    data = copy.deepcopy(in_play)
    seats = open_table(data)["seats"]
    seats[0]["player"], seats[1]["player"] = seats[1]["player"], seats[0]["player"]
    refused(
        as_bytes(data),
        f"{OPEN} is not the seating that its draw's seed gives: the file was altered or damaged.",
    )


@pytest.mark.django_db
def test_a_first_dealer_other_than_the_seed_draws(in_play):
    data = copy.deepcopy(in_play)
    table = open_table(data)
    table["first_dealer_position"] = (table["first_dealer_position"] + 1) % len(table["seats"])
    refused(
        as_bytes(data),
        f"{OPEN} is not the seating that its draw's seed gives: the file was altered or damaged.",
    )


@pytest.mark.django_db
def test_a_seed_that_does_not_give_the_seating(in_play):
    data = copy.deepcopy(in_play)
    data["levels"][0]["draws"][0]["seed"] = "not the seed it was drawn with"
    before = row_counts()
    with pytest.raises(InvalidEntry) as caught:
        backups.import_backup(as_bytes(data))
    assert re.fullmatch(
        r"levels\[0\]\.draws\[0\]\.tables\[[0-2]\] is not the seating that its draw's seed "
        r"gives: the file was altered or damaged\.",
        caught.value.message,
    )
    assert row_counts() == before


# ---------------------------------------------------------------- what still works


@pytest.mark.django_db(transaction=True)
def test_the_round_trip_still_succeeds_and_rebuilds_the_caches_of_closed_levels(
    simulated, django_user_model
):
    """The file restores the same tournament; closed levels get their walk caches too."""
    exported, caches = simulated
    django_user_model.objects.create_user("director", password="td-pass-123")
    restored = backups.import_backup(as_bytes(exported))

    again = json.loads(json.dumps(backups.export_tournament(restored)))
    assert again["audit"][-1]["action"] == "tournament.import"
    original = copy.deepcopy(exported)
    for data in (again, original):
        data.pop("exported_at")
    again["audit"].pop()
    assert again == original
    assert sorted(caches) == [(1, 1), (1, 2), (1, 3), (2, 1)]
    assert walk_caches(restored) == caches


@pytest.mark.django_db
def test_a_winner_disqualified_at_a_later_level_is_accepted(make_tournament, td_user):
    """Level 1's table still shows its winner: he was disqualified only at level 2."""
    from tests.tournament.conftest import play
    from tournament.services import draws, penalties

    tournament = make_tournament(players=4, min_hands=1, name="Later")
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="later")
    for table in Table.objects.filter(level__tournament=tournament):
        play(table, 5, -5, actor=td_user)
    draws.advance(tournament=tournament, actor=td_user, seed="later-2")
    final = Table.objects.get(level__tournament=tournament, level__number=2)
    player = final.seats.order_by("position").first().player
    for _ in range(3):
        penalties.give_penalty(tournament=tournament, player=player, kind="slow", actor=td_user)

    data = json.loads(json.dumps(backups.export_tournament(tournament)))
    assert player.number in [t["winner"] for t in data["levels"][0]["draws"][0]["tables"]]
    data["settings"]["name"] = "Later (copy)"
    for level in data["levels"]:
        for draw in level["draws"]:
            for table in draw["tables"]:
                for hand in table["hands"]:
                    for version in hand["versions"]:
                        version["idempotency_key"] = str(uuid.uuid4())
    restored = backups.import_backup(as_bytes(data))
    assert restored.players.get(number=player.number).disqualified


# ---------------------------------------------------------------- the command


@pytest.mark.django_db
def test_the_command_prints_the_message_and_writes_nothing(in_play, tmp_path):
    path = tmp_path / "damaged.json"
    data = copy.deepcopy(in_play)
    data["players"][0]["name"] = ""
    path.write_bytes(as_bytes(data))
    before = row_counts()
    with pytest.raises(CommandError, match=re.escape("players[0].name must not be empty.")):
        call_command("import_tournament", str(path), stdout=io.StringIO())
    path.write_bytes(b"\xff" + as_bytes(in_play))
    with pytest.raises(CommandError, match=re.escape("The backup file is not UTF-8 text.")):
        call_command("import_tournament", str(path), stdout=io.StringIO())
    path.write_bytes(b"[" * 100_000)
    with pytest.raises(CommandError, match="nested too deeply"):
        call_command("import_tournament", str(path), stdout=io.StringIO())
    assert row_counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (
            set_in(["players", 0, "disqualified"], True),
            "players[0].disqualified är true i filen, men historiken ger false: "
            "filen har ändrats eller skadats.",
        ),
        (
            set_in([*TABLE, "seats", 0, "total"], 2**40),
            f"{CLOSED}.seats[0].total måste vara ett heltal från -2147483648 till "
            "2147483647, inte 1099511627776.",
        ),
        (set_in(["players", 0, "name"], ""), "players[0].name saknas."),
        (
            set_in(["players", 0, "name"], "\u200b"),
            "players[0].name består bara av osynliga tecken (som U+200B) och skulle inte synas.",
        ),
        (set_in(["levels", 1, "draws"], []), "levels[1].draws saknas."),
    ],
)
def test_the_messages_are_in_the_tds_language(in_play, damage, message):
    with translation.override("sv"):
        refused(as_bytes(damaged(damage)(in_play)), message)
    with translation.override("sv"):
        refused(b"\xff", "Säkerhetskopian är inte UTF-8-text.")


@pytest.mark.django_db
def test_a_redraw_after_level_1_seating_a_player_it_did_not_redo(in_play):
    """Level 2 seats level 1's winners: a redraw of it may not bring in anyone else (level
    1's may, for a late player: test_backup.py)."""
    data = copy.deepcopy(in_play)
    level = data["levels"][1]
    first = level["draws"][0]
    redo = copy.deepcopy(first)
    redo.update(number=2, reason="Again", superseded_at=None)
    first["superseded_at"] = first["created_at"]
    for table in first["tables"]:
        table["hands"] = []
    seated = {seat["player"] for table in first["tables"] for seat in table["seats"]}
    loser = next(p["number"] for p in data["players"] if p["number"] not in seated)
    table = redo["tables"][0]
    seat = next(s for s in table["seats"] if s["player"] != table["winner"])
    seat["player"] = loser
    level["draws"].append(redo)
    refused(
        as_bytes(data),
        f"levels[1].draws[1] seats player {loser}, who was not in the draw it redid.",
    )
