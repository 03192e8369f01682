"""Penalties (a confirmation stating the cost first), rescinding, ties and calls."""

import html as htmllib
import re
import uuid

import pytest
from django.urls import reverse

from tests.tournament.conftest import play_named, positions, single_table, totals
from tournament.models import FormSubmission, Penalty, Player, TableCall, TieSettlement
from tournament.services import calls, draws, penalties

pytestmark = pytest.mark.django_db


def text(response):
    html = re.sub(r"<[^>]+>", " ", response.content.decode())
    return " ".join(htmllib.unescape(html).split())


def table_url(tournament, table):
    return reverse("td:table", args=[tournament.pk, table.pk])


def penalty_url(tournament, table):
    return reverse("td:penalty_new", args=[tournament.pk, table.pk])


def rescind_url(tournament, penalty):
    return reverse("td:penalty_rescind", args=[tournament.pk, penalty.pk])


def player(tournament, name):
    return Player.objects.get(tournament=tournament, name=name)


def give(tournament, name, kind, td_user):
    return penalties.give_penalty(
        tournament=tournament, player=player(tournament, name), kind=kind, actor=td_user
    )


@pytest.fixture
def three(make_tournament, td_user):
    """Anna, Bo, Cia at one table after one hand: Anna 4, Bo -1, Cia -3."""
    tournament = make_tournament(3, min_hands=3)
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 4, "Bo": -1, "Cia": -3}, actor=td_user)
    return tournament, table


def review(client, tournament, table, name, kind, note="", key=None):
    """Step 1: the table page's penalty form."""
    return client.post(
        penalty_url(tournament, table),
        {
            "player": player(tournament, name).pk,
            "kind": kind,
            "note": note,
            "submission_key": str(key or uuid.uuid4()),
        },
    )


def hidden_fields(response):
    """The confirmation form's hidden fields, as the browser would send them back."""
    html = response.content.decode()
    form = html[html.index('<form method="post" action="' + "/td/") :]
    return {
        name: htmllib.unescape(value)
        for name, value in re.findall(r'type="hidden" name="([^"]+)" value="([^"]*)"', form)
        if name != "csrfmiddlewaretoken"
    }


def confirm(client, tournament, table, response):
    return client.post(penalty_url(tournament, table), {**hidden_fields(response), "confirm": "1"})


# ---------------------------------------------------------------- the cost, stated first


def test_a_first_timeout_costs_10_points_and_nothing_is_given_before_confirming(td_client, three):
    tournament, table = three
    response = review(td_client, tournament, table, "Anna", "timeout", note="Slow on hand 2")
    assert response.status_code == 200
    page = text(response)
    assert "1st warning: 10 points" in page
    # Anna has 4: 4 - 10 = -6.
    assert "10 points come off at table 1: Anna goes from 4 to -6." in page
    assert "Note: Slow on hand 2" in page
    assert "Give penalty" in page and "Change it" in page
    assert not Penalty.objects.exists()


def test_a_first_warning_of_another_kind_costs_no_points(td_client, three):
    tournament, table = three
    page = text(review(td_client, tournament, table, "Bo", "exposed_muck"))
    assert "1st warning: no points" in page
    assert "come off" not in page
    assert not Penalty.objects.exists()


def test_a_second_warning_costs_25_and_a_timeout_as_second_costs_35(td_client, three, td_user):
    tournament, table = three
    give(tournament, "Bo", "slow", td_user)
    assert "2nd warning: 25 points" in text(review(td_client, tournament, table, "Bo", "conduct"))
    response = review(td_client, tournament, table, "Bo", "timeout")
    page = text(response)
    # 10 for the timeout and 25 for the 2nd warning; Bo has -1: -1 - 35 = -36.
    assert "2nd warning: 35 points" in page
    assert "35 points come off at table 1: Bo goes from -1 to -36." in page
    assert Penalty.objects.count() == 1
    given = confirm(td_client, tournament, table, response)
    assert given.status_code == 302
    assert given["Location"] == table_url(tournament, table) + "#penalties"
    penalty = Penalty.objects.get(kind="timeout")
    assert (penalty.warning_number, penalty.points, penalty.after_hand) == (2, 35, 1)
    table.refresh_from_db()
    assert totals(table) == {"Anna": 4, "Bo": -36, "Cia": -3}
    page = text(td_client.get(given["Location"]))
    assert "Penalty given to Bo: 2nd warning: 35 points." in page


