"""The printed table cards: one A4 page per table up to 31 minimum hands (the blank score
card has a row for each hand and six more, shorter rows the more there are); a longer card
goes on over a second page, and the next card starts a page of its own."""

import re

import pytest
from django.urls import reverse

from tests.browser.helpers import td_page, tournament_with

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def printed_pages(pdf):
    """The number of pages of a PDF as Chromium writes it: one page object each."""
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


@pytest.mark.parametrize("min_hands", [20, 25, 26, 31])
def test_every_table_card_prints_on_one_a4_page(chromium_browser, live_server, td_user, min_hands):
    # Two tables of three with long names, which make the card's head as tall as it gets.
    names = [f"Anna-Karin Lindqvist-Östergren {n}" for n in range(1, 7)]
    tournament, _ = tournament_with(
        names, td_user, min_hands=min_hands, name="Sundsvall Open", seed="paper"
    )
    with td_page(chromium_browser, live_server, 1280, 900) as page:
        page.goto(live_server.url + reverse("td:table_cards", args=[tournament.pk, 1]))
        assert page.locator(".table-card").count() == 2
        rows = page.locator(".table-card").first.locator(".score-grid tbody tr")
        assert rows.count() == min_hands + 6 + 1  # the hands, the extra hands and their heading
        pdf = page.pdf(format="A4", prefer_css_page_size=True)
    assert printed_pages(pdf) == 2


def test_a_card_too_long_for_one_page_goes_on_over_a_second(chromium_browser, live_server, td_user):
    names = [f"Spelare {n}" for n in range(1, 7)]
    tournament, _ = tournament_with(
        names, td_user, min_hands=40, name="Sundsvall Open", seed="paper"
    )
    with td_page(chromium_browser, live_server, 1280, 900) as page:
        page.goto(live_server.url + reverse("td:table_cards", args=[tournament.pk, 1]))
        pdf = page.pdf(format="A4", prefer_css_page_size=True)
    assert printed_pages(pdf) == 4  # two pages a card: the second card starts a new page
