"""What every public page shares: the tournament of the URL, the one polling mechanism, and
the live region rendered at most once per token and once per few seconds.

A room of 300 phones polls these pages. An unchanged poll is answered `204 No Content`
after the one indexed query of its token, touching neither the session nor the user, and
a proxy may keep that answer for a moment (`Cache-Control: public, max-age=2`). A poll
that needs nothing rendered is answered by `tournament.live.middleware.LivePollMiddleware`
through each view's `answer_poll`, before the rest of the middleware.

A page's live region depends on nothing but its token and the language, so it is rendered
without the request (no CSRF token, no user, no session in it) and kept in Django's cache
with the token it shows: every phone asking for it shares that one rendering. With a hand
somewhere in the room every second, the token moves faster than phones poll, so a kept
region is served for `render_seconds()` (5 s) even when the token has moved on: each
process renders a region at most once in that time, and a phone's view trails the room by
at most that much. Tokens are ordered (`token_order`), so a phone is never sent a region
older than the one it shows (two processes keep two renderings), and a whole page for a
visitor without a session is kept with its region's token too (`respond`).
"""

import copy
import hashlib
import re
import time
from dataclasses import dataclass
from functools import lru_cache, wraps
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.text import compress_string
from django.utils.translation import gettext as _

from tournament.live.polling import vary_on_htmx
from tournament.models import Table, shown_draw
from tournament.selectors.public import latest_seats, player_record, public_tournament
from tournament.selectors.score_card import score_card
from tournament.selectors.standings import standings
from tournament.selectors.td_words import blank_td_words, without_td_words
from tournament.selectors.tokens import join_token, revision_token, room_tokens
from tournament.web.public_address import public_link
from tournament.web.qr import qr_svg

# Seconds between polls of a phone (settings.PUBLIC_POLL_SECONDS: tests shorten it).
POLL_SECONDS = 5
# A projector has no hurry, and sits in the same room's Wi-Fi.
PROJECTOR_POLL_SECONDS = 10
# How long the big screen shows one page of a long list before the next.
PAGER_SECONDS = 10
# How long a shared proxy may keep a poll's answer: a moment, well under a poll's interval.
PROXY_SECONDS = 2
# How long a rendered region (or the standings of a token) stays in the cache at most.
REGION_SECONDS = 120
# How long a whole page stays kept: it is only served while its region is the kept one.
PAGE_SECONDS = 30

LANGUAGE_CODES = {code for code, _ in settings.LANGUAGES}
GZIP = re.compile(r"\bgzip\b")  # in Accept-Encoding, as Django's GZipMiddleware reads it


def poll_seconds(*, projector=False):
    seconds = getattr(settings, "PUBLIC_POLL_SECONDS", None)
    if seconds is not None:
        return seconds
    return PROJECTOR_POLL_SECONDS if projector else POLL_SECONDS


def render_seconds():
    """How long a kept region is served after its token moved on (see the module's doc):
    settings.PUBLIC_RENDER_SECONDS, 5 s unless the environment says otherwise, 0 in tests."""
    return settings.PUBLIC_RENDER_SECONDS


def token_order(token):
    """A token as numbers that only grow ("12.345" -> (12, 345)): the tournament's revision
    first, then the sum of its open tables' (or one table's) revisions, which only grows
    while the first stays the same. None for anything else (a forged `?rev=`)."""
    parts = token.split(".") if token else ()
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) < 19 for p in parts):
        return None
    return tuple(map(int, parts))


def shows_already(rev, token):
    """Whether a phone showing `rev` has `token`'s region or a newer one already."""
    if rev == token:
        return True
    shown, kept = token_order(rev), token_order(token)
    return shown is not None and kept is not None and shown > kept


# The token each process read last, per subject: (token, when read). See `recent_token`.
_recent_tokens = {}
RECENT_TOKENS_MAX = 10_000  # subjects kept at most (a room has a few hundred pages)


def keep_bounded(kept, limit, key, value):
    """Keep `value` under `key` in one of this module's per-process stores, emptied whole
    when it holds `limit` entries: each is read again on its next miss, and a room has a
    few hundred pages, far under any limit."""
    if len(kept) >= limit:
        kept.clear()
    kept[key] = value


