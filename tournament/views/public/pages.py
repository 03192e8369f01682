"""The players' pages: the tournament's tables, "Where do I sit?", a table's score card, a
player's page, the standings, and the poster with the short link and its QR code.

Each live page polls itself (static/js/poll.js): an htmx request with `?rev=` gets 204
while its token is unchanged, else the live region alone (kept per token, so that a room
of phones asking for the same one costs one rendering); polling stops once nothing more
can change there.
"""

import hashlib
from functools import lru_cache

from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language

from tournament.forms.public import PlayerSearchForm
from tournament.live.kept import (
    cached_standings,
    get_tournament,
    kept_latest_seats,
    kept_player_record,
    kept_score_card,
)
from tournament.live.polling import polling_ends
from tournament.live.regions import Context, loader, poll_seconds, poll_url, region
from tournament.live.responses import live_page, respond
from tournament.live.tokens import Live, table_token, tournament_token
from tournament.selectors.pace import public_table_end
from tournament.selectors.prizes import prized_standings
from tournament.selectors.public import (
    PublicPosition,
    PublicTable,
    public_find,
    public_level,
    public_player,
)
from tournament.selectors.register import public_earlier_results
from tournament.selectors.standings import Standing
from tournament.selectors.tournaments import td_tournament_list
from tournament.views.public.common import get_table, link_prefixes, share_link
from tournament.web.public_address import address_warning

TEMPLATES = "tournament/public/"


# The language switch of a page kept for every visitor (common.shared_page): such a page
# holds no CSRF token, which is what lets it be kept, and all a forged request could do
# here is set a visitor's language cookie.
language = csrf_exempt(set_language)


def home(request: HttpRequest) -> HttpResponse:
    """Every tournament, running ones first, each linking to its page: 2 queries. A held
    draw's level is not counted (issue 19 §5): a row shows the level the players see."""
    rows = td_tournament_list(released_only=True)
    return render(request, TEMPLATES + "home.html", {"rows": rows})


def _level_number(request: HttpRequest) -> int | None:
    """`?level=N` shows an earlier level; anything else shows the current one."""
    value = request.GET.get("level", "")
    return int(value) if value.isdigit() and 0 < int(value) < 1000 else None


@live_page(tournament_token, shown_by=lambda request: (_level_number(request) or "",))
def tournament(request: HttpRequest, live: Live, tournament_id: int) -> HttpResponse:
    """The tournament page: the current (or a chosen) level's tables, players, totals, hands
    played and required, Fantasyland, finished tables and who advanced; the champion."""
    number = _level_number(request)
    load = loader(get_tournament, tournament_id, live.token)
    template = TEMPLATES + "tournament.html"

    def build() -> Context:
        tournament = load()
        board = public_level(tournament, number)
        shown = board.level.number if board.level and not board.is_current else None
        links = link_prefixes(tournament)
        return {
            "tournament": tournament,
            "board": board,
            "articles": [
                table_article(translation.get_language(), links["table"], links["player"], t)
                for t in board.tables
            ],
            "links": links,
            "token": live.token,
            "poll_url": poll_url(request.path, level=shown),
            "poll_every": poll_seconds(),
            "poll_stop": polling_ends(tournament),
        }

    shown = region(template, live, build)
    return respond(
        request,
        template,
        shown,
        lambda: {
            "tournament": load(),
            "form": PlayerSearchForm(),
            "share": share_link(request, load()),
        },
    )


def found_region_shows(context: Context) -> tuple[object, ...]:
    """Everything the region of a search shows but its token (see `region`): who was found
    and where each is, and what every live region shows."""
    results = context["results"]
    return (
        None
        if results is None
        else (results.query, results.more, tuple(map(position_shows, results.found))),
        *live_region_shows(context),
    )


@lru_cache(maxsize=4096)
def table_article(
    language: str, table_link: str, player_link: str, table: PublicTable
) -> SafeString:
    """One table's <article> on the tournament page, rendered once per content (a
    `PublicTable` is a frozen value) and language: a hand changes one table of 100, so a
    new rendering of the page's region renders that one table again, not all 100."""
    context = {"t": table, "links": {"table": table_link, "player": player_link}}
    return mark_safe(render_to_string(TEMPLATES + "tournament.html#ptable", context))


def _search(request: HttpRequest) -> tuple[bool, str]:
    """What `?q=` searches: (typed, query). `typed`: a `q` came (the search form is bound);
    `query`: that text as the search form's own field cleans it (what `is_valid()` checks),
    "" when it is refused or absent (nothing searched). Worked out once per request: the
    region's name and the view both ask. No form is made for it: making one (a deep copy of
    its fields) was a fifth of a kept search page; the page's form is made only when the page
    around the region is rendered."""
    searched = getattr(request, "public_search", None)
    if searched is None:
        typed = "q" in request.GET
        try:
            query = PlayerSearchForm.base_fields["q"].clean(request.GET["q"]) if typed else ""
        except ValidationError:
            query = ""
        searched = (typed, query)
        setattr(request, "public_search", searched)  # noqa: B010  # kept for this request alone
    return searched


def _searched(request: HttpRequest) -> tuple[str]:
    """The text searched, as a part of the kept region's name: a digest of whatever was
    typed, so that any text makes a short key."""
    return (hashlib.blake2s(_search(request)[1].encode(), digest_size=8).hexdigest(),)


