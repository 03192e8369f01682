"""A tab left open on one table after another table's link was opened in the same browser:
the binding is the browser's, the page the tab's. What the old tab sends is refused, never
recorded at the table the browser now keeps (a reviewer's tab 1 recorded table 1's hand at
table 2, seat by seat)."""

import uuid
from html import unescape

import pytest
from django.urls import reverse

from tests.tournament.conftest import positions, totals
from tournament.models import Hand
from tournament.services import draws

pytestmark = pytest.mark.django_db

CARD = reverse("revisor:card")
HAND = reverse("revisor:hand")
MOVED = (
    "This device now keeps table 2: its link or code was opened in another tab or window. "
    "Nothing was recorded from the page of the other table; this is table 2's card."
)


@pytest.fixture
def tables(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia", "Dan", "Eva", "Fia"], min_hands=3)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="tabs")
    return list(level.tables.order_by("number"))


@pytest.fixture
def browser(client, tables):
    """One browser: table 1's link opened (tab 1), then table 2's (tab 2)."""
    first, second = tables
    client.get(reverse("revisor:link", args=[first.revisor_key]))
    client.get(reverse("revisor:link", args=[second.revisor_key]))
    return client


def hand(table, number=1):
    pos = positions(table)
    names = sorted(pos, key=pos.get)
    data = {f"points_{pos[name]}": str(p) for name, p in zip(names, (4, -1, -3), strict=True)}
    return {**data, "hand_number": str(number), "idempotency_key": str(uuid.uuid4())}


def test_a_plain_form_from_the_other_tables_page_is_refused(browser, tables):
    first, second = tables
    response = browser.post(HAND, {**hand(first), "revisor_table": str(first.pk)})
    assert response.status_code == 302 and response["Location"] == CARD
    assert not Hand.objects.exists()
    assert totals(second) == {name: 0 for name in positions(second)}
    page = unescape(browser.get(CARD).content.decode())
    assert MOVED in page and "Table 2 · level 1" in page


def test_an_htmx_request_from_the_other_tables_page_loads_this_tables_card(browser, tables):
    first, _ = tables
    response = browser.post(
        HAND, hand(first), headers={"HX-Request": "true", "X-Revisor-Table": str(first.pk)}
    )
    assert response.status_code == 200 and response["HX-Redirect"] == CARD
    assert not Hand.objects.exists()


def test_a_request_from_this_tables_page_is_recorded(browser, tables):
    _, second = tables
    response = browser.post(
        HAND, hand(second), headers={"HX-Request": "true", "X-Revisor-Table": str(second.pk)}
    )
    assert response.status_code == 200 and "HX-Redirect" not in response
    assert Hand.objects.get().table == second
    response = browser.post(HAND, {**hand(second, 2), "revisor_table": str(second.pk)})
    assert response.status_code == 302 and Hand.objects.filter(table=second).count() == 2


@pytest.mark.parametrize("junk", ["abc", "-1", "9" * 30, ""])
def test_a_table_id_that_is_not_one_is_refused(browser, tables, junk):
    _, second = tables
    response = browser.post(HAND, {**hand(second), "revisor_table": junk})
    assert response.status_code == 302 and response["Location"] == CARD
    assert not Hand.objects.exists()


def test_the_card_says_which_table_it_shows(browser, tables):
    _, second = tables
    page = browser.get(CARD).content.decode()
    assert f'data-revisor-table="{second.pk}"' in page
