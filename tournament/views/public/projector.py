"""The big screen: the current level's tables and the standings, in large type, with no
navigation, paging through long lists by themselves (static/js/pager.js; without
JavaScript the whole list), live by the same polling as the phones. The tables' view shows
the QR code of the tournament's page for the room to scan, from the public address."""

from django.http import HttpRequest, HttpResponse

from tournament.live.kept import cached_standings, get_tournament
from tournament.live.polling import polling_ends
from tournament.live.regions import Context, loader, pager_seconds, poll_seconds, poll_url, region
from tournament.live.responses import live_page, respond
from tournament.live.tokens import Live, tournament_token
from tournament.models import Tournament
from tournament.selectors.pace import public_level_end
from tournament.selectors.prizes import prized_standings
from tournament.selectors.public import public_level
from tournament.views.public.common import share_link
from tournament.web.public_address import unreachable_host

TEMPLATES = "tournament/public/"


@live_page(tournament_token)
def tables_projector(request: HttpRequest, live: Live, tournament_id: int) -> HttpResponse:
    load = loader(get_tournament, tournament_id, live.token)
    template = TEMPLATES + "projector_tables.html"

    def build() -> Context:
        tournament = load()
        board = public_level(tournament)
        return {
            "tournament": tournament,
            "board": board,
            "level_end": public_level_end(board),
            "token": live.token,
            "poll_url": poll_url(request.path),
            "poll_every": poll_seconds(projector=True),
            "pager_every": pager_seconds(),
            "poll_stop": polling_ends(tournament),
        }

    shown = region(template, live, build)
    return respond(request, template, shown, lambda: page(request, load()))


def page(request: HttpRequest, tournament: Tournament) -> Context:
    """The tables' page around its live region: the QR code of the tournament's page, so
    that a player in the room finds their table on their phone. Outside the live region, so
    that a poll never draws it again (and a region kept for every visitor holds no host)."""
    return {"tournament": tournament, "scan": scan_code(request, tournament)}


def scan_code(request: HttpRequest, tournament: Tournament) -> str | None:
    """The QR code of the tournament's page at the public address (DJANGO_PUBLIC_URL), never
    the projector's own host; none when the address its link would start with is one no
    phone can reach (127.0.0.1: the public address of a laptop that had no network when
    `make venue` started, or the laptop's own host without one; the TD's pages that print
    links say so)."""
    if unreachable_host(request):
        return None
    return share_link(request, tournament)["qr"]


@live_page(tournament_token)
def standings_projector(request: HttpRequest, live: Live, tournament_id: int) -> HttpResponse:
    load = loader(get_tournament, tournament_id, live.token)
    template = TEMPLATES + "projector_standings.html"

    def build() -> Context:
        tournament = load()
        kept = cached_standings(tournament)
        # The prizes only where the TD's setting shows them to the room (no query).
        prized = prized_standings(tournament, kept.rows) if tournament.prizes_public else None
        return {
            "tournament": tournament,
            "rows": prized.rows if prized else kept.rows,
            "prizes": prized,
            **kept.context(),
            "poll_url": poll_url(request.path),
            "poll_every": poll_seconds(projector=True),
            "pager_every": pager_seconds(),
            "poll_stop": polling_ends(tournament),
        }

    shown = region(template, live, build)
    return respond(request, template, shown, lambda: {"tournament": load()})
