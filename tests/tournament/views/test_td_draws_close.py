"""Closing a level through its confirmation page: what it does, what still blocks it (open
calls, ties to settle, tables still playing, each linked), and nothing closed before the TD
confirms; a refusal shown on the page, read afresh."""

import re
import uuid

import pytest
from django.urls import reverse

from tests.tournament.conftest import play, play_named, row_counts, single_table
from tournament.models import FormSubmission, HeldHand, Level, Table, TableCall
from tournament.services import calls, draws, hands, held_hands

pytestmark = pytest.mark.django_db


def url(name, tournament, *args):
    return reverse(name, args=[tournament.pk, *args])


def tables_of(tournament, level=1):
    return {
        t.number: t
        for t in Table.objects.current().filter(level__tournament=tournament, level__number=level)
    }


def table_link(tournament, table, anchor=""):
    return f'href="{url("td:table", tournament, table.pk)}{anchor}"'


def hidden(html, name):
    return re.search(rf'<input type="hidden" name="{name}" value="([^"]*)"', html).group(1)


def confirm_fields(html, **extra):
    fields = {"submission_key": hidden(html, "submission_key"), "level": hidden(html, "level")}
    return fields | {"confirm": "1"} | extra


def text(response):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def two_over(make_tournament, td_user):
    """Six players (Anna..Filip), one hand required: two tables of 3, both over."""
    tournament = make_tournament(6, min_hands=1)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="close")
    tables = tables_of(tournament)
    play(tables[1], 3, -3, 0)
    play(tables[2], 2, 0, -2)
    return tournament, tables


# ---------------------------------------------------------------- refusals before anything


def test_anonymous_and_non_staff_are_refused(client, outsider, two_over):
    tournament, _tables = two_over
    address = url("td:advance", tournament)
    for method in (client.get, client.post):
        response = method(address, {"confirm": "1", "level": "1", "submission_key": uuid.uuid4()})
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client.force_login(outsider)
    assert client.get(address).status_code == 403
    response = client.post(address, {"confirm": "1", "level": "1", "submission_key": uuid.uuid4()})
    assert response.status_code == 403
    assert Level.objects.count() == 1 and Level.objects.get().closed_at is None


def test_before_the_first_draw_and_after_the_champion_it_leads_away(
    td_client, make_tournament, td_user
):
    not_drawn = make_tournament(3, name="Not drawn")
    response = td_client.get(url("td:advance", not_drawn))
    assert response.status_code == 302 and response["Location"] == url("td:tournament", not_drawn)
    finished = make_tournament(["Anna", "Bo"], min_hands=1, name="Finished")
    play_named(single_table(finished, td_user), {"Anna": 6, "Bo": -6})
    draws.advance(tournament=finished, actor=td_user)
    response = td_client.get(url("td:advance", finished))
    assert response.status_code == 302 and response["Location"] == url("td:standings", finished)


# ---------------------------------------------------------------- the page


def test_the_page_says_what_closing_does_and_closes_nothing(td_client, two_over):
    tournament, _tables = two_over
    before = row_counts()
    response = td_client.get(url("td:advance", tournament))
    assert response.status_code == 200
    page = text(response)
    assert "Close level 1" in page and "What closing does" in page
    assert "The results of level 1 become final" in page
    assert "So compare each table's paper score card with its hands first" in page
    # Table 1: seat 0 won with +3; table 2: seat 0 with +2. Two winners: level 2.
    assert "The 2 table winners are drawn at random into level 2." in page
    html = response.content.decode()
    assert '<button type="submit" name="confirm" value="1">Close level 1 and draw level 2<' in html
    assert hidden(html, "level") == "1"
    assert f'href="{url("td:tournament", tournament)}">Cancel: close nothing</a>' in html
    assert row_counts() == before and not FormSubmission.objects.exists()


