"""What several browser tests do first: a tournament drawn for them, a TD logged in."""

from contextlib import contextmanager

from tournament.models import Table
from tournament.services import draws, registration


def tournament_with(names, td_user=None, *, min_hands=3, name="Malmö Open", seed="phone"):
    """A tournament of these players with level 1 drawn: (tournament, its tables by number)."""
    tournament = registration.create_tournament(actor=td_user, name=name, min_hands=min_hands)
    for player in names:
        registration.register_player(tournament=tournament, actor=td_user, name=player)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed=seed)
    return tournament, list(Table.objects.current().filter(level=level).order_by("number"))


def log_in(page, live_server, username="director", password="td-pass-123"):
    """Log in on the login page (by default as the `td_user` fixture) and land on /td/."""
    page.goto(live_server.url + "/accounts/login/?next=/td/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(live_server.url + "/td/")


@contextmanager
def td_page(chromium_browser, live_server, width, height):
    """A page of a screen this size, the `td_user` fixture logged in; closed afterwards."""
    context = chromium_browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        log_in(page, live_server)
        yield page
    finally:
        context.close()
