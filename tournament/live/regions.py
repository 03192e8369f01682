"""A live region: rendered at most once per token and `render_seconds()`, kept in Django's
cache with the token it shows, so that every phone asking for it shares one rendering."""

import time
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.text import compress_string

from tournament.live.tokens import Live, keep_bounded, render_seconds

# Seconds between polls of a phone (settings.PUBLIC_POLL_SECONDS: tests shorten it).
POLL_SECONDS = 5


# A projector has no hurry, and sits in the same room's Wi-Fi.
PROJECTOR_POLL_SECONDS = 10


# How long the big screen shows one page of a long list before the next.
PAGER_SECONDS = 10


# How long a rendered region (or the standings of a token) stays in the cache at most.
REGION_SECONDS = 120


def poll_seconds(*, projector: bool = False) -> int:
    seconds: int | None = getattr(settings, "PUBLIC_POLL_SECONDS", None)
    if seconds is not None:
        return seconds
    return PROJECTOR_POLL_SECONDS if projector else POLL_SECONDS


def pager_seconds() -> int:
    """How long the big screen shows one page of a long list (settings.PUBLIC_PAGER_SECONDS)."""
    seconds: int = getattr(settings, "PUBLIC_PAGER_SECONDS", PAGER_SECONDS)
    return seconds


def loader[T](load: Callable[..., T], *args: object) -> Callable[[], T]:
    """`load(*args)` when first needed, then the same answer: a poll whose region is kept
    already needs neither the tournament nor anything else.

    A list rather than `functools.cache`: making a cache wrapper took 0.05 ms, a tenth of a
    full page that is kept (a table's page makes two at every visit)."""
    loaded: list[T] = []

    def load_once() -> T:
        if not loaded:
            loaded.append(load(*args))
        return loaded[0]

    return load_once


def poll_url(path: str, **params: object) -> str:
    """The URL a region polls: its page with the page's parameters and the language."""
    given = {name: value for name, value in params.items() if value not in (None, "")}
    given["lang"] = translation.get_language()
    return f"{path}?{urlencode(given)}"


@dataclass(frozen=True)
class Region:
    html: str  # the live region, safe HTML
    title: str  # what the page's <title> says, when the region names it (a player's name)
    token: str  # the token it was rendered at (its data-poll-rev)
    key: str | None  # its cache key, when it is kept (a whole page is kept beside it)
    gz: bytes | None = None  # the HTML gzipped, when it is kept


def region_key(subject: Iterable[object], language: str | None = None) -> str:
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


def served_token(key: str, token: str, now: float) -> str | None:
    """The token of the region kept under `key` when it is still to be served (rendered at
    `token`, the current one, or less than `render_seconds()` ago), else None. The token
    and the time are kept apart from the HTML, so that a poll does not read the HTML."""
    kept = cache.get(key)
    if kept is None:
        return None
    kept_token, rendered_at = kept
    return kept_token if kept_token == token or now - rendered_at < render_seconds() else None


# What a region's template is given (`build()`), and what of it the region shows.
Context = dict[str, Any]
Shows = Callable[[Context], object]


def region(
    template: str,
    live: Live,
    build: Callable[[], Context],
    *,
    cache_it: bool = True,
    shows: Shows | None = None,
) -> Region:
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
    kept = served_token(key, live.token, now) if key is not None else None  # cache_it
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
_renderings: dict[Hashable, tuple[object, str, str]] = {}


RENDERINGS_MAX = 10_000  # regions kept at most (a room has a few hundred pages)


def rendered_region(
    template: str, context: Context, key: Hashable | None, shows: Shows | None
) -> tuple[str, str]:
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
