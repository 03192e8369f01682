"""Export a tournament, empty the database, import it: the same tournament comes back."""

import copy
import json
import re
import uuid

import pytest
from django.core.management import call_command

from tests.tournament.conftest import play, single_table
from tournament.backups import export_tournament, import_tournament
from tournament.demo.autoplay import simulate
from tournament.errors import InvalidEntry
from tournament.models import AuditEntry, HandVersion, Penalty, Table, Tournament
from tournament.services import draws, hands, penalties, registration


def empty_database(django_user_model, usernames=("director",)):
    """Flush (plain SQL: the models refuse deletes), then bring back the TD's login."""
    call_command("flush", "--noinput")
    for username in usernames:
        django_user_model.objects.create_user(username, password="td-pass-123", is_staff=True)


def comparable(export):
    """An export without its own time and the import's audit entry."""
    data = copy.deepcopy(export)
    data.pop("exported_at")
    if data["audit"] and data["audit"][-1]["action"] == "tournament.import":
        data["audit"].pop()
    return data


def busy_tournament(td_user):
    """A tournament in play with every kind of record: redone hands, a rescinded penalty."""
    outcome = simulate(
        players=12, seed="backup", name="Backup", min_hands=8, stop_after_level=1, actor=td_user
    )
    tournament = outcome.tournament
    table = Table.objects.filter(
        level__tournament=tournament, level__closed_at__isnull=True, is_over=False
    ).first()
    first_hand = table.hands.get(number=1)
    hands.correct_hand(
        hand=first_hand,
        actor=td_user,
        reason="Revisor typo",
        based_on_version=1,
        points={0: 4, 1: -4},
    )
    seat = table.seats.order_by("position").first()
    penalty = penalties.give_penalty(
        tournament=seat.player.tournament, player=seat.player, kind="slow", actor=td_user
    )
    penalties.rescind_penalty(penalty=penalty, actor=td_user, reason="Wrong player")
    return tournament


@pytest.mark.django_db(transaction=True)
def test_a_tournament_in_play_comes_back_the_same(td_user, django_user_model):
    tournament = busy_tournament(td_user)
    exported = json.loads(json.dumps(export_tournament(tournament)))  # as in a file
    assert HandVersion.objects.filter(superseded_at__isnull=False).count() == 1
    assert Penalty.objects.filter(rescinded_at__isnull=False).count() == 1

    empty_database(django_user_model)
    assert not Tournament.objects.exists()
    restored = import_tournament(exported)

    again = export_tournament(restored)
    assert comparable(again) == comparable(exported)
    assert again["audit"][-1]["action"] == "tournament.import"
    assert again["created_by"] == "director"


@pytest.mark.django_db(transaction=True)
def test_a_no_show_withdrawn_after_the_draw_comes_back_the_same(
    make_tournament, td_user, django_user_model
):
    """Dan was drawn, did not come and was withdrawn before play (level 1 drawn again
    without him): the first draw, which seats him, is kept and restored; only the draw in
    play must not seat a withdrawn player."""
    tournament = make_tournament(["Anna", "Bo", "Cia", "Dan"])
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="no-show")
    # Warnings before play: Anna's moves with her to her new table, Dan's stays at his old.
    for name in ("Anna", "Dan"):
        player = tournament.players.get(name=name)
        penalties.give_penalty(tournament=tournament, player=player, kind="timeout", actor=td_user)
    registration.withdraw_player(player=tournament.players.get(name="Dan"), actor=td_user)
    exported = json.loads(json.dumps(export_tournament(tournament)))
    first, second = exported["levels"][0]["draws"]
    dan = next(p["number"] for p in exported["players"] if p["name"] == "Dan")
    assert dan in {seat["player"] for table in first["tables"] for seat in table["seats"]}
    assert dan not in {seat["player"] for table in second["tables"] for seat in table["seats"]}

    empty_database(django_user_model)
    restored = import_tournament(exported)
    assert comparable(export_tournament(restored)) == comparable(exported)


@pytest.mark.django_db(transaction=True)
def test_a_finished_tournament_comes_back_the_same(td_user, django_user_model):
    tournament = simulate(players=5, seed="five", name="Five", min_hands=4, actor=td_user)
    exported = export_tournament(tournament.tournament)
    assert exported["finished_at"] is not None and exported["champion"] is not None

    empty_database(django_user_model)
    restored = import_tournament(exported)

    assert comparable(export_tournament(restored)) == comparable(exported)
    assert restored.champion.number == exported["champion"]


@pytest.fixture
def small(make_tournament, td_user):
    """Two players, two hands entered as points: worked out by hand below."""
    tournament = make_tournament(players=2, min_hands=2, name="Small")
    table = single_table(tournament, td_user)
    play(table, 6, -6, actor=td_user)
    play(table, -2, 2, actor=td_user)
    return tournament


