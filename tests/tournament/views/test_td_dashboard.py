"""The tournament's home for the TD: next steps, the live dashboard, the champion."""

import re
from datetime import timedelta
from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournament.conftest import play, play_named, single_table
from tests.tournament.views.minute import one_minute
from tournament.models import Table
from tournament.selectors.dashboard import dashboard
from tournament.selectors.tokens import revision_token
from tournament.services import calls, draws, hands, penalties, registration
from tournament.services.announcements import announce
from tournament.services.revisor_stations import create_stations

pytestmark = pytest.mark.django_db


def home(tournament):
    return reverse("td:tournament", args=[tournament.pk])


def live(tournament):
    return reverse("td:live", args=[tournament.pk])


def rev_of(html):
    return re.search(r'data-poll-rev="([^"]+)"', html).group(1)


def level_tables(tournament, level=1):
    return {
        t.number: t
        for t in Table.objects.current().filter(level__tournament=tournament, level__number=level)
    }


def row_order(html):
    """The table numbers in the order of the dashboard's rows."""
    return [int(n) for n in re.findall(r'<tr class="dash-row [^"]*" id="table-(\d+)"', html)]


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize("name", ["td:tournament", "td:live"])
def test_anonymous_goes_to_login(client, make_tournament, name):
    tournament = make_tournament(3)
    url = reverse(name, args=[tournament.pk])
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert "next=" in response["Location"]


@pytest.mark.parametrize("name", ["td:tournament", "td:live"])
def test_non_staff_is_refused(client, outsider, make_tournament, name):
    tournament = make_tournament(3)
    client.force_login(outsider)
    assert client.get(reverse(name, args=[tournament.pk])).status_code == 403


@pytest.mark.parametrize("name", ["td:tournament", "td:live"])
def test_unknown_tournament_is_404(td_client, name):
    assert td_client.get(reverse(name, args=[999_999])).status_code == 404
    assert td_client.get(reverse(name, args=[999_999]) + "?rev=1.0.5").status_code == 404


# ---------------------------------------------------------------- before the first draw


def test_before_the_draw_says_what_to_do_next(td_client, make_tournament):
    tournament = make_tournament(5)
    response = td_client.get(home(tournament))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Next steps" in html
    assert "Players registered: 5" in html
    for name in ("td:players", "td:settings", "td:draw"):
        assert f'href="{reverse(name, args=[tournament.pk])}"' in html
    assert "a draw needs at least 2 players" not in html
    assert "dash-tables" not in html


def test_before_the_draw_with_one_player_says_a_draw_needs_two(td_client, make_tournament):
    tournament = make_tournament(1)
    html = td_client.get(home(tournament)).content.decode()
    assert "Players registered: 1" in html
    assert "a draw needs at least 2 players" in html


def test_withdrawn_players_are_not_counted(td_client, make_tournament, td_user):
    tournament = make_tournament(4)
    registration.withdraw_player(player=tournament.players.get(name="Dan"), actor=td_user)
    assert "Players registered: 3" in td_client.get(home(tournament)).content.decode()


# ---------------------------------------------------------------- during play


def test_one_table_in_play(td_client, make_tournament, td_user):
    tournament = make_tournament(["Åsa", "Björn", "Cecilia"])
    table = single_table(tournament, td_user)
    play_named(table, {"Åsa": 7, "Björn": -2, "Cecilia": -5})
    play_named(table, {"Åsa": -1, "Björn": 4, "Cecilia": -3})
    response = td_client.get(home(tournament))
    assert response.status_code == 200
    assert response["Vary"] and "HX-Request" in response["Vary"]
    html = response.content.decode()
    assert "Level 1: live" in html
    assert f'href="{reverse("td:table", args=[tournament.pk, table.pk])}"' in html
    # totals: Åsa 7-1=+6, Björn -2+4=+2, Cecilia -5-3=-8; Åsa leads.
    assert re.search(
        r'<li class="leads">\s*<span class="name">Åsa</span>\s*<span class="total">\+6<', html
    )
    assert re.search(
        r'<li class="">\s*<span class="name">Björn</span>\s*<span class="total">\+2<', html
    )
    assert re.search(
        r'<li class="">\s*<span class="name">Cecilia</span>\s*<span class="total">-8<', html
    )
    assert re.search(r'<td class="dash-leader"[^>]*>\s*Åsa\s*</td>', html)
    assert "2 / 20" in html
    assert "Fantasyland</span>" not in html  # no extension yet
    assert "0 of 1 table finished" in html
    assert "Still playing: table 1." in html
    assert "Close level" not in html
    assert "just now" in html and "0 min ago" not in html  # the hand, a moment ago
    # The links of the level and the exports.
    for name in ("td:level", "td:level_projector", "td:level_print", "td:table_cards"):
        assert f'href="{reverse(name, args=[tournament.pk, 1])}"' in html
    for name in ("td:standings", "td:backup", "td:standings_csv", "td:hands_csv", "td:audit"):
        assert f'href="{reverse(name, args=[tournament.pk])}"' in html


