"""The TD's draw pages: the first draw, a level's seating with its redraws, closing a level."""

import re
import uuid
from datetime import UTC, datetime

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone

from tests.tournament.conftest import play, play_named
from tournament.demo.autoplay import simulate
from tournament.models import Draw, FormSubmission, Level, Table
from tournament.services import draws, registration

pytestmark = pytest.mark.django_db

# Players 1..7 as tests/tournament/conftest.py registers them.
SEVEN = ["Anna", "Bo", "Cia", "Dan", "Eva", "Filip", "Gun"]


def url(name, tournament, *args):
    return reverse(name, args=[tournament.pk, *args])


def key():
    return str(uuid.uuid4())


def texts(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


def seating(html):
    """(table, [(seat, player, deals first?)]) as the level page shows the current draw."""
    section = html[html.index('class="card current-draw"') : html.index('class="card redraw"')]
    return parse_tables(section)


def parse_tables(section):
    tables = []
    for block in section.split('<div class="table-seats">')[1:]:
        number = int(re.search(r"Table (\d+)", block).group(1))
        seats = [
            (int(no), name, "deals first" in rest)
            for no, name, rest in re.findall(
                r'Seat (\d+)</span>\s*<span class="seat-player">([^<]+)</span>(.*?)</li>',
                block,
                re.S,
            )
        ]
        tables.append((number, seats))
    return tables


def shown_draw(td_client, tournament, level=1):
    """The id of the draw the level page's redraw form stands on (its hidden field)."""
    html = td_client.get(url("td:level", tournament, level)).content.decode()
    return re.search(r'<input type="hidden" name="draw" value="(\d+)"', html).group(1)


@pytest.fixture
def seeds(monkeypatch):
    """The draws' seeds in order, instead of the secure source (to work results out)."""
    queue = []
    monkeypatch.setattr(draws, "new_seed", lambda: queue.pop(0))
    return queue


# ---------------------------------------------------------------- refusals for every URL

GETS = ["td:draw", "td:advance", "td:standings", "td:standings_projector"]
LEVEL_GETS = ["td:level", "td:level_projector", "td:level_print"]
POSTS = [("td:draw", ()), ("td:advance", ()), ("td:redraw", (1,))]
ALL_FIELDS = {"reason": "x", "level": "1", "confirm": "1"}  # whatever any of them takes


@pytest.fixture
def drawn(make_tournament, td_user):
    tournament = make_tournament(7)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="seed-one")
    return tournament


def every_url(tournament):
    return [url(n, tournament) for n in GETS] + [url(n, tournament, 1) for n in LEVEL_GETS]


def test_anonymous_goes_to_login_everywhere(client, drawn):
    for address in every_url(drawn):
        response = client.get(address)
        assert response.status_code == 302, address
        assert response["Location"].startswith(reverse("login") + "?next=")
    for name, args in POSTS:
        response = client.post(url(name, drawn, *args), ALL_FIELDS | {"submission_key": key()})
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert Draw.objects.count() == 1 and Level.objects.count() == 1


def test_non_staff_is_refused_everywhere(client, outsider, drawn):
    client.force_login(outsider)
    for address in every_url(drawn):
        assert client.get(address).status_code == 403, address
    for name, args in POSTS:
        response = client.post(url(name, drawn, *args), ALL_FIELDS | {"submission_key": key()})
        assert response.status_code == 403
    assert Draw.objects.count() == 1 and Level.objects.count() == 1


def test_unknown_tournament_or_level_is_404(td_client, drawn):
    for name in GETS:
        assert td_client.get(reverse(name, args=[999])).status_code == 404
    for name in LEVEL_GETS:
        assert td_client.get(reverse(name, args=[999, 1])).status_code == 404
        assert td_client.get(url(name, drawn, 2)).status_code == 404
    response = td_client.post(url("td:redraw", drawn, 2), {"submission_key": key(), "reason": "x"})
    assert response.status_code == 404
    assert td_client.post(reverse("td:advance", args=[999]), {}).status_code == 404


