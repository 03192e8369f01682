"""The public pages (/t/...): what each shows, worked out by hand, and what each refuses."""

import html as htmllib
import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.tournament.conftest import dealers, play, play_named, positions, single_table
from tournament.models import Player, Table
from tournament.services import draws, penalties

pytestmark = pytest.mark.django_db

NAMES = ["Anna Berg", "Björk Ek", "Åsa Lind", "Émile Roy", "Zoë Ström", "Olle Öst"]


@pytest.fixture(autouse=True)
def fresh_cache():
    """Regions are kept per revision token; every test starts from nothing kept."""
    cache.clear()
    yield
    cache.clear()


def text(response):
    """The page's visible text, blanks folded (for reading sentences across tags)."""
    page = re.sub(r"<[^>]+>", " ", response.content.decode())
    page = " ".join(htmllib.unescape(page).split())
    return re.sub(r" ([,.;])", r"\1", page)  # no blank before punctuation after a tag


def player(tournament, name):
    return Player.objects.get(tournament=tournament, name=name)


def names_by_seat(table):
    by_position = {position: name for name, position in positions(table).items()}
    return [by_position[p] for p in sorted(by_position)]


def hand_line(number, points, totals, dealer):
    """A hand's line of the public score card as text: its number, then each seat's points
    (the dealer's marked "D", said "deals this hand") and running total."""
    cells = [
        f"{p}{' D deals this hand' if seat == dealer else ''} {t}"
        for seat, (p, t) in enumerate(zip(points, totals, strict=True))
    ]
    return f"{number} " + " ".join(cells)


def level_tables(level):
    return list(Table.objects.current().filter(level=level).order_by("number"))


@pytest.fixture
def six(make_tournament, td_user):
    """Six players at two tables of level 1, at least 2 hands each."""
    tournament = make_tournament(NAMES, min_hands=2)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="public-six")
    return tournament, level_tables(level)


@pytest.fixture
def finished(make_tournament, td_user):
    """A whole tournament: two tables at level 1 (one hand each), their winners heads-up
    at level 2. By seat: table 1 +6 -2 -4, table 2 +4 +2 -6; level 2: table 2's winner
    +5, table 1's winner -5."""
    tournament = make_tournament(NAMES, min_hands=1)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="public-six")
    first, second = level_tables(level)
    one, two = names_by_seat(first), names_by_seat(second)
    play(first, 6, -2, -4)
    play(second, 4, 2, -6)
    final_level = draws.advance(tournament=tournament, actor=td_user, seed="final")
    final = level_tables(final_level)[0]
    play_named(final, {two[0]: 5, one[0]: -5})
    assert draws.advance(tournament=tournament, actor=td_user) is None
    tournament.refresh_from_db()
    return tournament, one, two, final


# ---------------------------------------------------------------- the tournament page


def test_before_the_draw_the_page_says_the_tables_come_with_it(client, make_tournament):
    tournament = make_tournament(NAMES)
    response = client.get(reverse("public:tournament", args=[tournament.pk]))
    assert response.status_code == 200
    page = text(response)
    assert "No draw yet" in page
    assert "The tables show here as soon as the TD makes the first draw." in page
    body = response.content.decode()
    assert f'data-poll-url="/t/{tournament.pk}/?lang=en"' in body
    assert "data-poll-stop" not in body


def test_every_table_with_its_players_totals_hands_and_fantasyland(client, six, td_user):
    tournament, (first, second) = six
    one, two = names_by_seat(first), names_by_seat(second)
    play(first, 6, -2, -4)
    play(first, 1, 1, -2)  # 2 of 2 hands: first is over, seat 1 wins with 7
    play(second, -3, 4, -1, fantasyland={1})  # seat 2 goes to Fantasyland: 3 hands required
    response = client.get(reverse("public:tournament", args=[tournament.pk]))
    page = text(response)
    assert "Level 1" in page
    assert "1 of 2 tables finished, 6 players." in page
    assert "In Fantasyland next hand: 1." in page
    assert f"Won their table and advance: {one[0]}" in page
    assert f"Table 1 2/2 hands finished {one[0]} advances 7 {one[1]} -1 {one[2]} -6" in page
    assert f"Table 2 1/3 hands {two[0]} -3 {two[1]} FL 4 {two[2]} -1" in page
    body = response.content.decode()
    assert f'href="/t/{tournament.pk}/table/{first.pk}/"' in body
    assert f'href="/t/{tournament.pk}/player/{player(tournament, two[1]).pk}/"' in body
    assert f'<li class="leads"><a href="/t/{tournament.pk}/player/' in body


