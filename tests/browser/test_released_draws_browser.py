"""A held draw as people see it (issue 19 §5): the TD checks the seating on a phone and
releases it with one button; a player's phone shows no table until then, and the seating
after. At 360 px, in English and Swedish."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import td_page
from tournament.services import draws, registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = [
    "Karl-Erik Lindqvist-Söderström",
    "Anna-Karin Långnamnsson-Östergren",
    "Åsa Öberg-Wallenberg af Ekström",
    "Björn Bäckström-Kullenberg",
]


def held_tournament(td_user):
    tournament = registration.create_tournament(
        actor=td_user, name="Malmö Open", min_hands=1, release_draws_at_once=False
    )
    for name in LONG:
        registration.register_player(tournament=tournament, actor=td_user, name=name)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="held")
    return tournament


def scroll_width(page):
    return page.evaluate("document.documentElement.scrollWidth")


@pytest.mark.parametrize(
    ("lang", "release", "released", "table"),
    [
        ("en", "Release the seating", "is released: the room sees it now", "Table 1"),
        ("sv", "Släpp placeringen", "är släppt: nu ser salen den", "Bord 1"),
    ],
)
def test_the_td_releases_the_seating_and_the_phone_shows_it_then(
    chromium_browser, live_server, td_user, lang, release, released, table
):
    tournament = held_tournament(td_user)
    public = chromium_browser.new_context(viewport={"width": 360, "height": 740}, locale=lang)
    public.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    phone = public.new_page()
    phone.goto(f"{live_server.url}/t/{tournament.pk}/")
    body = phone.locator("main")
    expect(body).not_to_contain_text(table)
    for name in LONG:
        expect(body).not_to_contain_text(name)
    with td_page(chromium_browser, live_server, 360, 740) as page:
        page.context.add_cookies(
            [{"name": "django_language", "value": lang, "url": live_server.url}]
        )
        page.goto(f"{live_server.url}/td/{tournament.pk}/levels/1/")
        button = page.get_by_role("button", name=release)
        expect(button).to_be_visible()
        assert button.bounding_box()["height"] >= 44
        assert scroll_width(page) <= 360
        button.click()
        expect(page.get_by_text(released)).to_be_visible()
        expect(page.get_by_role("button", name=release)).to_have_count(0)
    phone.reload()
    expect(body).to_contain_text(table)
    for name in LONG:
        expect(body).to_contain_text(name)
    assert scroll_width(phone) <= 360
    public.close()