def test_a_third_warning_disqualifies_and_the_player_leaves_the_table(td_client, three, td_user):
    tournament, table = three
    give(tournament, "Cia", "slow", td_user)
    give(tournament, "Cia", "conduct", td_user)  # 2nd: 25; Cia -3 - 25 = -28
    response = review(td_client, tournament, table, "Cia", "digging_muck")
    page = text(response)
    assert "3rd warning: disqualified" in page
    assert "Cia is disqualified from the tournament and leaves the table at once" in page
    assert confirm(td_client, tournament, table, response).status_code == 302
    cia = player(tournament, "Cia")
    assert cia.disqualified
    table.refresh_from_db()
    assert totals(table) == {"Anna": 4, "Bo": -1, "Cia": -28}
    response = td_client.get(table_url(tournament, table))
    page = text(response)
    assert "disqualified: leaves the table" in page
    # The hand form is for the two left; the penalty form no longer lists Cia.
    html = response.content.decode()
    cia_seat = positions(table)["Cia"]
    assert f'name="points_{cia_seat}"' not in html
    assert f'<option value="{cia.pk}"' not in html


def test_a_timeout_as_third_warning_states_its_points_too(td_client, three, td_user):
    tournament, table = three
    give(tournament, "Anna", "slow", td_user)
    give(tournament, "Anna", "slow", td_user)
    assert "3rd warning: 10 points and disqualified" in text(
        review(td_client, tournament, table, "Anna", "timeout")
    )


def test_a_rescinded_warning_does_not_count(td_client, three, td_user):
    tournament, table = three
    first = give(tournament, "Anna", "slow", td_user)
    penalties.rescind_penalty(penalty=first, actor=td_user, reason="Mistaken player")
    assert "1st warning: 10 points" in text(review(td_client, tournament, table, "Anna", "timeout"))


def test_warnings_at_an_earlier_level_count(make_tournament, td_client, td_user):
    tournament = make_tournament(4, min_hands=1)  # two heads-up tables
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="levels")
    for table in level.tables.all():
        names = sorted(positions(table))
        winner = "Anna" if "Anna" in names else names[0]
        play_named(table, {name: 1 if name == winner else -1 for name in names})
    anna_first = level.tables.get(seats__player__name="Anna")
    give(tournament, "Anna", "slow", td_user)  # her 1st warning, at level 1
    draws.advance(tournament=tournament, actor=td_user)
    final = tournament.levels.get(number=2).tables.get()
    response = review(td_client, tournament, final, "Anna", "slow")
    assert "2nd warning: 25 points" in text(response)
    page = text(td_client.get(table_url(tournament, final)))
    assert f"Level 1, table {anna_first.number}, after hand 1" in page


# ---------------------------------------------------------------- giving it


def test_a_replayed_confirmation_gives_one_penalty(td_client, three):
    tournament, table = three
    response = review(td_client, tournament, table, "Anna", "timeout")
    assert confirm(td_client, tournament, table, response).status_code == 302
    again = td_client.post(
        penalty_url(tournament, table),
        {**hidden_fields(response), "confirm": "1"},
        follow=True,
    )
    assert "This penalty was already given: nothing was given twice." in text(again)
    assert Penalty.objects.count() == 1
    table.refresh_from_db()
    assert totals(table)["Anna"] == -6


def test_the_cost_is_stated_again_when_the_warnings_changed_meanwhile(td_client, three, td_user):
    tournament, table = three
    response = review(td_client, tournament, table, "Anna", "timeout")  # stated: 1st, 10
    give(tournament, "Anna", "slow", td_user)  # another TD, meanwhile
    again = confirm(td_client, tournament, table, response)
    assert again.status_code == 400
    page = text(again)
    assert "The warnings of Anna changed since the cost was stated: nothing was given." in page
    assert "2nd warning: 35 points" in page
    assert Penalty.objects.count() == 1
    assert confirm(td_client, tournament, table, again).status_code == 302
    assert Penalty.objects.count() == 2


