"""Settling a tie for first is confirmed first: the page states who wins, the reason and what
it ends (the table is over; the winner advances, or is the champion at the final table);
nothing is settled before the TD confirms, and "Change it" loses nothing typed."""

import html as htmllib
import re
import uuid
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from tests.tournament.conftest import play, play_named, single_table
from tournament.models import AuditEntry, FormSubmission, Player, Table, TieSettlement
from tournament.services import draws, hands

pytestmark = pytest.mark.django_db


def text(response):
    html = re.sub(r"<[^>]+>", " ", response.content.decode())
    return " ".join(htmllib.unescape(html).split())


def table_url(tournament, table):
    return reverse("td:table", args=[tournament.pk, table.pk])


def tie_url(tournament, table):
    return reverse("td:tie", args=[tournament.pk, table.pk])


def player(tournament, name):
    return Player.objects.get(tournament=tournament, name=name)


def hidden(html, name):
    return htmllib.unescape(
        re.search(rf'<input type="hidden" name="{name}" value="([^"]*)"', html).group(1)
    )


@pytest.fixture
def final_tie(make_tournament, td_user):
    """The only table of level 1 (the final table): 3 hands required, Anna and Bo tied
    for first with 3 each (1 + 1 + 1), Cia -6."""
    tournament = make_tournament(3, min_hands=3)
    table = single_table(tournament, td_user)
    for _ in range(3):
        play_named(table, {"Anna": 1, "Bo": 1, "Cia": -2})
    return tournament, table


@pytest.fixture
def tie_among_two(make_tournament, td_user):
    """Six players, two tables, one hand required: table 1 tied (5, 5, -10), table 2 playing."""
    tournament = make_tournament(6, min_hands=1)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="two")
    tables = {t.number: t for t in Table.objects.current().filter(level__tournament=tournament)}
    play(tables[1], 5, 5, -10)
    return tournament, tables[1]


def test_the_table_page_sends_the_tie_to_the_confirmation(td_client, final_tie):
    tournament, table = final_tie
    page = td_client.get(table_url(tournament, table))
    assert ">Review the settlement</button>" in page.content.decode()
    assert "nothing is settled before you confirm" in text(page)


def test_the_confirmation_states_who_wins_why_and_what_it_ends(td_client, final_tie):
    tournament, table = final_tie
    bo = player(tournament, "Bo")
    key = uuid.uuid4()
    data = {"winner": bo.pk, "reason": "Card draw: Bo a king", "submission_key": key}
    response = td_client.post(tie_url(tournament, table), data)
    assert response.status_code == 200
    page = text(response)
    assert "Confirm the tie settlement" in page
    assert "Table 1 · tied for first with 3 points: Anna, Bo" in page
    assert "Bo wins table 1" in page
    assert "Reason: Card draw: Bo a king" in page
    assert "Table 1 is over: it takes no more hands." in page
    assert "This is the final table: Bo is the champion once you close the level." in page
    # Everyone else still at the table, in seat order: the drawn seats, not worked out here.
    others = [s.player.name for s in table.seats.order_by("position") if s.player != bo]
    assert sorted(others) == ["Anna", "Cia"]
    assert f"Out of the tournament: {', '.join(others)}." in page
    html = response.content.decode()
    assert '<button type="submit" name="confirm" value="1">Settle the tie</button>' in html
    assert hidden(html, "winner") == str(bo.pk) and hidden(html, "submission_key") == str(key)
    assert hidden(html, "reason") == "Card draw: Bo a king"
    assert f'href="{table_url(tournament, table)}">Cancel: settle nothing</a>' in html
    # Nothing is settled yet.
    table.refresh_from_db()
    assert not table.is_over and not TieSettlement.objects.exists()
    assert not AuditEntry.objects.filter(action="tie.settle").exists()
    assert not FormSubmission.objects.exists()


def test_confirming_settles_once(td_client, final_tie):
    tournament, table = final_tie
    bo = player(tournament, "Bo")
    data = {"winner": bo.pk, "reason": "Card draw", "submission_key": uuid.uuid4(), "confirm": "1"}
    response = td_client.post(tie_url(tournament, table), data)
    assert response.status_code == 302 and response["Location"] == table_url(tournament, table)
    table.refresh_from_db()
    assert table.is_over and table.winner == bo
    again = td_client.post(tie_url(tournament, table), data)  # a double click
    assert again.status_code == 302 and TieSettlement.objects.count() == 1


