"""The QR code on the players' tables projector at 1920 x 1080 (issue 18 §2): large enough to
scan from a few metres, its words in the big screen's type, clear of the header and the
tables (which keep every column), and below them on a phone."""

import pytest

from tests.browser import public_scenes
from tests.browser.test_projector_type_browser import SMALL_TEXT, SMALLEST

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOXES = """() => Object.fromEntries(
  [["qr", ".projector-scan svg"], ["words", ".projector-scan p"], ["head", ".projector-head"],
   ["grid", ".projector-grid"], ["h1", ".projector-head h1"]].map(([name, css]) => {
    const b = document.querySelector(css).getBoundingClientRect();
    return [name, {left: b.left, top: b.top, right: b.right, bottom: b.bottom}];
  }))"""


def apart(a, b):
    return (
        a["right"] <= b["left"]
        or b["right"] <= a["left"]
        or (a["bottom"] <= b["top"] or b["bottom"] <= a["top"])
    )


@pytest.mark.parametrize("language", ["en", "sv"])
def test_the_qr_code_is_large_and_clear_of_the_tables(
    chromium_browser, live_server, td_user, settings, language
):
    settings.PUBLIC_URL = "http://192.168.1.20:8000"
    scene = public_scenes.in_play(td_user)
    url = live_server.url + scene.public_urls()["tables projector"]
    context = chromium_browser.new_context(viewport={"width": 1920, "height": 1080})
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    try:
        page.goto(url)
        words = {"en": "Scan for your table", "sv": "Skanna för att hitta ditt bord"}
        assert page.locator(".projector-scan p").inner_text() == words[language]
        boxes = page.evaluate(BOXES)
        qr = boxes["qr"]
        assert qr["right"] - qr["left"] >= 200 and qr["bottom"] - qr["top"] >= 200
        assert qr["right"] <= 1920 and qr["bottom"] <= 1080
        for other in ("head", "grid", "h1"):
            assert apart(boxes["qr"], boxes[other]), (other, boxes)
            assert apart(boxes["words"], boxes[other]), (other, boxes)
        assert boxes["words"]["bottom"] <= boxes["grid"]["top"]
        assert page.evaluate(SMALL_TEXT, SMALLEST) == []
        # The tables keep their three columns of 1920 px beside it.
        tops = page.evaluate(
            "() => [...document.querySelectorAll('.ptable')]"
            ".map((t) => t.getBoundingClientRect().top)"
        )
        assert len(tops) == 3 and len(set(tops)) == 1

        page.set_viewport_size({"width": 360, "height": 740})
        boxes = page.evaluate(BOXES)
        assert boxes["qr"]["top"] >= boxes["grid"]["bottom"]  # below the tables on a phone
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        context.close()