def test_an_incomplete_penalty_form_shows_its_errors_and_keeps_the_note(td_client, three):
    tournament, table = three
    response = td_client.post(
        penalty_url(tournament, table),
        {"player": "", "kind": "", "note": "Looked at Bo's cards", "submission_key": uuid.uuid4()},
    )
    assert response.status_code == 400
    page = text(response)
    assert "Player: choose one of the options." in page
    assert "Kind of penalty: choose one of the options." in page
    assert "Looked at Bo&#x27;s cards" in response.content.decode()
    assert not Penalty.objects.exists()


def test_a_player_of_another_table_is_not_a_choice(make_tournament, td_client, td_user):
    tournament = make_tournament(6)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="two tables")
    first, second = level.tables.order_by("number")
    stranger = second.seats.first().player
    response = td_client.post(
        penalty_url(tournament, first),
        {"player": stranger.pk, "kind": "slow", "submission_key": uuid.uuid4()},
    )
    assert response.status_code == 400
    assert "Player: choose one of the options." in text(response)
    assert not Penalty.objects.exists()


def test_change_it_goes_back_to_the_form_with_everything_kept(td_client, three):
    tournament, table = three
    response = review(td_client, tournament, table, "Bo", "conduct", note="Swore at the dealer")
    back = td_client.post(penalty_url(tournament, table), {**hidden_fields(response), "edit": "1"})
    assert back.status_code == 200
    html = back.content.decode()
    assert "Swore at the dealer</textarea>" in html
    assert f'<option value="{player(tournament, "Bo").pk}" selected>' in html
    assert '<option value="conduct" selected>' in html
    assert not Penalty.objects.exists()


def test_a_redrawn_table_gives_no_penalty(td_client, make_tournament, td_user):
    tournament = make_tournament(3)
    table = single_table(tournament, td_user)
    draws.redraw_level(level=table.level, actor=td_user, reason="Wrong list")
    response = review(td_client, tournament, table, "Anna", "slow")
    assert response.status_code == 400
    assert "This table is no longer in play" in text(response)
    assert not Penalty.objects.exists()


# ---------------------------------------------------------------- rescinding


def test_a_penalty_before_the_first_hand_says_so_and_not_after_hand_0(
    td_client, client, make_tournament, td_user
):
    tournament = make_tournament(3)
    table = single_table(tournament, td_user)
    penalty = give(tournament, "Anna", "timeout", td_user)
    assert penalty.after_hand == 0
    page = text(td_client.get(table_url(tournament, table)))
    assert "Level 1, table 1, before the first hand" in page
    rescind = text(td_client.get(rescind_url(tournament, penalty)))
    assert "deducted at table 1 before its first hand" in rescind
    log = text(td_client.get(reverse("td:audit", args=[tournament.pk])))
    assert "deducted at table 1 before its first hand" in log
    public = text(
        client.get(reverse("public:player", args=[tournament.pk, player(tournament, "Anna").pk]))
    )
    assert "level 1, table 1, before the first hand" in public
    for words in (page, rescind, log, public):
        assert "after hand 0" not in words
    td_client.cookies["django_language"] = "sv"
    swedish = text(td_client.get(table_url(tournament, table)))
    assert "Nivå 1, bord 1, före första handen" in swedish


def test_the_penalty_list_offers_rescinding_and_rescinding_restores_the_total(
    td_client, three, td_user
):
    tournament, table = three
    penalty = give(tournament, "Anna", "timeout", td_user)
    page = td_client.get(table_url(tournament, table))
    html = page.content.decode()
    assert f"{rescind_url(tournament, penalty)}?next=" in html
    assert "Level 1, table 1, after hand 1" in text(page)
    response = td_client.get(
        rescind_url(tournament, penalty), {"next": table_url(tournament, table)}
    )
    assert response.status_code == 200
    assert "Rescind Anna's penalty" in text(response)
    assert "deducted at table 1 after hand 1" in text(response)
    key = re.search(r'name="submission_key" value="([^"]+)"', response.content.decode()).group(1)
    data = {
        "reason": "The clock was wrong",
        "submission_key": key,
        "next": table_url(tournament, table),
    }
    done = td_client.post(rescind_url(tournament, penalty), data)
    assert done.status_code == 302 and done["Location"] == table_url(tournament, table)
    penalty.refresh_from_db()
    assert penalty.rescinded_at is not None and penalty.rescind_reason == "The clock was wrong"
    table.refresh_from_db()
    assert totals(table) == {"Anna": 4, "Bo": -1, "Cia": -3}
    again = td_client.post(rescind_url(tournament, penalty), data, follow=True)
    assert "This penalty was already rescinded." in text(again)
    page = text(td_client.get(table_url(tournament, table)))
    assert "rescinded by director: The clock was wrong" in page
    page = text(td_client.get(rescind_url(tournament, penalty)))
    assert "Rescinded by director: The clock was wrong" in page
    assert "Rescind the penalty" not in page  # nothing more to do here


