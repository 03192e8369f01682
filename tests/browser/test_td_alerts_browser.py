"""Alerts the TD cannot miss (issue 19 §3), as the TD's browser gets them.

The browser's Notification and AudioContext are stand-ins that write down what the page asks
of them (the notifications it shows and closes, the beeps it starts, and those heard: an
audio context that needs a gesture, as a real browser's does, stays suspended until the TD
taps or types on the page). With the switch off a new call only counts in the page's title;
with it on, a new call beeps once and shows one notification naming the table and why; a
handled one drops from the title and its notification closes.
"""

from contextlib import contextmanager

import pytest

from tests.browser.helpers import log_in, tournament_with
from tests.tournament.conftest import play
from tournament.services import calls, hands

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _quick_td_polls(settings):
    """The TD's pages poll every second (10 s for the alerts bar in the room): each alert
    is waited for by a poll."""
    settings.TD_POLL_SECONDS = 1


STAND_INS = """
window.__alerts = { notes: [], beeps: 0, closed: [] };
window.__audio = { heard: 0, needsGesture: false, inGesture: false };
// A tap or a key by the person (not a script) is a gesture while its event is dispatched.
["pointerdown", "keydown", "touchend"].forEach(function (type) {
  window.addEventListener(type, function (event) {
    if (!event.isTrusted) return;
    window.__audio.inGesture = true;
    setTimeout(function () { window.__audio.inGesture = false; }, 0);
  }, true);
});
function StandInNotification(title, options) {
  var tag = (options || {}).tag || "";
  window.__alerts.notes.push({ title: title, tag: tag });
  this.close = function () { window.__alerts.closed.push(tag); };
}
StandInNotification.permission = "granted";
StandInNotification.requestPermission = function () { return Promise.resolve("granted"); };
window.Notification = StandInNotification;
window.AudioContext = function () {
  var self = this;
  // Like a browser's: made without a gesture it is suspended, and resumes only in one.
  var allowed = function () {
    return !window.__audio.needsGesture || window.__audio.inGesture;
  };
  this.state = allowed() ? "running" : "suspended";
  this.currentTime = 0;
  this.destination = {};
  this.resume = function () {
    if (allowed()) self.state = "running";
    return Promise.resolve();
  };
  this.createGain = function () { return { gain: {}, connect: function () {} }; };
  this.createOscillator = function () {
    return {
      frequency: {},
      connect: function () {},
      start: function () {
        window.__alerts.beeps += 1;
        if (self.state === "running") window.__audio.heard += 1;
      },
      stop: function () {}
    };
  };
};
"""

WORDS = {
    "en": {
        "switch": "Sound and notification for new alerts",
        "alert": "Table 1 — Call: Dispute",
        "table": "Table 1",
    },
    "sv": {
        "switch": "Ljud och notis vid nya larm",
        "alert": "Bord 1 — Tillkallad: Tvist",
        "table": "Bord 1",
    },
}


@contextmanager
def td_with_stand_ins(chromium_browser, live_server, language="en", *, phone=False, script=None):
    """The TD logged in (in `language`) in a browser whose notifications are allowed and
    whose Notification, AudioContext and vibration are the recording stand-ins."""
    viewport = {"width": 360, "height": 740} if phone else {"width": 1280, "height": 800}
    context = chromium_browser.new_context(viewport=viewport, is_mobile=phone)
    try:
        context.grant_permissions(["notifications"], origin=live_server.url)
        context.add_init_script(script or STAND_INS)
        page = context.new_page()
        log_in(page, live_server)
        context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        yield page
    finally:
        context.close()


def recorded(page):
    return page.evaluate("window.__alerts")


def title_is(page, expected):
    page.wait_for_function("(t) => document.title === t", arg=expected, timeout=20_000)


