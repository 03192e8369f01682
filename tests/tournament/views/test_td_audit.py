"""The audit log: every action of a tournament, newest first, filterable, paginated."""

import re
import uuid
from datetime import UTC, datetime
from unittest import mock

import pytest
from django.urls import reverse

from tests.tournament.conftest import play, play_named
from tournament.models import AuditEntry, Table
from tournament.services import calls, draws, hands, penalties, registration

pytestmark = pytest.mark.django_db


def audit(tournament, **params):
    url = reverse("td:audit", args=[tournament.pk])
    if params:
        url += "?" + "&".join(f"{k}={v}" for k, v in params.items())
    return url


def summaries(html):
    return re.findall(r'<p class="audit-summary">([^<]*)</p>', html)


def tables_of(tournament, level):
    return {
        t.number: t
        for t in Table.objects.current().filter(level__tournament=tournament, level__number=level)
    }


# ---------------------------------------------------------------- refusals


def test_anonymous_goes_to_login(client, make_tournament):
    tournament = make_tournament(3)
    response = client.get(audit(tournament))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_non_staff_is_refused(client, outsider, make_tournament):
    tournament = make_tournament(3)
    client.force_login(outsider)
    assert client.get(audit(tournament)).status_code == 403


def test_unknown_tournament_is_404(td_client):
    assert td_client.get(reverse("td:audit", args=[999_999])).status_code == 404


# ---------------------------------------------------------------- the list


def test_entries_newest_first_with_who_when_what_and_details(td_client, make_tournament, td_user):
    moment = datetime(2026, 7, 1, 10, 0, 0, tzinfo=UTC)  # 12:00 in Stockholm (CEST)
    with mock.patch("django.utils.timezone.now", return_value=moment):
        tournament = make_tournament(["Åsa", "Bo", "Cia"])
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="audit")
    table = level.tables.get()
    hands.record_hand(
        table=table,
        hand_number=1,
        idempotency_key=uuid.uuid4(),
        points={0: 3, 1: -1, 2: -2},
        actor_label="Tablet at table 1",
    )
    penalties.give_penalty(
        tournament=tournament, player=tournament.players.get(name="Åsa"), kind="slow", actor=td_user
    )
    response = td_client.get(audit(tournament))
    assert response.status_code == 200
    html = response.content.decode()
    found = summaries(html)
    assert len(found) == 7  # created, 3 players, draw, hand, penalty
    assert found[0].startswith("Åsa: Slow play (warning) — warning 1")
    assert found[1] == "Level 1 table 1: hand 1 (points)"
    assert found[2] == "Drew level 1: 3 players"
    assert found[-1] == "Created tournament SM 2026"
    assert "Entries 1–7 of 7" in html
    # who: the TD's user name, the tablet's label
    assert '<span class="audit-who">director</span>' in html
    assert '<span class="audit-who">Tablet at table 1</span>' in html
    # when: local time (Europe/Stockholm)
    assert "2026-07-01 12:00:00" in html
    # details: the before/after as labelled lines in the reader's language, names in their
    # own letters
    assert "<details" in html and "<summary>Details</summary>" in html
    assert "<dt>Player</dt><dd>Åsa</dd>" in html and "&quot;player&quot;" not in html
    assert "\\u00c5" not in html
    # the filter form: labelled fields, a GET form
    for field, label in (("table", "Table"), ("player", "Player"), ("kind", "Kind")):
        assert f'<label for="id_{field}">{label}</label>' in html
    assert re.search(r'<form method="get" action="[^"]+/audit/"', html)


def test_other_tournaments_entries_are_not_shown(td_client, make_tournament):
    mine = make_tournament(["Anna"], name="Mine")
    make_tournament(["Zed"], name="Other")
    found = summaries(td_client.get(audit(mine)).content.decode())
    assert found == ["Registered Anna (#1)", "Created tournament Mine"]


# ---------------------------------------------------------------- filters