def test_a_tie_for_first_after_the_required_hands_is_shown(client, six):
    tournament, (first, _) = six
    play(first, 2, -2, 0)
    play(first, -2, 2, 0)  # 2 of 2 hands, seats 1 and 2 tied at 0 with seat 3
    page = text(client.get(reverse("public:tournament", args=[tournament.pk])))
    assert "Table 1 2/2 hands tie: one more hand" in page


def test_a_finished_tournament_shows_its_champion_and_stops_polling(client, finished):
    tournament, one, two, _ = finished
    response = client.get(reverse("public:tournament", args=[tournament.pk]))
    page = text(response)
    assert f"The tournament is over Champion: {two[0]}" in page
    assert "Level 1 Level 2" in page  # the levels to choose from
    assert "Final (over)" in page  # level 2 has one table: the final
    assert "data-poll-stop" in response.content.decode()


def test_an_earlier_level_shows_who_advanced(client, finished):
    tournament, one, two, _ = finished
    response = client.get(reverse("public:tournament", args=[tournament.pk]) + "?level=1")
    page = text(response)
    assert "Level 1 (over)" in page
    assert f"Advanced: {one[0]}, {two[0]}" in page
    assert "2 of 2 tables finished, 6 players." in page
    # A level that does not exist shows the current one.
    page = text(client.get(reverse("public:tournament", args=[tournament.pk]) + "?level=9"))
    assert "Final (over)" in page


def test_the_page_links_to_itself_with_a_qr_code_and_a_poster(client, six):
    tournament, _ = six
    response = client.get(reverse("public:tournament", args=[tournament.pk]))
    body = response.content.decode()
    link = f"testserver/t/{tournament.pk}"
    assert f'<a href="http://{link}/">{link}</a>' in body
    assert '<svg role="img"' in body and f"QR code of testserver/t/{tournament.pk}" in body
    assert f'href="/t/{tournament.pk}/poster/"' in body
    assert f'action="/t/{tournament.pk}/find/"' in body
    assert '<label for="id_q">Your name, or a few letters of it</label>' in body


# ---------------------------------------------------------------- the poster and the projectors


def test_the_poster_has_the_name_a_large_qr_code_and_the_short_link(client, six):
    tournament, _ = six
    response = client.get(reverse("public:poster", args=[tournament.pk]))
    assert response.status_code == 200
    body = response.content.decode()
    assert "poster-page" in body and '<svg role="img"' in body
    page = text(response)
    assert "SM 2026 Where do I sit? Live tables and standings on your phone:" in page
    assert f"testserver/t/{tournament.pk} Scan the code" in page
    assert "css/public.css" in body  # with its print stylesheet


def test_the_tables_projector_has_large_type_no_navigation_and_pages_itself(client, six):
    tournament, (first, _) = six
    one = names_by_seat(first)
    play(first, 6, -2, -4)
    response = client.get(reverse("public:tables_projector", args=[tournament.pk]))
    body = response.content.decode()
    assert 'class="projector"' in body
    assert "site-header" not in body and "<nav" not in body and "<form" not in body
    assert "js/pager.js" in body and "data-pager " in body
    assert body.count("data-pager-item") == 2
    assert 'data-poll-every="10"' in body
    assert f"Table 1 1/2 hands {one[0]} 6 {one[1]} -2 {one[2]} -4" in text(response)


def test_the_standings_projector_lists_every_player_and_pages_itself(client, finished):
    tournament, *_ = finished
    response = client.get(reverse("public:standings_projector", args=[tournament.pk]))
    body = response.content.decode()
    assert "site-header" not in body and "<nav" not in body
    assert body.count("data-pager-item") == 6
    assert "data-poll-stop" in body
    assert "Final standings" in text(response)


# ---------------------------------------------------------------- a table's score card


def test_a_tables_score_card_hand_by_hand(client, six, td_user):
    tournament, (first, _) = six
    one = names_by_seat(first)
    play(first, 6, -2, -4)
    play(first, -1, 3, -2)
    penalties.give_penalty(
        tournament=tournament, player=player(tournament, one[2]), kind="timeout", actor=td_user
    )
    response = client.get(reverse("public:table", args=[tournament.pk, first.pk]))
    assert response.status_code == 200
    page = text(response)
    assert "Table 1 · level 1" in page
    # Totals at the top: 5, 1, -6 less the 10 of the timeout; 2 of 2 hands: seat 1 wins.
    assert f"{one[0]} 5 advances {one[1]} 1 {one[2]} -16" in page
    assert f"2 of 2 hands played: the table is over. {one[0]} wins the table with 5" in page
    first_dealer, second_dealer = dealers(first)[:2]
    # Each hand: every seat's points and running total, a D beside the dealer's points.
    assert hand_line(1, ["+6", "-2", "-4"], ["6", "-2", "-4"], first_dealer) in page
    assert hand_line(2, ["-1", "+3", "-2"], ["5", "1", "-6"], second_dealer) in page
    # The timeout, then its -10 under the third seat's name: -6 - 10 = -16.
    assert (
        f"Penalty: {one[2]}, warning 1, Timeout (10 points and a warning) Penalty 5 1 -10 -16"
        in page
    )
    assert "Correct" not in page  # read-only: no TD action
    assert "data-poll-stop" not in response.content.decode()  # the TD may still correct