def token_seconds():
    """How long a process answers polls with the token it read last: PUBLIC_TOKEN_SECONDS
    (1 s unless the environment says otherwise, 0 in tests), never more than
    `render_seconds()`, the bound a phone's view may trail the room by already."""
    return min(settings.PUBLIC_TOKEN_SECONDS, render_seconds())


def recent_token(token_of, ids):
    """`token_of(*ids)`, read at most once per `token_seconds()` per process and subject.

    A room's phones poll the same few hundred pages (2,000 phones: 400 polls a second, most
    of them unchanged); the token's read is most of what an unchanged poll costs beyond
    Django itself (docs/performance.md). A token read earlier is only ever older than the
    pages' content, never newer: a phone given it is sent the fresh region at its next poll
    after `token_seconds()`. No such subject (None) is not kept: a new one shows at once.
    """
    seconds = token_seconds()
    if seconds <= 0:
        return token_of(*ids)
    key = (token_of, ids)
    now = time.monotonic()
    kept = _recent_tokens.get(key)
    if kept is not None and now - kept[1] < seconds:
        return kept[0]
    token = token_of(*ids)
    kept = _recent_tokens.get(key)
    # Never over one read after it (a thread's, where a server runs them): a page that read
    # its token from the newer must not check what it shows against the older.
    if token is not None and (kept is None or kept[1] <= now):
        keep_bounded(_recent_tokens, RECENT_TOKENS_MAX, key, (token, now))
    return token


def pager_seconds():
    """How long the big screen shows one page of a long list (settings.PUBLIC_PAGER_SECONDS)."""
    return getattr(settings, "PUBLIC_PAGER_SECONDS", PAGER_SECONDS)


# Each process's last read of a tournament for a live page, per tournament and the page's
# token: (when read, the tournament). See `get_tournament`.
_tournaments = {}
TOURNAMENTS_MAX = 1_000  # (tournament, token) pairs kept at most; each lives a second


def get_tournament(tournament_id, token=None):
    """The tournament with its champion and `.token` (1 query), or 404.

    `token`: the token a live page read first (its `Live.token`). The tournament is then
    read once per `token_seconds()` per process and token: in a busy room every page whose
    region is rendered again after a hand needs it, and it was read after that token, so a
    region it goes into is never older than the token it shows (0.8 ms a rendering saved,
    PostgreSQL, bench/bench_public.py's room). A copy for each caller: a page may load what
    the tournament refers to (its champion) onto it."""
    seconds = token_seconds()
    keep = token is not None and seconds > 0
    now = time.monotonic()
    kept = _tournaments.get((tournament_id, token)) if keep else None
    if kept is not None and now - kept[0] < seconds:
        return copy.copy(kept[1])
    tournament = public_tournament(tournament_id)
    if tournament is None:
        raise Http404("No such tournament.")
    if keep:
        keep_bounded(_tournaments, TOURNAMENTS_MAX, (tournament_id, token), (now, tournament))
        return copy.copy(tournament)
    return tournament


def get_table(tournament, table_id):
    """A table of this tournament (any level, any draw) with its level and draw, without the
    reason of a redraw (1 query), or 404: a table of another tournament is not found here
    either."""
    table = without_td_words(
        Table.objects.select_related("level", "draw").filter(
            pk=table_id, level__tournament=tournament
        ),
        ("draw", "Draw"),
    ).first()
    if table is None or not shown_draw(table.draw):
        # An unreleased table is not there for the room yet (issue 19 §5).
        raise Http404("No such table in this tournament.")
    blank_td_words([table.draw])
    table.level.tournament = tournament
    return table


def is_poll(request):
    return bool(request.htmx) and "rev" in request.GET


def poll_language(request):
    """A poll names its language (`lang`) in its URL, so that a proxy keeping the answer
    keeps it for that language only; the fragment is then rendered in it."""
    lang = request.GET.get("lang")
    return lang if lang in LANGUAGE_CODES else None