def test_at_a_table_of_several_the_winner_advances(td_client, tie_among_two):
    tournament, table = tie_among_two
    seats = list(table.seats.select_related("player").order_by("position"))
    first, second, third = (s.player for s in seats)  # +5, +5, -10
    response = td_client.post(
        tie_url(tournament, table),
        {"winner": second.pk, "reason": "High card", "submission_key": uuid.uuid4()},
    )
    page = text(response)
    assert f"{second.name} advances to level 2." in page
    assert "final table" not in page
    assert f"Out of the tournament: {first.name}, {third.name}." in page
    assert not TieSettlement.objects.exists()


def test_change_it_returns_to_the_form_with_everything_typed(td_client, final_tie):
    tournament, table = final_tie
    anna = player(tournament, "Anna")
    key = str(uuid.uuid4())
    response = td_client.post(
        tie_url(tournament, table),
        {"winner": anna.pk, "reason": "Cut: Anna an ace", "submission_key": key, "edit": "1"},
    )
    html = response.content.decode()
    assert response.status_code == 200 and 'id="tie"' in html
    assert re.search(rf'value="{anna.pk}"[^>]*checked', html)
    assert "Cut: Anna an ace</textarea>" in html
    assert f'name="submission_key" value="{key}"' in html
    assert not TieSettlement.objects.exists()


def test_a_tie_broken_by_a_hand_meanwhile_is_refused_in_place(td_client, final_tie):
    tournament, table = final_tie
    bo = player(tournament, "Bo")
    data = {"winner": bo.pk, "reason": "Card draw", "submission_key": uuid.uuid4()}
    assert td_client.post(tie_url(tournament, table), data).status_code == 200
    play_named(table, {"Anna": 2, "Bo": -1, "Cia": -1})  # the table played on: Anna leads
    response = td_client.post(tie_url(tournament, table), data | {"confirm": "1"})
    assert response.status_code == 400
    assert "Table 1 has no tie for first to settle." in text(response)
    table.refresh_from_db()
    assert table.winner.name == "Anna" and not TieSettlement.objects.exists()


def test_the_table_page_and_the_confirmation_carry_the_decision_they_show(td_client, final_tie):
    tournament, table = final_tie
    assert shown_settlement(td_client, tournament, table) == ""  # the tie is open
    data = {"winner": player(tournament, "Bo").pk, "reason": "Cut", "submission_key": uuid.uuid4()}
    confirmation = td_client.post(tie_url(tournament, table), data | {"settlement": ""})
    assert hidden(confirmation.content.decode(), "settlement") == ""


def test_a_tie_decided_in_another_tab_is_not_decided_again_from_a_stale_confirmation(
    td_client, final_tie, settings
):
    """Tab A reviews "Bo wins", tab B "Anna wins", both on the open tie. A confirms. B's
    confirmation is refused (409) on the table page, saying the tie was decided for Bo, by
    whom and when; Anna and B's reason stay in the form that decides the tie again. Only
    from there, confirmed again, does Anna win."""
    settings.TIME_ZONE = "Europe/Stockholm"
    tournament, table = final_tie
    bo, anna = player(tournament, "Bo"), player(tournament, "Anna")
    tab_a = {"winner": bo.pk, "reason": "Cut: Bo a king", "submission_key": str(uuid.uuid4())}
    tab_b = {"winner": anna.pk, "reason": "Cut: Anna an ace", "submission_key": str(uuid.uuid4())}
    for tab in (tab_a, tab_b):
        tab["settlement"] = shown_settlement(td_client, tournament, table)
        review = td_client.post(tie_url(tournament, table), tab)
        assert review.status_code == 200 and hidden(review.content.decode(), "settlement") == ""
    done = td_client.post(tie_url(tournament, table), tab_a | {"confirm": "1"})
    assert done.status_code == 302
    first = TieSettlement.objects.get()
    # 07:50 UTC on 9 May 2026: 09:50 at the venue (Stockholm, summer time).
    TieSettlement.objects.update(created_at=datetime(2026, 5, 9, 7, 50, tzinfo=UTC))

    response = td_client.post(tie_url(tournament, table), tab_b | {"confirm": "1"})
    assert response.status_code == 409
    page, html = text(response), response.content.decode()
    assert (
        "The tie at table 1 was already decided for Bo by director at 09:50: "
        "use “Decide the tie again” to change it." in page
    )
    assert "Confirm the tie settlement" not in page and "Tie decided again" not in page
    assert "Decide the tie again" in page and "The tie for first is settled for Bo." in page
    assert re.search(rf'value="{anna.pk}"[^>]*checked', html)  # as chosen in tab B
    assert 'id="tie_reason">\nCut: Anna an ace</textarea>' in html
    assert settlement_field(html) == str(first.pk)  # the decision the page shows now
    table.refresh_from_db()
    assert table.winner == bo
    assert list(TieSettlement.objects.values_list("pk", flat=True)) == [first.pk]
    assert not AuditEntry.objects.filter(action="tie.change").exists()

    # Deciding again, as its own step from that form: confirmed first, then Anna wins.
    again = {**tab_b, "settlement": settlement_field(html)}
    review = text(td_client.post(tie_url(tournament, table), again))
    assert "This replaces the decision for Bo, which stays in the log." in review
    done = td_client.post(tie_url(tournament, table), again | {"confirm": "1"}, follow=True)
    assert "Tie decided again: Anna wins table 1." in text(done)
    table.refresh_from_db()
    assert table.winner == anna and TieSettlement.objects.count() == 2


