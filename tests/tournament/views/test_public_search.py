"""Where do I sit? Names found by a few letters, accents and case optional, and for each
the table and seat, or how the player went out."""

import html as htmllib
import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.tournament.conftest import play, positions
from tournament.lib.search import fold, search
from tournament.models import Player, Table
from tournament.services import draws, penalties, registration

pytestmark = pytest.mark.django_db

NAMES = ["Anna Berg", "Björk Ek", "Åsa Lind", "Asa Holm", "Zoë Ström", "Olle Öst"]


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def text(response):
    page = re.sub(r"<[^>]+>", " ", response.content.decode())
    page = " ".join(htmllib.unescape(page).split())
    return re.sub(r" ([,.;])", r"\1", page)


def found(response):
    """The names listed as found, in order."""
    names = re.findall(r'class="found-name" href="[^"]+">([^<]+)</a>', response.content.decode())
    return [htmllib.unescape(name) for name in names]


def find(client, tournament, query, **headers):
    url = reverse("public:find", args=[tournament.pk])
    return client.get(url, {"q": query}, headers=headers)


class Named:
    def __init__(self, name):
        self.name = name


# ---------------------------------------------------------------- the folding, worked out by hand


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("Björk", "bjork"),
        ("ÅSA", "asa"),
        ("Åsa Öberg", "asa oberg"),
        ("Zoë", "zoe"),
        ("Émile", "emile"),
        ("Søren Ærø", "soren aero"),
        ("Straße", "strasse"),
        ("  Anna   Berg ", "anna berg"),
        ("Ｊｏｎ", "jon"),  # full-width letters (NFKD)
    ],
)
def test_fold_drops_case_accents_and_extra_blanks(text, folded):
    assert fold(text) == folded


def test_search_puts_names_starting_with_the_query_first_then_the_swedish_way():
    people = [Named(n) for n in ["Lisa Sand", "Åsa Öberg", "Asa Berg", "Olle Sandberg"]]
    # "sa": a word starts with it in Lisa Sand and Olle Sandberg; inside Asa and Åsa only.
    assert [p.name for p in search("sa", people)] == [
        "Lisa Sand",
        "Olle Sandberg",
        "Asa Berg",
        "Åsa Öberg",
    ]
    assert [p.name for p in search("berg asa", people)] == ["Asa Berg", "Åsa Öberg"]
    assert search("   ", people) == []
    assert search("x", people) == []


# ---------------------------------------------------------------- the page


@pytest.fixture
def drawn(make_tournament, td_user):
    tournament = make_tournament(NAMES, min_hands=2)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="public-find")
    tables = list(Table.objects.current().filter(level=level).order_by("number"))
    return tournament, tables


def seat_of(tables, name):
    """(table number, seat number counted from 1) of a player in level 1."""
    for table in tables:
        where = positions(table)
        if name in where:
            return table.number, where[name] + 1
    raise AssertionError(name)


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("bjork", ["Björk Ek"]),
        ("BJÖRK", ["Björk Ek"]),
        ("asa", ["Asa Holm", "Åsa Lind"]),  # Å after A, the Swedish way
        ("ÅSA", ["Asa Holm", "Åsa Lind"]),
        ("strom", ["Zoë Ström"]),
        ("zoe", ["Zoë Ström"]),
        ("ost", ["Olle Öst"]),
        ("an", ["Anna Berg"]),
        ("anna b", ["Anna Berg"]),
        ("er", ["Anna Berg"]),  # inside "Berg"
    ],
)
def test_a_few_letters_find_the_players_accents_and_case_optional(client, drawn, query, names):
    tournament, _ = drawn
    response = find(client, tournament, query)
    assert response.status_code == 200
    assert found(response) == names


def test_each_player_found_gets_his_table_and_seat(client, drawn):
    tournament, tables = drawn
    table, seat = seat_of(tables, "Björk Ek")
    response = find(client, tournament, "bjork")
    page = text(response)
    assert f"Björk Ek Level 1: table {table}, seat {seat} · score card" in page
    body = response.content.decode()
    björk = Player.objects.get(tournament=tournament, name="Björk Ek")
    assert f'href="/t/{tournament.pk}/player/{björk.pk}/"' in body
    assert f'data-poll-url="/t/{tournament.pk}/find/?q=bjork&amp;lang=en"' in body
    assert 'value="bjork"' in body  # what was typed stays in the box


def test_no_match_says_so(client, drawn):
    tournament, _ = drawn
    response = find(client, tournament, "xyz")
    assert response.status_code == 200
    assert found(response) == []
    assert "No player found for “xyz”. Check the spelling, or type fewer letters." in text(response)


def test_an_empty_or_overlong_query_is_refused_in_place(client, drawn):
    tournament, _ = drawn
    response = find(client, tournament, "  ")
    assert response.status_code == 400
    assert "Type a few letters of your name." in text(response)
    response = find(client, tournament, "x" * 81)
    assert response.status_code == 400
    assert "A name is at most 80 characters." in text(response)
    assert 'value="' + "x" * 81 + '"' in response.content.decode()
    # The page without a query is the empty form.
    response = client.get(reverse("public:find", args=[tournament.pk]))
    assert response.status_code == 200
    assert "Type a few letters" not in text(response)
    # Nothing to follow yet but the TD's announcements, which it shows (issue 34 §2).
    assert "data-poll-stop" not in response.content.decode()