@pytest.mark.django_db
def test_the_export_holds_the_table_as_played(small):
    data = export_tournament(small)
    assert (data["format"], data["version"]) == ("pofc-shootout-tournament", 1)
    assert data["settings"]["min_hands"] == 2
    (table,) = data["levels"][0]["draws"][0]["tables"]
    first = table["first_dealer_position"]
    assert (table["hands_played"], table["required_hands"], table["is_over"]) == (2, 2, True)
    # Position 0 scored +6 - 2 = +4 and wins; position 1 -6 + 2 = -4.
    totals = {seat["position"]: (seat["total"], seat["place"]) for seat in table["seats"]}
    assert totals == {0: (4, 1), 1: (-4, 2)}
    winner = next(seat["player"] for seat in table["seats"] if seat["position"] == 0)
    assert table["winner"] == winner and data["champion"] is None
    points = [[r["points"] for r in h["versions"][0]["results"]] for h in table["hands"]]
    assert points == [[6, -6], [-2, 2]]
    assert table["hands"][0]["versions"][0]["results"][0]["cards"] is None
    assert first in (0, 1)
    assert [entry["action"] for entry in data["audit"]] == [
        "tournament.create",
        "player.register",
        "player.register",
        "draw.create",
        "hand.record",
        "hand.record",
    ]
    assert {entry["actor"] for entry in data["audit"]} == {"director"}


@pytest.fixture
def tied(make_tournament, td_user):
    """Two players level after the two required hands; the TD settles it by a card draw."""
    tournament = make_tournament(players=2, min_hands=2, name="Tied")
    table = single_table(tournament, td_user)
    play(table, 6, -6, actor=td_user)
    play(table, -6, 6, actor=td_user)
    winner = table.seats.get(position=1).player
    hands.settle_tie(table=table, actor=td_user, winner=winner, reason="High card")
    return tournament


@pytest.mark.django_db(transaction=True)
def test_a_missing_user_gets_a_locked_account_and_keeps_who_made_each_change(
    tied, django_user_model
):
    """A restore into a fresh database (no `make venue` there before): the TD of the file,
    `director`, has no login here. Who settled the tie, made the draw and the tournament is
    kept, as an account nobody can log in with."""
    exported = export_tournament(tied)
    (table,) = exported["levels"][0]["draws"][0]["tables"]
    winner = next(seat["player"] for seat in table["seats"] if seat["position"] == 1)
    assert table["tie_settlements"][0]["winner"] == winner == table["winner"]
    assert table["tie_settlements"][0]["created_by"] == "director"
    assert exported["levels"][0]["draws"][0]["created_by"] == "director"

    empty_database(django_user_model, usernames=())
    restored = import_tournament(exported)

    director = django_user_model.objects.get()
    assert director.username == "director"
    assert not director.is_active and not director.has_usable_password()
    assert not director.is_staff and not director.is_superuser
    restored_table = Table.objects.get(level__tournament=restored)
    assert restored_table.winner.number == winner and restored_table.is_over
    settlement = restored_table.tie_settlements.get()
    assert (settlement.reason, settlement.created_by) == ("High card", director)
    assert restored_table.draw.created_by == director
    assert restored.created_by == director
    entries = AuditEntry.objects.filter(tournament=restored).exclude(action="tournament.import")
    assert {(e.actor, e.actor_label) for e in entries} == {(director, "director")}
    assert restored.accounts_note == (
        "director had no login in this database: added, locked (no password), to keep who "
        "made each change."
    )
    again = export_tournament(restored)
    assert again["created_by"] == "director"
    assert again["levels"][0]["draws"][0]["created_by"] == "director"


@pytest.mark.django_db(transaction=True)
def test_a_user_the_database_has_is_used_and_nothing_is_said(tied, django_user_model):
    exported = export_tournament(tied)
    empty_database(django_user_model)  # director's login made again, as `make venue` would
    restored = import_tournament(exported)
    director = django_user_model.objects.get()
    assert director.is_active and director.check_password("td-pass-123")
    assert Table.objects.get(level__tournament=restored).draw.created_by == director
    assert restored.accounts_note is None


@pytest.mark.django_db(transaction=True)
def test_a_name_no_account_could_have_is_left_blank_and_said(tied, django_user_model):
    exported = export_tournament(tied)
    exported["levels"][0]["draws"][0]["created_by"] = "the TD!"  # spaces, "!": no username
    empty_database(django_user_model, usernames=())
    restored = import_tournament(exported)
    assert Table.objects.get(level__tournament=restored).draw.created_by is None
    assert list(django_user_model.objects.values_list("username", flat=True)) == ["director"]
    assert restored.accounts_note == (
        "director had no login in this database: added, locked (no password), to keep who "
        "made each change. The changes made by the TD! are kept without who made them: no "
        "login can have that name here (the log keeps it)."
    )


