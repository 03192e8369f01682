"""axe-core (tests/browser/axe.py) over every page of the TD and of the players, in English
and in Swedish, in each state that changes what the pages show (tests/browser/axe_scenes.py):
before the first draw, a held draw, play in progress (a penalty, a rescinded one, a call, a
tie to settle, an announcement, the stations), the final, finished. Also the login page (and
a wrong password), the page not found, a player's page followed on the phone, the pages a
form answers with (a hand refused, a penalty's and a tie's confirmation, the penalty given)
and the refusals of the TD's forms sent empty. No critical or serious violation on any of
them (issue 34 §3). The players' pages are loaded on a 360 px phone, the TD's on a
1366 × 768 laptop.

A phone and a laptop context per language, the TD logged in on the laptop; the tournaments
are built through the services. Every failure of every page is gathered before the test
fails, so that one run lists them all; the moderate and minor ones are printed (`-rP`).
The walk is tests/browser/axe_walk.py; each language's walk is a file of its own
(test_axe_every_page_en_browser.py, test_axe_every_page_sv_browser.py), so that the two run
side by side on two workers. This file holds what the walk must visit and the TD's pages
walked on a phone.

A new state (a scene): a function in axe_scenes.py that builds the tournament through the
services and returns a State with the pages it shows (`add_td`, `add_public`, `add_refusal`),
added to axe_scenes.STATES (before `every_tournament`, which lists every tournament made); a
page no scene shows yet goes into CHECKED too.

`test_every_page_is_checked` keeps it so: every routed URL of the TD's and the public
spaces is in CHECKED (and the walk visits each of those), or is one of the documented
exceptions in NOT_PAGES, whose GET the test makes to see that it is indeed no page (a
download, a polled fragment, or a form's address whose GET goes back to its page). The
revisor's screens are checked in test_revisor_screens_browser.py."""

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.browser import axe_scenes, axe_walk

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = ("en", "sv")

# Every page the walk checks, by URL name: the walk fails if it misses one.
CHECKED = {
    "login",
    # the TD's
    "td:dashboard",
    "td:tournament_create",
    "td:import",
    "td:settings",
    "td:prizes",
    "td:players",
    "td:player_rename",
    "td:player_withdraw",
    "td:player_reinstate",
    "td:draw",
    "td:level",
    "td:level_print",
    "td:level_projector",
    "td:advance",
    "td:standings",
    "td:standings_projector",
    "td:tournament",
    "td:announcement",
    "td:table",
    "td:hand_correct",
    "td:penalty_new",  # its confirmation, answered to the table page's form
    "td:tie",  # its confirmation, answered to the table page's form
    "td:hand_new",  # a hand refused: the table page with the errors
    "td:penalty_rescind",
    "td:table_access",
    "td:table_cards",
    "td:station_cards",
    "td:check_in_sign",
    "td:audit",
    "td:player",
    "td:register",
    "td:register_merge_pick",
    "td:register_merge",
    # the players'
    "public:home",
    "public:tournament",
    "public:find",
    "public:standings",
    "public:table",
    "public:player",
    "public:poster",
    "public:check_in",
    "public:tables_projector",
    "public:standings_projector",
    # the guide (docs/guide/), served by the app
    "guide:page",
}

# URLs that are no page of their own: a GET answers a file, a polled fragment, or goes back
# to the page that holds its form (their pages are checked).
NOT_PAGES = {
    "td:backup": "the JSON backup, a download",
    "td:standings_csv": "a CSV download",
    "td:hands_csv": "a CSV download",
    "td:live": "the dashboard's polled region, a fragment of td:tournament",
    "td:alerts": "the alerts bar's poll, a fragment of every TD page",
    "td:tournament_rename": "a form of td:settings",
    "td:players_paste": "a form of td:players",
    "td:player_check_in": "a form of td:players",
    "td:player_undo_check_in": "a form of td:players",
    "td:self_check_in": "a form of td:players",
    "td:redraw": "a form of td:level",
    "td:release": "a form of td:level",
    "td:call_clear": "a form of td:table and td:tournament",
    "td:held_record": "a form of td:tournament (a hand held from an offline card)",
    "td:held_discard": "a form of td:tournament (a hand held from an offline card)",
    "td:table_access_regenerate": "a form of td:table_access",
    "td:table_cards_links": "a form of td:table_cards",
    "td:stations_create": "a form of td:station_cards",
    "td:station_regenerate": "a form of td:station_cards",
    "td:announcement_withdraw": "a form of td:announcement",
    "td:earlier_players": "the add form's offer of earlier players, an htmx fragment of td:players",
    "td:earlier_results_setting": "a form of td:settings",
    "public:language": "the language switch's form, on every public page",
    "logout": "the TD's log-out form",
    "set_language": "Django's language switch, a form of every page",
    "guide:index": "a redirect to the guide's contents in the reader's language",
}
POLLS = {"td:live", "td:alerts"}
# Not the TD's or the players' pages: Django's own admin, and the revisor's device, whose
# every screen test_revisor_screens_browser.py checks with axe in both languages.
OTHER_SPACES = ("admin", "revisor")


def routed():
    """Every named URL the project routes outside OTHER_SPACES: "namespace:name" -> its
    route (the includes' prefixes with it)."""
    routes = {}

    def walk(patterns, namespace, prefix):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = pattern.namespace or namespace
                if inner not in OTHER_SPACES:
                    walk(pattern.url_patterns, inner, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern) and pattern.name:
                name = f"{namespace}:{pattern.name}" if namespace else pattern.name
                routes[name] = prefix + str(pattern.pattern)

    walk(get_resolver().url_patterns, None, "")
    return routes


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_td_pages_in_play_pass_axe_on_a_phone(chromium_browser, live_server, td_user, language):
    """The TD also walks the room with a phone: play in progress's TD pages at 360 px."""
    walk = axe_walk.td_pages_on_a_phone(chromium_browser, live_server, td_user, language)
    assert not walk.failures, "\n\n".join(walk.failures)


def test_every_page_is_checked(td_client, td_user):
    """Every routed name is checked by the walk, or is no page of its own (tried here)."""
    routes = routed()
    assert set(routes) >= CHECKED, f"checked but not routed: {CHECKED - set(routes)}"
    assert not CHECKED & set(NOT_PAGES)
    unchecked = set(routes) - CHECKED - set(NOT_PAGES)
    assert not unchecked, f"pages with no axe check (add them to the walk): {sorted(unchecked)}"

    state = axe_scenes.in_play(td_user)
    table = state.first_table
    values = {
        "tournament_id": table.level.tournament_id,
        "table_id": table.pk,
        "player_id": table.seats.first().player_id,
        "level": 1,
        "number": 1,  # a hand's, or a station's
        "held_id": 1,  # a GET of its forms goes back to the dashboard, whatever it names
    }
    for name in NOT_PAGES:
        kwargs = {key: values[key] for key in re.findall(r"<(?:\w+:)?(\w+)>", routes[name])}
        # A poll is asked by htmx (without it, td:live answers the dashboard, checked).
        headers = {"HX-Request": "true"} if name in POLLS else {}
        response = td_client.get(reverse(name, kwargs=kwargs), headers=headers)
        whole_page = (
            response.status_code == 200
            and response.get("Content-Type", "").startswith("text/html")
            and b"<html" in response.content
        )
        assert not whole_page, f"{name} answers a GET with a page: check it with axe"