def test_rescinding_needs_a_reason_and_refuses_twice_in_place(td_client, three, td_user):
    tournament, table = three
    penalty = give(tournament, "Bo", "slow", td_user)
    response = td_client.post(
        rescind_url(tournament, penalty), {"reason": "", "submission_key": uuid.uuid4()}
    )
    assert response.status_code == 400
    assert "Reason must not be empty." in text(response)
    penalties.rescind_penalty(penalty=penalty, actor=td_user, reason="Another TD did")
    response = td_client.post(
        rescind_url(tournament, penalty), {"reason": "Mine too", "submission_key": uuid.uuid4()}
    )
    assert response.status_code == 400
    assert "This penalty is already rescinded." in text(response)
    assert "Mine too</textarea>" in response.content.decode()
    penalty.refresh_from_db()
    assert penalty.rescind_reason == "Another TD did"


def test_rescinding_goes_back_only_to_a_local_page(td_client, three, td_user):
    tournament, table = three
    penalty = give(tournament, "Bo", "slow", td_user)
    response = td_client.post(
        rescind_url(tournament, penalty),
        {"reason": "x", "submission_key": uuid.uuid4(), "next": "https://evil.example/"},
    )
    assert response.status_code == 302
    assert response["Location"] == table_url(tournament, table) + "#penalties"


def test_a_penalty_of_another_tournament_is_404(td_client, three, make_tournament, td_user):
    tournament, table = three
    penalty = give(tournament, "Bo", "slow", td_user)
    other = make_tournament(2, name="Other cup")
    assert td_client.get(rescind_url(other, penalty)).status_code == 404
    response = td_client.post(
        rescind_url(other, penalty), {"reason": "x", "submission_key": uuid.uuid4()}
    )
    assert response.status_code == 404
    penalty.refresh_from_db()
    assert penalty.rescinded_at is None


# ---------------------------------------------------------------- ties


@pytest.fixture
def tied(make_tournament, td_user):
    """3 hands required, Anna and Bo tied for first with 3 each, Cia -6."""
    tournament = make_tournament(3, min_hands=3)
    table = single_table(tournament, td_user)
    for _ in range(3):
        play_named(table, {"Anna": 1, "Bo": 1, "Cia": -2})
    return tournament, table


def tie_url(tournament, table):
    return reverse("td:tie", args=[tournament.pk, table.pk])


def test_the_td_settles_a_tie_for_first(td_client, tied):
    tournament, table = tied
    page = td_client.get(table_url(tournament, table)).content.decode()
    assert 'id="tie"' in page
    bo = player(tournament, "Bo")
    data = {"winner": bo.pk, "reason": "High card draw: Bo a king", "submission_key": uuid.uuid4()}
    review = td_client.post(tie_url(tournament, table), data)  # the confirmation first
    assert review.status_code == 200 and not TieSettlement.objects.exists()
    data["confirm"] = "1"
    response = td_client.post(tie_url(tournament, table), data)
    assert response.status_code == 302 and response["Location"] == table_url(tournament, table)
    table.refresh_from_db()
    assert table.is_over and table.winner == bo
    assert TieSettlement.objects.get().reason == "High card draw: Bo a king"
    page = text(td_client.get(table_url(tournament, table)))
    assert "Tie settled: Bo wins table 1." in page
    assert "Bo wins the final table with 3 points and is the champion." in page
    assert "The tie for first was settled by the TD for Bo: High card draw: Bo a king" in page
    again = td_client.post(tie_url(tournament, table), data, follow=True)
    assert "This tie was already settled." in text(again)
    assert TieSettlement.objects.count() == 1