def shareable(response):
    """Let a shared proxy keep this answer for a moment: it holds nothing personal."""
    patch_cache_control(response, public=True, max_age=PROXY_SECONDS)
    return response


@dataclass(frozen=True)
class Live:
    """What a live page's view is given: its subject's current token, and `subject`, what
    its region shows (the view and its URL's ids), which names the kept region."""

    token: str
    subject: tuple


def tournament_token(tournament_id):
    """The tournament's token (`revision_token`), as its live pages poll it: read
    with every table's (`room`), at most once per `token_seconds()` per process."""
    if token_seconds() <= 0:
        return revision_token(tournament_id)
    tokens = room(tournament_id)
    return None if tokens is None else tokens.tournament


def table_token(tournament_id, table_id):
    """A table's token, as its score card polls it (`revision_token` of the
    table): read with every table's (`room`), at most once per `token_seconds()` per
    process. A room's phones poll a hundred tables' cards: one query a second per process
    instead of one per table and second, each after Django's connection health check (the
    check alone 12 % of a worker's time at 2,000 phones, docs/performance.md). A table the
    tokens read before it lack (a new draw's) is read alone, as is one of another
    tournament (None)."""
    tokens = room(tournament_id) if token_seconds() > 0 else None
    token = None if tokens is None else tokens.tables.get(table_id)
    if token is not None:
        return token
    return recent_token(revision_token, (tournament_id, table_id))


def room(tournament_id):
    """`room_tokens`: the tournament's token and every table's, read together at
    most once per `token_seconds()` per process (None: no such tournament)."""
    return recent_token(room_tokens, (tournament_id,))


def live_page(token_of, *names, shown_by=None):
    """A live page's view, written as `view(request, live, **ids)`: every request reads
    the subject's token first (`token_of` of the URL's `names`, the tournament's by
    default: `tournament_token` or `table_token`, which keep it a second per process; 404
    when there is no such subject); a poll that shows what
    it would be sent already gets 204, one whose region is kept gets it (`kept_answer`),
    and the rest runs in the language a poll names. `shown_by(request)` is what else of
    the request picks what the region shows (the tournament page's level).

    The view also gets `answer_poll(request, ids)`, by which `LivePollMiddleware` answers
    such polls before the rest of the middleware runs."""
    names = names or ("tournament_id",)

    def decorate(view):
        def read_live(request, ids):
            token = token_of(*(ids[name] for name in names))
            if token is None:
                raise Http404("No such tournament or table.")
            shown = shown_by(request) if shown_by is not None else ()
            request.public_live = Live(token, (view.__name__, *ids.values(), *shown))
            return request.public_live

        def answer_poll(request, ids):
            # A public poll names its language (`lang`); one that does not goes the whole way.
            language = poll_language(request)
            if language is None:
                return None
            answer = kept_answer(request, read_live(request, ids), language)
            if answer is not None and answer.status_code == 200:
                answer["Content-Language"] = language  # as LocaleMiddleware says it
            return answer

        @wraps(view)
        def live_view(request, **ids):
            # Set when the middleware read the token and found nothing to answer with:
            # the poll is then not looked at again.
            looked = getattr(request, "public_live", None)
            live = looked or read_live(request, ids)

            def run():
                check = is_poll(request) and looked is None
                answer = kept_answer(request, live) if check else None
                return answer if answer is not None else view(request, live, **ids)

            return in_poll_language(request, run)

        live_view.answer_poll = answer_poll
        return live_view

    return decorate


def kept_answer(request, live, language=None):
    """The answer to an htmx poll that needs nothing rendered, else None: 204 when the poll
    shows what it would be sent already (the current token, or the kept region, still
    served, or a newer one), the kept region (in `language`, the current one) when the
    poll shows something older."""
    rev = request.GET.get("rev")
    if rev == live.token:
        return no_content()
    key = region_key(live.subject, language)
    kept = served_token(key, live.token, time.time())
    if kept is None:
        return None
    if shows_already(rev, kept):
        return no_content()
    stored = cache.get(f"{key}:{kept}")
    return None if stored is None else fragment(request, stored[0], stored[2])