@pytest.fixture
def two_levels(make_tournament, td_user):
    """Level 1: tables 1 and 2 (6 players, 1 hand each, a call and penalties at table 2);
    level 2: one heads-up table 1 with a hand and a penalty."""
    tournament = make_tournament(["Anna", "Anna Berg", "Bo", "Cia", "Dan", "Eva"], min_hands=1)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="filters")
    level1 = tables_of(tournament, 1)
    names = {
        number: [s.player.name for s in t.seats.select_related("player").order_by("position")]
        for number, t in level1.items()
    }
    for table in level1.values():
        play(table, 6, 0, -6)
    calls.call_td(table=level1[2], kind="dispute")
    calls.clear_call(table=level1[2], actor=td_user)
    penalties.give_penalty(
        tournament=tournament,
        player=tournament.players.get(name=names[2][1]),
        kind="conduct",
        actor=td_user,
    )
    draws.advance(tournament=tournament, actor=td_user, seed="level-2")
    level2 = tables_of(tournament, 2)
    winners = [names[1][0], names[2][0]]
    play_named(level2[1], {winners[0]: 4, winners[1]: -4})
    penalties.give_penalty(
        tournament=tournament,
        player=tournament.players.get(name=winners[1]),
        kind="slow",
        actor=td_user,
    )
    return tournament, names


def test_filter_by_kind(td_client, two_levels):
    tournament, _names = two_levels
    html = td_client.get(audit(tournament, kind="penalty")).content.decode()
    found = summaries(html)
    assert len(found) == 2 and all(": " in s and "warning" in s for s in found)
    assert "Entries 1–2 of 2" in html
    assert '<option value="penalty" selected>' in html
    found = summaries(td_client.get(audit(tournament, kind="hand")).content.decode())
    assert found == [
        "Level 2 table 1: hand 1 (points)",
        "Level 1 table 2: hand 1 (points)",
        "Level 1 table 1: hand 1 (points)",
    ]
    found = summaries(td_client.get(audit(tournament, kind="draw")).content.decode())
    assert found == ["Closed level 1; drew level 2: 2 players", "Drew level 1: 6 players"]


def test_filter_by_table(td_client, two_levels):
    tournament, names = two_levels
    html = td_client.get(audit(tournament, table="1-2")).content.decode()
    found = summaries(html)
    assert len(found) == 4
    assert found[0].startswith(f"{names[2][1]}: Unsporting behaviour (warning)")
    assert found[1] == "Level 1 table 2: call cleared (Dispute)"
    assert found[2] == "Level 1 table 2 calls the TD: Dispute"
    assert found[3] == "Level 1 table 2: hand 1 (points)"
    assert '<option value="1-2" selected>Level 1, table 2</option>' in html
    # Table 1 of level 1 is not table 1 of level 2 (nor table 10 and up).
    found = summaries(td_client.get(audit(tournament, table="1-1")).content.decode())
    assert found == ["Level 1 table 1: hand 1 (points)"]
    found = summaries(td_client.get(audit(tournament, table="2-1")).content.decode())
    assert len(found) == 2
    assert "warning" in found[0] and found[1] == "Level 2 table 1: hand 1 (points)"


def test_filter_by_player(td_client, two_levels):
    tournament, names = two_levels
    anna = tournament.players.get(name="Anna")
    html = td_client.get(audit(tournament, player=anna.pk)).content.decode()
    found = summaries(html)
    # Her registration (not Anna Berg's) and the hands of every table she sat at.
    assert "Registered Anna (#1)" in found
    assert "Registered Anna Berg (#2)" not in found
    anna_table = next(n for n, seated in names.items() if "Anna" in seated)
    assert f"Level 1 table {anna_table}: hand 1 (points)" in found
    assert f"Level 1 table {3 - anna_table}: hand 1 (points)" not in found
    assert ("Level 2 table 1: hand 1 (points)" in found) == (names[anna_table][0] == "Anna")
    assert f'<option value="{anna.pk}" selected>Anna</option>' in html
    berg = tournament.players.get(name="Anna Berg")
    found = summaries(td_client.get(audit(tournament, player=berg.pk)).content.decode())
    assert "Registered Anna Berg (#2)" in found and "Registered Anna (#1)" not in found


