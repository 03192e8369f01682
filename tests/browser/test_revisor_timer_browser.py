"""'Time a player' on a 360 px phone (issue 19 §2), run on Playwright's fake clock: the
count to zero vibrates, beeps and calls the TD for a timeout naming the player, and the TD
gives the timeout penalty from the dashboard in one step through the confirmation page; in
English and Swedish. The phone's vibration and sound are stand-ins that write down what the
page asks of them."""

import re

import pytest
from django.urls import reverse

from tests.browser.helpers import td_page, tournament_with
from tournament.models import Penalty, TableCall

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Karl-Erik Lindqvist-Söderström"  # 30 characters

STAND_INS = """
window.__timer = { vibrations: [], beeps: 0 };
Object.defineProperty(navigator, "vibrate", {
  configurable: true,
  value: function (pattern) { window.__timer.vibrations.push(pattern); return true; }
});
window.AudioContext = function () {
  this.state = "running";
  this.currentTime = 0;
  this.destination = {};
  this.createGain = function () { return { gain: {}, connect: function () {} }; };
  this.createOscillator = function () {
    return {
      frequency: {},
      connect: function () {},
      start: function () { window.__timer.beeps += 1; },
      stop: function () {}
    };
  };
};
"""

WORDS = {
    "en": {
        "player": "Player",
        "start": "Start the 10-second count",
        "counting": f"Counting for {LONG}",
        "names": f"The call names {LONG}.",
        "give": f"Give {LONG} the timeout penalty",
        "cost": "1st warning: 10 points",
        "goes": f"{LONG} goes from 0 to -10.",
        "confirm": "Give penalty",
        "given": f"Penalty given to {LONG}",
    },
    "sv": {
        "player": "Spelare",
        "start": "Starta nedräkningen på 10 sekunder",
        "counting": f"Nedräkning för {LONG}",
        "names": f"Tillkallningen gäller {LONG}.",
        "give": f"Ge {LONG} timeout-straffet",
        "cost": "1:a varningen: 10 poäng",
        "goes": f"{LONG} går från 0 till -10.",
        "confirm": "Ge straff",
        "given": f"Straff givet till {LONG}",
    },
}


@pytest.fixture
def table(td_user):
    _, tables = tournament_with(["Anna", LONG, "Cia"], td_user, min_hands=3)
    return tables[0]


def open_card(page, live_server, table, language="en"):
    page.context.add_init_script(STAND_INS)
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    page.clock.install()  # the count runs on the fake clock from here on
    page.goto(f"{live_server.url}/r/{table.revisor_key}/")
    page.wait_for_url(re.compile(r".*/r/card/$"))


def start_count(page, name, words=WORDS["en"]):
    page.get_by_label(words["player"], exact=True).select_option(label=name)
    page.get_by_role("button", name=words["start"]).click()


@pytest.mark.parametrize("language", ["en", "sv"])
def test_the_count_to_zero_calls_the_td_and_the_td_gives_the_penalty_in_one_step(
    phone_page, live_server, table, chromium_browser, language
):
    page = phone_page
    words = WORDS[language]
    open_card(page, live_server, table, language)
    # With JavaScript the count replaces the direct call.
    assert not page.get_by_role("button", name="Call the TD: the player timed out").is_visible()
    assert not page.get_by_role("button", name="Tillkalla TL: spelaren fick timeout").is_visible()
    start_count(page, LONG, words)
    digits = page.locator("[data-timer-digits]")
    assert digits.inner_text() == "10"
    assert page.get_by_text(words["counting"]).is_visible()
    page.clock.run_for(4000)
    assert digits.inner_text() == "6"
    # Large enough to read across the table, and no sideways scroll at 360 px.
    assert digits.bounding_box()["height"] >= 120
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert not TableCall.objects.exists()
    assert page.evaluate("window.__timer") == {"vibrations": [], "beeps": 0}  # not before zero
    page.clock.run_for(6500)
    page.get_by_text(words["names"]).wait_for()
    # At zero the phone vibrated and beeped, once each.
    assert page.evaluate("window.__timer") == {"vibrations": [[400, 150, 400]], "beeps": 1}
    call = TableCall.objects.get()
    assert (call.kind, call.player.name) == ("timeout", LONG)

    with td_page(chromium_browser, live_server, 1280, 800) as td:
        td.context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        td.goto(live_server.url + reverse("td:tournament", args=[table.level.tournament_id]))
        # The call's buttons are the TD's primary actions: 44 px to tap (they were 36).
        buttons = td.locator(".dash-status form button")
        assert buttons.count() == 2  # give the penalty, clear the call
        for button in buttons.all():
            assert button.bounding_box()["height"] >= 44, button.inner_text()
        td.get_by_role("button", name=words["give"]).click()
        # The cost first: a 1st warning, a timeout, 10 points (0 - 10 = -10).
        td.get_by_text(words["cost"]).wait_for()
        assert td.get_by_text(words["goes"]).is_visible()
        assert not Penalty.objects.exists()
        td.get_by_role("button", name=words["confirm"]).click()
        td.get_by_text(words["given"]).wait_for()
    penalty = Penalty.objects.get()
    assert (penalty.kind, penalty.points, penalty.player.name) == ("timeout", 10, LONG)
    call.refresh_from_db()
    assert call.cleared_at is not None and TableCall.objects.count() == 1


def test_acted_in_time_stops_the_count_and_may_still_call_for_a_warning(
    phone_page, live_server, table
):
    page = phone_page
    open_card(page, live_server, table)
    start_count(page, "Cia")
    page.clock.run_for(3000)
    page.get_by_role("button", name="Acted in time").click()
    assert not page.locator("[data-timer-digits]").is_visible()
    page.clock.run_for(10000)  # the stopped count calls nobody, and is not heard or felt
    assert not TableCall.objects.exists()
    assert page.evaluate("window.__timer") == {"vibrations": [], "beeps": 0}
    assert page.get_by_text("Cia acted in time. The TD may still give a warning.").is_visible()
    page.get_by_role("button", name="Call the TD for a warning").click()
    page.get_by_text("The call names Cia.").wait_for()
    call = TableCall.objects.get()
    assert (call.kind, call.player.name) == ("other", "Cia")