def no_content():
    """An unchanged poll's answer: htmx leaves the page alone; a proxy may keep it. (The
    headers `shareable` and `vary_on_htmx` would give, written as they are: this is the
    answer a room gets most.)"""
    return HttpResponse(
        status=204,
        headers={"Cache-Control": f"public, max-age={PROXY_SECONDS}", "Vary": "HX-Request"},
    )


def fragment(request, html, gz, status=200):
    """A live region for htmx: the same for every phone, so a proxy may keep it."""
    return vary_on_htmx(shareable(compressed(request, html, gz, status)))


def accepts_gzip(request):
    return GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")) is not None


def compressed(request, text, gz, status=200):
    """`text` as a response, gzipped (`gz`, compressed once when it was kept) for a
    visitor who takes gzip: a region of 100 tables is 42 kB, 4 kB gzipped, and a room of
    phones shares the venue's Wi-Fi. Only what is the same for every visitor is kept so,
    with no secret in it (no CSRF token, nothing of a session): nothing for BREACH."""
    if gz is not None and accepts_gzip(request):
        response = HttpResponse(gz, status=status)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(text, status=status)
    if gz is not None:
        patch_vary_headers(response, ["Accept-Encoding"])
    response["Content-Length"] = str(len(response.content))
    return response


def loader(load, *args):
    """`load(*args)` when first needed, then the same answer: a poll whose region is kept
    already needs neither the tournament nor anything else.

    A list rather than `functools.cache`: making a cache wrapper took 0.05 ms, a tenth of a
    full page that is kept (a table's page makes two at every visit)."""
    loaded = []

    def load_once():
        if not loaded:
            loaded.append(load(*args))
        return loaded[0]

    return load_once


def poll_url(path, **params):
    """The URL a region polls: its page with the page's parameters and the language."""
    params = {name: value for name, value in params.items() if value not in (None, "")}
    params["lang"] = translation.get_language()
    return f"{path}?{urlencode(params)}"


@dataclass(frozen=True)
class Region:
    html: str  # the live region, safe HTML
    title: str  # what the page's <title> says, when the region names it (a player's name)
    token: str  # the token it was rendered at (its data-poll-rev)
    key: str | None  # its cache key, when it is kept (a whole page is kept beside it)
    gz: bytes | None = None  # the HTML gzipped, when it is kept


def region_key(subject, language=None):
    """The cache key of a region showing `subject` in `language` (the current one)."""
    return ":".join(
        [
            "public-region",
            *map(str, subject),
            language or translation.get_language(),
            str(poll_seconds()),
            str(pager_seconds()),
        ]
    )


def served_token(key, token, now):
    """The token of the region kept under `key` when it is still to be served (rendered at
    `token`, the current one, or less than `render_seconds()` ago), else None. The token
    and the time are kept apart from the HTML, so that a poll does not read the HTML."""
    kept = cache.get(key)
    if kept is None:
        return None
    kept_token, rendered_at = kept
    return kept_token if kept_token == token or now - rendered_at < render_seconds() else None


def region(template, live, build, *, cache_it=True, shows=None):
    """The page's live region (`template#live`) for `live.subject` as it stands at
    `live.token`, or as it stood when it was last rendered, if that was less than
    `render_seconds()` ago.

    `build()` gives the template's context (with the current token, and an optional
    "title"); it is called only when the region has to be rendered. `shows(context)`, when
    given, is everything of the context the region shows but its token: when it is what
    the process rendered last for this region, the template is not rendered again
    (`rendered_region`).
    """
    key = region_key(live.subject) if cache_it else None
    now = time.time()
    kept = served_token(key, live.token, now) if cache_it else None
    if kept is not None:
        # Under its own token: a region rendered later never replaces this one's HTML.
        stored = cache.get(f"{key}:{kept}")
        if stored is not None:
            html, title, gz = stored
            return Region(mark_safe(html), title, kept, key, gz)
    context = build()
    html, title = rendered_region(template, context, key, shows)
    # A region built on standings kept from an older token shows that token, and is as old
    # as they are (`cached_standings`): never served longer than `render_seconds()` after.
    token, as_of = context["token"], context.get("as_of", now)
    if not cache_it:
        return Region(mark_safe(html), title, token, None)
    gz = compress_string(html.encode())
    cache.set_many({key: (token, as_of), f"{key}:{token}": (html, title, gz)}, REGION_SECONDS)
    return Region(mark_safe(html), title, token, key, gz)