@pytest.mark.parametrize("language", ["en", "sv"])
def test_a_new_call_raises_one_alert_only_when_switched_on(
    chromium_browser, live_server, td_user, language
):
    tournament, tables = tournament_with(["Anna", "Bo", "Cia"], td_user, name="Malmö Open")
    table = tables[0]
    with td_with_stand_ins(chromium_browser, live_server, language) as page:
        page.goto(f"{live_server.url}/td/{tournament.pk}/")
        title = page.title()
        assert title.startswith("Malmö Open") and not title.startswith("(")
        words = WORDS[language]
        switch = page.get_by_label(words["switch"])
        assert switch.is_visible() and not switch.is_checked()

        # Switched off: the call counts in the title, and nothing plays.
        calls.call_td(table=table, kind="dispute")
        title_is(page, f"(1) {title}")
        alerts = page.locator("#alerts")
        assert alerts.get_by_role("link", name=words["table"], exact=True).is_visible()
        assert recorded(page) == {"notes": [], "beeps": 0, "closed": []}
        calls.clear_call(table=table, actor=td_user)
        title_is(page, title)

        # Switched on (kept for the next visit): a new call beeps once and shows one notification.
        switch.check()
        page.reload()
        assert page.get_by_label(words["switch"]).is_checked()
        calls.call_td(table=table, kind="dispute")
        title_is(page, f"(1) {title}")
        got = recorded(page)
        assert got["beeps"] == 1
        assert [note["title"] for note in got["notes"]] == [words["alert"]]
        assert got["notes"][0]["tag"].startswith("call-")

        # Handled: gone from the title, its notification closed, and nothing more plays.
        calls.clear_call(table=table, actor=td_user)
        title_is(page, title)
        got = recorded(page)
        assert got["beeps"] == 1 and len(got["notes"]) == 1
        assert got["closed"] == [got["notes"][0]["tag"]]


HIDDEN_TAB = """
window.__hidden = false;
Object.defineProperty(document, "visibilityState", {
  configurable: true,
  get: function () { return window.__hidden ? "hidden" : "visible"; }
});
"""


def test_switched_on_a_hidden_tab_still_hears_of_a_call_on_a_phone(
    chromium_browser, live_server, td_user
):
    """On a 360 px phone with long names: the alert fits, the switch is easy to hit, and with
    the switch on the dashboard keeps polling in a hidden tab (else a TD reading another tab
    would never hear of the call)."""
    names = ["Karl-Erik Lindqvist-Söderström", "Anna-Karin Bergström-Öhman", "Bo Ek"]
    tournament, tables = tournament_with(names, td_user, name="Malmö Open")
    with td_with_stand_ins(
        chromium_browser, live_server, phone=True, script=STAND_INS + HIDDEN_TAB
    ) as page:
        page.goto(f"{live_server.url}/td/{tournament.pk}/")
        label = page.locator("label", has_text=WORDS["en"]["switch"])
        assert label.bounding_box()["height"] >= 44
        page.get_by_label(WORDS["en"]["switch"]).check()

        page.evaluate("window.__hidden = true")
        calls.call_td(table=tables[0], kind="dispute")
        page.wait_for_function("() => window.__alerts.notes.length === 1", timeout=20_000)
        assert [n["title"] for n in recorded(page)["notes"]] == ["Table 1 — Call: Dispute"]

        page.evaluate("window.__hidden = false")
        assert page.locator("#alerts").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_every_td_page_counts_and_raises_alerts_and_moving_between_pages_raises_none_again(
    chromium_browser, live_server, td_user
):
    """The TD's open pages: the players' page and a table's page carry the alerts too.
    An alert already raised on the dashboard is not raised again on the next page; a call made
    while the TD reads the players' page beeps there, and is gone once cleared."""
    tournament, tables = tournament_with(["Anna", "Bo", "Cia"], td_user, name="Malmö Open")
    table = tables[0]
    with td_with_stand_ins(chromium_browser, live_server) as page:
        page.goto(f"{live_server.url}/td/{tournament.pk}/")
        page.get_by_label(WORDS["en"]["switch"]).check()
        calls.call_td(table=table, kind="dispute")
        page.wait_for_function("() => window.__alerts.beeps === 1", timeout=20_000)

        # The players' page: the same alert, in the bar at the top, counted, not raised again.
        page.goto(f"{live_server.url}/td/{tournament.pk}/players/")
        bar = page.locator("#td-alerts")
        bar.get_by_role("link", name="Table 1", exact=True).wait_for(timeout=10_000)
        assert bar.get_by_role("heading").inner_text() == "1 alert"
        page.wait_for_function("() => document.title.startsWith('(1) ')", timeout=10_000)
        # A fresh page: nothing replayed.
        assert recorded(page) == {"notes": [], "beeps": 0, "closed": []}

        # Handled elsewhere: gone from the bar and the title at the next poll.
        calls.clear_call(table=table, actor=td_user)
        page.wait_for_function("() => !document.title.startsWith('(')", timeout=20_000)
        assert bar.locator("[data-alert-key]").count() == 0

        # A new call while the TD reads this page: one beep and one notification, here.
        calls.call_td(table=table, kind="dispute")
        page.wait_for_function("() => window.__alerts.beeps === 1", timeout=20_000)
        assert [n["title"] for n in recorded(page)["notes"]] == ["Table 1 — Call: Dispute"]
        assert page.title().startswith("(1) ")

        # A table's page: the alert links to it; following the link raises nothing again.
        bar.get_by_role("link", name="Table 1", exact=True).click()
        page.wait_for_url(f"**/td/{tournament.pk}/tables/{table.pk}/")
        page.locator("#td-alerts [data-alert-key]").wait_for(timeout=10_000)
        page.wait_for_function("() => document.title.startsWith('(1) ')", timeout=10_000)
        assert recorded(page) == {"notes": [], "beeps": 0, "closed": []}


