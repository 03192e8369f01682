"""The alerts on the TD's other pages (issue 19 §3: "on the TD's open pages").

Every TD page of a tournament but the dashboard comes with its alerts bar filled (issue 34 §4:
a bar filled by a poll a second later pushed the page down) and then polls like every live
region; the bar lists each open alert, naming its table and why, linked to it; an unchanged
poll answers 204 after the one token query.
"""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournament.conftest import play, single_table
from tests.tournament.views.minute import one_minute
from tournament.models import Player
from tournament.selectors.tokens import revision_token
from tournament.services import calls, draws

pytestmark = pytest.mark.django_db


def bar(tournament):
    return reverse("td:alerts", args=[tournament.pk])


def rev_of(html):
    return re.search(r'data-poll-rev="([^"]*)"', html).group(1)


def test_anonymous_goes_to_login_and_non_staff_is_refused(client, outsider, make_tournament):
    tournament = make_tournament(3)
    response = client.get(bar(tournament))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    client.force_login(outsider)
    assert client.get(bar(tournament)).status_code == 403


def test_unknown_tournament_is_404(td_client):
    assert td_client.get(reverse("td:alerts", args=[999_999])).status_code == 404
    assert td_client.get(reverse("td:alerts", args=[999_999]) + "?rev=1.0.5").status_code == 404


def test_every_td_page_but_the_dashboard_comes_with_its_alerts(td_client, make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    table = single_table(tournament, td_user)
    call = calls.call_td(table=table, kind="dispute")
    pages = [
        reverse("td:players", args=[tournament.pk]),
        reverse("td:settings", args=[tournament.pk]),
        reverse("td:standings", args=[tournament.pk]),
        reverse("td:audit", args=[tournament.pk]),
        reverse("td:table", args=[tournament.pk, table.pk]),
        reverse("td:level", args=[tournament.pk, 1]),
        reverse("td:announcement", args=[tournament.pk]),
    ]
    for url in pages:
        html = td_client.get(url).content.decode()
        assert f'data-poll-url="{bar(tournament)}"' in html, url
        assert "js/td-alerts.js" in html, url
        # Filled with the page (a bar filled by a poll after it pushed the page down), and
        # polled from the revision it shows: no poll at once.
        assert html.count("data-alert-key=") == 1, url
        assert f'data-alert-key="call-{call.pk}"' in html, url
        assert "data-poll-now" not in html, url
        assert rev_of(html[html.index('id="td-alerts"') :]).startswith(
            f"{revision_token(tournament.pk)}."
        ), url
    dashboard = td_client.get(reverse("td:tournament", args=[tournament.pk])).content.decode()
    assert bar(tournament) not in dashboard
    assert dashboard.count("data-alert-key") == 1  # in its own live region
    assert "js/td-alerts.js" in dashboard


def test_the_bar_lists_each_alert_with_its_table_and_the_player_a_timeout_names(
    td_client, make_tournament, td_user
):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    table = single_table(tournament, td_user)
    play(table, 3, 0, -3)
    bo = Player.objects.get(tournament=tournament, name="Bo")
    calls.call_td(table=table, kind="timeout", player=bo)
    response = td_client.get(bar(tournament), headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html
    assert "1 alert<" in html
    assert html.count("data-alert-key=") == 1
    item = re.search(r"<li data-alert-key=\"call-\d+\">(.*?)</li>", html, re.S).group(1)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", item)).strip()
    assert text == "Table 1 — Call: Timeout (count a player) — Names Bo"
    assert f'href="{reverse("td:table", args=[tournament.pk, table.pk])}"' in item
    assert rev_of(html).startswith(f"{revision_token(tournament.pk)}.")


def test_in_swedish(td_client, make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    table = single_table(tournament, td_user)
    calls.call_td(table=table, kind="dispute")
    td_client.cookies["django_language"] = "sv"
    html = td_client.get(bar(tournament)).content.decode()
    assert "1 larm<" in html
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))
    assert text.count("Bord 1 — Tillkallad: Tvist") == 1


def test_an_unchanged_poll_is_204_after_the_token_query_and_a_handled_alert_is_gone(
    td_client, make_tournament, td_user, django_assert_num_queries
):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    table = single_table(tournament, td_user)
    calls.call_td(table=table, kind="dispute")
    with one_minute():
        first = td_client.get(bar(tournament)).content.decode()
        rev = rev_of(first)
        # The session and its user (every TD page reads them), then the token: nothing else.
        with django_assert_num_queries(3):
            unchanged = td_client.get(
                f"{bar(tournament)}?rev={rev}", headers={"HX-Request": "true"}
            )
    assert unchanged.status_code == 204 and unchanged.content == b""

    calls.clear_call(table=table, actor=td_user)
    fresh = td_client.get(f"{bar(tournament)}?rev={rev}", headers={"HX-Request": "true"})
    assert fresh.status_code == 200
    html = fresh.content.decode()
    assert rev_of(html) != rev
    assert "data-alert-key" not in html and "alert" not in re.sub(r"<[^>]+>", "", html)


def test_the_bar_costs_the_same_queries_with_1_table_and_with_100(
    td_client, make_tournament, td_user
):
    """The bar reads the dashboard's selector: a fixed number of queries, whatever the room."""
    small = make_tournament(3)
    single_table(small, td_user)
    big = make_tournament(300)
    draws.draw_first_level(tournament=big, actor=td_user, seed="big")
    counts = []
    for tournament in (small, big):
        with CaptureQueriesContext(connection) as context:
            assert td_client.get(bar(tournament)).status_code == 200
        counts.append(len(context.captured_queries))
    assert counts[0] == counts[1]