def test_seats_are_listed_in_seat_order(td_client, make_tournament, td_user):
    tournament = make_tournament(3)
    table = single_table(tournament, td_user)
    html = td_client.get(home(tournament)).content.decode()
    names = re.findall(r'<span class="name">([^<]+)</span>', html)
    assert names == [s.player.name for s in table.seats.order_by("position")]


def test_no_hand_yet_shows_minutes_since_the_draw(td_client, make_tournament, td_user):
    tournament = make_tournament(3)
    single_table(tournament, td_user)
    html = td_client.get(home(tournament)).content.decode()
    assert "No hand yet (drawn just now)" in html
    assert re.search(r'<td class="dash-leader"[^>]*>\s*<span class="muted">—', html)


def test_fantasyland_extension_and_next_hand_in_fantasyland(td_client, make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 12, "Bo": -6, "Cia": -6}, fantasyland_names=["Anna"])
    html = td_client.get(home(tournament)).content.decode()
    assert "1 / 21" in html
    assert "20 + 1 Fantasyland" in html
    assert re.search(r'<td class="dash-fl"[^>]*>\s*Anna\s*</td>', html)
    assert re.search(
        r'Anna <abbr class="badge fl"[^>]*>FL</abbr></span>\s*<span class="total">\+12<', html
    )


def test_a_call_shows_with_its_kind_note_and_a_clear_form(td_client, make_tournament, td_user):
    tournament = make_tournament(3)
    table = single_table(tournament, td_user)
    calls.call_td(table=table, kind="dispute", note="Who won the back?", actor_label="Anna")
    html = td_client.get(home(tournament)).content.decode()
    assert "Call: Dispute" in html
    assert "Who won the back?" in html
    assert "since " in html
    clear = reverse("td:call_clear", args=[tournament.pk, table.pk])
    assert f'action="{clear}"' in html
    assert 'aria-label="Clear the call at table 1"' in html
    assert "1 call" in html
    form = html[html.index(f'action="{clear}"') :]
    form = form[: form.index("</form>")]
    assert 'name="submission_key"' in form and 'name="csrfmiddlewaretoken"' in form


def test_a_tie_after_the_required_hands_asks_the_td(td_client, make_tournament, td_user):
    tournament = make_tournament(3, min_hands=2)
    table = single_table(tournament, td_user)
    play(table, 5, 5, -10)
    play(table, 0, 0, 0)
    html = td_client.get(home(tournament)).content.decode()
    seats = list(table.seats.select_related("player").order_by("position"))
    assert f"Tie for first: {seats[0].player.name}, {seats[1].player.name}" in html
    assert "2 / 2" in html
    assert "1 tie" in html
    # Every table has played its hands: closing is up to the TD, whose next page says the
    # tie blocks it (tests/tournament/views/test_td_draws_close.py).
    advance = reverse("td:advance", args=[tournament.pk])
    assert f'<a class="button" href="{advance}">Close level and name the champion</a>' in html