# Where a region shows its token (data-poll-rev) in the rendering a process keeps of it: safe
# markup, which no text typed into the app can produce (autoescaping writes its "<" as "&lt;").
TOKEN_MARK = mark_safe("<live-token>")

# Each process's last rendering of a region, per region key: (what it shows, its HTML with
# TOKEN_MARK for its token, its title). See `rendered_region`.
_renderings = {}
RENDERINGS_MAX = 10_000  # regions kept at most (a room has a few hundred pages)


def rendered_region(template, context, key, shows):
    """The region's HTML and title for `context`. With `shows`, the template is rendered
    only when what the region shows has moved since this process last rendered it: a
    player's page is rendered again at its visits after the render bound because a hand
    elsewhere moved the room's token, while what it shows (his record, his place) mostly
    has not. The token is then written into the kept rendering (0.9 ms of template saved
    a rendering, bench/bench_public.py's room)."""
    if shows is None or key is None:
        return render_to_string(f"{template}#live", context), str(context.get("title", ""))
    seen = shows(context)
    kept = _renderings.get(key)
    if kept is None or kept[0] != seen:
        marked = render_to_string(f"{template}#live", {**context, "token": TOKEN_MARK})
        if marked.count(TOKEN_MARK) != 1:  # a region must show its token exactly once
            return render_to_string(f"{template}#live", context), str(context.get("title", ""))
        kept = (seen, marked, str(context.get("title", "")))
        keep_bounded(_renderings, RENDERINGS_MAX, key, kept)
    return kept[1].replace(TOKEN_MARK, conditional_escape(context["token"])), kept[2]


def forget_kept():
    """Forget everything this process keeps of the public pages: the tests' fresh process."""
    cache.clear()
    for kept in (
        _standings,
        _recent_tokens,
        _player_records,
        _renderings,
        _tournaments,
        _score_cards,
        _found_seats,
    ):
        kept.clear()


def shared_page(request):
    """Whether the whole page may be kept for everyone: a visitor with neither a session
    nor a message sees what every other visitor sees (no user, no CSRF token: the
    language switch of such a page needs none, see `public:language`)."""
    cookies = request.COOKIES
    return settings.SESSION_COOKIE_NAME not in cookies and "messages" not in cookies


def respond(request, template, live, page_context=None, *, status=200):
    """htmx: the region alone (shareable), or 204 when the poll shows it or a newer one
    already; otherwise the whole page around it, kept beside its region for visitors
    with no session."""
    if request.htmx:
        if "rev" in request.GET and shows_already(request.GET["rev"], live.token):
            return no_content()
        return fragment(request, live.html, live.gz, status)
    shared = live.key is not None and status == 200 and shared_page(request)
    if not shared:
        return vary_on_htmx(
            render_page(request, template, live, page_context, shared=False, status=status)
        )
    where = f"{request.scheme}://{request.get_host()}{request.get_full_path()}"
    # A digest: a search's URL can be longer than a cache key may be (250 characters).
    where = hashlib.blake2s(where.encode(), digest_size=16).hexdigest()
    page_key = f"public-page:{live.key}:{live.token}:{where}"
    kept = cache.get(page_key)
    if kept is None:
        shell = page_shell(request, template, live, page_context, where)
        if shell is None:
            content = render_page(request, template, live, page_context, shared=True).content
        else:
            content = shell[0] + live.html.encode() + shell[1]
        kept = (content, compress_string(content))
        cache.set(page_key, kept, PAGE_SECONDS)
    return vary_on_htmx(compressed(request, *kept))


def render_page(request, template, live, page_context, *, shared, status=200, region_html=None):
    """The whole page around `live` (or around `region_html`); `shared`: kept for every
    visitor, so it holds no CSRF token (see `shared_page`)."""
    context = {**(page_context() if callable(page_context) else page_context or {})}
    context["live"] = live.html if region_html is None else region_html
    context["title"] = live.title
    context["shared_page"] = shared
    return render(request, template, context, status=status)


