"""The players and settings pages on a 360 px phone: long and Swedish names never widen the page."""

import pytest

from tests.browser.helpers import log_in
from tournament.services import registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


LONG = "Åsa-Märta Östergren-Söderström-Élise-Lindqvist-Bergström-Wallenberg-Nordinääööåå"


def test_the_td_registers_players_on_a_phone_and_nothing_scrolls_sideways(
    phone_page, live_server, django_user_model
):
    django_user_model.objects.create_user("tdphone", password="secret-td-9", is_staff=True)
    register_players(phone_page, live_server)


def register_players(page, live_server):
    log_in(page, live_server, "tdphone", "secret-td-9")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.get_by_role("link", name="New tournament").click()
    page.get_by_label("Name", exact=True).fill("Malmö Open")
    page.get_by_role("button", name="Create tournament").click()
    page.wait_for_url("**/players/")
    assert "Tournament Malmö Open created." in page.content()

    page.get_by_label("Players, one name a line").fill(f"Östen\nÅsa\n\n{LONG}\nZara\nÄrla\n")
    page.get_by_role("button", name="Register the list").click()
    page.wait_for_load_state()
    page.get_by_label("Name", exact=True).fill("Émile")
    page.get_by_role("button", name="Add player").click()
    page.wait_for_url("**/players/?added=1")
    names = page.locator("td.player-name").all_inner_texts()
    assert names == ["Émile", "Zara", "Åsa", LONG, "Ärla", "Östen"]
    # An 80-character name wraps inside its cell: nothing wider than the phone.
    assert len(LONG) == 80
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    long_cell = page.locator("td.player-name", has_text=LONG)
    box = long_cell.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360

    # Withdraw asks first, naming the player.
    page.get_by_role("link", name="Withdraw Zara").click()
    page.get_by_role("button", name="Withdraw Zara").click()
    page.wait_for_url("**/players/")
    assert "Zara has withdrawn." in page.content()

    # The settings page fits too.
    page.get_by_role("link", name="Settings").click()
    page.wait_for_url("**/settings/")  # is_visible() does not wait for the page to come
    assert page.get_by_label("Royalty table").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_rename_on_a_phone(phone_page, live_server, django_user_model):
    td = django_user_model.objects.create_user("tdphone", password="secret-td-9", is_staff=True)
    tournament = registration.create_tournament(actor=td, name="Cup")
    registration.register_player(tournament=tournament, actor=td, name="Bo")
    rename(phone_page, live_server, tournament)


def rename(page, live_server, tournament):
    log_in(page, live_server, "tdphone", "secret-td-9")
    page.goto(f"{live_server.url}/td/{tournament.pk}/players/")
    page.get_by_role("link", name="Rename Bo").click()
    page.get_by_label("Name", exact=True).fill("Björn Åberg")
    page.get_by_role("button", name="Save the name").click()
    page.wait_for_url("**/players/")
    assert page.locator("td.player-name").all_inner_texts() == ["Björn Åberg"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


KARL = "Karl-Erik Lindqvist-Söderström"  # 30 characters, as a sign-up list has them
KARL_ALIKE = "Karl Erik Lindqvist Söderström"


def fits_the_phone(page):
    return page.evaluate("document.documentElement.scrollWidth") <= 360


def test_the_td_confirms_lookalikes_and_pastes_the_list_again_on_a_phone(
    phone_page, live_server, django_user_model
):
    td = django_user_model.objects.create_user("tdphone", password="secret-td-9", is_staff=True)
    tournament = registration.create_tournament(actor=td, name="Cup")
    registration.register_players(tournament=tournament, actor=td, names=[KARL, "Anna Berg"])
    page = phone_page
    log_in(page, live_server, "tdphone", "secret-td-9")
    page.goto(f"{live_server.url}/td/{tournament.pk}/players/")

    # The updated sign-up list: one name already registered, a lookalike, a latecomer.
    typed = f"Anna Berg\n{KARL_ALIKE}\nBo Ek"
    page.get_by_label("Players, one name a line").fill(typed)
    page.get_by_role("button", name="Register the list").click()
    page.wait_for_load_state()
    question = f"Line 2: {KARL_ALIKE} is very like {KARL} (no. 1). Is this another player?"
    assert page.get_by_text(question).count() == 1  # once: the summary counts, not repeats
    assert page.get_by_role("alert").is_visible()
    assert page.get_by_label("Players, one name a line").input_value() == typed
    assert "Anna Berg" not in page.locator(".errorlist").inner_text()
    box = page.get_by_label(f"Line 2: yes, another player: register {KARL_ALIKE}")
    size = box.bounding_box()
    assert size["width"] >= 24 and size["height"] >= 24
    assert fits_the_phone(page)

    box.check()
    page.get_by_role("button", name="Register the list").click()
    page.wait_for_url("**/players/")
    assert "Registered from the list: 2 (start numbers 3 to 4)." in page.content()
    assert "Skipped 1 name already registered: Anna Berg (no. 2)." in page.content()
    assert sorted(page.locator("td.player-name").all_inner_texts()) == sorted(
        ["Anna Berg", "Bo Ek", KARL, KARL_ALIKE]
    )

    # One player at a time: the same question, answered with the checkbox.
    page.get_by_label("Name", exact=True).fill("Bo-Ek")
    page.get_by_role("button", name="Add player").click()
    page.wait_for_load_state()
    assert "Bo-Ek is very like Bo Ek (no. 4). Is this another player?" in page.content()
    assert page.get_by_label("Name", exact=True).input_value() == "Bo-Ek"
    assert fits_the_phone(page)
    page.get_by_label("Yes, another player: add Bo-Ek").check()
    page.get_by_role("button", name="Add player").click()
    page.wait_for_url("**/players/?added=1")
    assert "Bo-Ek registered with start number 5." in page.content()
    assert fits_the_phone(page)

    # A name that differs only in case and accents is asked about the same way (issue 17 §5).
    page.get_by_label("Name", exact=True).fill("anna bérg")
    page.get_by_role("button", name="Add player").click()
    page.wait_for_load_state()
    assert "anna bérg is very like Anna Berg (no. 2). Is this another player?" in page.content()
    page.get_by_label("Yes, another player: add anna bérg").check()
    page.get_by_role("button", name="Add player").click()
    page.wait_for_url("**/players/?added=1")
    assert "anna bérg registered with start number 6." in page.content()