@pytest.mark.django_db(transaction=True)
def test_a_tie_decided_again_restores_with_its_last_winner(tied, td_user, django_user_model):
    """Settled for position 1, decided again for position 0: both decisions are in the file,
    in order, and the restored table is won by the second, as the original."""
    table = Table.objects.get(level__tournament=tied)
    first = table.seats.get(position=0).player
    hands.settle_tie(table=table, actor=td_user, winner=first, reason="Misread the draw")
    exported = export_tournament(tied)
    (data,) = exported["levels"][0]["draws"][0]["tables"]
    numbers = [s["winner"] for s in data["tie_settlements"]]
    assert numbers == [table.seats.get(position=1).player.number, first.number]
    assert data["winner"] == first.number

    empty_database(django_user_model, usernames=("director",))
    restored = Table.objects.get(level__tournament=import_tournament(exported))
    assert restored.is_over and restored.winner.number == first.number
    kept = restored.tie_settlements.order_by("id").values_list("reason", flat=True)
    assert list(kept) == ["High card", "Misread the draw"]


@pytest.mark.django_db(transaction=True)
def test_a_late_player_drawn_in_comes_back_the_same(make_tournament, td_user, django_user_model):
    """Eva came after the first draw and level 1 was drawn again with her: the redone draw
    seats a player its first draw did not, which only a late registration explains."""
    tournament = make_tournament(["Anna", "Bo", "Cia", "Dan"])
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="late")
    registration.register_player(tournament=tournament, actor=td_user, name="Eva")
    exported = json.loads(json.dumps(export_tournament(tournament)))
    first, second = exported["levels"][0]["draws"]
    eva = next(p["number"] for p in exported["players"] if p["name"] == "Eva")
    assert eva not in {seat["player"] for table in first["tables"] for seat in table["seats"]}
    assert eva in {seat["player"] for table in second["tables"] for seat in table["seats"]}

    empty_database(django_user_model)
    restored = import_tournament(exported)
    assert comparable(export_tournament(restored)) == comparable(exported)


def fresh_keys(data, name):
    """A copy that may be imported beside the original: a new name and new hand keys."""
    data = copy.deepcopy(data)
    data["settings"]["name"] = name
    for level in data["levels"]:
        for draw in level["draws"]:
            for table in draw["tables"]:
                for hand in table["hands"]:
                    for version in hand["versions"]:
                        version["idempotency_key"] = str(uuid.uuid4())
    return data


def first_table(data):
    return data["levels"][0]["draws"][0]["tables"][0]


def swap_points(results):
    results[0]["points"], results[1]["points"] = results[1]["points"], results[0]["points"]


def spoil(change):
    def apply(data):
        change(data)
        return data

    return apply


MALFORMED = [
    (lambda data: [data], "the file must hold a JSON object"),
    (spoil(lambda d: d.update(format="csv")), "not a tournament backup"),
    (spoil(lambda d: d.update(version=2)), "format version 2"),
    (spoil(lambda d: d.pop("players")), "players is missing."),
    (
        spoil(lambda d: d["players"][0].update(registered_at="yesterday")),
        "players[0].registered_at must be an ISO 8601 time",
    ),
    (
        spoil(lambda d: first_table(d)["seats"][0].update(player=99)),
        "refers to player 99, who is not in the players list",
    ),
    (
        spoil(lambda d: first_table(d)["seats"][1].update(total="4")),
        "seats[1].total must be a whole number",
    ),
    (
        spoil(lambda d: first_table(d)["hands"][0]["versions"][0].update(mode="guess")),
        "mode must be one of points, cards",
    ),
    (
        spoil(lambda d: d["penalties"].append({"player": 1, "table": {"level": 9}})),
        "penalties[0].table.draw is missing.",
    ),
    (
        spoil(lambda d: first_table(d)["hands"][1]["versions"][0]["results"][0].update(points=3)),
        "hands[1].versions[0] has points adding up to +5, not 0",
    ),
    # A changed score no longer matches the totals recomputed from the hands.
    (
        spoil(lambda d: swap_points(first_table(d)["hands"][1]["versions"][0]["results"])),
        "levels[0].draws[0].tables[0].seats[0].hand_points is 4 in the file, "
        "but its history gives 8: the file was altered or damaged.",
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("damage", "message"), MALFORMED)
def test_import_refuses_damaged_data_and_imports_nothing(small, damage, message):
    data = damage(fresh_keys(export_tournament(small), "Copy"))
    with pytest.raises(InvalidEntry, match=re.escape(message)):
        import_tournament(data)
    assert list(Tournament.objects.values_list("name", flat=True)) == ["Small"]


@pytest.mark.django_db
def test_import_refuses_a_name_that_is_taken(small):
    with pytest.raises(InvalidEntry, match="A tournament named “Small” already exists"):
        import_tournament(export_tournament(small))


@pytest.mark.django_db
def test_import_refuses_hands_already_in_the_database(small):
    data = export_tournament(small)
    data["settings"]["name"] = "Renamed"
    with pytest.raises(InvalidEntry, match="restored here before under another name"):
        import_tournament(data)