def test_filters_combine(td_client, two_levels):
    tournament, names = two_levels
    found = summaries(td_client.get(audit(tournament, table="1-2", kind="table")).content.decode())
    assert found == [
        "Level 1 table 2: call cleared (Dispute)",
        "Level 1 table 2 calls the TD: Dispute",
    ]
    html = td_client.get(audit(tournament, table="1-1", kind="penalty")).content.decode()
    assert summaries(html) == []
    assert "No entries match these filters." in html
    assert "Clear the filters" in html


def test_a_bad_filter_is_shown_in_place(td_client, make_tournament):
    tournament = make_tournament(3)
    response = td_client.get(audit(tournament, table="9-9", kind="hand"))
    assert response.status_code == 400
    html = response.content.decode()
    assert 'role="alert"' in html
    assert "Table: choose one of the options." in html
    assert '<option value="hand" selected>' in html  # what was chosen is kept
    assert summaries(html) == []


def test_players_are_listed_the_swedish_way(td_client, make_tournament):
    tournament = make_tournament(["Örjan", "Åsa", "Zack", "Ärla", "Adam"])
    html = td_client.get(audit(tournament)).content.decode()
    select = html[html.index('<select name="player"') :]
    select = select[: select.index("</select>")]
    assert re.findall(r'<option value="\d+">([^<]+)</option>', select) == [
        "Adam",
        "Zack",
        "Åsa",
        "Ärla",
        "Örjan",
    ]


# ---------------------------------------------------------------- pages


def test_120_entries_make_3_pages_of_50(td_client, td_user):
    tournament = registration.create_tournament(actor=td_user, name="Big")
    for n in range(1, 120):
        registration.register_player(tournament=tournament, actor=td_user, name=f"Player {n}")
    assert AuditEntry.objects.filter(tournament=tournament).count() == 120
    first = td_client.get(audit(tournament)).content.decode()
    assert len(summaries(first)) == 50
    assert summaries(first)[0] == "Registered Player 119 (#119)"
    assert "Entries 1–50 of 120" in first and "Page 1 of 3" in first
    assert 'href="?page=2" rel="next"' in first
    second = td_client.get(audit(tournament, page=2)).content.decode()
    assert summaries(second)[0] == "Registered Player 69 (#69)"
    assert "Page 2 of 3" in second and 'href="?page=1" rel="prev"' in second
    third = td_client.get(audit(tournament, page=3)).content.decode()
    assert len(summaries(third)) == 20
    assert summaries(third)[-1] == "Created tournament Big"
    assert "Entries 101–120 of 120" in third and 'rel="next"' not in third
    # Past the end or junk: the nearest real page, never an error.
    assert "Page 3 of 3" in td_client.get(audit(tournament, page=99)).content.decode()
    assert "Page 1 of 3" in td_client.get(audit(tournament, page="x")).content.decode()


def test_page_links_keep_the_filters(td_client, td_user):
    tournament = registration.create_tournament(actor=td_user, name="Big")
    for n in range(1, 61):
        registration.register_player(tournament=tournament, actor=td_user, name=f"Player {n}")
    html = td_client.get(audit(tournament, kind="player")).content.decode()
    assert "Entries 1–50 of 60" in html
    assert 'href="?kind=player&amp;page=2" rel="next"' in html
    html = td_client.get(audit(tournament, kind="player", page=2)).content.decode()
    assert len(summaries(html)) == 10


def test_audit_queries_do_not_grow_with_the_page(
    td_client, td_user, make_tournament, django_assert_num_queries
):
    tournament = registration.create_tournament(actor=td_user, name="Big")
    for n in range(1, 80):
        registration.register_player(tournament=tournament, actor=td_user, name=f"Player {n}")
    # session, user, tournament, tables, players; the count of entries and of hands'
    # lines; the page's keys, its entries; the alerts bar, rendered with the page (before
    # the first draw: the dashboard's levels and players, and the revision token).
    with django_assert_num_queries(12):
        assert td_client.get(audit(tournament)).status_code == 200