def test_advance_takes_get_and_post_only(td_client, drawn):
    assert td_client.get(url("td:advance", drawn)).status_code == 200  # the confirmation
    assert td_client.put(url("td:advance", drawn)).status_code == 405


# ---------------------------------------------------------------- the first draw


def test_the_draw_page_says_what_the_draw_makes(td_client, make_tournament):
    tournament = make_tournament(7)
    response = td_client.get(url("td:draw", tournament))
    html = response.content.decode()
    assert response.status_code == 200
    # 7 players: 7 % 3 == 1, so two heads-up tables and one table of 3.
    assert "7 players → 3 tables" in html
    assert "1 × table of 3" in html and "2 × heads-up table of 2" in html
    assert 'name="submission_key"' in html
    assert ">Draw level 1</button>" in html
    assert not Level.objects.exists()


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (9, ["3 × table of 3"]),
        (8, ["2 × table of 3", "1 × heads-up table of 2"]),
        (4, ["2 × heads-up table of 2"]),
        (2, ["1 × heads-up table of 2"]),
    ],
)
def test_the_table_sizes_follow_the_rules(td_client, make_tournament, players, expected):
    html = td_client.get(url("td:draw", make_tournament(players))).content.decode()
    for text in expected:
        assert text in html
    if players in (2, 4):
        assert "table of 3" not in html


def test_drawing_makes_level_one_once(td_client, td_user, make_tournament, seeds):
    tournament = make_tournament(7)
    seeds.append("seed-one")
    submission = key()
    response = td_client.post(url("td:draw", tournament), {"submission_key": submission})
    assert response.status_code == 302
    assert response["Location"] == url("td:level", tournament, 1)
    assert texts(response) == ["Level 1 is drawn."]
    level = Level.objects.get(tournament=tournament)
    draw = Draw.objects.get(level=level)
    assert (level.number, draw.number, draw.seed, draw.created_by) == (1, 1, "seed-one", td_user)
    assert sorted(level.tables.values_list("number", flat=True)) == [1, 2, 3]
    # The same form sent again (a double click): nothing more happens.
    again = td_client.post(url("td:draw", tournament), {"submission_key": submission})
    assert again.status_code == 302 and again["Location"] == url("td:level", tournament, 1)
    assert Level.objects.count() == 1 and Draw.objects.count() == 1
    assert FormSubmission.objects.filter(key=submission).count() == 1


def test_a_second_draw_is_refused_in_place(td_client, drawn):
    page = td_client.get(url("td:draw", drawn)).content.decode()
    assert "Level 1 is drawn already" in page and "Draw level 1</button>" not in page
    # A stale form (a second tab) with a fresh key: the service refuses, shown in place.
    response = td_client.post(url("td:draw", drawn), {"submission_key": key()})
    html = response.content.decode()
    assert response.status_code == 400
    assert 'role="alert"' in html
    assert "The first draw is already made; redo it instead." in html
    assert Draw.objects.count() == 1 and not FormSubmission.objects.exists()


def test_fewer_than_two_players_cannot_be_drawn(td_client, make_tournament):
    tournament = make_tournament(1)
    page = td_client.get(url("td:draw", tournament)).content.decode()
    assert "A draw needs at least 2 players; this tournament has 1." in page
    assert "Draw level 1</button>" not in page
    response = td_client.post(url("td:draw", tournament), {"submission_key": key()})
    assert response.status_code == 400
    assert "A draw needs at least 2 players." in response.content.decode()
    assert not Level.objects.exists()


def test_a_draw_form_without_its_key_is_refused(td_client, make_tournament):
    tournament = make_tournament(3)
    response = td_client.post(url("td:draw", tournament), {"submission_key": "junk"})
    assert response.status_code == 400
    assert "This form is out of date: reload the page and send it again." in (
        response.content.decode()
    )
    assert not Level.objects.exists()


# ---------------------------------------------------------------- a level and its redraws