def test_open_calls_ties_and_tables_playing_are_listed_with_links_and_block(
    td_client, make_tournament, td_user
):
    """Nine players, two hands required. Table 1: 5, 5, -10 then 0, 0, 0 (a tie) and a call;
    table 2: one hand (1 of 2 played); table 3: over, with a dispute call."""
    tournament = make_tournament(9, min_hands=2)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="all")
    tables = tables_of(tournament)
    play(tables[1], 5, 5, -10)
    play(tables[1], 0, 0, 0)
    play(tables[2], 1, 0, -1)
    play(tables[3], 1, 0, -1)
    play(tables[3], 1, 0, -1)
    calls.call_td(table=tables[3], kind="dispute", note="Who won the back?")
    calls.call_td(table=tables[1], kind="other")
    before = row_counts()
    response = td_client.get(url("td:advance", tournament))
    html, page = response.content.decode(), text(response)
    assert response.status_code == 200
    assert "Still open: the level cannot be closed yet" in page
    assert "2 open calls" in page
    assert "Table 3 Call: Dispute Who won the back?" in page
    assert "Table 1 Call: Other" in page
    # The longest waiting first: table 3 called before table 1.
    assert page.index("Table 3 Call: Dispute") < page.index("Table 1 Call: Other")
    for table in (tables[1], tables[3]):
        assert table_link(tournament, table) in html
    tied = [s.player.name for s in tables[1].seats.order_by("position")][:2]
    assert "1 tie for first to settle" in page
    assert f"Table 1 Tie for first: {tied[0]}, {tied[1]} Settle, or let them play on" in page
    assert table_link(tournament, tables[1], "#tie") in html
    assert "1 table still playing" in page and "Table 2 1 of 2 hands played" in page
    assert table_link(tournament, tables[2]) in html
    # Blocked: no button that closes, only a way to look again.
    assert 'name="confirm"' not in html and "What closing does" not in page
    assert f'<a class="button" href="{url("td:advance", tournament)}">Check again</a>' in html
    assert row_counts() == before


def test_a_call_at_a_closed_level_or_a_redone_draw_is_listed_with_its_place(
    td_client, make_tournament, td_user
):
    tournament = make_tournament(["Anna", "Bo", "Cia"], min_hands=1)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="first")
    old = level.tables.get()
    calls.call_td(table=old, kind="misdeal")
    draws.redraw_level(level=level, actor=td_user, reason="Seated wrongly", seed="second")
    play_named(tables_of(tournament)[1], {"Anna": 3, "Bo": 0, "Cia": -3})
    response = td_client.get(url("td:advance", tournament))
    page = text(response)
    assert "1 open call" in page
    assert "Level 1, table 1 of draw 1 (redone) Call: Misdeal" in page
    assert table_link(tournament, old) in response.content.decode()
    assert 'name="confirm"' not in response.content.decode()


# ---------------------------------------------------------------- confirming


def test_confirming_closes_once_and_draws_the_next(td_client, two_over):
    tournament, _tables = two_over
    html = td_client.get(url("td:advance", tournament)).content.decode()
    fields = confirm_fields(html)
    response = td_client.post(url("td:advance", tournament), fields)
    assert response.status_code == 302 and response["Location"] == url("td:level", tournament, 2)
    assert Level.objects.get(tournament=tournament, number=1).closed_at is not None
    again = td_client.post(url("td:advance", tournament), fields)  # a double click
    assert again.status_code == 302 and again["Location"] == url("td:level", tournament, 2)
    assert Level.objects.filter(tournament=tournament).count() == 2


def test_a_post_without_confirm_only_shows_the_page(td_client, two_over):
    """A form of an older page that posted straight to close: now it only asks."""
    tournament, _tables = two_over
    response = td_client.post(url("td:advance", tournament), {"submission_key": uuid.uuid4()})
    assert response.status_code == 200 and "What closing does" in text(response)
    assert Level.objects.get().closed_at is None and Level.objects.count() == 1


