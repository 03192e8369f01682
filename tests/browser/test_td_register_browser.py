"""Returning players on a 360 px phone (docs/register.md): typing a name offers the earlier
players like it (htmx, CSP intact), picking one registers him as that person; the offer,
the TD's player page with his earlier results and the merge confirmation fit and pass axe."""

import pytest

from tests.browser.axe import assert_no_serious_axe_violations
from tests.browser.helpers import log_in
from tests.browser.layout import assert_fits
from tests.tournament.conftest import play_named, single_table
from tournament.models import Player
from tournament.services import draws, registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Åsa-Märta Östergren-Söderström"  # 30 characters


def test_a_regular_is_picked_not_retyped_on_a_phone(phone_page, live_server, django_user_model):
    td = django_user_model.objects.create_user("tdphone", password="secret-td-9", is_staff=True)
    sm24 = registration.create_tournament(actor=td, name="SM 2024", min_hands=1)
    for name in (LONG, "Bo", "Cia"):
        registration.register_player(tournament=sm24, actor=td, name=name)
    play_named(single_table(sm24, td), {LONG: 6, "Bo": -2, "Cia": -4})
    draws.advance(tournament=sm24, actor=td)
    sm25 = registration.create_tournament(actor=td, name="SM 2025")
    page = phone_page
    log_in(page, live_server, "tdphone", "secret-td-9")
    page.goto(f"{live_server.url}/td/{sm25.pk}/players/")

    page.get_by_label("Name", exact=True).press_sequentially("asa marta")
    offered = page.get_by_role("radio", name=LONG)
    offered.wait_for()
    assert page.get_by_role("radio", name="A new player: asa marta").is_visible()
    assert_fits(page)
    assert_no_serious_axe_violations(page)

    offered.check()
    page.get_by_role("button", name="Add player").click()
    page.wait_for_url("**/players/?added=1")
    assert f"{LONG} registered with start number 1." in page.content()
    player = Player.objects.get(tournament=sm25)
    assert player.register_entry == Player.objects.get(tournament=sm24, name=LONG).register_entry

    page.get_by_role("link", name=f"Earlier results {LONG}").click()
    page.wait_for_load_state("load")  # the click waits for the page to start loading only
    assert "SM 2024" in page.content() and "champion" in page.content()
    assert_fits(page)
    assert_no_serious_axe_violations(page)


def test_the_merge_confirmation_fits_a_phone(phone_page, live_server, django_user_model):
    td = django_user_model.objects.create_user("tdphone", password="secret-td-9", is_staff=True)
    first = registration.create_tournament(actor=td, name="SM 2024")
    registration.register_player(tournament=first, actor=td, name=LONG)
    second = registration.create_tournament(actor=td, name="Lund Cup 2025")
    registration.register_player(tournament=second, actor=td, name="Åsa Östergren")
    page = phone_page
    log_in(page, live_server, "tdphone", "secret-td-9")
    page.get_by_role("link", name="Register of players").click()
    page.get_by_role("link", name="Merge… Åsa Östergren").click()
    page.get_by_label("Find the other entry of the same person").fill("ostergren")
    page.get_by_role("button", name="Find").click()
    page.get_by_role("link", name=f"Merge into {LONG}…").click()
    # The confirmation loaded (a click does not wait for the page it opens to load).
    page.get_by_role("button", name=f"Merge Åsa Östergren into {LONG}").wait_for()
    assert "SM 2024" in page.content() and "Lund Cup 2025" in page.content()
    assert_fits(page)
    assert_no_serious_axe_violations(page)
    page.get_by_role("button", name=f"Merge Åsa Östergren into {LONG}").click()
    page.wait_for_url("**/td/register/")
    assert f"Åsa Östergren is merged into {LONG}." in page.content()
