"""A revisor's phone cut off by the TD lands on the code page, which takes the new code at once.

Whether the refusal answers the card's poll, its htmx form or a plain page load, the
phone ends up on /r/ itself (not the code page swapped into the card at /r/card/),
told why, and the new code typed there opens the card on the first try.
"""

import re

import pytest

from tests.browser.helpers import tournament_with
from tournament.models import Hand, Table
from tournament.services.revisor_access import regenerate_revisor_access

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CUT_OFF = "This device's access to table 1 was replaced by the TD"


@pytest.fixture
def table(td_user):
    return tournament_with(["Anna", "Bo", "Cia"], td_user, min_hands=20)[1][0]


def open_card(page, live_server, table):
    page.goto(f"{live_server.url}/r/{table.revisor_key}/")
    page.wait_for_url(re.compile(r".*/r/card/$"))


def cut_off(table, td_user):
    """The TD regenerates the table's link and code: the new code."""
    regenerate_revisor_access(table=table, actor=td_user)
    return Table.objects.get(pk=table.pk).revisor_code


def type_new_code_and_open_the_card(page, live_server, code):
    assert page.url == f"{live_server.url}/r/"
    assert CUT_OFF in page.get_by_role("status").inner_text()
    page.get_by_label("Table code").fill(code.lower())
    page.get_by_role("button", name="Open the score card").click()
    page.wait_for_url(f"{live_server.url}/r/card/")
    page.get_by_role("heading", name="Table 1 · level 1").wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_refused_poll_takes_the_phone_to_the_code_page(phone_page, live_server, table, td_user):
    page = phone_page
    open_card(page, live_server, table)
    code = cut_off(table, td_user)
    # Coming back to the tab polls at once instead of in 5 seconds (static/js/poll.js).
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_url(f"{live_server.url}/r/")
    type_new_code_and_open_the_card(page, live_server, code)


def test_a_refused_form_takes_the_phone_to_the_code_page(phone_page, live_server, table, td_user):
    page = phone_page
    open_card(page, live_server, table)
    code = cut_off(table, td_user)
    for name, points in {"Anna": 2, "Bo": -1, "Cia": -1}.items():
        page.get_by_label(f"Points for {name}").fill(str(points))
    page.get_by_role("button", name="Record hand 1").click()
    page.wait_for_url(f"{live_server.url}/r/")
    assert Hand.objects.filter(table=table).count() == 0
    type_new_code_and_open_the_card(page, live_server, code)


def test_a_refused_page_load_takes_the_phone_to_the_code_page(
    phone_page, live_server, table, td_user
):
    page = phone_page
    open_card(page, live_server, table)
    code = cut_off(table, td_user)
    page.reload()
    page.wait_for_url(f"{live_server.url}/r/")
    type_new_code_and_open_the_card(page, live_server, code)