def test_every_table_over_offers_to_close_the_level(td_client, make_tournament, td_user):
    tournament = make_tournament(6, min_hands=1)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="two")
    tables = level_tables(tournament)
    play(tables[1], 3, -3, 0)
    html = td_client.get(home(tournament)).content.decode()
    assert "Still playing: table 2." in html
    assert "Close level" not in html
    play(tables[2], 4, -4, 0)
    html = td_client.get(home(tournament)).content.decode()
    assert "2 of 2 tables finished" in html
    assert "Still playing" not in html
    advance = reverse("td:advance", args=[tournament.pk])
    # A link to the confirmation page: nothing is closed by this one click.
    assert f'<a class="button" href="{advance}">Close level and draw the next</a>' in html
    assert f'action="{advance}"' not in html
    assert "nothing is closed before you confirm" in html


def test_one_finished_table_offers_to_name_the_champion(td_client, make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo"], min_hands=1)
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 6, "Bo": -6})
    html = td_client.get(home(tournament)).content.decode()
    assert "Close level and name the champion</a>" in html
    assert "Finished: Anna is the champion" in html


def test_finished_tournament_shows_the_champion_and_stops_polling(
    td_client, make_tournament, td_user
):
    tournament = make_tournament(["Anna", "Bo"], min_hands=1)
    play_named(single_table(tournament, td_user), {"Anna": 6, "Bo": -6})
    draws.advance(tournament=tournament, actor=td_user)
    html = td_client.get(home(tournament)).content.decode()
    assert "Champion: Anna" in html
    assert f'href="{reverse("td:standings", args=[tournament.pk])}"' in html
    assert "data-poll-stop" in html
    assert "dash-tables" not in html


# ---------------------------------------------------------------- ordering and the summary


def test_tables_needing_the_td_come_first(td_client, make_tournament, td_user):
    """Five tables worked out by hand (min 2 hands):

    1: one hand, 30 minutes ago          -> silent
    2: one hand and a call               -> call
    3: two hands, a clear winner         -> finished
    4: two hands, tied for first         -> tie
    5: one hand just now                 -> playing
    Order: calls, ties, silent, playing, finished -> 2, 4, 1, 5, 3.
    """
    tournament = make_tournament([f"Player {n}" for n in range(15)], min_hands=2)
    # Drawn (and released) before table 1's hand: its quiet time counts from that hand.
    with mock.patch(
        "django.utils.timezone.now", return_value=timezone.now() - timedelta(minutes=31)
    ):
        draws.draw_first_level(tournament=tournament, actor=td_user, seed="five")
    t = level_tables(tournament)
    assert sorted(t) == [1, 2, 3, 4, 5]
    with mock.patch(
        "django.utils.timezone.now", return_value=timezone.now() - timedelta(minutes=30)
    ):
        play(t[1], 1, 0, -1)
    play(t[2], 2, 0, -2)
    calls.call_td(table=t[2], kind="misdeal")
    play(t[3], 3, 0, -3)
    play(t[3], 3, 0, -3)
    play(t[4], 5, 5, -10)
    play(t[4], 0, 0, 0)
    play(t[5], 1, -1, 0)
    html = td_client.get(home(tournament)).content.decode()
    assert row_order(html) == [2, 4, 1, 5, 3]
    assert "1 of 5 tables finished, 1 call, 1 tie, 1 silent table" in html
    assert "Silent for 30 min" in html
    assert "Still playing: tables 1, 2, 4, 5." in html
    assert "dash-row dash-attention" in html and "dash-row dash-finished" in html


def test_dashboard_selector_order_and_counts(make_tournament, td_user):
    """Six tables (18 players), min 20 hands, looked at 25 minutes after:

    1: call (other) made 2nd         2: hand 5 min ago  (playing)
    3: call (timeout) made 1st       4: hand 20 min ago (silent, quiet longer)
    5: hand 12 min ago (silent)      6: no hand, drawn 25 min ago (silent, quietest)
    Order: 3, 1 (calls by waiting), 6, 4, 5 (silent, quietest first), 2.
    """
    tournament = make_tournament([f"Player {n}" for n in range(18)])
    start = timezone.now()
    with mock.patch("django.utils.timezone.now", return_value=start):
        draws.draw_first_level(tournament=tournament, actor=td_user, seed="six")
    t = level_tables(tournament)

    def at(minutes, action):
        with mock.patch(
            "django.utils.timezone.now", return_value=start + timedelta(minutes=minutes)
        ):
            action()

    at(1, lambda: calls.call_td(table=t[3], kind="timeout"))
    at(2, lambda: calls.call_td(table=t[1], kind="other"))
    at(20, lambda: play(t[2], 1, 0, -1))
    at(5, lambda: play(t[4], 1, 0, -1))
    at(13, lambda: play(t[5], 1, 0, -1))
    board = dashboard(tournament, now=start + timedelta(minutes=25))
    assert [r.table.number for r in board.tables] == [3, 1, 6, 4, 5, 2]
    by_number = {r.table.number: r for r in board.tables}
    assert by_number[6].minutes_quiet == 25 and by_number[6].last_entry_at is None
    assert by_number[4].minutes_quiet == 20 and by_number[4].silent
    assert by_number[5].minutes_quiet == 12 and by_number[5].silent
    assert by_number[2].minutes_quiet == 5 and not by_number[2].silent
    assert (board.calls, board.ties, board.silent, board.finished) == (2, 0, 5, 0)
    assert board.playing_numbers == [1, 2, 3, 4, 5, 6]
    assert not board.all_over


