"""`make guide`: every picture of the guide, taken anew from the scripted tournament.

A throwaway SQLite database in a temporary folder, the app served by Django's live-server
thread on a free port, Debian's chromium driven by Playwright (never a downloaded browser).
The tournament is built step by step through the services (tournament/demo/guide.py); after
each step every picture of that moment is taken in English and in Swedish, at the size the
page is used at, into docs/guide/img/<lang>/<name>.png (the names are the script's, so a
picture is replaced, never added beside)."""

import os
import sys
import tempfile
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "guide" / "img"
LANGUAGES = ("en", "sv")
# A cropped part of a page is cut off below this (px): the top of a long form is the point.
TALLEST = 1100
PASSWORD = "guide-" + uuid.uuid4().hex

sys.path.insert(0, str(ROOT))
TMP = tempfile.mkdtemp(prefix="guide-")
os.environ["DJANGO_DEBUG"] = "1"
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
os.environ["DATABASE_URL"] = f"sqlite:///{TMP}/guide.sqlite3"
os.environ["DJANGO_BACKUP_DIR"] = f"{TMP}/backups"
os.environ["DJANGO_PUBLIC_RENDER_SECONDS"] = "0"  # every page as the step left it
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM beside Playwright's loop


class Browser:
    """One browser; a context per language, role and screen (the TD's logged in once)."""

    def __init__(self, browser, base):
        self.browser, self.base, self.contexts = browser, base, {}

    def page(self, shot, language):
        if shot.role == "revisor":  # a device of its own, bound to its table by the link
            context = self._new(shot.screen, language)
            page = context.new_page()
            page.goto(self.base + (shot.enter or shot.path))
            return context, page, True
        key = (shot.role, shot.screen, language)
        if key not in self.contexts:
            context = self._new(shot.screen, language)
            if shot.role == "td":
                self._log_in(context)
            self.contexts[key] = context
        return self.contexts[key], self.contexts[key].new_page(), False

    def _new(self, screen, language):
        from tournament.demo.guide import SCREENS

        context = self.browser.new_context(**SCREENS[screen], device_scale_factor=1)
        context.add_cookies([{"name": "django_language", "value": language, "url": self.base}])
        return context

    def _log_in(self, context):
        page = context.new_page()
        page.goto(self.base + "/accounts/login/?next=/td/")
        page.locator("#id_username").fill("td")
        page.locator("#id_password").fill(PASSWORD)
        page.locator("#id_password").press("Enter")
        page.wait_for_url(self.base + "/td/")
        page.close()

    def close(self):
        for context in self.contexts.values():
            context.close()


def act(page, context, action):
    """A browser step before the picture: `offline`, points typed and the network gone."""
    if action == "offline":
        fields = page.locator("input[name^=points_]")
        fields.nth(0).fill("6")
        fields.nth(1).fill("-2")
        context.set_offline(True)
        page.evaluate("window.dispatchEvent(new Event('offline'))")
        page.locator("#connection-banner").wait_for(state="visible")


def smaller(path):
    """The picture in 256 colours (flat pages lose nothing to see): a third of the bytes."""
    from PIL import Image

    with Image.open(path) as image:
        reduced = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    reduced.save(path, optimize=True)


def take(browser, shot, language):
    context, page, own = browser.page(shot, language)
    try:
        if not own or shot.enter:  # a revisor's device has opened its link, not the page
            page.goto(browser.base + shot.path)
        page.wait_for_load_state("networkidle")
        act(page, context, shot.action)
        target = OUT / language / f"{shot.name}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        options = {"path": str(target), "animations": "disabled", "caret": "hide"}
        if shot.clip:
            box = page.locator(shot.clip).first.bounding_box()
            box["height"] = min(box["height"], TALLEST)
            page.screenshot(full_page=True, clip=box, **options)
        else:
            page.screenshot(full_page=shot.full, **options)
        smaller(target)
        print(f"  {target.relative_to(ROOT)}")
    finally:
        page.close()
        if own:
            context.close()


def main():
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test.testcases import LiveServerThread, _StaticFilesHandler
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
    from tournament.demo.guide import story

    if not CHROMIUM.exists():
        sys.exit("make guide needs Debian's chromium: apt-get install -y chromium")
    call_command("migrate", verbosity=0)
    actor = get_user_model().objects.create_user("td", password=PASSWORD, is_staff=True)
    server = LiveServerThread("127.0.0.1", _StaticFilesHandler, port=0)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            browser = Browser(chromium, f"http://127.0.0.1:{server.port}")
            for shots in story(actor):
                for shot in shots:
                    for language in LANGUAGES:
                        take(browser, shot, language)
            browser.close()
            chromium.close()
    finally:
        server.terminate()


if __name__ == "__main__":
    main()