# Where the region goes in a kept page shell: a comment no page writes itself.
LIVE_MARK = "<!-- the live region -->"


def page_shell(request, template, live, page_context, where):
    """A shared page as it is around its live region: (before, after), in bytes; None for
    a page that does not show its region exactly once (then rendered whole, as it is).

    Kept per page, language and tournament revision, not per token: what a page shows
    outside its region (the tournament's and the table's names, a redone draw, the page's
    title) moves only with the tournament's revision, while the region's token moves with
    every hand. A page whose region changed then costs the region alone and the gzip, not
    the page's queries and template again (1.4-2.6 ms in process, PostgreSQL)."""
    revision = live.token.split(".", 1)[0]
    key = f"public-shell:{live.key}:{revision}:{where}"
    shell = cache.get(key)
    if shell is None:
        content = render_page(
            request, template, live, page_context, shared=True, region_html=mark_safe(LIVE_MARK)
        ).content
        parts = content.split(LIVE_MARK.encode())
        if len(parts) != 2:
            return None
        shell = tuple(parts)
        cache.set(key, shell, PAGE_SECONDS)
    return shell


def in_poll_language(request, view):
    """Run `view()` in the language a poll names (see `poll_language`)."""
    lang = poll_language(request) if request.htmx else None
    if lang is None:
        return view()
    with translation.override(lang):
        return view()


@dataclass(frozen=True)
class KeptStandings:
    rows: list  # standings
    token: str  # the tournament's token they were worked out at
    as_of: float  # when (time.time())

    def context(self):
        """What a region built on them shows as its token and its age (see `region`)."""
        return {"token": self.token, "as_of": self.as_of}


# The standings each process worked out last, per tournament: (token, when, rows). Kept in
# the process rather than in Django's cache: unpickling 300 players' rows from it cost
# 2-3 ms a page, about what working them out saves.
_standings = {}


def cached_standings(tournament):
    """`standings` of the tournament (3 queries), worked out at most once per
    `render_seconds()` per process, as a live region is, and shared by the standings, the
    players' pages and the searches: with a hand somewhere every second, a player's page
    would otherwise work out the whole room's standings at each of its polls (300 players:
    6-17 ms of a 8-20 ms page). Standings older than the token are served with their own
    token and time, which the region built on them shows (`KeptStandings.context`): the
    phone is sent the fresh ones at its first poll after `render_seconds()`."""
    now = time.time()
    kept = _standings.get(tournament.pk)
    if kept is not None:
        token, as_of, rows = kept
        if token == tournament.token:
            return KeptStandings(rows, token, now)  # as current as if worked out now
        # A finished tournament's pages stop polling: they must show its final standings.
        if tournament.finished_at is None and now - as_of < render_seconds():
            return KeptStandings(rows, token, as_of)
    rows = standings(tournament)
    _standings[tournament.pk] = (tournament.token, now, rows)
    return KeptStandings(rows, tournament.token, now)


# Each process's last public score card per table: (the token, the table, its card).
_score_cards = {}
SCORE_CARDS_MAX = 10_000  # tables kept at most


def kept_score_card(table_id, load_table, token):
    """The table (`load_table()`, 1 query) and its public `score_card` (5
    queries), read once per process and table at `token`, its region's: after a hand, a
    table's region is rendered again for each language its phones read (two in a Swedish
    room with visitors), from the same card (7 ms under load, PostgreSQL). Read after that
    token, so never older than it; an equal token means nothing the card shows has moved."""
    kept = _score_cards.get(table_id)
    if kept is not None and kept[0] == token:
        return kept[1], kept[2]
    table = load_table()
    card = score_card(table, public=True)
    keep_bounded(_score_cards, SCORE_CARDS_MAX, table_id, (token, table, card))
    return table, card


# Each process's last `player_record` per player: read again only when the tournament's
# revision or his latest table's has moved since (`PlayerRecord.read_at`).
_player_records = {}
PLAYER_RECORDS_MAX = 10_000  # players kept at most


