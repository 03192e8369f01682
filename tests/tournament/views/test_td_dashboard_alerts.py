"""Alerts the TD cannot miss (issue 19 §3): a call, a tie to settle, a table gone silent.

The selector lists them, each with a key of its own (the page raises an alert once, when it
is new); the dashboard's live region shows them, each naming its table and why, linked to
it; a handled one is gone.
"""

import re
from datetime import timedelta
from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournament.conftest import play, play_named, single_table
from tournament.models import Table, TableCall
from tournament.selectors.dashboard import dashboard
from tournament.services import calls, draws, hands

pytestmark = pytest.mark.django_db


def at(moment, action):
    with mock.patch("django.utils.timezone.now", return_value=moment):
        return action()


def summary(board):
    return [(a.kind, a.table.number) for a in board.alerts]


@pytest.fixture
def room(make_tournament, td_user):
    """Nine players at three tables (minimum 1 hand), looked at 12 minutes after the draw:

    1: a winning hand at minute 5, then a dispute called at minute 6   -> a call
    2: a hand at minute 8, two players tied for first                   -> a tie
    3: no hand since the draw, 12 minutes ago (more than 10)             -> silent
    """
    tournament = make_tournament([f"Player {n}" for n in range(9)], min_hands=1)
    start = timezone.now().replace(microsecond=0)
    at(start, lambda: draws.draw_first_level(tournament=tournament, actor=td_user, seed="three"))
    t = {
        table.number: table
        for table in Table.objects.current().filter(level__tournament=tournament)
    }
    at(start + timedelta(minutes=5), lambda: play(t[1], 3, 0, -3))
    at(start + timedelta(minutes=6), lambda: calls.call_td(table=t[1], kind="dispute"))
    at(start + timedelta(minutes=8), lambda: play(t[2], 5, 5, -10))
    return tournament, start, t


def test_the_selector_lists_a_call_a_tie_and_a_silent_table(room):
    tournament, start, t = room
    board = dashboard(tournament, now=start + timedelta(minutes=12))
    assert summary(board) == [("call", 1), ("tie", 2), ("silent", 3)]
    call = TableCall.objects.get()
    assert [a.key for a in board.alerts] == [
        f"call-{call.pk}",
        f"tie-{t[2].pk}-1",  # the tie came at hand 1
        f"silent-{t[3].pk}-{int(start.timestamp())}",  # quiet since the draw
    ]
    assert board.alerts[0].call == call
    assert board.alerts[2].minutes == 12


def test_handled_alerts_are_gone(room, td_user):
    tournament, start, t = room
    calls.clear_call(table=t[1], actor=td_user)
    tied = [s.player for s in t[2].seats.select_related("player").order_by("position")][:2]
    hands.settle_tie(table=t[2], actor=td_user, winner=tied[0], reason="Card draw")
    at(start + timedelta(minutes=13), lambda: play(t[3], 2, 0, -2))
    assert dashboard(tournament, now=start + timedelta(minutes=14)).alerts == ()


def test_a_table_silent_again_after_a_hand_is_a_new_alert(room, td_user):
    tournament, start, t = room
    at(start + timedelta(minutes=13), lambda: play(t[3], 2, 2, -4))  # tied: still playing
    later = dashboard(tournament, now=start + timedelta(minutes=30))
    silent = [a for a in later.alerts if a.kind == "silent"]
    # Table 2 (tied, quiet since minute 8) is silent too: the quietest first.
    assert [(a.table.number, a.minutes) for a in silent] == [(2, 22), (3, 17)]
    assert silent[1].key == f"silent-{t[3].pk}-{int((start + timedelta(minutes=13)).timestamp())}"


def test_a_call_at_a_table_out_of_play_is_an_alert_first(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"], min_hands=1)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="first")
    old = level.tables.get()
    calls.call_td(table=old, kind="misdeal")
    draws.redraw_level(level=level, actor=td_user, reason="Seated wrongly", seed="second")
    new = Table.objects.current().get(level=level)
    calls.call_td(table=new, kind="timeout")
    board = dashboard(tournament)
    assert [(a.kind, a.table.pk) for a in board.alerts] == [("call", old.pk), ("call", new.pk)]


def alert_items(html):
    """The dashboard's alerts as (key, link, text), in order."""
    found = re.findall(r'<li data-alert-key="([^"]+)">(.*?)</li>', html, re.S)
    return [
        (
            key,
            re.search(r'href="([^"]+)"', body).group(1),
            re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)).strip(),
        )
        for key, body in found
    ]


@pytest.mark.parametrize(
    "language, texts",
    [
        ("en", ["Table 1 — Call: Dispute", "Table 2 — A tie for first to settle"]),
        ("sv", ["Bord 1 — Tillkallad: Tvist", "Bord 2 — Delad förstaplats att avgöra"]),
    ],
)
def test_the_dashboard_names_each_alert_s_table_and_why(td_client, room, language, texts):
    tournament, start, t = room
    td_client.cookies["django_language"] = language
    with mock.patch("django.utils.timezone.now", return_value=start + timedelta(minutes=9)):
        html = td_client.get(reverse("td:tournament", args=[tournament.pk])).content.decode()
    items = alert_items(html)
    call = TableCall.objects.get()
    assert [(key, link) for key, link, _ in items] == [
        (f"call-{call.pk}", reverse("td:table", args=[tournament.pk, t[1].pk])),
        (f"tie-{t[2].pk}-1", reverse("td:table", args=[tournament.pk, t[2].pk]) + "#tie"),
    ]
    assert [text for _, _, text in items] == texts
    # The switch for sound and notifications is on the page, out of the polled region.
    switch = "Sound and notification for new alerts"
    if language == "sv":
        switch = "Ljud och notis vid nya larm"
    assert html.index(switch) < html.index('id="live"')


def test_silent_in_swedish_and_none_once_handled(td_client, make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"], min_hands=2)
    start = timezone.now()
    table = at(start, lambda: single_table(tournament, td_user))
    home = reverse("td:tournament", args=[tournament.pk])
    td_client.cookies["django_language"] = "sv"
    with mock.patch("django.utils.timezone.now", return_value=start + timedelta(minutes=11)):
        html = td_client.get(home).content.decode()
    assert [text for _, _, text in alert_items(html)] == ["Bord 1 — Tyst i 11 min"]
    play_named(table, {"Anna": 1, "Bo": 0, "Cia": -1})
    html = td_client.get(home).content.decode()
    assert alert_items(html) == [] and 'id="alerts"' not in html
