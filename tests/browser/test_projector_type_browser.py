"""Every big-screen view, on a 1920 x 1080 projector: no text smaller than 28 px, readable from
the back of the room (the public tables and standings, the TD's seating and standings), in
play and with the tournament finished."""

import pytest
from django.urls import reverse

from tests.browser import public_scenes
from tests.browser.helpers import log_in, tournament_with

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALLEST = 28  # px

# Every visible element with text of its own, smaller than `least` px: "tag.class: text (size)".
SMALL_TEXT = """(least) => {
  const found = [];
  for (const el of document.body.querySelectorAll("*")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (box.width <= 1 || box.height <= 1 || style.visibility === "hidden") continue;
    const size = parseFloat(style.fontSize);
    if (size < least)
      found.push(el.tagName.toLowerCase() + (el.className ? "." + el.className : "") + ": "
        + el.textContent.trim().replace(/\\s+/g, " ").slice(0, 30) + " (" + size + " px)");
  }
  return found;
}"""


@pytest.fixture
def projector(chromium_browser, live_server):
    context = chromium_browser.new_context(viewport={"width": 1920, "height": 1080})
    yield context.new_page()
    context.close()


def views(scene):
    """The big-screen views of the scene's tournament: the public ones, then the TD's."""
    pk = scene.tournament.pk
    urls = scene.public_urls()
    public = {name: urls[name] for name in ("tables projector", "standings projector")}
    level = scene.tournament.levels.order_by("number").last().number
    td = {
        "TD seating projector": reverse("td:level_projector", args=[pk, level]),
        "TD standings projector": reverse("td:standings_projector", args=[pk]),
    }
    return public, td


@pytest.mark.parametrize("build", [public_scenes.in_play, public_scenes.finished])
def test_every_projector_view_has_text_of_28_px_at_least(build, projector, live_server, td_user):
    scene = build(td_user)
    public, td = views(scene)
    for name, url in public.items():
        projector.goto(live_server.url + url)
        assert projector.locator("body.projector").count() == 1, name
        found = projector.evaluate(SMALL_TEXT, SMALLEST)
        assert found == [], (name, found)
    log_in(projector, live_server)
    for name, url in td.items():
        projector.goto(live_server.url + url)
        assert projector.locator("body.projector").count() == 1, name
        found = projector.evaluate(SMALL_TEXT, SMALLEST)
        assert found == [], (name, found)


def test_the_public_standings_on_the_big_screen_are_not_the_phones_small_type(
    projector, live_server, td_user
):
    """The phones' standings are set at .92rem (14.7 px); the big screen's rows are in its own
    type: 1920 px wide, 40 px."""
    scene = public_scenes.in_play(td_user)
    projector.goto(live_server.url + scene.public_urls()["standings projector"])
    row = projector.locator("table.standings tbody th").first
    assert row.evaluate("(el) => getComputedStyle(el).fontSize") == "40px"


# Every visible player of the seat finder: whether he is on the screen and his whole name shows.
SEATS_SHOWN = """() => [...document.querySelectorAll(".seat-finder li:not([hidden])")].map((li) => {
  const box = li.getBoundingClientRect(), name = li.querySelector(".sf-name");
  const whole = name.scrollWidth <= name.clientWidth;
  return [box.right <= innerWidth && box.bottom <= innerHeight, whole];
})"""


def test_a_long_seating_list_pages_in_large_type(projector, live_server, td_user):
    """151 players (the smallest type of the seat finder before: 13.5 px): 28 px at least,
    a page of them at a time, each on the screen with his whole name of 30 letters."""
    names = [f"Spelare {n:03d} Lindqvist-Söderström" for n in range(1, 152)]
    tournament, _ = tournament_with(names, td_user, seed="a big room")
    log_in(projector, live_server)
    projector.goto(live_server.url + reverse("td:level_projector", args=[tournament.pk, 1]))
    status = projector.locator("[data-pager-status]")
    shown = projector.locator(".seat-finder li:not([hidden])")
    assert 20 <= shown.count() < 151
    assert status.inner_text() == f"1–{shown.count()} / 151"
    assert projector.evaluate(SMALL_TEXT, SMALLEST) == []
    assert projector.evaluate(SEATS_SHOWN) == [[True, True]] * shown.count()


def test_twelve_tables_with_long_names_show_half_of_them_at_a_time(projector, live_server, td_user):
    """12 tables of 30-letter names, four of them over (their winner's badge on the line), a
    long tournament name: 3 tables a page (the name took two lines of 72 px, the badge pushed
    names onto a second line, and the second row of cards missed the screen by a few pixels).
    Six or more fit, each whole on the screen."""
    from tests.tournament.conftest import play

    names = [f"Spelare {n:02d} Lindqvist-Söderberg" for n in range(1, 37)]  # 30 letters
    tournament, tables = tournament_with(
        names, td_user, min_hands=1, name="Svenska Mästerskapen i Pineapple 2026, Göteborg"
    )
    for table in tables[:4]:
        play(table, 3, -1, -2)
    projector.goto(live_server.url + reverse("public:tables_projector", args=[tournament.pk]))
    shown = projector.locator(".ptable:not([hidden])")
    assert shown.count() >= 6
    status = projector.locator("[data-pager-status]").inner_text()
    assert status == f"1–{shown.count()} / 12"
    for card in shown.all():
        box = card.bounding_box()
        assert box["y"] + box["height"] <= 1080 and box["x"] + box["width"] <= 1920
    assert projector.evaluate(SMALL_TEXT, SMALLEST) == []
