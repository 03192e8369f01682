"""A timeout call naming a player, on the TD's dashboard (issue 19 §2): its penalty in one
step through the confirmation page (the cost stated first); giving it clears the call, and
the call's record stays, as it does when the TD clears the call without a penalty."""

import html as htmllib
import re

import pytest
from django.urls import reverse
from django.utils import translation

from tests.tournament.conftest import play_named, single_table, totals
from tournament.models import Penalty, Player, TableCall
from tournament.services import calls, draws

pytestmark = pytest.mark.django_db


def text(html):
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", html)).split())


def form_fields(html, action):
    """The hidden fields of the first form posting to `action`, as a browser sends them."""
    form = html[html.index(f'action="{action}"') :]
    form = form[: form.index("</form>")]
    return {
        name: htmllib.unescape(value)
        for name, value in re.findall(r'type="hidden" name="([^"]+)" value="([^"]*)"', form)
        if name != "csrfmiddlewaretoken"
    }


@pytest.fixture
def timed(make_tournament, td_user):
    """Anna 4, Bo -1, Cia -3 after one hand; the revisor timed Bo out."""
    tournament = make_tournament(["Anna", "Bo", "Cia"], min_hands=3)
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 4, "Bo": -1, "Cia": -3}, actor=td_user)
    bo = Player.objects.get(tournament=tournament, name="Bo")
    call = calls.call_td(table=table, kind="timeout", player=bo, actor_label="Revisor, table 1")
    return tournament, table, call


def dashboard(client, tournament):
    return client.get(reverse("td:tournament", args=[tournament.pk])).content.decode()


def test_the_dashboard_names_the_player_and_offers_the_timeout_penalty(td_client, timed):
    tournament, table, _ = timed
    page = text(dashboard(td_client, tournament))
    assert "Call: Timeout (count a player) Names Bo" in page
    assert "Give Bo the timeout penalty" in page


def test_the_penalty_is_given_in_one_step_and_clears_the_call(td_client, timed, td_user):
    tournament, table, call = timed
    action = reverse("td:penalty_new", args=[tournament.pk, table.pk])
    fields = form_fields(dashboard(td_client, tournament), action)
    stated = td_client.post(action, fields)
    assert stated.status_code == 200
    page = text(stated.content.decode())
    # Bo's 1st warning, a timeout: 10 points, from -1 to -11; nothing given yet.
    assert "Bo · Timeout (10 points and a warning) 1st warning: 10 points" in page
    assert "10 points come off at table 1: Bo goes from -1 to -11." in page
    assert not Penalty.objects.exists()
    confirmation = {**form_fields(stated.content.decode(), action), "confirm": "1"}
    response = td_client.post(action, confirmation)
    assert response.status_code == 302
    penalty = Penalty.objects.get()
    assert (penalty.player.name, penalty.kind, penalty.points) == ("Bo", "timeout", 10)
    assert totals(table)["Bo"] == -11
    call.refresh_from_db()  # the call is kept, cleared by the TD
    assert call.cleared_at is not None and call.cleared_by == td_user
    assert TableCall.objects.count() == 1
    assert "Give Bo the timeout penalty" not in dashboard(td_client, tournament)
    # Sent again (a double click): nothing given twice.
    td_client.post(action, confirmation)
    assert Penalty.objects.count() == 1


def test_clearing_without_a_penalty_keeps_the_call_and_gives_nothing(td_client, timed, td_user):
    tournament, table, call = timed
    clear = reverse("td:call_clear", args=[tournament.pk, table.pk])
    fields = form_fields(dashboard(td_client, tournament), clear)
    assert td_client.post(clear, fields).status_code == 302
    call.refresh_from_db()
    assert call.cleared_at is not None and call.player.name == "Bo"
    assert not Penalty.objects.exists()


def test_a_call_cleared_meanwhile_still_gives_the_penalty_once(td_client, timed, td_user):
    tournament, table, call = timed
    action = reverse("td:penalty_new", args=[tournament.pk, table.pk])
    stated = td_client.post(action, form_fields(dashboard(td_client, tournament), action))
    calls.clear_call(table=table, actor=td_user)
    calls.call_td(table=table, kind="dispute")  # a new call: not the one the penalty is for
    confirmation = {**form_fields(stated.content.decode(), action), "confirm": "1"}
    assert td_client.post(action, confirmation).status_code == 302
    assert Penalty.objects.count() == 1
    assert TableCall.objects.get(kind="dispute").cleared_at is None


def test_a_warning_call_names_the_player_without_a_timeout_penalty(
    td_client, make_tournament, td_user
):
    tournament = make_tournament(["Anna", "Bo", "Cia"], min_hands=3)
    table = single_table(tournament, td_user)
    cia = Player.objects.get(tournament=tournament, name="Cia")
    calls.call_td(table=table, kind="other", player=cia, note="Acted in time")
    page = text(dashboard(td_client, tournament))
    assert "Names Cia" in page and "timeout penalty" not in page


def test_the_dashboard_offer_speaks_swedish(td_client, timed):
    tournament, _, _ = timed
    with translation.override("sv"):
        page = text(
            td_client.get(
                reverse("td:tournament", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="sv"
            ).content.decode()
        )
    assert "Gäller Bo" in page and "Ge Bo timeout-straffet" in page


def test_the_table_page_names_the_player_and_offers_the_penalty_too(td_client, timed):
    tournament, table, _ = timed
    page = td_client.get(reverse("td:table", args=[tournament.pk, table.pk])).content.decode()
    assert "Names Bo" in text(page) and "Give Bo the timeout penalty" in text(page)


def test_no_timeout_penalty_is_offered_at_a_table_out_of_play(td_client, make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"], min_hands=3)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="first")
    old = level.tables.get()
    bo = Player.objects.get(tournament=tournament, name="Bo")
    calls.call_td(table=old, kind="timeout", player=bo)
    draws.redraw_level(level=level, actor=td_user, reason="Seated wrongly", seed="second")
    page = text(td_client.get(reverse("td:table", args=[tournament.pk, old.pk])).content.decode())
    assert "Names Bo" in page and "Give Bo the timeout penalty" not in page