def test_a_call_made_after_the_page_was_shown_blocks_the_confirmation(td_client, two_over, td_user):
    tournament, tables = two_over
    fields = confirm_fields(td_client.get(url("td:advance", tournament)).content.decode())
    calls.call_td(table=tables[2], kind="timeout", note="Count Eva")
    before = row_counts()
    response = td_client.post(url("td:advance", tournament), fields)
    page = text(response)
    assert response.status_code == 400
    assert "The level was not closed. Clear the open call first: table 2." in page
    assert "1 open call" in page and "Table 2 Call: Timeout (count a player) Count Eva" in page
    assert row_counts() == before and not FormSubmission.objects.exists()
    call = TableCall.objects.get()
    assert call.cleared_at is None
    # Cleared, the same page lets the level close.
    calls.clear_call(table=tables[2], actor=td_user)
    fields = confirm_fields(td_client.get(url("td:advance", tournament)).content.decode())
    assert td_client.post(url("td:advance", tournament), fields).status_code == 302
    assert Level.objects.get(tournament=tournament, number=1).closed_at is not None


def test_a_hand_held_from_an_offline_card_blocks_until_the_td_decides_it(
    td_client, two_over, td_user
):
    """Table 1's card, offline, recorded its hand 1 too (Anna +4 where the TD's hand 1 has
    her seat on +3): the server held it. Until the TD records or discards it, the level does
    not close: the hand may change who won."""
    tournament, tables = two_over
    fields = confirm_fields(td_client.get(url("td:advance", tournament)).content.decode())
    answer = held_hands.receive_queued_hand(
        table=tables[1],
        number=1,
        key=uuid.uuid4(),
        entry={"mode": "points", "points": {"0": 4, "1": -4, "2": 0}, "fantasyland": []},
        expect=held_hands.Expected(playing=(0, 1, 2)),
        actor_label="Revisor, table 1",
    )
    assert answer.status == "refused"
    shown = td_client.get(url("td:advance", tournament))
    page = text(shown)
    assert "Still open: the level cannot be closed yet" in page
    assert "1 hand held from an offline card" in page
    assert "Table 1 (level 1), hand 1 as the card gave it" in page
    assert "Hand 1 is already recorded at table 1." in page  # why, as the card was told
    assert f'href="{url("td:tournament", tournament)}#held-hands"' in shown.content.decode()
    assert 'name="confirm"' not in shown.content.decode()
    # The page shown before it was held: its confirmation is refused, nothing changed.
    before = row_counts()
    response = td_client.post(url("td:advance", tournament), fields)
    assert response.status_code == 400
    assert (
        "The level was not closed. Record or discard the hand held from an offline card "
        "first (on the dashboard): table 1, hand 1." in text(response)
    )
    assert row_counts() == before and not FormSubmission.objects.exists()
    # Discarded (kept, with the reason), the level closes.
    held_hands.discard_held_hand(
        tournament=tournament,
        held_id=HeldHand.objects.get().pk,
        reason="The TD's hand 1 is the right one",
        actor=td_user,
    )
    fields = confirm_fields(td_client.get(url("td:advance", tournament)).content.decode())
    assert td_client.post(url("td:advance", tournament), fields).status_code == 302
    assert Level.objects.get(tournament=tournament, number=1).closed_at is not None
    assert HeldHand.objects.get().decision == "discarded"


def test_an_unsettled_tie_blocks_until_it_is_settled(td_client, make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"], min_hands=1)
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 4, "Bo": 4, "Cia": -8})
    response = td_client.post(
        url("td:advance", tournament),
        {"submission_key": uuid.uuid4(), "level": "1", "confirm": "1"},
    )
    assert response.status_code == 400
    assert "Settle the tie for first at table 1, or let it play on." in text(response)
    assert Level.objects.get().closed_at is None
    hands.settle_tie(
        table=table, actor=td_user, winner=tournament.players.get(name="Bo"), reason="Card draw"
    )
    response = td_client.get(url("td:advance", tournament))
    page = text(response)
    assert "Bo is the champion, and the tournament is finished." in page
    assert ">Close level 1 and name the champion</button>" in response.content.decode()
    response = td_client.post(url("td:advance", tournament), confirm_fields(page_of(response)))
    assert response["Location"] == url("td:standings", tournament)
    tournament.refresh_from_db()
    assert tournament.champion.name == "Bo" and tournament.finished_at is not None


