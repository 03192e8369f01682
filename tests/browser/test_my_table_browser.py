""" "My table" on a 360 px phone (issue 19 section 6): a player finds himself, follows himself
on the phone; the TD's draw seats him and, at the page's next poll, a banner says where, the
phone vibrates and beeps (after his tap); going out brings a banner too; the nav's "My table"
link leads back to his page until he stops following. navigator.vibrate and AudioContext are
stubs that record their calls. In English and Swedish."""

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from tests.tournament.conftest import play_named
from tournament.models import Player, Seat
from tournament.services import draws, registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Karl-Erik Lindqvist-Söderström",
    "Björk Ek",
    "Åsa-Märta Östergren",
    "Dan Berg",
    "Eva Holm",
    "Filip Nyström",
]
ME = NAMES[0]

RECORDER = """
window.calls = { vibrate: [], beeps: 0 };
Object.defineProperty(navigator, "vibrate", {
  configurable: true,
  value: function (pattern) { window.calls.vibrate.push(pattern); return true; },
});
window.AudioContext = function () {
  this.state = "running"; this.currentTime = 0; this.destination = {};
  this.createOscillator = function () {
    return { frequency: {}, connect: function () {}, start: function () { window.calls.beeps++; },
             stop: function () {} };
  };
  this.createGain = function () { return { gain: {}, connect: function () {} }; };
};
window.webkitAudioContext = window.AudioContext;
"""

WORDS = {
    "en": {
        "follow": "Follow me on this phone",
        "stop": "Stop following",
        "link": "My table",
        "seat": "New seat: level 1, table {table}, seat {seat}.",
        "out": "You are out of the tournament.",
        "close": "Close the message",
        "follow_name": "Follow me on this phone ({name})",
    },
    "sv": {
        "follow": "Följ mig på den här telefonen",
        "stop": "Sluta följa",
        "link": "Mitt bord",
        "seat": "Ny plats: nivå 1, bord {table}, plats {seat}.",
        "out": "Du är ute ur turneringen.",
        "close": "Stäng meddelandet",
        "follow_name": "Följ mig på den här telefonen ({name})",
    },
}


@pytest.fixture
def quick(settings):
    """Poll every half second (phones wait 5)."""
    settings.PUBLIC_POLL_SECONDS = 0.5
    cache.clear()
    yield
    cache.clear()


@pytest.mark.parametrize("language", ["en", "sv"])
def test_follow_a_draw_seats_me_then_i_go_out(quick, phone_page, live_server, td_user, language):
    words = WORDS[language]
    tournament = registration.create_tournament(actor=td_user, name="Malmö Open", min_hands=2)
    for name in NAMES:
        registration.register_player(tournament=tournament, actor=td_user, name=name)
    phone = phone_page
    problems = []
    phone.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    phone.add_init_script(RECORDER)
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    phone.goto(f"{live_server.url}/t/{tournament.pk}/find/?q=lindqvist")
    phone.get_by_role("link", name=ME, exact=True).click()
    expect(phone.get_by_role("link", name=words["link"])).to_have_count(0)

    phone.get_by_role("button", name=words["follow"]).click()  # the tap that allows sound
    expect(phone.get_by_role("button", name=words["stop"])).to_be_visible()
    expect(phone.get_by_role("button", name=words["follow"])).to_be_hidden()
    my_link = phone.get_by_role("link", name=words["link"])
    expect(my_link).to_be_visible()
    expect(phone.locator("[data-my-banner]")).to_be_hidden()

    # The TD draws level 1: at its next poll the page says where I sit. On SQLite the page's
    # polls share the test's connection: they wait while it writes (tests/conftest.py).
    with live_server.connections.held():
        draws.draw_first_level(tournament=tournament, actor=td_user, seed="my-table")
    me = Player.objects.get(tournament=tournament, name=ME)
    seat = Seat.objects.current().select_related("table").get(player=me)
    banner = phone.get_by_role("alert")
    expect(banner).to_contain_text(
        words["seat"].format(table=seat.table.number, seat=seat.position + 1), timeout=10_000
    )
    assert phone.evaluate("window.calls.vibrate.length") == 1
    assert phone.evaluate("window.calls.beeps") == 1
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    close = banner.get_by_role("button", name=words["close"])
    assert close.bounding_box()["height"] >= 44
    close.click()
    expect(banner).to_be_hidden()

    # I lose my table: at the next poll the page says I am out.
    others = [s.player.name for s in seat.table.seats.select_related("player") if s != seat]
    with live_server.connections.held():
        for _ in range(2):
            play_named(seat.table, {ME: -6, others[0]: 4, others[1]: 2})
    expect(banner).to_contain_text(words["out"], timeout=10_000)
    assert phone.evaluate("window.calls.vibrate.length") == 2
    assert phone.evaluate("window.calls.beeps") == 2

    # The nav's link leads back to my page from another page, until I stop following.
    phone.goto(f"{live_server.url}/t/{tournament.pk}/standings/")
    phone.get_by_role("link", name=words["link"]).click()
    expect(phone.get_by_role("heading", name=ME)).to_be_visible()
    expect(phone.get_by_role("alert")).to_be_hidden()  # nothing new since it was shown
    phone.get_by_role("button", name=words["stop"]).click()
    expect(phone.get_by_role("link", name=words["link"])).to_have_count(0)
    expect(phone.get_by_role("button", name=words["follow"])).to_be_visible()
    assert problems == []


@pytest.mark.parametrize("language", ["en", "sv"])
def test_follow_from_where_do_i_sit(phone_page, live_server, td_user, language):
    """Each name found on "Where do I sit?" offers to follow him on this phone: it opens his
    page already followed (the nav's "My table" leads there), the address without #follow."""
    words = WORDS[language]
    tournament = registration.create_tournament(actor=td_user, name="Malmö Open", min_hands=2)
    for name in NAMES:
        registration.register_player(tournament=tournament, actor=td_user, name=name)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="my-table")
    me = Player.objects.get(tournament=tournament, name=ME)
    phone = phone_page
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    phone.goto(f"{live_server.url}/t/{tournament.pk}/find/?q=lindqvist")
    follow = phone.get_by_role("link", name=words["follow_name"].format(name=ME))
    assert follow.bounding_box()["height"] >= 44
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    follow.click()

    expect(phone.get_by_role("heading", name=ME)).to_be_visible()
    expect(phone.get_by_role("button", name=words["stop"])).to_be_visible()
    expect(phone.get_by_role("button", name=words["follow"])).to_be_hidden()
    assert phone.url == f"{live_server.url}/t/{tournament.pk}/player/{me.pk}/"
    # Another page's nav leads back to him.
    phone.goto(f"{live_server.url}/t/{tournament.pk}/standings/")
    phone.get_by_role("link", name=words["link"]).click()
    expect(phone.get_by_role("heading", name=ME)).to_be_visible()