def test_a_tie_decided_meanwhile_is_refused_at_the_review_already(
    td_client, final_tie, td_user, settings
):
    """The table page showed the tie open; it was decided for Bo before the review: the
    confirmation would state a replacement the TD never chose. Refused there (409)."""
    settings.TIME_ZONE = "Europe/Stockholm"
    tournament, table = final_tie
    anna = player(tournament, "Anna")
    shown = shown_settlement(td_client, tournament, table)
    settle(tournament, table, "Bo", td_user)
    TieSettlement.objects.update(created_at=datetime(2026, 5, 9, 7, 50, tzinfo=UTC))
    response = td_client.post(
        tie_url(tournament, table),
        {"winner": anna.pk, "reason": "Cut", "submission_key": uuid.uuid4(), "settlement": shown},
    )
    assert response.status_code == 409
    page = text(response)
    assert "The tie at table 1 was already decided for Bo by director at 09:50" in page
    assert "Confirm the tie settlement" not in page
    table.refresh_from_db()
    assert table.winner.name == "Bo" and TieSettlement.objects.count() == 1


def test_a_bad_reason_is_shown_on_the_table_page_not_confirmed(td_client, final_tie):
    tournament, table = final_tie
    response = td_client.post(
        tie_url(tournament, table),
        {"winner": player(tournament, "Bo").pk, "reason": " ", "submission_key": uuid.uuid4()},
    )
    assert response.status_code == 400
    assert "Confirm the tie settlement" not in text(response)
    assert "Reason must not be empty." in text(response)


def test_the_confirmation_in_swedish(td_client, final_tie):
    tournament, table = final_tie
    td_client.cookies["django_language"] = "sv"
    response = td_client.post(
        tie_url(tournament, table),
        {"winner": player(tournament, "Bo").pk, "reason": "Kort", "submission_key": uuid.uuid4()},
    )
    page = text(response)
    assert "Bekräfta avgörandet av den delade förstaplatsen" in page
    assert "Bo vinner bord 1" in page
    assert "Bord 1 är klart: det tar inga fler händer." in page
    assert "Det här är finalbordet: Bo blir mästare när du stänger nivån." in page
    assert ">Avgör den delade förstaplatsen</button>" in response.content.decode()


# ---------------------------------------------------------------- deciding a settled tie again


def settle(tournament, table, name, td_user, reason="Card draw"):
    hands.settle_tie(table=table, actor=td_user, winner=player(tournament, name), reason=reason)


def shown_settlement(td_client, tournament, table):
    """The decision the table page's tie form stands on (its hidden field; "" for none)."""
    return settlement_field(td_client.get(table_url(tournament, table)).content.decode())


def settlement_field(html):
    """The tie form's hidden settlement: its value, "" when it has none (the tie open)."""
    match = re.search(r'<input type="hidden" name="settlement"( value="([^"]*)")?', html)
    return match.group(2) or ""


def test_a_settled_tie_is_offered_to_be_decided_again(td_client, final_tie, td_user):
    tournament, table = final_tie
    settle(tournament, table, "Bo", td_user, reason="Bo drew the king")
    response = td_client.get(table_url(tournament, table))
    page, html = text(response), response.content.decode()
    assert "The tie for first was settled by the TD for Bo: Bo drew the king" in page
    assert "Decide the tie again" in page
    assert "The tie for first is settled for Bo. If that was a mistake" in page
    assert "The earlier decision stays in the log. Possible until the level is closed." in page
    choices = re.findall(r'<label for="tie_winner_\d">([^<]+)</label>', html)
    assert sorted(choices) == ["Anna", "Bo"]  # the tied players, Cia (-6) not among them


