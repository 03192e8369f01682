"""The axe-core walk over every page (test_axe_every_page_browser.py and its files per
language): a Walk loads each page of each state (tests/browser/axe_scenes.py), checks it
with axe and gathers its faults, so that one run lists them all.

`every_page` is one language's whole walk: the players' pages on a 360 px phone, then the
TD's on a 1366 × 768 laptop (logged in there), over every state of axe_scenes.STATES.
`td_pages_on_a_phone` is the TD's pages in play at 360 px. The states are built through the
services in the test's own database; each test builds them again."""

from urllib.parse import urlsplit

from django.urls import reverse

from tests.browser import axe_scenes
from tests.browser.axe import FAILING, axe_violations, describe

# The players' pages are read on phones, the TD's on the venue's laptop.
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
HTMX_IDLE = "() => !document.querySelector('.htmx-request')"


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
        self.page.wait_for_load_state("load")
        # A region htmx is still fetching (htmx marks its element while it asks). Not
        # "networkidle": that waits for half a second of quiet after every page, and no page
        # fetches anything on its own before its first poll, seconds later.
        self.page.wait_for_function(HTMX_IDLE)
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
    # The browser's own check refuses it (its fields are required): no navigation.
    page.locator("#entry form button[type=submit]").click()
    walk.check("td:hand_new", f"{state.name} · a hand refused")
    page.locator("#penalty select").nth(0).select_option(index=1)
    page.locator("#penalty select").nth(1).select_option(index=1)
    with page.expect_navigation():
        page.locator("#penalty form button[type=submit]").click()
    walk.check("td:penalty_new", f"{state.name} · a penalty's confirmation")
    with page.expect_navigation():
        page.locator("button[name=confirm]").click()
    walk.check("td:table", f"{state.name} · the table page saying the penalty is given")
    page.goto(url + reverse("td:table", args=[tournament_pk, state.tied_table.pk]))
    page.locator("#tie input[type=radio]").first.check()
    page.locator("#tie textarea, #tie input[type=text]").first.fill("Drew high card")
    with page.expect_navigation():
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
    with page.expect_navigation():
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


def every_page(chromium_browser, live_server, td_user, language):
    """One language's walk over every page of every state: the Walk, its faults gathered
    (`failures`, `moderate`) and the URL names it checked (`visited`)."""
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
    return walk


def td_pages_on_a_phone(chromium_browser, live_server, td_user, language):
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
    return walk
