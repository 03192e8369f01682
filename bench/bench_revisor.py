"""The revisor's side: time from "Record hand" to the updated card on a phone, and taps per hand.

`make bench` prints the figures. A throwaway SQLite database, the app served by
Django's live-server thread (DEBUG off), Debian's chromium through Playwright on
a 360 x 740 phone viewport. Each hand: type three players' points, tap "Record
hand N", stop the clock when the card says "Hand N recorded." and shows hand N+1.
Taps by cards are counted by driving the card picker (when the page has one).
"""

import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["DJANGO_DEBUG"] = "0"
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-" + uuid.uuid4().hex)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DJANGO_SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("DJANGO_SECURE_COOKIES", "0")
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost")
os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
HANDS = 20
MIN_HANDS = 40  # the table stays open for the browser's hands and the server's


def server_ms(table, hands=10):
    """Median time the server takes for the card's htmx POST of a hand (no browser)."""
    from django.test import Client
    from django.urls import reverse

    client = Client(SERVER_NAME="localhost")
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    table.refresh_from_db()
    timings = []
    for number in range(table.hands_played + 1, table.hands_played + 1 + hands):
        data = {"points_0": "2", "points_1": "-1", "points_2": "-1", "hand_number": str(number)}
        data["idempotency_key"] = str(uuid.uuid4())
        started = time.perf_counter()
        response = client.post(reverse("revisor:hand"), data, HTTP_HX_REQUEST="true")
        timings.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, response.status_code
    return statistics.median(timings)


def cards_hand(page, table):
    """Enter the next hand by tapping the card picker; return (taps, Confirm -> card in ms)."""
    from tests.browser.test_revisor_cards_browser import BOARDS, Taps

    table.refresh_from_db()
    number = table.hands_played + 1
    names = [s.player.name for s in table.seats.select_related("player").order_by("position")]
    page.get_by_role("link", name=f"Enter hand {number} by cards").click()
    page.locator("[data-picker]:not([hidden])").wait_for()
    taps = Taps(page)
    for name in names:
        for row in ("front", "middle", "back"):
            for code in BOARDS[name][row].split():
                taps.card(code)
    taps.button("Check the hand")
    page.get_by_text(f"Hand {number}: announce it, then confirm").wait_for()
    started = time.perf_counter()
    taps.button(f"Confirm hand {number}")
    page.get_by_text(f"Hand {number} recorded").wait_for()
    return taps.count, (time.perf_counter() - started) * 1000


def main():
    import django

    django.setup()
    from django.conf import settings

    # Static files straight from the source folders (no collectstatic for a bench).
    settings.STORAGES["staticfiles"]["BACKEND"] = (
        "django.contrib.staticfiles.storage.StaticFilesStorage"
    )
    settings.STATIC_ROOT = tempfile.mkdtemp()  # served by WhiteNoise, as in production
    from django.core.management import call_command
    from django.test.testcases import LiveServerThread, _StaticFilesHandler
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM_ARGS
    from tournament.services import draws, registration

    if not Path(CHROMIUM).exists():
        print("bench_revisor: skipped, Debian's chromium is not installed")
        return
    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)
    tournament = registration.create_tournament(actor=None, name="Bench phone", min_hands=MIN_HANDS)
    for name in ("Anna", "Bo", "Cia"):
        registration.register_player(tournament=tournament, actor=None, name=name)
    table = draws.draw_first_level(tournament=tournament, actor=None, seed="b").tables.get()

    server = LiveServerThread("127.0.0.1", _StaticFilesHandler)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    base = f"http://127.0.0.1:{server.port}"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
            page = context.new_page()
            page.goto(f"{base}/r/{table.revisor_key}/")
            assert page.evaluate("typeof window.htmx") == "object", "htmx did not load"
            timings = []
            for number in range(1, HANDS + 1):
                page.get_by_label("Points for Anna").fill("2")
                page.get_by_label("Points for Bo").fill("-1")
                page.get_by_label("Points for Cia").fill("-1")
                started = time.perf_counter()
                page.get_by_role("button", name=f"Record hand {number}").click()
                page.get_by_text(f"Hand {number} recorded").wait_for()
                timings.append((time.perf_counter() - started) * 1000)
            taps, confirm_ms = cards_hand(page, table)
            browser.close()
    finally:
        server.terminate()
    print(f"revisor: the server's share (the same POST, in process): {server_ms(table):.0f} ms")
    timings.sort()
    p95 = timings[int(len(timings) * 0.95) - 1]
    print(
        f"revisor: Record -> updated card on a 360x740 phone: median "
        f"{statistics.median(timings):.0f} ms, p95 {p95:.0f} ms ({HANDS} hands, SQLite)"
    )
    print("revisor: taps per hand by points for 3 players: 3 fields + 1 Record (typing aside)")
    print(
        f"revisor: taps per hand by cards for 3 players with the picker: {taps} "
        f"(39 cards; plain rank-then-suit would be 80); Confirm -> card {confirm_ms:.0f} ms"
    )


if __name__ == "__main__":
    main()
