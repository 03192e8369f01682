"""The pages outside the revisor's that issue 34 found faults on, checked with axe-core
(tests/browser/axe.py) in English and Swedish: "Where do I sit?" with a name found (its
"Follow me on this phone" named by the words shown), the player's page, the TD's dashboard
with an open call (the Swedish "Avsluta" button named from its word), and the printed table
cards (no landmark repeated, the moderate fault named in the issue)."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.axe import assert_no_serious_axe_violations
from tests.browser.helpers import td_page, tournament_with
from tournament.models import Player
from tournament.services import calls

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Bo Lind", "Anna Berg", "Cia Holm", "Dan Ek", "Eva Nord", "Filip Sten"]
FOLLOW = {
    "en": "Follow me on this phone (Bo Lind)",
    "sv": "Följ mig på den här telefonen (Bo Lind)",
}
CLEAR = {
    "en": ("Clear", "Clear the call at table 1"),
    "sv": ("Avsluta", "Avsluta tillkallningen vid bord 1"),
}


def in_language(page, live_server, language):
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )


@pytest.mark.parametrize("language", ["en", "sv"])
def test_the_players_pages_pass_axe(phone_page, live_server, td_user, language):
    tournament, _tables = tournament_with(NAMES, td_user)
    page = phone_page
    in_language(page, live_server, language)
    page.goto(f"{live_server.url}/t/{tournament.pk}/find/?q=lind")
    follow = page.get_by_role("link", name=FOLLOW[language], exact=True)
    expect(follow).to_be_visible()
    assert_no_serious_axe_violations(page)
    bo = Player.objects.get(tournament=tournament, name="Bo Lind")
    page.goto(f"{live_server.url}/t/{tournament.pk}/player/{bo.pk}/")
    assert_no_serious_axe_violations(page)


@pytest.mark.parametrize("language", ["en", "sv"])
def test_the_dashboard_with_a_call_and_the_table_cards_pass_axe(
    chromium_browser, live_server, td_user, language
):
    tournament, tables = tournament_with(NAMES, td_user)
    calls.call_td(table=tables[0], kind="dispute", note="Who won the back?")
    with td_page(chromium_browser, live_server, 1366, 768) as page:
        in_language(page, live_server, language)
        page.goto(live_server.url + reverse("td:tournament", args=[tournament.pk]))
        word, name = CLEAR[language]
        button = page.get_by_role("button", name=name, exact=True)
        expect(button).to_have_text(word)
        assert_no_serious_axe_violations(page)

        page.goto(live_server.url + reverse("td:table_cards", args=[tournament.pk, 1]))
        expect(page.locator(".table-card")).to_have_count(2)
        others = assert_no_serious_axe_violations(page)
        assert "landmark-unique" not in [v["id"] for v in others]