def test_a_page_of_hands_and_entries_costs_the_same_queries(
    td_client, td_user, make_tournament, django_assert_num_queries
):
    tournament = make_tournament(3, min_hands=40)
    table = draws.draw_first_level(tournament=tournament, actor=td_user, seed="q").tables.get()
    for _ in range(30):
        play(table, 3, -1, -2)
    penalties.give_penalty(
        tournament=tournament, player=tournament.players.first(), kind="slow", actor=td_user
    )
    # As above, and the page's hand versions and their results (30 hands + 6 entries);
    # the alerts bar of a level in play: the dashboard's 7 and the revision token.
    with django_assert_num_queries(19):
        html = td_client.get(audit(tournament)).content.decode()
    assert "Entries 1–36 of 36" in html
    assert summaries(html)[:2] == [
        "Anna: Slow play (warning) — warning 1, 0 points (deducted at table 1 after hand 30)",
        "Level 1 table 1: hand 30 (points)",
    ]


def test_the_audit_log_in_swedish(td_client, make_tournament):
    tournament = make_tournament(["Åsa"])
    td_client.cookies["django_language"] = "sv"
    html = td_client.get(audit(tournament)).content.decode()
    assert "<h1>Händelselogg</h1>" in html
    assert '<label for="id_kind">Typ</label>' in html
    assert "Händelse 1–2 av 2" in html
    assert "Alla spelare" in html


def labels(html):
    return re.findall(r'<span class="audit-action">([^<]*)</span>', html)


def test_entries_made_in_english_are_read_in_swedish(td_client, make_tournament, td_user):
    """The log keeps what happened as data: a Swedish TD reads every sentence in Swedish,
    and the action's name instead of its code, though the changes were made in English."""
    tournament = make_tournament(["Åsa", "Bo", "Cia"])
    table = draws.draw_first_level(tournament=tournament, actor=td_user, seed="sv").tables.get()
    play(table, 3, -1, -2)
    penalties.give_penalty(
        tournament=tournament,
        player=tournament.players.get(name="Åsa"),
        kind="timeout",
        actor=td_user,
    )
    calls.call_td(table=table, kind="dispute", note="kort på golvet")
    td_client.cookies["django_language"] = "sv"
    html = td_client.get(audit(tournament)).content.decode()
    assert summaries(html) == [
        "Nivå 1 bord 1 tillkallar TL: Tvist (kort på golvet)",
        "Åsa: Timeout (10 poäng och en varning) — varning 1, 10 poäng "
        "(dras vid bord 1 efter hand 1)",
        "Nivå 1 bord 1: hand 1 (poäng)",
        "Lottade nivå 1: 3 spelare",
        "Registrerade Cia (nr 3)",
        "Registrerade Bo (nr 2)",
        "Registrerade Åsa (nr 1)",
        "Skapade turneringen SM 2026",
    ]
    assert labels(html) == [
        "Bord tillkallade TL",
        "Straff givet",
        "Hand registrerad",
        "Nivå lottad",
        "Spelare registrerad",
        "Spelare registrerad",
        "Spelare registrerad",
        "Turnering skapad",
    ]
    for code in ("table.call", "penalty.give", "hand.record", "draw.create", "player.register"):
        assert code not in html
    # The same entries, read in English.
    td_client.cookies["django_language"] = "en"
    html = td_client.get(audit(tournament)).content.decode()
    assert summaries(html)[:2] == [
        "Level 1 table 1 calls the TD: Dispute (kort på golvet)",
        "Åsa: Timeout (10 points and a warning) — warning 1, 10 points "
        "(deducted at table 1 after hand 1)",
    ]
    assert labels(html)[:3] == ["Table called the TD", "Penalty given", "Hand recorded"]


