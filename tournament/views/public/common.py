"""What every public page shares beside the live machinery (tournament/live/): a table of
the URL, the links to the tournament's pages and its QR code."""

from functools import lru_cache

from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from tournament.models import Table, Tournament
from tournament.selectors.tables import shown_table
from tournament.web.public_address import public_link
from tournament.web.qr import qr_svg


def get_table(tournament: Tournament, table_id: int) -> Table:
    """A table of this tournament (any level, any draw) with its level and draw, without the
    reason of a redraw (1 query), or 404: a table of another tournament is not found here
    either."""
    table = shown_table(tournament, table_id)
    if table is None:
        # An unreleased table is not there for the room yet (issue 19 §5).
        raise Http404("No such table in this tournament.")
    return table


def link_prefixes(tournament: Tournament) -> dict[str, str]:
    """The start of the links to the tournament's tables and players, for long lists:
    "{{ links.player }}{{ pk }}/" costs nothing per row where {% url %} reverses each."""
    return {
        # 1, not 0: an id in a URL is a positive `dbid` (tournament/web/converters.py).
        name: reverse(f"public:{name}", args=[tournament.pk, 1])[: -len("1/")]
        for name in ("player", "table")
    }


def short_link(request: HttpRequest, tournament: Tournament) -> tuple[str, str]:
    """The tournament page's address: (the full URL, the same without the scheme)."""
    url = public_link(request, reverse("public:tournament", args=[tournament.pk]))
    return url, url.split("://", 1)[-1].rstrip("/")


def share_link(request: HttpRequest, tournament: Tournament) -> dict[str, str]:
    """The tournament page's address to share, as the poster, the tournament page and the
    tables' big screen show it: its URL, the same without the scheme, and its QR code."""
    url, text = short_link(request, tournament)
    title = _("QR code of %(link)s") % {"link": text}
    return {"url": url, "text": text, "qr": qr_markup(url, title)}


@lru_cache(maxsize=64)
def qr_markup(text: str, title: str) -> SafeString:
    """The QR code of `text` as inline SVG; the same text always draws the same code."""
    return qr_svg(text, title=title, css_class="qr")