def test_silent_means_more_than_ten_minutes(make_tournament, td_user):
    tournament = make_tournament(3)
    start = timezone.now()
    with mock.patch("django.utils.timezone.now", return_value=start):
        play(single_table(tournament, td_user), 1, 0, -1)
    ten = dashboard(tournament, now=start + timedelta(minutes=10))
    assert not ten.tables[0].silent and ten.silent == 0
    later = dashboard(tournament, now=start + timedelta(minutes=10, seconds=1))
    assert later.tables[0].silent and later.silent == 1


def test_a_settled_tie_is_a_finished_table(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"], min_hands=1)
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 5, "Bo": 5, "Cia": -10})
    row = dashboard(tournament).tables[0]
    assert {p.name for p in row.tied} == {"Anna", "Bo"}
    hands.settle_tie(
        table=table, actor=td_user, winner=tournament.players.get(name="Bo"), reason="Card draw"
    )
    board = dashboard(tournament)
    row = board.tables[0]
    assert row.is_over and row.winner.name == "Bo" and not row.tied
    assert [p.name for p in row.leaders] == ["Bo"]
    assert board.all_over and board.finished == 1


# ---------------------------------------------------------------- the live region


def test_live_region_204_when_unchanged_and_fresh_after_a_hand(td_client, make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    table = single_table(tournament, td_user)
    with one_minute():
        page = td_client.get(home(tournament)).content.decode()
        rev = rev_of(page)
        token = revision_token(tournament.pk)
        assert rev.startswith(token + ".")
        assert f'data-poll-url="{live(tournament)}"' in page

        fragment = td_client.get(live(tournament), headers={"HX-Request": "true"})
        assert fragment.status_code == 200
        assert "HX-Request" in fragment["Vary"]
        body = fragment.content.decode()
        assert body.lstrip().startswith('<section class="dash"')
        assert "<html" not in body
        assert "No hand yet" in body

        same = td_client.get(live(tournament) + f"?rev={rev}", headers={"HX-Request": "true"})
        assert same.status_code == 204
        assert "HX-Request" in same["Vary"]
        assert same.content == b""

        play_named(table, {"Anna": 9, "Bo": -4, "Cia": -5})  # as the revisor's tablet would
        fresh = td_client.get(live(tournament) + f"?rev={rev}", headers={"HX-Request": "true"})
        assert fresh.status_code == 200
        assert "HX-Request" in fresh["Vary"]
        html = fresh.content.decode()
        assert "1 / 20" in html and "+9" in html
        assert rev_of(html) != rev
        assert (
            td_client.get(
                live(tournament) + f"?rev={rev_of(html)}", headers={"HX-Request": "true"}
            ).status_code
            == 204
        )


def test_live_rev_moves_with_the_minute(td_client, make_tournament, td_user):
    tournament = make_tournament(3)
    single_table(tournament, td_user)
    rev = rev_of(td_client.get(home(tournament)).content.decode())
    later = timezone.now() + timedelta(minutes=1)
    with mock.patch("django.utils.timezone.now", return_value=later):
        response = td_client.get(live(tournament) + f"?rev={rev}", headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert rev_of(response.content.decode()) != rev


def test_live_without_htmx_is_the_whole_page(td_client, make_tournament, td_user):
    tournament = make_tournament(3)
    single_table(tournament, td_user)
    response = td_client.get(live(tournament))
    assert response.status_code == 200
    assert "HX-Request" in response["Vary"]
    assert "<html" in response.content.decode()


def test_tournament_page_for_htmx_is_the_region(td_client, make_tournament):
    tournament = make_tournament(3)
    response = td_client.get(home(tournament), headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "<html" not in response.content.decode()
    assert "Next steps" in response.content.decode()


# ---------------------------------------------------------------- queries


def _record_a_few(tournament, td_user, count):
    tables = level_tables(tournament)
    for number in list(tables)[:count]:
        table = tables[number]
        seats = table.seats.count()
        play(table, *([2, -2, 0][:seats] if seats == 3 else [2, -2]))
    calls.call_td(table=tables[1], kind="dispute", note="Back row")
    return tables


@pytest.mark.parametrize("players", [9, 300])
def test_dashboard_queries_do_not_grow_with_the_tables(
    td_client, make_tournament, td_user, django_assert_num_queries, players
):
    tournament = registration.create_tournament(actor=td_user, name="Big")
    for n in range(players):
        registration.register_player(tournament=tournament, actor=td_user, name=f"Player {n}")
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="queries")
    _record_a_few(tournament, td_user, 3)
    with one_minute():
        # session, user, revision token, tournament, then the dashboard: levels, players,
        # tables, seats with players, tie settlements, open calls, the level's hand times.
        with django_assert_num_queries(12):  # and the hands held from offline cards
            response = td_client.get(home(tournament))
        assert response.status_code == 200
        assert response.content.decode().count('class="dash-row') == players // 3
        with django_assert_num_queries(12):
            live_region = td_client.get(live(tournament), headers={"HX-Request": "true"})
        assert live_region.status_code == 200
        rev = rev_of(response.content.decode())
        # The unchanged poll: session, user, revision token.
        with django_assert_num_queries(3):
            response = td_client.get(
                live(tournament) + f"?rev={rev}", headers={"HX-Request": "true"}
            )
    assert response.status_code == 204


@pytest.mark.parametrize("players", [9, 300])
def test_running_the_room_adds_no_query_at_1_table_or_100(
    td_client, make_tournament, td_user, django_assert_num_queries, players
):
    """Issue 19's parts all at once (a held draw, stations, an announcement standing, a timeout
    call naming a player, pace from the hands): the dashboard and the alerts bar read as many
    queries at 3 players a table x 3 as at 100 tables."""
    tournament = registration.create_tournament(
        actor=td_user, name="Big", release_draws_at_once=False
    )
    for n in range(players):
        registration.register_player(tournament=tournament, actor=td_user, name=f"Player {n}")
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="queries")
    create_stations(tournament=tournament, actor=td_user)
    announce(tournament=tournament, actor=td_user, text="Level 1 seating is up")
    with django_assert_num_queries(12):  # and the hands held from offline cards
        held = td_client.get(home(tournament)).content.decode()
    assert "is not released yet" in held
    draws.release_draw(level=level, actor=td_user)
    tables = _record_a_few(tournament, td_user, 3)
    calls.clear_call(table=tables[1], actor=td_user)
    named = tables[2].seats.order_by("position").first().player
    calls.call_td(table=tables[2], kind="timeout", player=named)
    with django_assert_num_queries(12):
        page = td_client.get(home(tournament)).content.decode()
    assert f"Give {named.name} the timeout penalty" in page and "is not released" not in page
    with django_assert_num_queries(12):
        assert td_client.get(live(tournament), headers={"HX-Request": "true"}).status_code == 200
    bar = reverse("td:alerts", args=[tournament.pk])
    with one_minute():
        with django_assert_num_queries(11):  # the live region's reads but the held hands
            response = td_client.get(bar, headers={"HX-Request": "true"})
        assert response.content.decode().count("data-alert-key") == 1
        with django_assert_num_queries(3):  # session, user, token
            unchanged = td_client.get(
                f"{bar}?rev={rev_of(response.content.decode())}", headers={"HX-Request": "true"}
            )
    assert unchanged.status_code == 204


def test_dashboard_selector_is_eight_queries(make_tournament, td_user, django_assert_num_queries):
    tournament = make_tournament(9)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="nine")
    _record_a_few(tournament, td_user, 2)
    with django_assert_num_queries(8):  # 7, and the hands held from offline cards
        board = dashboard(tournament)
        for row in board.tables:
            shown = [s.seat.player.name for s in row.seats]
            shown += [row.call and row.call.get_kind_display(), row.winner]
            shown.append(row.table.draw.created_at)
    not_drawn = make_tournament(3, name="Not drawn")
    with django_assert_num_queries(2):
        assert dashboard(not_drawn).players == 3