def test_before_the_draw_a_player_is_registered(client, make_tournament):
    tournament = make_tournament(NAMES)
    page = text(find(client, tournament, "olle"))
    assert "Olle Öst Registered: the draw is not made yet. Look again when it is." in page


def test_a_withdrawn_player_is_told_so_not_left_unfound(client, make_tournament, td_user):
    """Olle was drawn, did not come and was withdrawn before play: searching his name says
    he is withdrawn, instead of finding no one."""
    from tournament.services import draws, registration

    tournament = make_tournament(NAMES)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="late")
    olle = Player.objects.get(tournament=tournament, name="Olle Öst")
    registration.withdraw_player(player=olle, actor=td_user)
    page = text(find(client, tournament, "olle"))
    assert "Olle Öst Withdrawn: not in the draw." in page
    assert "No player found" not in page


def test_winner_waits_loser_is_out_and_disqualified_says_so(client, drawn, td_user):
    tournament, (first, second) = drawn
    by_seat = {p: n for n, p in positions(first).items()}
    play(first, 6, -2, -4)
    play(first, 1, 1, -2)  # over: seat 1 wins with 7; seat 2 -1 (2nd); seat 3 -6 (3rd)
    victim = Player.objects.get(tournament=tournament, name=positions(second).popitem()[0])
    for kind in ("slow", "slow", "conduct"):
        penalties.give_penalty(tournament=tournament, player=victim, kind=kind, actor=td_user)

    page = text(find(client, tournament, by_seat[0]))
    assert f"{by_seat[0]} Won table 1 at level 1. Next: the draw of level 2, which the TD" in page
    # Standings now: the 3 still in (table 2's two players left, table 1's winner), then
    # table 1's 2nd and 3rd; the disqualified player last.
    page = text(find(client, tournament, by_seat[1]))
    assert f"{by_seat[1]} Out at level 1: place 4 in the standings." in page
    assert "Place 2 at table 1, with -1 points." in page
    page = text(find(client, tournament, by_seat[2]))
    assert f"{by_seat[2]} Out at level 1: place 5 in the standings." in page
    page = text(find(client, tournament, victim.name))
    assert f"{victim.name} Disqualified." in page


def test_the_champion_is_told_so(client, make_tournament, td_user):
    tournament = make_tournament(["Åsa Lind", "Bo Ek"], min_hands=1)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="final")
    table = level.tables.get()
    play(table, 4, -4)
    draws.advance(tournament=tournament, actor=td_user)
    champion = tournament.players.get(pk=table.seats.get(position=0).player_id)
    page = text(find(client, tournament, champion.name))
    assert f"{champion.name} Champion!" in page


def test_many_matches_list_twenty_and_ask_for_more_letters(client, td_user):
    tournament = registration.create_tournament(actor=td_user, name="Many")
    for number in range(1, 26):
        registration.register_player(tournament=tournament, actor=td_user, name=f"Spelare {number}")
    response = find(client, tournament, "spelare")
    assert len(found(response)) == 20
    assert "More players match: type more letters of the name." in text(response)
    assert found(find(client, tournament, "spelare 2")) == [
        "Spelare 2",
        "Spelare 20",
        "Spelare 21",
        "Spelare 22",
        "Spelare 23",
        "Spelare 24",
        "Spelare 25",
        "Spelare 12",
    ]


def test_a_kept_search_page_makes_no_form(client, drawn, monkeypatch):
    """The text searched is checked by the search form's own field; the form itself is made
    only for the page around the region: once for a page shown first, not for the same page
    kept, nor for its polls. A refused text still shows its message in the page (in Swedish
    too), and a text is cleaned as the form cleans it."""
    from tournament.views.public import pages

    made = []

    class CountedForm(pages.PlayerSearchForm):
        def __init__(self, *args, **kwargs):
            made.append(args)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(pages, "PlayerSearchForm", CountedForm)
    tournament, _ = drawn
    response = find(client, tournament, "anna")
    assert response.status_code == 200 and found(response) == ["Anna Berg"]
    assert len(made) == 1
    rev = re.search(r'data-poll-rev="([^"]+)"', response.content.decode()).group(1)
    again = find(client, tournament, "anna")
    assert again.status_code == 200 and again.content == response.content
    url = reverse("public:find", args=[tournament.pk])
    polled = client.get(url, {"q": "anna", "rev": rev}, headers={"HX-Request": "true"})
    assert polled.status_code == 204
    assert len(made) == 1
    response = find(client, tournament, "x" * 81, accept_language="sv")
    assert response.status_code == 400
    assert "Ett namn har högst 80 tecken." in text(response)
    assert len(made) == 2
    # Blanks around the text are dropped, as the form's field does (strip=True).
    response = find(client, tournament, "  berg  ")
    assert response.status_code == 200 and found(response) == ["Anna Berg"]
    # A NUL character is refused by the field's own validators, as by the form.
    response = find(client, tournament, "an\x00na")
    assert response.status_code == 400 and found(response) == []