def kept_player_record(tournament, player_id):
    """`player_record` (3 queries), kept per process while nothing it shows has
    moved: a player's page is watched by one or two phones, and its region is rendered
    again at their visits after the render bound because the room's token moved with a
    hand elsewhere (his place may have moved; his record has not). Checking it costs his
    table's token (one indexed query, none when he has no seat): 3.5 ms of queries saved a
    rendering (PostgreSQL, bench/bench_public.py's room)."""
    key = (tournament.pk, player_id)
    kept = _player_records.get(key)
    if kept is not None and kept.read_at == _read_now(tournament, kept):
        return kept
    record = player_record(tournament, player_id)
    if record is not None:
        keep_bounded(_player_records, PLAYER_RECORDS_MAX, key, record)
    return record


def _read_now(tournament, record):
    """What `record.read_at` would be if it were read now, as far as the page's token
    knows: his table's token comes from the same read as the tournament's (`room`, or one
    after it), so a record it finds unchanged is never older than the token shown with it."""
    if record.latest_table_id is None:
        return str(tournament.revision)
    return table_token(tournament.pk, record.latest_table_id)


def link_prefixes(tournament):
    """The start of the links to the tournament's tables and players, for long lists:
    "{{ links.player }}{{ pk }}/" costs nothing per row where {% url %} reverses each."""
    return {
        # 1, not 0: an id in a URL is a positive `dbid` (tournament/web/converters.py).
        name: reverse(f"public:{name}", args=[tournament.pk, 1])[: -len("1/")]
        for name in ("player", "table")
    }


def short_link(request, tournament):
    """The tournament page's address: (the full URL, the same without the scheme)."""
    url = public_link(request, reverse("public:tournament", args=[tournament.pk]))
    return url, url.split("://", 1)[-1].rstrip("/")


def share_link(request, tournament):
    """The tournament page's address to share, as the poster, the tournament page and the
    tables' big screen show it: its URL, the same without the scheme, and its QR code."""
    url, text = short_link(request, tournament)
    title = _("QR code of %(link)s") % {"link": text}
    return {"url": url, "text": text, "qr": qr_markup(url, title)}


@lru_cache(maxsize=64)
def qr_markup(text, title):
    """The QR code of `text` as inline SVG; the same text always draws the same code."""
    return qr_svg(text, title=title, css_class="qr")


# Each process's last seats of the players a search found, per tournament and players:
# (what they were read at, the seats), read again only when one of their tables' tokens
# or the tournament's revision has moved since.
_found_seats = {}
FOUND_SEATS_MAX = 10_000  # searches kept at most


def kept_latest_seats(tournament):
    """`latest_seats` for the players a search finds (its `seats_of`), kept per
    process while nothing it holds has moved, as a player's record is: a search's region
    is rendered again at its phone's visits after the render bound because a hand
    elsewhere moved the room's token; the same players' seats have not moved. Checking
    them costs no query (their tables' tokens come with the page's own, `room`)."""

    def seats_of(player_ids):
        if token_seconds() <= 0:
            return latest_seats(player_ids)  # no room's tokens to check them by
        key = (tournament.pk, player_ids)
        kept = _found_seats.get(key)
        if kept is not None and kept[0] == _seats_read_now(tournament, kept[1]):
            return kept[1]
        seats = latest_seats(player_ids)
        keep_bounded(_found_seats, FOUND_SEATS_MAX, key, (_seats_read_at(tournament, seats), seats))
        return seats

    return seats_of


def _seats_read_at(tournament, seats):
    """What `seats` were read at: the tournament's revision (read before them) and each
    seat's table token, as `revision_token` gives it."""
    revision = tournament.revision
    return revision, tuple(
        (player_id, join_token(revision, seat.table.revision))
        for player_id, seat in sorted(seats.items())
    )


def _seats_read_now(tournament, seats):
    """What `_seats_read_at` would give if the same seats were read now, as far as the
    page's token knows (`table_token`, as `_read_now`)."""
    return tournament.revision, tuple(
        (player_id, table_token(tournament.pk, seat.table_id))
        for player_id, seat in sorted(seats.items())
    )