def test_the_same_winner_again_is_refused_in_the_page(td_client, final_tie, td_user):
    tournament, table = final_tie
    settle(tournament, table, "Bo", td_user)
    response = td_client.post(
        tie_url(tournament, table),
        {"winner": player(tournament, "Bo").pk, "reason": "again", "submission_key": uuid.uuid4()},
    )
    assert response.status_code == 400
    page = text(response)
    assert "The tie is already settled for Bo: choose another player to change it." in page
    assert "Confirm the tie settlement" not in page
    assert 'id="tie_reason">\nagain</textarea>' in response.content.decode()  # kept as typed
    assert TieSettlement.objects.count() == 1


def test_deciding_again_is_confirmed_first_then_replaces_the_winner(
    td_client, client, tie_among_two, td_user
):
    """Table 1 of two, tied 5 / 5 / -10: settled for the first seat's player by mistake,
    decided again for the second's. The confirmation names whose win it replaces, and he is
    now among those out of the tournament."""
    tournament, table = tie_among_two
    first, second, third = (
        s.player for s in table.seats.select_related("player").order_by("position")
    )
    settle(tournament, table, first.name, td_user)
    shown = shown_settlement(td_client, tournament, table)
    assert shown == str(TieSettlement.objects.get().pk)  # the decision the page shows
    key = uuid.uuid4()
    data = {
        "winner": second.pk,
        "reason": "High card misread",
        "submission_key": key,
        "settlement": shown,
    }
    response = td_client.post(tie_url(tournament, table), data)
    assert response.status_code == 200
    page = text(response)
    assert f"Table 1 · tied for first with 5 points: {first.name}, {second.name}" in page
    assert f"{second.name} wins table 1" in page
    assert f"This replaces the decision for {first.name}, which stays in the log." in page
    assert f"{second.name} advances to level 2." in page
    assert f"Out of the tournament: {first.name}, {third.name}." in page
    table.refresh_from_db()
    assert table.winner == first and TieSettlement.objects.count() == 1  # nothing yet

    done = td_client.post(tie_url(tournament, table), data | {"confirm": "1"}, follow=True)
    assert f"Tie decided again: {second.name} wins table 1." in text(done)
    table.refresh_from_db()
    assert table.is_over and table.winner == second
    assert TieSettlement.objects.count() == 2
    entry = AuditEntry.objects.get(action="tie.change")
    assert entry.actor == td_user
    assert entry.params["previous"] == first.name and entry.params["winner"] == second.name
    again = td_client.post(tie_url(tournament, table), data | {"confirm": "1"})  # double click
    assert again.status_code == 302 and TieSettlement.objects.count() == 2
    # The players' card names the new winner (the TD's reason stays with the TD).
    public = text(client.get(reverse("public:table", args=[tournament.pk, table.pk])))
    assert f"The tie for first was settled by the TD for {second.name}." in public
    assert "High card misread" not in public


def test_a_closed_level_offers_no_new_decision(td_client, final_tie, td_user):
    tournament, table = final_tie
    settle(tournament, table, "Bo", td_user)
    draws.advance(tournament=tournament, actor=td_user)
    page = text(td_client.get(table_url(tournament, table)))
    assert "Decide the tie again" not in page and "Settle the tie for first" not in page
    response = td_client.post(
        tie_url(tournament, table),
        {"winner": player(tournament, "Anna").pk, "reason": "late", "submission_key": uuid.uuid4()},
    )
    assert response.status_code == 400
    table.refresh_from_db()
    assert table.winner.name == "Bo" and TieSettlement.objects.count() == 1


def test_deciding_again_in_swedish(td_client, final_tie, td_user):
    tournament, table = final_tie
    settle(tournament, table, "Bo", td_user)
    td_client.cookies["django_language"] = "sv"
    assert "Avgör den delade förstaplatsen på nytt" in text(
        td_client.get(table_url(tournament, table))
    )
    data = {
        "winner": player(tournament, "Anna").pk,
        "reason": "Kort",
        "submission_key": uuid.uuid4(),
        "settlement": shown_settlement(td_client, tournament, table),
    }
    page = text(td_client.post(tie_url(tournament, table), data))
    assert "Det ersätter avgörandet till Bo, som finns kvar i loggen." in page
    done = td_client.post(tie_url(tournament, table), data | {"confirm": "1"}, follow=True)
    assert "Avgjort på nytt: Anna vinner bord 1." in text(done)
    same = td_client.post(
        tie_url(tournament, table),
        {"winner": player(tournament, "Anna").pk, "reason": "x", "submission_key": uuid.uuid4()},
    )
    assert (
        "Den delade förstaplatsen är redan avgjord till Anna: välj en annan spelare för att "
        "ändra den." in text(same)
    )
