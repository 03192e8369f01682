"""Printable table cards of a level: seats, dealer order, QR code and code, paper score card."""

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tournament.demo.autoplay import simulate
from tournament.models import Table
from tournament.services import draws

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def five(make_tournament, td_user):
    """5 players, drawn with a fixed seed: table 1 Bo, Cia, Eva (Eva deals first),
    table 2 Anna, Dan (Dan deals first)."""
    tournament = make_tournament(players=5, name="Åre Öppna")
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="fixed-seed")
    return tournament, list(level.tables.order_by("number"))


def cards_url(tournament, level=1):
    return reverse("td:table_cards", args=[tournament.pk, level])


def text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def items(html, css_class):
    """The texts of the <li>s of the first <ol class=css_class> in html."""
    block = re.search(rf'<ol class="{css_class}">(.*?)</ol>', html, re.S).group(1)
    return [text(li) for li in re.findall(r"<li>(.*?)</li>", block, re.S)]


def cards(page):
    return re.findall(r'<article class="table-card".*?</article>', page, re.S)


def test_one_card_per_table_with_seats_dealers_qr_and_code(td_client, five):
    tournament, tables = five
    response = td_client.get(cards_url(tournament))
    assert response.status_code == 200
    page = response.content.decode()
    first, second = cards(page)
    assert "Åre Öppna" in first and "Table 1" in first and "Level 1" in first
    assert items(first, "table-card-seats") == ["Seat 1 Bo", "Seat 2 Cia", "Seat 3 Eva"]
    assert items(first, "table-card-dealers") == ["Eva (deals the first hand)", "Bo", "Cia"]
    assert "Table 2" in second
    assert items(second, "table-card-seats") == ["Seat 1 Anna", "Seat 2 Dan"]
    assert items(second, "table-card-dealers") == ["Dan (deals the first hand)", "Anna"]
    for card, table in zip((first, second), tables, strict=True):
        assert table.revisor_code in card
        assert "http://testserver/r/" in card
        svg = re.search(r"<svg\b.*?</svg>", card, re.S).group(0)
        assert f"<title>QR code of the revisor link for table {table.number}</title>" in svg
        assert "style=" not in svg
        assert "The deal passes to the next seat after every hand." in card
    assert "/r/" + tables[0].revisor_key not in second  # each card its own table's link


def test_the_paper_score_card_has_a_column_per_player_and_20_plus_extra_rows(td_client, five):
    tournament, _ = five
    first, second = cards(td_client.get(cards_url(tournament)).content.decode())
    for card, players in ((first, ["Bo", "Cia", "Eva"]), (second, ["Anna", "Dan"])):
        grid = re.search(r'<table class="score-grid[^"]*">.*?</table>', card, re.S).group(0)
        head = re.findall(r'<th scope="col"[^>]*>(.*?)</th>', grid)
        assert head == ["Hand", "Dealer", *players, "To Fantasyland"]
        numbered = re.findall(r'<tr><th scope="row">(\d+)</th>', grid)
        assert numbered == [str(n) for n in range(1, 21)]
        assert grid.count('<tr class="extra">') == 6
        assert "Extra hands (Fantasyland)" in grid
        # Every row has an empty cell per player, the dealer and Fantasyland.
        rows = re.findall(r"<tr(?: class=\"extra\")?><th[^>]*>.*?</th>(.*?)</tr>", grid, re.S)
        assert len(rows) == 26 + 1  # and the totals
        assert all(row.count("<td></td>") == len(players) + 2 for row in rows[:-1])
        assert "Total" in grid and "Revisor's signature" in card


def test_the_rows_follow_the_minimum_hands_and_the_button_rule(td_client, make_tournament, td_user):
    tournament = make_tournament(players=3, min_hands=12, button_stays_in_fantasyland=True)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="x")
    (card,) = cards(td_client.get(cards_url(tournament)).content.decode())
    assert re.findall(r'<tr><th scope="row">(\d+)</th>', card)[-1] == "12"
    assert "At least 12 hands." in card
    assert "the dealer button stays put for a Fantasyland hand" in card


@pytest.mark.parametrize(
    ("min_hands", "rows"),
    # 20 hands and 6 extra rows fit at full height; up to 25 hands (31 rows) at 4.8 mm,
    # more at 4 mm, which fits 31 hands on the page (tests/browser/test_td_cards_print_browser.py).
    [(1, "rows-normal"), (20, "rows-normal"), (21, "rows-dense"), (25, "rows-dense")]
    + [(26, "rows-denser"), (31, "rows-denser"), (200, "rows-denser")],
)
def test_the_more_hands_the_shorter_the_printed_rows(
    td_client, make_tournament, td_user, min_hands, rows
):
    tournament = make_tournament(players=3, min_hands=min_hands)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="x")
    (card,) = cards(td_client.get(cards_url(tournament)).content.decode())
    assert f'<table class="score-grid {rows}">' in card
    assert len(re.findall(r'<tr><th scope="row">\d+</th>', card)) == min_hands


def test_cards_print_one_a4_page_per_table(td_client, five):
    tournament, _ = five
    page = td_client.get(cards_url(tournament)).content.decode()
    assert "css/td-cards.css" in page and "td-cards-page" in page
    css = (ROOT / "static/css/td-cards.css").read_text()
    printed = css[css.index("@media print") :]
    assert "size: A4 portrait" in css
    assert re.search(r"\.table-card \{[^}]*break-after: page", printed)
    assert "Print the cards" in page and "js/td-access.js" in page


def test_a_table_without_access_says_where_to_create_it(td_client, five):
    tournament, (table, _) = five
    Table.objects.filter(pk=table.pk).update(revisor_key=None, revisor_code=None)
    first, second = cards(td_client.get(cards_url(tournament)).content.decode())
    assert "No revisor link yet" in first and "<svg" not in first
    assert reverse("td:table_access", args=[tournament.pk, table.pk]) in first
    assert "<svg" in second


def test_cards_show_the_current_draw_only(td_client, five, td_user):
    tournament, (table, _) = five
    draws.redraw_level(level=table.level, actor=td_user, reason="Late arrival", seed="other")
    page = td_client.get(cards_url(tournament)).content.decode()
    current = list(Table.objects.current().filter(level=table.level).order_by("number"))
    assert len(cards(page)) == 2
    assert table.revisor_code not in page
    assert all(t.revisor_code in page for t in current)


def test_refusals(outsider, td_client, five, make_tournament):
    tournament, _ = five
    url = cards_url(tournament)
    anonymous = Client()
    response = anonymous.get(url)
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    anonymous.force_login(outsider)
    assert anonymous.get(url).status_code == 403
    assert td_client.get(cards_url(tournament, level=2)).status_code == 404
    assert td_client.get(reverse("td:table_cards", args=[99999, 1])).status_code == 404
    not_drawn = make_tournament(players=3, name="Not drawn")
    assert td_client.get(cards_url(not_drawn)).status_code == 404


@pytest.mark.parametrize("players", [9, 60])
def test_a_fixed_number_of_queries(td_client, td_user, players, django_assert_num_queries):
    outcome = simulate(players=players, seed="cards", min_hands=2, stop_after_level=0)
    tournament = outcome.tournament
    # session, user, tournament, level, tables, seats; the alerts bar, rendered with the
    # page: the dashboard's 7 and the revision token.
    with django_assert_num_queries(14):
        response = td_client.get(cards_url(tournament))
    assert response.content.decode().count('<article class="table-card"') == (players + 2) // 3
