"""Self check-in at the door in a real browser: the TD opens it and reads the door sign's
code on the laptop; a player on a 360 px phone finds his name, types the code and is
checked in; the TD's list shows him, "by the player", without a reload (the live region)."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import td_page
from tournament.services import registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_checks_himself_in_and_the_td_sees_it_live(
    chromium_browser, phone_page, live_server, td_user
):
    tournament = registration.create_tournament(actor=td_user, name="Lund Open")
    for name in ("Björk Ek", "Anna Berg", "Cia Holm"):
        registration.register_player(tournament=tournament, actor=td_user, name=name)
    players = f"{live_server.url}/td/{tournament.pk}/players/"
    with td_page(chromium_browser, live_server, 1366, 768) as td:
        td.goto(players)
        td.get_by_role("button", name="Open self check-in").click()
        td.wait_for_url(players + "#self-check-in")
        td.get_by_role("link", name="Door sign (print)").click()
        code = td.locator(".door-sign-code").inner_text().strip()
        assert re.fullmatch(r"[A-HJKMNP-Z2-9]{4}", code)
        td.goto(players)
        expect(td.locator(".checked-in-count")).to_have_text("checked in 0 of 3")

        phone = phone_page
        phone.goto(f"{live_server.url}/t/{tournament.pk}/check-in/")
        phone.get_by_label("Your name, or a few letters of it").fill("bjork")
        phone.get_by_role("button", name="Find my name").click()
        phone.get_by_label("Björk Ek").check()  # the one name found: chosen already
        phone.get_by_label("Check-in code (on the sign at the door)").fill(code.lower())
        phone.get_by_role("button", name="Check me in").click()
        expect(phone.get_by_text("Björk Ek, you are checked in.")).to_be_visible()
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360

        # The TD's page was not reloaded: its check-in list polled and shows him.
        row = td.locator("tr", has=td.locator("td.player-name", has_text="Björk Ek"))
        expect(row).to_contain_text("by the player", timeout=15_000)
        expect(td.locator(".checked-in-count")).to_have_text("checked in 1 of 3")
        # The TD can undo it as any other.
        row.get_by_role("button", name="Undo check-in Björk Ek").click()
        expect(td.get_by_text("Check-in of Björk Ek undone.")).to_be_visible()
        expect(td.locator(".checked-in-count")).to_have_text("checked in 0 of 3")