def test_the_level_page_shows_tables_seats_dealers_and_seed(td_client, drawn):
    response = td_client.get(url("td:level", drawn, 1))
    html = response.content.decode()
    assert response.status_code == 200
    # seed-one seats start numbers (3, 2, 6), (5, 4), (1, 7); first dealers at 2, 0, 1.
    assert seating(html) == [
        (1, [(1, "Cia", False), (2, "Bo", False), (3, "Filip", True)]),
        (2, [(1, "Eva", True), (2, "Dan", False)]),
        (3, [(1, "Anna", False), (2, "Gun", True)]),
    ]
    assert '<code class="seed">seed-one</code>' in html
    assert "The seating is reproducible from the seed" in html
    assert "Draw 1 (current)" in html and "Superseded draws" not in html
    assert '<label for="id_reason">Reason for redoing the draw</label>' in html
    assert ">Redo the draw</button>" in html
    table = Table.objects.get(level__tournament=drawn, number=1)
    assert url("td:table", drawn, table.pk) in html
    for name in ("td:level_projector", "td:level_print", "td:table_cards"):
        assert url(name, drawn, 1) in html


def test_redrawing_with_a_reason_keeps_the_old_draw(td_client, td_user, drawn, seeds):
    seeds.append("seed-two")
    submission = key()
    first = Draw.objects.get(level__tournament=drawn)
    assert shown_draw(td_client, drawn) == str(first.pk)
    sent = {"submission_key": submission, "draw": str(first.pk), "reason": "Eva was late"}
    response = td_client.post(url("td:redraw", drawn, 1), sent)
    assert response.status_code == 302 and response["Location"] == url("td:level", drawn, 1)
    assert texts(response) == ["Level 1 is drawn again. The old draw is kept below."]
    old, new = Draw.objects.filter(level__tournament=drawn).order_by("number")
    assert old.superseded_at is not None and new.superseded_at is None
    assert (new.number, new.seed, new.reason, new.created_by) == (
        2,
        "seed-two",
        "Eva was late",
        td_user,
    )
    # The same form again: no third draw.
    again = td_client.post(url("td:redraw", drawn, 1), sent)
    assert again.status_code == 302
    assert Draw.objects.filter(level__tournament=drawn).count() == 2

    html = td_client.get(url("td:level", drawn, 1)).content.decode()
    # seed-two seats (7, 6, 5), (3, 4), (2, 1); first dealers at 1, 1, 0.
    assert seating(html) == [
        (1, [(1, "Gun", False), (2, "Filip", True), (3, "Eva", False)]),
        (2, [(1, "Cia", False), (2, "Dan", True)]),
        (3, [(1, "Bo", True), (2, "Anna", False)]),
    ]
    assert "Draw 2 (current)" in html and '<code class="seed">seed-two</code>' in html
    assert "Why it was redone" in html
    old_part = html[html.index("Superseded draws") :]
    assert "<h3>Draw 1</h3>" in old_part
    assert '<code class="seed">seed-one</code>' in old_part
    assert '<dd class="reason">Eva was late</dd>' in old_part
    # The page shows the venue's local time (TIME_ZONE), not UTC: near midnight the dates differ.
    when = timezone.localtime(old.superseded_at).strftime("%Y-%m-%d %H:%M:%S")
    assert f"<dd>{when}, director</dd>" in old_part
    assert parse_tables(old_part)[0] == (
        1,
        [(1, "Cia", False), (2, "Bo", False), (3, "Filip", True)],
    )


def redraw_disclosure(html):
    """The <details> around the redraw form, from its opening tag to its end."""
    return re.search(
        r"<details[^>]*>\s*<summary>Redo the draw of level 1….*?</details>", html, re.S
    )


def test_the_redraw_form_sits_behind_a_second_click(td_client, drawn):
    """One mistaken click replaced the seating the room saw: the form is folded away."""
    html = td_client.get(url("td:level", drawn, 1)).content.decode()
    details = redraw_disclosure(html).group(0)
    assert details.startswith('<details class="confirm-first">')  # closed
    assert 'action="' + url("td:redraw", drawn, 1) + '"' in details
    assert "Table cards printed for the old tables are then no longer right" in details