def test_a_redrawn_tables_card_says_so(client, six, td_user):
    tournament, (first, _) = six
    draws.redraw_level(level=first.level, actor=td_user, reason="A player came late")
    response = client.get(reverse("public:table", args=[tournament.pk, first.pk]))
    assert "This draw was redone: these tables no longer play." in text(response)
    # Still polled: the TD's announcements reach a settled card too (issue 34 §2).
    assert "data-poll-stop" not in response.content.decode()


# ---------------------------------------------------------------- a player's page


def test_a_players_page_lists_his_tables_and_public_penalties(client, finished, td_user):
    tournament, one, two, final = finished
    champion = player(tournament, two[0])
    response = client.get(reverse("public:player", args=[tournament.pk, champion.pk]))
    assert response.status_code == 200
    page = text(response)
    assert f"{two[0]} · SM 2026" in page  # the <title>
    assert "Champion!" in page
    # Level 1: table 2, place 1 with 4; level 2: table 1, place 1 with 5.
    assert "Level 1 · Table 2 · place 1 · 4 points · won, advanced" in page
    # Level 2 plays one table: its winner is the champion, he advances nowhere.
    assert "Level 2 · Table 1 · place 1 · 5 points · won the final table: champion" in page
    assert "No warnings." in page

    runner_up = player(tournament, one[0])
    page = text(client.get(reverse("public:player", args=[tournament.pk, runner_up.pk])))
    assert "Out at level 2: place 2 in the standings." in page
    assert "Place 2 at table 1, with -5 points." in page


def test_warnings_and_penalties_are_public_and_a_rescinded_one_is_marked(client, six, td_user):
    tournament, (first, _) = six
    one = names_by_seat(first)
    play(first, 6, -2, -4)
    victim = player(tournament, one[1])
    timeout = penalties.give_penalty(
        tournament=tournament, player=victim, kind="timeout", actor=td_user, note="Private note"
    )
    penalties.give_penalty(tournament=tournament, player=victim, kind="conduct", actor=td_user)
    url = reverse("public:player", args=[tournament.pk, victim.pk])
    page = text(client.get(url))
    # 10 for the timeout, 25 for the 2nd warning: -2 - 35 = -37.
    assert "Warnings that count: 2; points deducted: 35." in page
    assert (
        "Timeout (10 points and a warning) · warning 1 · 10 points deducted · "
        "level 1, table 1, after hand 1"
    ) in page
    assert "Unsporting behaviour (warning) · warning 2 · 25 points deducted" in page
    assert "Level 1 · Table 1 · place 3 · -37 points · playing" in page  # 6, -37, -4
    assert "Private note" not in page  # the TD's notes stay with the TD

    penalties.rescind_penalty(penalty=timeout, actor=td_user, reason="The clock was wrong")
    page = text(client.get(url))
    assert "Warnings that count: 1; points deducted: 0." in page
    assert "Timeout (10 points and a warning) rescinded: does not count" in page
    assert "Unsporting behaviour (warning) · warning 1 · no points deducted" in page
    assert "The clock was wrong" not in page


def test_a_third_warning_shows_the_disqualification(client, six, td_user):
    tournament, (first, _) = six
    one = names_by_seat(first)
    play(first, 6, -2, -4)
    victim = player(tournament, one[2])
    for kind in ("slow", "slow", "conduct"):
        penalties.give_penalty(tournament=tournament, player=victim, kind=kind, actor=td_user)
    page = text(client.get(reverse("public:player", args=[tournament.pk, victim.pk])))
    assert "Disqualified." in page
    assert "Unsporting behaviour (warning) · warning 3 · no points deducted · disqualified" in page
    assert "Level 1 · Table 1 · -29 points · disqualified" in page  # -4 less 25 (2nd warning)
    page = text(client.get(reverse("public:tournament", args=[tournament.pk])))
    assert f"{one[2]} disqualified -29" in page


# ---------------------------------------------------------------- standings


def test_standings_champion_first_then_as_the_rules_order_them(client, finished):
    tournament, one, two, _ = finished
    response = client.get(reverse("public:standings", args=[tournament.pk]))
    page = text(response)
    # Champion; the other player of the last table; then level 1's players who went out,
    # by place at their table (2nd before 3rd) and then by points there.
    assert (
        f"1 {two[0]} champion 2 1 5 "
        f"2 {one[0]} 2 2 -5 "
        f"3 {two[1]} 1 2 2 "
        f"4 {one[1]} 1 2 -2 "
        f"5 {one[2]} 1 3 -4 "
        f"6 {two[2]} 1 3 -6"
    ) in page
    assert "Final standings: the champion" in page
    assert "data-poll-stop" in response.content.decode()