def test_settling_needs_a_reason_and_a_tied_leader(td_client, tied):
    tournament, table = tied
    response = td_client.post(
        tie_url(tournament, table),
        {"winner": player(tournament, "Anna").pk, "reason": "", "submission_key": uuid.uuid4()},
    )
    assert response.status_code == 400
    assert "Reason must not be empty." in text(response)
    anna = player(tournament, "Anna").pk
    assert re.search(rf'value="{anna}"[^>]*checked', response.content.decode())
    response = td_client.post(
        tie_url(tournament, table),
        {"winner": player(tournament, "Cia").pk, "reason": "x", "submission_key": uuid.uuid4()},
    )
    assert response.status_code == 400
    assert "Winner: choose one of the options." in text(response)
    assert not TieSettlement.objects.exists()


def test_a_table_without_a_tie_has_none_to_settle(td_client, three):
    tournament, table = three
    response = td_client.post(
        tie_url(tournament, table),
        {"winner": player(tournament, "Anna").pk, "reason": "x", "submission_key": uuid.uuid4()},
    )
    assert response.status_code == 400
    assert "Table 1 has no tie for first to settle." in text(response)
    assert not TieSettlement.objects.exists()


def test_a_get_of_the_tie_url_goes_to_the_tie_section(td_client, tied):
    tournament, table = tied
    response = td_client.get(tie_url(tournament, table))
    assert response.status_code == 302
    assert response["Location"] == table_url(tournament, table) + "#tie"


# ---------------------------------------------------------------- calls


def clear_url(tournament, table):
    return reverse("td:call_clear", args=[tournament.pk, table.pk])


def test_the_td_clears_a_call_and_goes_back(td_client, three):
    tournament, table = three
    calls.call_td(table=table, kind="timeout", note="Count Bo", actor_label="Revisor")
    key = uuid.uuid4()
    response = td_client.post(clear_url(tournament, table), {"submission_key": key})
    assert response.status_code == 302 and response["Location"] == table_url(tournament, table)
    call = TableCall.objects.get()
    assert call.cleared_at is not None
    again = td_client.post(clear_url(tournament, table), {"submission_key": key}, follow=True)
    assert "This call was already cleared." in text(again)
    assert FormSubmission.objects.filter(key=key).count() == 1


def test_clearing_goes_to_a_safe_next_only(td_client, three):
    tournament, table = three
    dashboard = reverse("td:tournament", args=[tournament.pk])
    calls.call_td(table=table, kind="dispute")
    response = td_client.post(
        clear_url(tournament, table) + f"?next={dashboard}", {"submission_key": uuid.uuid4()}
    )
    assert response["Location"] == dashboard
    calls.call_td(table=table, kind="dispute")
    response = td_client.post(
        clear_url(tournament, table),
        {"submission_key": uuid.uuid4(), "next": "//evil.example/x"},
    )
    assert response["Location"] == table_url(tournament, table)
    assert not TableCall.objects.filter(cleared_at__isnull=True).exists()


def test_clearing_without_an_open_call_is_refused_in_place(td_client, three):
    tournament, table = three
    response = td_client.post(clear_url(tournament, table), {"submission_key": uuid.uuid4()})
    assert response.status_code == 400
    assert "Table 1 has no open call." in text(response)
    assert 'role="alert"' in response.content.decode()
    assert not FormSubmission.objects.exists()


def test_clear_is_post_only(td_client, three):
    """A GET goes back to the table's page (a reload of a refused clear), clearing nothing."""
    tournament, table = three
    calls.call_td(table=table, kind="misdeal")
    response = td_client.get(clear_url(tournament, table))
    assert response.status_code == 302
    assert response["Location"] == reverse("td:table", args=[tournament.pk, table.pk])
    assert td_client.put(clear_url(tournament, table)).status_code == 405
    assert TableCall.objects.get(table=table).cleared_at is None


def test_the_confirmation_speaks_swedish(td_client, three, td_user, settings):
    tournament, table = three
    give(tournament, "Bo", "slow", td_user)
    td_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "sv"
    page = text(review(td_client, tournament, table, "Bo", "timeout"))
    assert "2:a varningen: 35 poäng" in page
    assert "35 poäng dras vid bord 1: Bo går från -1 till -36." in page
    assert "Ge straff" in page