TIE = {
    "en": {"alert": "Table 1 — A tie for first to settle", "heading": "1 alert"},
    "sv": {"alert": "Bord 1 — Delad förstaplats att avgöra", "heading": "1 larm"},
}


@pytest.mark.parametrize("language", ["en", "sv"])
def test_a_tie_on_another_td_page_and_sound_after_the_first_tap(
    chromium_browser, live_server, td_user, language
):
    """The players' page, the switch on (clicked on the dashboard) and an audio context that,
    as a browser's, sounds only once the TD tapped this page: a tie to settle shows its
    notification at once (its beep not heard yet), the TD's first tap wakes the audio, and
    the tie settled closes its notification; the next alert is heard."""
    tournament, tables = tournament_with(["Anna", "Bo", "Cia"], td_user, min_hands=1)
    table = tables[0]
    with td_with_stand_ins(chromium_browser, live_server, language) as page:
        page.goto(f"{live_server.url}/td/{tournament.pk}/")
        page.get_by_label(WORDS[language]["switch"]).check()
        page.goto(f"{live_server.url}/td/{tournament.pk}/players/")
        page.evaluate("window.__audio.needsGesture = true")
        bar = page.locator("#td-alerts")

        # Two players tied for first after the one hand required: a tie to settle.
        seats = list(table.seats.select_related("player").order_by("position"))
        play(table, 5, 5, -10)
        page.wait_for_function("() => window.__alerts.notes.length === 1", timeout=20_000)
        note = recorded(page)["notes"][0]
        assert note["title"] == TIE[language]["alert"]
        assert note["tag"] == f"tie-{table.pk}-1"
        assert bar.get_by_role("heading").inner_text() == TIE[language]["heading"]
        assert bar.get_by_role("link", name=WORDS[language]["table"], exact=True).is_visible()
        assert page.title().startswith("(1) ")
        assert page.evaluate("window.__audio.heard") == 0  # no tap on this page yet

        # The TD's first tap on the page wakes the sound for the next alert.
        page.locator("h1").first.click()
        hands.settle_tie(table=table, actor=td_user, winner=seats[0].player, reason="Card draw")
        page.wait_for_function("() => window.__alerts.closed.length === 1", timeout=20_000)
        assert recorded(page)["closed"] == [note["tag"]]
        page.wait_for_function("() => !document.title.startsWith('(')", timeout=10_000)
        calls.call_td(table=table, kind="dispute")
        page.wait_for_function("() => window.__alerts.notes.length === 2", timeout=20_000)
        assert page.evaluate("window.__audio.heard") == 1