def test_a_redraw_without_a_reason_is_refused_in_place(td_client, drawn):
    draw = shown_draw(td_client, drawn)
    response = td_client.post(
        url("td:redraw", drawn, 1), {"submission_key": key(), "draw": draw, "reason": "  "}
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert 'role="alert"' in html and "The draw was not redone." in html
    assert "Reason must not be empty." in html
    # The form it was typed in is shown open, with its error.
    details = redraw_disclosure(html).group(0)
    assert details.startswith('<details class="confirm-first" open>')
    assert "Reason must not be empty." in details
    assert Draw.objects.filter(level__tournament=drawn).count() == 1


def test_an_overlong_reason_is_refused_and_what_was_typed_stays(td_client, drawn):
    typed = "Åsa " + "x" * 300
    draw = shown_draw(td_client, drawn)
    response = td_client.post(
        url("td:redraw", drawn, 1), {"submission_key": key(), "draw": draw, "reason": typed}
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert "Reason can have at most 300 characters (it has 304)." in html
    assert f">\n{typed}</textarea>" in html
    assert Draw.objects.filter(level__tournament=drawn).count() == 1
    assert not FormSubmission.objects.exists()


def test_a_redraw_from_a_tab_showing_an_older_draw_is_refused(td_client, drawn, seeds, settings):
    """Level 1's page open in two tabs on draw 1: tab A redoes the draw; tab B's redo would
    replace draw 2, which the TD never saw. Refused in place (409), with when, by whom
    and why it was redone, the reason as typed; draw 2 stays."""
    settings.TIME_ZONE = "Europe/Stockholm"
    seeds.extend(["seed-two", "(refused: taken before the checks)", "seed-three"])
    tab_a, tab_b = shown_draw(td_client, drawn), shown_draw(td_client, drawn)
    redraw = url("td:redraw", drawn, 1)
    done = td_client.post(
        redraw, {"submission_key": key(), "draw": tab_a, "reason": "Eva was late"}
    )
    assert done.status_code == 302
    second = Draw.objects.get(level__tournament=drawn, number=2)
    # 07:45 UTC on 9 May 2026: 09:45 at the venue (Stockholm, summer time).
    Draw.objects.filter(pk=second.pk).update(created_at=datetime(2026, 5, 9, 7, 45, tzinfo=UTC))

    response = td_client.post(
        redraw, {"submission_key": key(), "draw": tab_b, "reason": "Bo sat twice"}
    )
    assert response.status_code == 409
    html = response.content.decode()
    assert "The draw was not redone." in html
    assert (
        "The draw of level 1 was already redone at 09:45 by director (reason: Eva was "
        "late): check the new seating; redo it again from the fresh page if needed."
    ) in html
    details = redraw_disclosure(html).group(0)
    assert details.startswith('<details class="confirm-first" open>')
    assert ">\nBo sat twice</textarea>" in details  # the reason as typed
    # The page shows draw 2 now, and its form stands on it.
    assert "Draw 2 (current)" in html and '<code class="seed">seed-two</code>' in html
    assert f'<input type="hidden" name="draw" value="{second.pk}"' in details
    current = Draw.objects.current().get(level__tournament=drawn)
    assert (current.pk, current.reason) == (second.pk, "Eva was late")
    assert Draw.objects.filter(level__tournament=drawn).count() == 2
    assert FormSubmission.objects.count() == 1  # tab A's only

    # Redone again from that page, seeing draw 2: a deliberate third draw.
    again = td_client.post(
        redraw, {"submission_key": key(), "draw": str(second.pk), "reason": "Bo sat twice"}
    )
    assert again.status_code == 302
    assert Draw.objects.current().get(level__tournament=drawn).number == 3


def test_a_redraw_form_without_its_draw_is_refused(td_client, drawn):
    response = td_client.post(url("td:redraw", drawn, 1), {"submission_key": key(), "reason": "x"})
    assert response.status_code == 400
    assert "This form is out of date: reload the page and send it again." in (
        response.content.decode()
    )
    assert Draw.objects.filter(level__tournament=drawn).count() == 1


def test_after_the_first_hand_the_draw_is_locked(td_client, td_user, drawn):
    page = td_client.get(url("td:level", drawn, 1)).content.decode()
    stale_key = re.search(
        r'action="[^"]*/redraw/".*?name="submission_key" value="([^"]+)"', page, re.S
    ).group(1)
    draw = re.search(r'name="draw" value="(\d+)"', page).group(1)
    table = Table.objects.get(level__tournament=drawn, number=2)
    play(table, 2, -2, actor=td_user)

    html = td_client.get(url("td:level", drawn, 1)).content.decode()
    assert "The draw is locked: the first hand of this level is recorded" in html
    assert ">Redo the draw</button>" not in html and 'name="reason"' not in html
    # The form still open in another tab is sent: refused, the message shown.
    response = td_client.post(
        url("td:redraw", drawn, 1),
        {"submission_key": stale_key, "draw": draw, "reason": "Too late"},
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert "The first hand of this level is recorded: the draw is locked." in html
    assert "The draw is locked: the first hand of this level is recorded" in html
    assert Draw.objects.filter(level__tournament=drawn).count() == 1
    assert not FormSubmission.objects.exists()


def test_the_redraw_url_itself_leads_to_the_level(td_client, drawn):
    response = td_client.get(url("td:redraw", drawn, 1))
    assert response.status_code == 302 and response["Location"] == url("td:level", drawn, 1)


# ---------------------------------------------------------------- closing a level


def test_advancing_while_tables_play_says_which_on_the_confirmation(td_client, td_user, drawn):
    table = Table.objects.get(level__tournament=drawn, number=2)
    play(table, 2, -2, actor=td_user)  # min_hands is 20: nothing is over
    response = td_client.post(
        url("td:advance", drawn), {"submission_key": key(), "level": "1", "confirm": "1"}
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert "The level was not closed." in html
    assert "Not every table is over yet (still playing: tables 1, 2, 3)." in html
    assert "3 tables still playing" in html and 'name="confirm"' not in html
    level = Level.objects.get(tournament=drawn)
    assert level.closed_at is None and Level.objects.count() == 1
    assert not FormSubmission.objects.exists()


def test_advancing_without_a_key_changes_nothing(td_client, drawn):
    response = td_client.post(url("td:advance", drawn), {"confirm": "1", "level": "1"})
    assert response.status_code == 400
    assert "This form is out of date: reload the page and send it again." in (
        response.content.decode()
    )
    assert Level.objects.get(tournament=drawn).closed_at is None


def test_advancing_draws_the_next_level_once(td_client, td_user, make_tournament, seeds):
    tournament = make_tournament(7, min_hands=1)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="seed-one")
    tables = {t.number: t for t in Table.objects.filter(level__tournament=tournament)}
    play_named(tables[1], {"Cia": 3, "Bo": -1, "Filip": -2}, actor=td_user)
    play_named(tables[2], {"Eva": -1, "Dan": 1}, actor=td_user)
    # Table 3 is still playing: the level page offers no button yet.
    assert "Close the level" not in td_client.get(url("td:level", tournament, 1)).content.decode()
    play_named(tables[3], {"Anna": 4, "Gun": -4}, actor=td_user)
    page = td_client.get(url("td:level", tournament, 1)).content.decode()
    assert "Every table of this level is over." in page
    advance = url("td:advance", tournament)
    assert f'<a class="button" href="{advance}">Close the level and draw the next</a>' in page

    # The link leads to the confirmation; nothing is closed before it is confirmed.
    confirm = td_client.get(advance).content.decode()
    assert ">Close level 1 and draw level 2</button>" in confirm
    assert Level.objects.filter(tournament=tournament).count() == 1
    seeds.append("seed-three")
    submission = re.search(r'name="submission_key" value="([^"]+)"', confirm).group(1)
    data = {"submission_key": submission, "level": "1", "confirm": "1"}
    response = td_client.post(advance, data)
    assert response.status_code == 302 and response["Location"] == url("td:level", tournament, 2)
    assert texts(response) == ["Level 1 is closed and level 2 is drawn."]
    # Winners Cia (3), Dan (4), Anna (1): one table of 3.
    level2 = Level.objects.get(tournament=tournament, number=2)
    seated = Table.objects.get(level=level2).seats.values_list("player__name", flat=True)
    assert sorted(seated) == ["Anna", "Cia", "Dan"]
    assert Draw.objects.get(level=level2).seed == "seed-three"
    assert Level.objects.get(tournament=tournament, number=1).closed_at is not None
    again = td_client.post(advance, data)
    assert again.status_code == 302 and again["Location"] == url("td:level", tournament, 2)
    assert Level.objects.filter(tournament=tournament).count() == 2
    # A closed level's draw is locked for good.
    closed = td_client.get(url("td:level", tournament, 1)).content.decode()
    assert "The draw is locked: this level is closed." in closed
    assert "Close the level" not in closed


# ---------------------------------------------------------------- query counts


def level_page_queries(td_client, players, django_assert_num_queries, td_user):
    outcome = simulate(players=players, seed="q", min_hands=2, stop_after_level=1, actor=td_user)
    tournament = outcome.tournament
    level1 = Level.objects.get(tournament=tournament, number=1)
    draws_before = Draw.objects.filter(level=level1).count()
    # session, user, tournament, level, draws, tables, seats with players; the alerts bar,
    # rendered with the page: the dashboard's 7 and the revision token.
    with django_assert_num_queries(15):
        response = td_client.get(url("td:level", tournament, 1))
    assert response.status_code == 200
    assert response.content.decode().count('<div class="table-seats">') == len(
        Table.objects.filter(level=level1)
    )
    return draws_before


def test_the_level_page_costs_the_same_at_9_and_60_players(
    td_client, td_user, django_assert_num_queries
):
    level_page_queries(td_client, 9, django_assert_num_queries, td_user)
    level_page_queries(td_client, 60, django_assert_num_queries, td_user)


def test_superseded_draws_cost_no_more_queries(
    td_client, td_user, make_tournament, django_assert_num_queries
):
    tournament = make_tournament(9)
    level = draws.draw_first_level(tournament=tournament, actor=td_user)
    for n in range(3):
        draws.redraw_level(level=level, actor=td_user, reason=f"Redo {n}")
    with django_assert_num_queries(15):  # as above
        html = td_client.get(url("td:level", tournament, 1)).content.decode()
    assert html.count('class="card old-draw"') == 3


def test_a_withdrawn_player_is_not_drawn(td_client, td_user, make_tournament):
    tournament = make_tournament(4)
    registration.withdraw_player(player=tournament.players.get(name="Dan"), actor=td_user)
    html = td_client.get(url("td:draw", tournament)).content.decode()
    assert "3 players → 1 table" in html and "1 × table of 3" in html


def test_the_pages_speak_swedish(td_client, td_user, drawn):
    sv = {"Accept-Language": "sv"}
    html = td_client.get(url("td:level", drawn, 1), headers=sv).content.decode()
    assert "Nivå 1" in html and ">Gör om lottningen</button>" in html
    assert "Motivering till att lottningen görs om" in html
    play(Table.objects.get(level__tournament=drawn, number=2), 2, -2, actor=td_user)
    html = td_client.get(url("td:level", drawn, 1), headers=sv).content.decode()
    assert "Lottningen är låst: nivåns första hand är registrerad" in html
    projector = td_client.get(url("td:level_projector", drawn, 1), headers=sv).content.decode()
    assert "Nivå 1: hitta din plats" in projector and "Bord 3 · Plats 1" in projector
    standings = td_client.get(url("td:standings", drawn), headers=sv).content.decode()
    assert "Placering vid bordet" in standings and ">Kvar</span>" in standings