def page_of(response):
    return response.content.decode()


def test_a_page_left_open_never_closes_the_next_level(td_client, two_over, td_user):
    """Level 1's page is confirmed after level 1 was closed elsewhere and level 2 is over."""
    tournament, _tables = two_over
    stale = confirm_fields(td_client.get(url("td:advance", tournament)).content.decode())
    draws.advance(tournament=tournament, actor=td_user, seed="two")
    play(tables_of(tournament, 2)[1], 1, -1)
    response = td_client.post(url("td:advance", tournament), stale)
    assert response.status_code == 400
    page = text(response)
    assert "Level 1 is not the level in play (level 2 is)." in page
    assert "Close level 2" in page  # the page now shows the level in play
    tournament.refresh_from_db()
    assert tournament.finished_at is None
    assert Level.objects.get(tournament=tournament, number=2).closed_at is None


def test_a_bad_level_or_key_is_out_of_date(td_client, two_over):
    tournament, _tables = two_over
    for fields in (
        {"submission_key": "nonsense", "level": "1", "confirm": "1"},
        {"submission_key": uuid.uuid4(), "level": "one", "confirm": "1"},
        {"submission_key": uuid.uuid4(), "level": "99999999999999999999", "confirm": "1"},
        {"confirm": "1"},
    ):
        response = td_client.post(url("td:advance", tournament), fields)
        assert response.status_code == 400
        assert "This form is out of date: reload the page and send it again." in text(response)
    assert Level.objects.get().closed_at is None and Level.objects.count() == 1


def test_the_finished_without_a_champion_wording(td_client, make_tournament, td_user):
    """Heads-up: Bo disqualified (three warnings), then Anna too: nobody can win the table."""
    from tournament.services import penalties

    tournament = make_tournament(["Anna", "Bo"], min_hands=1)
    single_table(tournament, td_user)
    for name in ("Bo", "Anna"):
        player = tournament.players.get(name=name)
        for kind in ("conduct", "slow", "conduct"):
            penalties.give_penalty(tournament=tournament, player=player, kind=kind, actor=td_user)
    response = td_client.get(url("td:advance", tournament))
    page = text(response)
    assert "No winner is left to play on: the tournament finishes without a champion." in page
    assert ">Close level 1 and finish the tournament</button>" in response.content.decode()


# ---------------------------------------------------------------- Swedish and queries


def test_the_page_in_swedish(td_client, two_over):
    tournament, tables = two_over
    td_client.cookies["django_language"] = "sv"
    response = td_client.get(url("td:advance", tournament))
    html = response.content.decode()
    assert "<h1>Stäng nivå 1</h1>" in html
    assert ">Stäng nivå 1 och lotta nivå 2</button>" in html
    assert "De 2 bordsvinnarna lottas slumpvis till nivå 2." in text(response)
    calls.call_td(table=tables[1], kind="dispute")
    page = text(td_client.get(url("td:advance", tournament)))
    assert "Fortfarande öppet: nivån kan inte stängas än" in page
    assert "1 öppen tillkallning" in page


@pytest.mark.parametrize("players", [9, 90])
def test_the_page_costs_the_same_queries_at_any_size(
    td_client, make_tournament, td_user, django_assert_num_queries, players
):
    from tests.tournament.conftest import names

    tournament = make_tournament(names(9) if players == 9 else [f"P {n}" for n in range(players)])
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="queries")
    tables = tables_of(tournament)
    calls.call_td(table=tables[1], kind="dispute")
    play(tables[2], 1, 0, -1)
    # session, user, tournament, current level, then the dashboard's eight: levels, players,
    # tables, seats with players, tie settlements, open calls, the level's hand times, the
    # held hands; the alerts bar shows that same read, with its revision token.
    with django_assert_num_queries(13):
        response = td_client.get(url("td:advance", tournament))
    assert response.status_code == 200
    assert f"{players // 3} tables still playing" in text(response)