# ---------------------------------------------------------------- the page's forms


def form_fields(html, action):
    """The hidden fields of the form posting to `action`."""
    form = html[html.index(f'action="{action}"') :]
    form = form[: form.index("</form>")]
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))


def test_clear_a_call_from_the_dashboard_comes_back_here(td_client, make_tournament, td_user):
    tournament = make_tournament(3)
    table = single_table(tournament, td_user)
    calls.call_td(table=table, kind="timeout")
    clear = reverse("td:call_clear", args=[tournament.pk, table.pk])
    fields = form_fields(td_client.get(home(tournament)).content.decode(), clear)
    assert fields["next"] == home(tournament)
    response = td_client.post(clear, fields)
    assert response.status_code == 302 and response["Location"] == home(tournament)
    assert not table.calls.filter(cleared_at__isnull=True).exists()
    html = td_client.get(home(tournament)).content.decode()
    assert "Call: " not in html and "1 call" not in html
    td_client.post(clear, fields)  # the same form again: nothing changes twice
    assert table.calls.count() == 1


def test_close_the_level_from_the_dashboard(td_client, make_tournament, td_user):
    tournament = make_tournament(6, min_hands=1)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="two")
    for table in level_tables(tournament).values():
        play(table, 3, -3, 0)
    advance = reverse("td:advance", args=[tournament.pk])
    assert f'href="{advance}"' in td_client.get(home(tournament)).content.decode()
    fields = form_fields(td_client.get(advance).content.decode(), advance)
    assert set(fields) == {"csrfmiddlewaretoken", "submission_key", "level"}
    fields["confirm"] = "1"
    assert td_client.post(advance, fields).status_code == 302
    assert td_client.post(advance, fields).status_code == 302  # a double click
    assert list(tournament.levels.values_list("number", flat=True)) == [1, 2]
    html = td_client.get(home(tournament)).content.decode()
    assert "Level 2: live" in html
    assert "0 of 1 table finished" in html
    assert f'href="{reverse("td:level", args=[tournament.pk, 1])}">Level 1</a>' in html


