"""Buy-ins and prizes on a 360 px phone: the TD types the SM example by label, sees the
figures before saving, and nothing scrolls sideways."""

import pytest

from tests.browser.helpers import log_in
from tournament.models import Tournament
from tournament.services import registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NBSP = "\u00a0"


def test_the_td_sets_the_prizes_on_a_phone(phone_page, live_server, td_user):
    tournament = registration.create_tournament(actor=td_user, name="SM 2026")
    for number in range(1, 28):
        registration.register_player(tournament=tournament, actor=td_user, name=f"Spelare {number}")
    page = phone_page
    log_in(page, live_server)
    page.goto(f"{live_server.url}/td/{tournament.pk}/settings/#prizes")
    assert page.get_by_text("No prizes: set a buy-in or added money").is_visible()

    page.get_by_label("Buy-in", exact=True).fill("500")
    page.get_by_label("Fee kept by the organiser").fill("50")
    page.get_by_label("Added money", exact=True).fill("1 000")
    page.get_by_label("Round each prize down to").select_option(label="10")
    page.get_by_role("button", name="Show the figures").click()
    page.wait_for_load_state()
    # 27 × 450 + 1,000 = 13,150 kr; 50/30/20 in tens of kronor, the 10 kr left to 1st.
    assert page.get_by_text("Not saved yet").is_visible()
    assert page.locator(".prize-pool").inner_text() == f"13,150{NBSP}SEK"
    assert Tournament.objects.get(pk=tournament.pk).buy_in == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    page.get_by_role("button", name="Save buy-ins and prizes").click()
    page.wait_for_url("**/settings/#prizes")
    assert page.get_by_text("Buy-ins and prizes saved.").is_visible()
    prizes = page.locator(".payout-table tbody td:last-child").all_inner_texts()
    assert prizes == [f"6,580{NBSP}SEK", f"3,940{NBSP}SEK", f"2,630{NBSP}SEK"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    saved = Tournament.objects.get(pk=tournament.pk)
    assert (saved.buy_in, saved.fee, saved.added_money, saved.prize_rounding) == (
        50_000,
        5_000,
        100_000,
        1_000,
    )