def test_every_kind_of_entry_in_swedish(td_client, two_levels, td_user):
    """Closing a level, correcting a hand, a tie, a rescinded penalty, a new revisor link,
    a rename and the champion: each in Swedish."""
    tournament, _names = two_levels
    level2 = tables_of(tournament, 2)[1]
    hand = level2.hands.get(number=1)
    hands.correct_hand(
        hand=hand,
        actor=td_user,
        reason="fel summa",
        based_on_version=1,
        points={
            seat.position: (-4 if seat.position == 0 else 4)
            for seat in level2.seats.order_by("position")
        },
    )
    penalty = tournament.penalties.latest("id")
    penalties.rescind_penalty(penalty=penalty, actor=td_user, reason="misstag")
    registration.rename_player(
        player=tournament.players.get(name="Eva"), actor=td_user, name="Eva Öst"
    )
    td_client.cookies["django_language"] = "sv"
    found = summaries(td_client.get(audit(tournament)).content.decode())
    rescinded = penalty.player.name
    assert found[:3] == [
        "Bytte namn på Eva till Eva Öst (nr 6)",
        f"Återkallade straffet för {rescinded} (Långsamt spel (varning)): misstag",
        "Nivå 2 bord 1: rättade hand 1 (version 2): fel summa",
    ]
    assert "Stängde nivå 1; lottade nivå 2: 2 spelare" in found
    assert "Nivå 1 bord 2: tillkallningen avklarad (Tvist)" in found


def test_a_tie_decided_again_names_both_players_and_is_found_by_each(
    td_client, make_tournament, td_user
):
    """Settled for Bo, decided again for Anna: the log says so in one line, found under
    the ties, under the table, and under either player (Cia: not named, but she sat there,
    and only hands are found by where one sat)."""
    from tests.tournament.conftest import single_table

    tournament = make_tournament(["Anna", "Bo", "Cia"], min_hands=1)
    table = single_table(tournament, td_user)
    play_named(table, {"Anna": 2, "Bo": 2, "Cia": -4})
    anna, bo, cia = (tournament.players.get(name=n) for n in ("Anna", "Bo", "Cia"))
    hands.settle_tie(table=table, actor=td_user, winner=bo, reason="high card")
    hands.settle_tie(table=table, actor=td_user, winner=anna, reason="the king was Anna's")
    # As the page escapes it (the apostrophe).
    line = "Level 1 table 1: tie decided again, for Anna instead of Bo: the king was Anna&#x27;s"
    assert summaries(td_client.get(audit(tournament, kind="tie")).content.decode()) == [
        line,
        "Level 1 table 1: tie settled for Bo: high card",
    ]
    for who in (anna, bo):
        found = summaries(td_client.get(audit(tournament, player=who.pk)).content.decode())
        assert line in found
    found = summaries(td_client.get(audit(tournament, player=cia.pk)).content.decode())
    assert line not in found
    assert "Level 1 table 1: hand 1 (points)" in found


def table_options(html):
    select = html[html.index('<select name="table"') :]
    return re.findall(r"<option[^>]*>([^<]+)</option>", select[: select.index("</select>")])


def test_the_table_filter_lists_only_the_tables_of_draws_that_stand(
    td_client, make_tournament, td_user
):
    """7 players sit at 3 tables (3, 2, 2); table 3 calls the TD; a no-show is withdrawn
    before the first hand and level 1 is drawn again: 6 players, 2 tables. Table 3 is gone
    from the room, so from the filter too; what happened there stays in the log."""
    tournament = make_tournament(7)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="redone")
    assert sorted(tables_of(tournament, 1)) == [1, 2, 3]
    calls.call_td(table=tables_of(tournament, 1)[3], kind="dispute")
    registration.withdraw_player(player=tournament.players.get(name="Gun"), actor=td_user)
    assert sorted(tables_of(tournament, 1)) == [1, 2]
    html = td_client.get(audit(tournament)).content.decode()
    assert table_options(html) == ["Every table", "Level 1, table 1", "Level 1, table 2"]
    assert "Level 1 table 3 calls the TD: Dispute" in summaries(html)  # never lost
    kind = summaries(td_client.get(audit(tournament, kind="table")).content.decode())
    assert "Level 1 table 3 calls the TD: Dispute" in kind
    # A link kept from before the redraw is refused in place, not a 500 nor an empty list.
    response = td_client.get(audit(tournament, table="1-3"))
    assert response.status_code == 400
    assert "Table: choose one of the options." in response.content.decode()