def test_a_disqualified_player_is_marked_and_cannot_lead(td_client, make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 10, "Bo": -4, "Cia": -6})
    anna = tournament.players.get(name="Anna")
    for kind in ("conduct", "slow", "conduct"):
        penalties.give_penalty(tournament=tournament, player=anna, kind=kind, actor=td_user)
    html = td_client.get(home(tournament)).content.decode()
    # Anna: 10 - 25 (2nd warning) = -15, gone; Bo -4 leads Cia -6.
    assert re.search(
        r'<li class=" gone">\s*<span class="name">Anna <span class="muted">disqualified</span>'
        r'</span>\s*<span class="total">-15<',
        html,
    )
    assert re.search(r'<td class="dash-leader"[^>]*>\s*Bo\s*</td>', html)


def test_the_dashboard_in_swedish(td_client, make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 12, "Bo": -6, "Cia": -6}, fantasyland_names=["Anna"])
    calls.call_td(table=table, kind="dispute")
    td_client.cookies["django_language"] = "sv"
    html = td_client.get(home(tournament)).content.decode()
    assert "Nivå 1: live" in html
    assert "0 av 1 bord klart, 1 tillkallning" in html
    assert "20 + 1 Fantasyland" in html
    assert "Spelar fortfarande: bord 1." in html
    # The name starts with the button's word (WCAG 2.5.3): "Avsluta", not "Markera ...".
    assert 'aria-label="Avsluta tillkallningen vid bord 1">Avsluta</button>' in html
