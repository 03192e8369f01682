"""What every public page shares: the tournament of the URL, the one polling mechanism, and
the live region rendered once per revision.

A room of 300 phones polls these pages. An unchanged poll is answered `204 No Content`
after the one indexed query of its token, touching neither the session nor the user, and
a proxy may keep that answer for a moment (`Cache-Control: public, max-age=2`). A page's
live region depends on nothing but the tournament's revision token and the language, so
it is rendered once per token (kept in Django's cache, keyed by the token, so it can never
be stale) and shared by every phone that asks for it: a changed poll then costs the token's
query and a cache look-up. Regions are rendered without the request (no CSRF token, no
user, no session in them), so that sharing them is safe.
"""

from dataclasses import dataclass
from functools import cache as cache_result
from functools import lru_cache
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.safestring import mark_safe

from tournament import selectors
from tournament.models import Table
from tournament.views.polling import unchanged, vary_on_htmx

# Seconds between polls of a phone (settings.PUBLIC_POLL_SECONDS: tests shorten it).
POLL_SECONDS = 5
# A projector has no hurry, and sits in the same room's Wi-Fi.
PROJECTOR_POLL_SECONDS = 10
# How long the big screen shows one page of a long list before the next.
PAGER_SECONDS = 10
# How long a shared proxy may keep a poll's answer: a moment, well under a poll's interval.
PROXY_SECONDS = 2
# How long a rendered region is kept; a new token makes a new key long before this.
REGION_SECONDS = 120

LANGUAGE_CODES = {code for code, _ in settings.LANGUAGES}


def poll_seconds(*, projector=False):
    seconds = getattr(settings, "PUBLIC_POLL_SECONDS", None)
    if seconds is not None:
        return seconds
    return PROJECTOR_POLL_SECONDS if projector else POLL_SECONDS


def pager_seconds():
    """How long the big screen shows one page of a long list (settings.PUBLIC_PAGER_SECONDS)."""
    return getattr(settings, "PUBLIC_PAGER_SECONDS", PAGER_SECONDS)


def get_tournament(tournament_id):
    """The tournament with its champion and `.token` (1 query), or 404."""
    tournament = selectors.public_tournament(tournament_id)
    if tournament is None:
        raise Http404("No such tournament.")
    return tournament


def get_table(tournament, table_id):
    """A table of this tournament (any level, any draw) with its level and draw (1 query),
    or 404: a table of another tournament is not found here either."""
    table = (
        Table.objects.select_related("level", "draw")
        .filter(pk=table_id, level__tournament=tournament)
        .first()
    )
    if table is None:
        raise Http404("No such table in this tournament.")
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
class Poll:
    token: str | None  # the current token, when the request is a poll of an existing subject
    answer: HttpResponse | None  # 204 when the poll's region shows that token already


def poll(request, token_of, *args):
    """An htmx poll (`?rev=`): its subject's current token (`token_of(*args)`, 1 indexed
    query), and 204 when the region shows it already; nothing else is read. For other
    requests, and for a subject that does not exist (the view then answers 404), neither."""
    if not is_poll(request):
        return Poll(None, None)
    token = token_of(*args)
    if token is None:
        return Poll(None, None)
    answer = unchanged(request, token)
    return Poll(token, shareable(answer) if answer is not None else None)


def loader(load, *args):
    """`load(*args)` when first needed, then the same answer: a poll whose region is kept
    already needs neither the tournament nor anything else."""
    return cache_result(lambda: load(*args))


def poll_url(path, **params):
    """The URL a region polls: its page with the page's parameters and the language."""
    params = {name: value for name, value in params.items() if value not in (None, "")}
    params["lang"] = translation.get_language()
    return f"{path}?{urlencode(params)}"


@dataclass(frozen=True)
class Region:
    html: str  # the live region, safe HTML
    title: str  # what the page's <title> says, when the region names it (a player's name)


def region(template, key, build, *, cache_it=True):
    """The page's live region (`template#live`).

    `key` names what the region shows and must include its revision token; `build()`
    gives the template's context (with an optional "title") and is only called when no
    phone has asked for this key in this language yet.
    """
    cache_key = ":".join(
        [
            "public-region",
            *map(str, key),
            translation.get_language(),
            str(poll_seconds()),
            str(pager_seconds()),
        ]
    )
    kept = cache.get(cache_key) if cache_it else None
    if kept is None:
        context = build()
        kept = (render_to_string(f"{template}#live", context), str(context.get("title", "")))
        if cache_it:
            cache.set(cache_key, kept, REGION_SECONDS)
    return Region(html=mark_safe(kept[0]), title=kept[1])


def respond(request, template, live, page_context=None, *, status=200):
    """htmx: the region alone (shareable); otherwise the whole page around it."""
    if request.htmx:
        response = shareable(HttpResponse(live.html, status=status))
    else:
        context = {**(page_context() if callable(page_context) else page_context or {})}
        context["live"] = live.html
        context["title"] = live.title
        response = render(request, template, context, status=status)
    return vary_on_htmx(response)


def in_poll_language(request, view):
    """Run `view()` in the language a poll names (see `poll_language`)."""
    lang = poll_language(request) if request.htmx else None
    if lang is None:
        return view()
    with translation.override(lang):
        return view()


def cached_standings(tournament):
    """`selectors.standings` of the tournament as its token stands (`tournament.token`):
    worked out once per token and shared by the standings, the players' pages and the
    searches (3 queries when not kept yet)."""
    key = f"public-standings:{tournament.pk}:{tournament.token}"
    rows = cache.get(key)
    if rows is None:
        rows = selectors.standings(tournament)
        cache.set(key, rows, REGION_SECONDS)
    return rows


def link_prefixes(tournament):
    """The start of the links to the tournament's tables and players, for long lists:
    "{{ links.player }}{{ pk }}/" costs nothing per row where {% url %} reverses each."""
    return {
        name: reverse(f"public:{name}", args=[tournament.pk, 0])[: -len("0/")]
        for name in ("player", "table")
    }


def short_link(request, tournament):
    """The tournament page's address: (the full URL, the same without the scheme)."""
    url = request.build_absolute_uri(reverse("public:tournament", args=[tournament.pk]))
    return url, url.split("://", 1)[-1].rstrip("/")


@lru_cache(maxsize=64)
def qr_markup(text, title):
    """The QR code of `text` as inline SVG; the same text always draws the same code."""
    from tournament.qr import qr_svg

    return qr_svg(text, title=title, css_class="qr")
