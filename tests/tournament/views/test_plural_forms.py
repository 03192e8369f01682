"""A count shown with a noun takes the noun's singular for 1 and its plural otherwise, in
English and in Swedish ("0 of 1 table finished", "0 av 2 bord klara", "1 tillkallning")."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.tournament.conftest import play_named, single_table
from tournament.errors import NotAllowed, TableOver
from tournament.models import Table
from tournament.services import calls, draws, hands

pytestmark = pytest.mark.django_db

SIX = ["Anna", "Bo", "Cia", "Dan", "Eva", "Fia"]


def page(client, url, language):
    client.cookies["django_language"] = language
    response = client.get(url)
    assert response.status_code == 200, url
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def tables_of(tournament):
    return list(Table.objects.filter(level__tournament=tournament).order_by("number"))


@pytest.mark.parametrize(
    ("players", "min_hands", "language", "summary", "hands"),
    [
        # One table: the final, named so (issue 34 §5).
        (3, 1, "en", "Level 1: 3 players, the winner is the champion.", "0/1 hand"),
        (3, 1, "sv", "Nivå 1: 3 spelare, vinnaren blir mästare.", "0/1 hand"),
        (6, 2, "en", "0 of 2 tables finished, 6 players.", "0/2 hands"),
        (6, 2, "sv", "0 av 2 bord klara, 6 spelare.", "0/2 händer"),
    ],
)
def test_the_public_tournament_page_counts_tables_players_and_hands(
    make_tournament, td_user, players, min_hands, language, summary, hands
):
    tournament = make_tournament(SIX[:players], min_hands=min_hands)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="plural")
    html = page(Client(), reverse("public:tournament", args=[tournament.pk]), language)
    assert summary in html
    assert f"Table 1 {hands} " in html or f"Bord 1 {hands} " in html
    html = page(Client(), reverse("public:tables_projector", args=[tournament.pk]), language)
    assert summary.rstrip(".") in html


@pytest.mark.parametrize(
    ("language", "none", "one", "two"),
    [
        ("en", "0 of 2 tables finished ", "0 of 2 tables finished, 1 call ", "2 calls"),
        ("sv", "0 av 2 bord klara ", "0 av 2 bord klara, 1 tillkallning ", "2 tillkallningar"),
    ],
)
def test_the_dashboard_counts_tables_and_calls(
    td_client, make_tournament, td_user, language, none, one, two
):
    final = make_tournament(SIX[:3], name="Final")
    single_table(final, td_user)
    alone = page(td_client, reverse("td:tournament", args=[final.pk]), language)
    assert ("0 of 1 table finished " if language == "en" else "0 av 1 bord klart ") in alone
    tournament = make_tournament(SIX)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="calls")
    first, second = tables_of(tournament)
    url = reverse("td:tournament", args=[tournament.pk])
    assert none in page(td_client, url, language)
    calls.call_td(table=first, kind="dispute")
    assert one in page(td_client, url, language)
    calls.call_td(table=second, kind="misdeal")
    assert two in page(td_client, url, language)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["registration open, 0 players", "registration open, 1 player", "2 players"]),
        ("sv", ["anmälan öppen, 0 spelare", "anmälan öppen, 1 spelare", "2 spelare"]),
    ],
)
def test_the_home_page_counts_registered_players(make_tournament, language, words):
    for count, name in ((0, "Empty Cup"), (1, "Solo Cup"), (2, "Pair Cup")):
        make_tournament(SIX[:count], name=name)
    html = page(Client(), "/", language)
    for count, name in ((0, "Empty Cup"), (1, "Solo Cup"), (2, "Pair Cup")):
        after = html[html.index(name) :]
        assert words[count] + " " in after[:80], (name, after[:80])


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [("en", "1 point", "2 points"), ("sv", "1 poäng", "2 poäng")],
)
def test_a_players_page_counts_his_points(make_tournament, td_user, language, one, two):
    tournament = make_tournament(["Anna", "Bo"], min_hands=3)
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 1, "Bo": -1})
    anna = tournament.players.get(name="Anna")
    url = reverse("public:player", args=[tournament.pk, anna.pk])
    assert f"· {one} ·" in page(Client(), url, language)
    play_named(table, {"Anna": 1, "Bo": -1})
    assert f"· {two} ·" in page(Client(), url, language)


@pytest.mark.parametrize(
    ("language", "over_after_1", "over_after_2"),
    [
        (
            "en",
            "Table 1 is over: its 1 hand is played.",
            "Table 1 is over: all 2 hands are played.",
        ),
        (
            "sv",
            "Bord 1 är klart: dess 1 hand är spelad.",
            "Bord 1 är klart: alla 2 händer är spelade.",
        ),
    ],
)
def test_a_table_over_refuses_another_hand_in_words_that_count(
    make_tournament, td_user, language, over_after_1, over_after_2
):
    for min_hands, expected in ((1, over_after_1), (2, over_after_2)):
        tournament = make_tournament(["Anna", "Bo"], min_hands=min_hands, name=f"Cup {min_hands}")
        table = single_table(tournament, td_user)
        for _ in range(min_hands):
            play_named(table, {"Anna": 2, "Bo": -2})
        with translation.override(language), pytest.raises(TableOver) as refused:
            play_named(table, {"Anna": 2, "Bo": -2})
        assert str(refused.value.message) == expected


@pytest.mark.parametrize(
    ("language", "one", "three"),
    [
        ("en", "(still playing: table 2).", "(still playing: tables 1, 2, 3)."),
        ("sv", "(spelar fortfarande: bord 2).", "(spelar fortfarande: bord 1, 2, 3)."),
    ],
)
def test_closing_a_level_names_the_table_or_tables_still_playing(
    make_tournament, td_user, language, one, three
):
    tournament = make_tournament(SIX + ["Gus", "Hal", "Ida"], min_hands=1)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="close")
    with translation.override(language), pytest.raises(NotAllowed) as refused:
        draws.advance(tournament=tournament, actor=td_user)
    assert str(refused.value.message).endswith(three)
    first, second, third = tables_of(tournament)
    for table in (first, third):
        names = [s.player.name for s in table.seats.select_related("player")]
        play_named(table, {names[0]: 2, names[1]: -1, names[2]: -1})
    with translation.override(language), pytest.raises(NotAllowed) as refused:
        draws.advance(tournament=tournament, actor=td_user)
    assert str(refused.value.message).endswith(one)


def test_settling_without_a_tie_counts_the_required_hands(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo"], min_hands=1)
    table = single_table(tournament, td_user)
    anna = tournament.players.get(name="Anna")
    with translation.override("sv"), pytest.raises(NotAllowed) as refused:
        hands.settle_tie(table=table, actor=td_user, winner=anna, reason="kort")
    assert str(refused.value.message) == (
        "Bord 1 har ingen delad förstaplats att avgöra (0 av 1 hand spelad)."
    )
    with pytest.raises(NotAllowed, match=r"\(0 of 1 hand played\)"):
        hands.settle_tie(table=table, actor=td_user, winner=anna, reason="card")
