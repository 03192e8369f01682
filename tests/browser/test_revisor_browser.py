"""The revisor's card on a 360 × 740 phone: points entry, a dropped response, a reload."""

import re

import pytest
from playwright.sync_api import expect

from tests.tournament.conftest import positions, totals
from tournament.models import Hand
from tournament.services import draws, registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(django_user_model):
    td = django_user_model.objects.create_user("td", password="x-td-pass-1", is_staff=True)
    tournament = registration.create_tournament(actor=td, name="Phone Cup", min_hands=20)
    for name in ("Anna", "Bo", "Cia"):
        registration.register_player(tournament=tournament, actor=td, name=name)
    level = draws.draw_first_level(tournament=tournament, actor=td, seed="phone")
    return level.tables.get()


def open_card(page, live_server, table):
    page.goto(f"{live_server.url}/r/{table.revisor_key}/")
    page.wait_for_url(re.compile(r".*/r/card/$"))


def type_points(page, by_name):
    for name, value in by_name.items():
        page.get_by_label(f"Points for {name}").fill(str(value))


def test_points_entry_with_a_live_sum_check(phone_page, live_server, table):
    page = phone_page
    open_card(page, live_server, table)
    assert "Hand 1 of 20" in page.content()
    type_points(page, {"Anna": 4, "Bo": -1, "Cia": -2})
    assert page.locator("#points-sum").inner_text() == (
        "The points add up to +1; they must add up to 0."
    )
    page.get_by_label("Points for Cia").fill("-3")
    assert page.locator("#points-sum").inner_text() == "The points add up to 0."
    page.get_by_label("Anna goes to Fantasyland").check()
    page.get_by_role("button", name="Record hand 1").click()
    page.get_by_text("Hand 1 recorded ✓").wait_for()
    assert "Hand 2 of 21" in page.content()
    assert totals(table) == {"Anna": 4, "Bo": -1, "Cia": -3}
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_letters_in_a_points_field_are_not_counted_as_zero(phone_page, live_server, table):
    """ "abc" beside -3 and 3 read "The points add up to 0." in green."""
    page = phone_page
    open_card(page, live_server, table)
    type_points(page, {"Anna": "abc", "Bo": -3, "Cia": 3})
    assert (
        page.locator("#points-sum").inner_text() == "Anna: type a whole number, such as 7 or -12."
    )
    assert page.locator("#points-sum").get_attribute("class") == "bad"
    page.get_by_label("Points for Anna").fill("0")
    assert page.locator("#points-sum").inner_text() == "The points add up to 0."


def test_sign_keys(phone_page, live_server, table):
    page = phone_page
    open_card(page, live_server, table)
    page.get_by_role("button", name="Plus for Anna").click()
    page.keyboard.type("2")
    page.get_by_role("button", name="Minus for Bo").click()
    page.keyboard.type("1")
    assert page.get_by_label("Points for Anna").input_value() == "2"
    assert page.get_by_label("Points for Bo").input_value() == "-1"
    page.get_by_role("button", name="Plus for Bo").click()
    assert page.get_by_label("Points for Bo").input_value() == "1"


def test_a_dropped_response_is_sent_again_and_records_one_hand(phone_page, live_server, table):
    page = phone_page
    open_card(page, live_server, table)
    dropped = []

    def drop_first_response(route):
        if not dropped:
            route.fetch()  # the server records the hand...
            dropped.append(True)
            route.abort("connectionfailed")  # ...and the answer never arrives
        else:
            route.continue_()

    page.route(re.compile(r".*/r/card/hand/$"), drop_first_response)
    type_points(page, {"Anna": 2, "Bo": -1, "Cia": -1})
    page.get_by_role("button", name="Record hand 1").click()
    page.locator("#connection-banner").wait_for(state="visible")
    assert Hand.objects.filter(table=table).count() == 1
    # The hand is kept on the device with its key and sent again by itself (docs/offline.md):
    # its key answers "already recorded", and the card goes on to hand 2 with no tap.
    expect(page.locator(".hand-count")).to_have_text("Hand 2 of 20", timeout=15000)
    # Hand 2 shows at once (worked out on the device); the queue empties at the resend,
    # up to 4 s after the failed send.
    expect(page.locator("#card-queue")).to_be_hidden(timeout=15000)
    assert Hand.objects.filter(table=table).count() == 1
    assert totals(table) == {"Anna": 2, "Bo": -1, "Cia": -1}
    expect(page.locator("#connection-banner")).to_be_hidden()


def test_a_reload_mid_entry_keeps_the_typed_points(phone_page, live_server, table):
    page = phone_page
    open_card(page, live_server, table)
    type_points(page, {"Anna": 5, "Bo": -2})
    page.reload()
    assert page.get_by_label("Points for Anna").input_value() == "5"
    assert page.get_by_label("Points for Bo").input_value() == "-2"
    assert page.get_by_label("Points for Cia").input_value() == "-3"  # filled in from the others
    page.get_by_role("button", name="Record hand 1").click()
    page.get_by_text("Hand 1 recorded ✓").wait_for()
    # The recorded hand's draft is gone: hand 2 starts empty, also after a reload.
    page.reload()
    assert page.get_by_label("Points for Anna").input_value() == ""
    pos = positions(table)
    assert {pos[n] for n in ("Anna", "Bo", "Cia")} == {0, 1, 2}


def test_a_tab_left_on_another_table_records_nothing_there(phone_page, live_server):
    """Table 1's link in one tab, then table 2's in another of the same browser: the first
    tab, still showing table 1, is refused and shown table 2's card (its hand used to be
    recorded at table 2, seat by seat)."""
    from django.contrib.auth import get_user_model

    td = get_user_model().objects.create_user("td", password="x-td-pass-1", is_staff=True)
    tournament = registration.create_tournament(actor=td, name="Tab Cup", min_hands=20)
    for name in ("Anna", "Bo", "Cia", "Dan", "Eva", "Fia"):
        registration.register_player(tournament=tournament, actor=td, name=name)
    level = draws.draw_first_level(tournament=tournament, actor=td, seed="tabs")
    first, second = level.tables.order_by("number")
    page = phone_page
    open_card(page, live_server, first)
    other = page.context.new_page()
    open_card(other, live_server, second)
    expect(other.get_by_text("Table 2 · level 1")).to_be_visible()

    names = [s.player.name for s in first.seats.select_related("player").order_by("position")]
    type_points(page, dict(zip(names, (4, -1, -3), strict=True)))
    page.get_by_role("button", name="Record hand 1").click()
    expect(page.get_by_text("This device now keeps table 2")).to_be_visible()
    expect(page.get_by_text("Table 2 · level 1")).to_be_visible()
    assert not Hand.objects.exists()
    assert set(totals(second).values()) == {0}