def test_standings_during_play_put_the_players_still_in_first(client, six, td_user):
    tournament, (first, second) = six
    one, two = names_by_seat(first), names_by_seat(second)
    play(first, 6, -2, -4)
    play(first, 1, 1, -2)  # over: seat 1 wins with 7, seat 2 -1, seat 3 -6
    play(second, -3, 4, -1)
    victim = player(tournament, two[2])
    for kind in ("slow", "slow", "conduct"):
        penalties.give_penalty(tournament=tournament, player=victim, kind=kind, actor=td_user)
    page = text(client.get(reverse("public:standings", args=[tournament.pk])))
    assert (
        f"1 {one[0]} still in 1 1 7 "
        f"2 {two[1]} still in 1 1 4 "
        f"3 {two[0]} still in 1 2 -3 "
        f"4 {one[1]} 1 2 -1 "
        f"5 {one[2]} 1 3 -6 "
        f"– {two[2]} disqualified 1 – -26"
    ) in page
    assert "During play: the players still in first" in page


# ---------------------------------------------------------------- refusals


def test_unknown_tournaments_tables_and_players_are_404(client, six, make_tournament, td_user):
    tournament, (first, _) = six
    other = make_tournament(["Kim", "Lo"], name="Other Cup")
    other_table = single_table(other, td_user)
    stranger = player(other, "Kim")
    unknown = tournament.pk + other.pk + 100
    for name in ("tournament", "find", "standings", "poster"):
        assert client.get(reverse(f"public:{name}", args=[unknown])).status_code == 404
    for name in ("tables_projector", "standings_projector"):
        assert client.get(reverse(f"public:{name}", args=[unknown])).status_code == 404
    table_url = reverse("public:table", args=[tournament.pk, other_table.pk])
    assert client.get(table_url).status_code == 404  # a table of another tournament
    assert client.get(reverse("public:table", args=[tournament.pk, 99999])).status_code == 404
    assert client.get(reverse("public:table", args=[unknown, first.pk])).status_code == 404
    player_url = reverse("public:player", args=[tournament.pk, stranger.pk])
    assert client.get(player_url).status_code == 404
    assert client.get(reverse("public:player", args=[tournament.pk, 99999])).status_code == 404
    assert client.get(f"/t/{tournament.pk}/table/abc/").status_code == 404


def test_the_pages_write_nothing_and_set_no_session_for_a_visitor(client, six):
    tournament, (first, _) = six
    urls = [
        reverse("public:tournament", args=[tournament.pk]),
        reverse("public:find", args=[tournament.pk]) + "?q=anna",
        reverse("public:standings", args=[tournament.pk]),
        reverse("public:table", args=[tournament.pk, first.pk]),
        reverse("public:player", args=[tournament.pk, player(tournament, "Anna Berg").pk]),
        reverse("public:poster", args=[tournament.pk]),
        reverse("public:tables_projector", args=[tournament.pk]),
        reverse("public:standings_projector", args=[tournament.pk]),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert "sessionid" not in response.cookies, url
    assert "sessionid" not in client.cookies


# ---------------------------------------------------------------- Swedish


def test_the_pages_speak_swedish(client, six):
    tournament, (first, _) = six
    play(first, 6, -2, -4)
    headers = {"Accept-Language": "sv"}
    page = text(client.get(reverse("public:tournament", args=[tournament.pk]), headers=headers))
    assert "Nivå 1" in page and "Var sitter jag?" in page and "1/2 händer" in page
    page = text(client.get(reverse("public:standings", args=[tournament.pk]), headers=headers))
    assert "Ställning" in page
    url = reverse("public:find", args=[tournament.pk]) + "?q=bjork"
    assert "Nivå 1: bord" in text(client.get(url, headers=headers))


def test_only_the_last_hands_cards_are_laid_out_the_others_folded(client, make_tournament, td_user):
    """Every hand's three boards laid out made a phone's table page 14,000 px long."""
    from tests.tournament.services.test_hands import BOARDS, record_cards

    tournament = make_tournament(["Anna", "Bo", "Cia"], min_hands=5)
    table = single_table(tournament, td_user)
    for _ in range(3):
        record_cards(table, BOARDS)
    html = client.get(reverse("public:table", args=[tournament.pk, table.pk])).content.decode()
    folds = re.findall(r'<details class="hand-cards"( open)?>\s*<summary>Cards of hand (\d)', html)
    assert folds == [("", "1"), ("", "2"), (" open", "3")]