@live_page(tournament_token, shown_by=_searched)
def find(request: HttpRequest, live: Live, tournament_id: int) -> HttpResponse:
    """Where do I sit? A few letters of a name, accents optional; for every player
    found, the table and seat, or how he went out. The results follow the draws live.
    Kept per text searched, like every live region: a room looking for its seats types
    the same few names again and again."""
    typed, query = _search(request)
    load = loader(get_tournament, tournament_id, live.token)
    template = TEMPLATES + "find.html"

    def build() -> Context:
        tournament = load()
        kept = cached_standings(tournament) if query else None
        return {
            "tournament": tournament,
            "results": (
                public_find(
                    tournament, query, ranking=kept.rows, seats_of=kept_latest_seats(tournament)
                )
                if kept is not None  # a text searched
                else None
            ),
            "token": live.token,
            **(kept.context() if kept else {}),
            "poll_url": poll_url(request.path, q=query),
            "poll_every": poll_seconds(),
            "poll_stop": polling_ends(tournament),
        }

    shown = region(template, live, build, shows=found_region_shows)
    # A refused text is shown in its form with the field's message (required: "" never passes).
    status = 400 if typed and not query else 200
    return respond(
        request,
        template,
        shown,
        lambda: {"tournament": load(), "form": PlayerSearchForm(request.GET if typed else None)},
        status=status,
    )


@live_page(table_token, "tournament_id", "table_id")
def table(request: HttpRequest, live: Live, tournament_id: int, table_id: int) -> HttpResponse:
    """A table's score card, hand by hand, read-only; live while the tournament runs (the
    card settles with its level, the announcement above it does not)."""
    load = loader(get_tournament, tournament_id, live.token)
    load_table = loader(lambda: get_table(load(), table_id))
    template = TEMPLATES + "table.html"

    def build() -> Context:
        _, card = kept_score_card(table_id, load_table, live.token)
        return {
            "tournament": load(),
            "card": card,
            "table_end": public_table_end(card),
            "token": live.token,
            "poll_url": poll_url(request.path),
            "poll_every": poll_seconds(),
            "poll_stop": polling_ends(load()),
        }

    shown = region(template, live, build)
    return respond(request, template, shown, lambda: {"tournament": load(), "table": load_table()})


@live_page(tournament_token)
def player(request: HttpRequest, live: Live, tournament_id: int, player_id: int) -> HttpResponse:
    """A player's page: each level's table, place and points; his warnings and penalties."""
    load = loader(get_tournament, tournament_id, live.token)
    template = TEMPLATES + "player.html"

    def build() -> Context:
        tournament = load()
        kept = cached_standings(tournament)
        read = kept_player_record(tournament, player_id)
        record = public_player(tournament, player_id, ranking=kept.rows, record=read)
        if record is None or read is None:
            raise Http404("No such player in this tournament.")
        return {
            "title": record.player.name,
            "tournament": tournament,
            "record": record,
            "read_at": read.read_at,
            **kept.context(),
            "poll_url": poll_url(request.path),
            "poll_every": poll_seconds(),
            "poll_stop": polling_ends(tournament),
        }

    shown = region(template, live, build, shows=player_region_shows)
    # His earlier results (docs/register.md), outside the polled region: they do not move
    # with this tournament's hands. Shown only where the tournament's setting says so.
    return respond(
        request,
        template,
        shown,
        lambda: {"tournament": load(), "earlier": public_earlier_results(load(), player_id)},
    )


def player_region_shows(context: Context) -> tuple[object, ...]:
    """Everything a player's region shows but its token (see `region`): his record, as it
    was read (its `read_at` moves with the tournament's revision and his table's), where he
    is, and what every live region shows."""
    return (
        context["read_at"],
        position_shows(context["record"].position),
        *live_region_shows(context),
    )


def position_shows(position: PublicPosition) -> tuple[object, ...]:
    """What a player's status line (`_status.html`) and his link show of where he is: once
    he is out, his place in the standings (a hand elsewhere moves the rank of a player
    still in, which no page shows); his name as the standings give it (a Standing's player
    compares by id alone)."""
    player, standing, table = position.player, position.standing, position.table
    return (
        (player.pk, player.name, player.number, player.disqualified),
        position.status,
        position.level_number,
        position.seat_number,
        None if table is None else (table.pk, table.number),
        (standing.level, standing.rank, standing.place, standing.points)
        if position.status == "out" and isinstance(standing, Standing)  # out: he has one
        else None,
    )


def live_region_shows(context: Context) -> tuple[object, ...]:
    """What every live region shows besides its subject: the announcement, and how it polls."""
    tournament = context["tournament"]
    return (
        tournament.announcement,
        tournament.finished_at,
        context["poll_url"],
        context["poll_every"],
        context["poll_stop"],
    )


@live_page(tournament_token)
def standings(request: HttpRequest, live: Live, tournament_id: int) -> HttpResponse:
    """Champion first, then as rules.md section 6 orders them; live during play."""
    load = loader(get_tournament, tournament_id, live.token)
    template = TEMPLATES + "standings.html"

    def build() -> Context:
        tournament = load()
        kept = cached_standings(tournament)
        # The prizes only where the TD's setting shows them to the room (no query).
        prized = prized_standings(tournament, kept.rows) if tournament.prizes_public else None
        return {
            "tournament": tournament,
            "rows": prized.rows if prized else kept.rows,
            "prizes": prized,
            "links": link_prefixes(tournament),
            **kept.context(),
            "poll_url": poll_url(request.path),
            "poll_every": poll_seconds(),
            "poll_stop": polling_ends(tournament),
        }

    shown = region(template, live, build)
    return respond(request, template, shown, lambda: {"tournament": load()})


def poster(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A printable poster: the tournament's name, a large QR code and the short link."""
    tournament = get_tournament(tournament_id)
    return render(
        request,
        TEMPLATES + "poster.html",
        {
            "tournament": tournament,
            "share": share_link(request, tournament),
            **address_warning(request),
        },
    )