@pytest.mark.parametrize(
    ("language", "title", "words"),
    [
        ("en", "Closing a level", "every call of a revisor is cleared"),
        ("sv", "Stänga en nivå", "varje tillkallning från en revisor är avslutad"),
    ],
)
def test_the_rule_is_told_to_the_td_among_the_decisions(td_client, language, title, words):
    td_client.cookies["django_language"] = language
    html = td_client.get(reverse("td:tournament_create")).content.decode()
    assert f"<dt>{title}</dt>" in html and words in html


# ---------------------------------------------------------------- the announcement (issue 34 §4)


def checkbox(html):
    """The question's checkbox: (is it there, is it ticked)."""
    found = re.search(r'<input type="checkbox" name="withdraw_announcement"[^>]*>', html)
    return (found is not None, found is not None and "checked" in found.group(0))


@pytest.fixture
def final_over(make_tournament, td_user):
    """Anna, Bo, Cia at one table, its one hand played: closing names the champion."""
    tournament = make_tournament(["Anna", "Bo", "Cia"], min_hands=1)
    play(single_table(tournament, td_user), 4, -1, -3)
    return tournament


def test_the_page_asks_about_the_announcement_shown(td_client, td_user, two_over, final_over):
    from tournament.services import announcements

    tournament, _tables = two_over
    assert checkbox(td_client.get(url("td:advance", tournament)).content.decode()) == (False, False)
    announcements.announce(tournament=tournament, actor=td_user, text="Lunch until 13:00")
    response = td_client.get(url("td:advance", tournament))
    html = response.content.decode()
    assert "Lunch until 13:00" in html and "Shown until you withdraw it." in html
    assert checkbox(html) == (True, False)  # a level change keeps it unless ticked
    assert "Withdraw it when level 1 closes" in html
    assert "keep showing it during level 2" in text(response)
    announcements.announce(tournament=final_over, actor=td_user, text="Final at 18:00")
    final = td_client.get(url("td:advance", final_over))
    assert checkbox(final.content.decode()) == (True, True)  # the end takes it down unless not
    assert "the finished tournament's pages and projectors keep showing it" in text(final)
    td_client.cookies["django_language"] = "sv"
    sv = td_client.get(url("td:advance", final_over))
    assert "Ta bort det när nivå 1 stängs" in sv.content.decode()


def finished_pages(tournament):
    from tests.tournament.views.test_public_announcements import live_urls

    return [u for name, u in live_urls(tournament).items() if name != "td_level_projector"]


def test_the_final_close_takes_it_down_or_keeps_it_as_the_td_says(
    td_client, td_user, final_over, make_tournament
):
    from tournament.services import announcements

    announcements.announce(tournament=final_over, actor=td_user, text="Final at 18:00")
    html = td_client.get(url("td:advance", final_over)).content.decode()
    fields = confirm_fields(html, announcement_asked="True", withdraw_announcement="on")
    response = td_client.post(url("td:advance", final_over), fields, follow=True)
    assert "The announcement is withdrawn." in text(response)
    for address in finished_pages(final_over):
        assert "Final at 18:00" not in td_client.get(address).content.decode(), address
    assert "Final at 18:00" not in td_client.get(url("td:tournament", final_over)).content.decode()

    kept = make_tournament(["Dan", "Eva", "Filip"], min_hands=1, name="Kept")
    play(single_table(kept, td_user), 4, -1, -3)
    announcements.announce(tournament=kept, actor=td_user, text="Prizes at the bar")
    html = td_client.get(url("td:advance", kept)).content.decode()
    fields = confirm_fields(html, announcement_asked="True")  # the box unticked
    response = td_client.post(url("td:advance", kept), fields, follow=True)
    assert "The announcement is withdrawn." not in text(response)
    for address in finished_pages(kept):
        assert "Prizes at the bar" in td_client.get(address).content.decode(), address
    # The finished dashboard shows it, and the way to take it down.
    dashboard = td_client.get(url("td:tournament", kept)).content.decode()
    assert "Prizes at the bar" in dashboard
    assert "Change or withdraw the announcement" in dashboard
