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

`test_every_page_is_checked` keeps it so: every routed URL of the TD's and the public
spaces is in CHECKED (and the walk visits each of those), or is one of the documented
exceptions in NOT_PAGES, whose GET the test makes to see that it is indeed no page (a
download, a polled fragment, or a form's address whose GET goes back to its page). The
revisor's screens are checked in test_revisor_screens_browser.py."""

import re
from urllib.parse import urlsplit

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.browser import axe_scenes
from tests.browser.axe import FAILING, axe_violations, describe

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = ("en", "sv")
# The players' pages are read on phones, the TD's on the venue's laptop.
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}

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
    "td:audit",
    # the players'
    "public:home",
    "public:tournament",
    "public:find",
    "public:standings",
    "public:table",
    "public:player",
    "public:poster",
    "public:tables_projector",
    "public:standings_projector",
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
    "td:redraw": "a form of td:level",
    "td:release": "a form of td:level",
    "td:call_clear": "a form of td:table and td:tournament",
    "td:table_access_regenerate": "a form of td:table_access",
    "td:table_cards_links": "a form of td:table_cards",
    "td:stations_create": "a form of td:station_cards",
    "td:station_regenerate": "a form of td:station_cards",
    "td:announcement_withdraw": "a form of td:announcement",
    "public:language": "the language switch's form, on every public page",
    "logout": "the TD's log-out form",
    "set_language": "Django's language switch, a form of every page",
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


def in_language(context, live_server, language):
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])


class Walk:
    """One language's walk: each page loaded, checked, and its faults gathered."""

    def __init__(self, live_server):
        self.page, self.live_server = None, live_server
        self.visited, self.failures, self.moderate = set(), [], []

    def check(self, name, label):
        """Check the page as it stands (after a load or a form's answer) as `name` (None:
        a page with no URL name of its own)."""
        self.page.wait_for_load_state("networkidle")  # the regions htmx fills after the load
        found = axe_violations(self.page)
        failing = [v for v in found if v["impact"] in FAILING]
        if failing:
            self.failures.append(f"{label}:\n{describe(failing)}")
        others = [v for v in found if v not in failing]
        self.moderate.extend(f"{label}: [{v['impact']}] {v['id']}" for v in others)
        if name is not None:
            self.visited.add(name)

    def load(self, name, path, state):
        response = self.page.goto(self.live_server.url + path)
        label = f"{state} · {name} · {path}"
        if response.status != 200 or urlsplit(self.page.url).path != urlsplit(path).path:
            self.failures.append(f"{label}: answered {response.status} at {self.page.url}")
            return
        self.check(name, label)

    def refused(self, name, path, form, state):
        """`form` on the page at `path` sent with its fields emptied: the refusal checked."""
        self.page.goto(self.live_server.url + path)
        found = self.page.locator(form)
        found.evaluate(EMPTIED)
        with self.page.expect_navigation() as answer:
            found.locator("button[type=submit]").last.click()
        label = f"{state} · {name} refused, sent empty"
        if answer.value.status != 400:  # else it is not the refusal that is checked
            self.failures.append(f"{label}: answered {answer.value.status}")
        self.check(name, label)


EMPTIED = """(form) => {
  form.noValidate = true;  // the server's refusal is the page checked, not the browser's
  const typed = "input[type=text], input[type=number], input:not([type]), textarea";
  for (const field of form.querySelectorAll(typed)) field.value = "";
}"""


def forms_answered(walk, state):
    """The pages a form answers with, in play: a hand refused (nothing typed), a penalty's
    confirmation, a tie's confirmation."""
    page, url = walk.page, walk.live_server.url
    tournament_pk = state.first_table.level.tournament_id
    page.goto(url + reverse("td:table", args=[tournament_pk, state.first_table.pk]))
    page.locator("#entry form button[type=submit]").click()
    walk.check("td:hand_new", f"{state.name} · a hand refused")
    page.locator("#penalty select").nth(0).select_option(index=1)
    page.locator("#penalty select").nth(1).select_option(index=1)
    page.locator("#penalty form button[type=submit]").click()
    walk.check("td:penalty_new", f"{state.name} · a penalty's confirmation")
    page.locator("button[name=confirm]").click()
    walk.check("td:table", f"{state.name} · the table page saying the penalty is given")
    page.goto(url + reverse("td:table", args=[tournament_pk, state.tied_table.pk]))
    page.locator("#tie input[type=radio]").first.check()
    page.locator("#tie textarea, #tie input[type=text]").first.fill("Drew high card")
    page.locator("#tie form button[type=submit]").click()
    walk.check("td:tie", f"{state.name} · a tie's confirmation")


def players_pages(walk, states):
    """On a phone: every public page of every state, the page not found, and a player's page
    followed on the phone."""
    for state in states:
        for name, path in state.public:
            walk.load(name, path, state.name)
            follow = walk.page.locator("[data-follow-start]")
            if name == "public:player" and follow.is_visible():
                follow.click()
                walk.check(name, f"{state.name} · {name} · followed on this phone")
    response = walk.page.goto(walk.live_server.url + "/t/999999/")
    assert response.status == 404
    walk.check(None, "the page not found")


def td_pages(walk, states):
    """On a laptop: the login page (and a wrong password), then every TD page of every state
    and, in play, the pages its forms answer with."""
    page = walk.page
    walk.load("login", reverse("login") + "?next=/td/", "logged out")
    page.locator("#id_username").fill("director")
    page.locator("#id_password").fill("not-the-password")
    page.locator("#id_password").press("Enter")
    walk.check("login", "logged out · a wrong password")
    page.locator("#id_password").fill("td-pass-123")
    page.locator("#id_password").press("Enter")
    page.wait_for_url(walk.live_server.url + "/td/")
    for state in states:
        for name, path in state.td:
            walk.load(name, path, state.name)
        for name, path, form in state.refusals:
            walk.refused(name, path, form, state.name)
        if hasattr(state, "tied_table"):
            forms_answered(walk, state)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_passes_axe(chromium_browser, live_server, td_user, language):
    states = [build(td_user) for build in axe_scenes.STATES]
    walk = Walk(live_server)
    for screen, pages in ((PHONE, players_pages), (LAPTOP, td_pages)):
        context = chromium_browser.new_context(**screen)
        try:
            in_language(context, live_server, language)
            walk.page = context.new_page()
            pages(walk, states)
        finally:
            context.close()
    print("\n".join(["Moderate and minor, not failing:", *walk.moderate]))
    assert not walk.failures, "\n\n".join(walk.failures)
    assert walk.visited == CHECKED


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_td_pages_in_play_pass_axe_on_a_phone(chromium_browser, live_server, td_user, language):
    """The TD also walks the room with a phone: play in progress's TD pages at 360 px."""
    states = [axe_scenes.in_play(td_user)]
    walk = Walk(live_server)
    context = chromium_browser.new_context(**PHONE)
    try:
        in_language(context, live_server, language)
        walk.page = context.new_page()
        td_pages(walk, states)
    finally:
        context.close()
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
