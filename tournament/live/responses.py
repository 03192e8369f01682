"""A live page's answers: 204 for a poll that shows what it would be sent, the kept region,
or the whole page around it (kept for visitors without a session); `live_page` wraps a view."""

import hashlib
import re
import time
from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import compress_string

from tournament.live.polling import vary_on_htmx
from tournament.live.regions import Region, region_key, served_token
from tournament.live.tokens import Live, shows_already

# How long a shared proxy may keep a poll's answer: a moment, well under a poll's interval.
PROXY_SECONDS = 2


# How long a whole page stays kept: it is only served while its region is the kept one.
PAGE_SECONDS = 30


LANGUAGE_CODES = {code for code, _ in settings.LANGUAGES}


GZIP = re.compile(r"\bgzip\b")  # in Accept-Encoding, as Django's GZipMiddleware reads it

# A live page's view as it is written: (request, live, **the URL's ids).
type LiveView = Callable[..., HttpResponse]
# A page's context beside its region: a mapping, or a function that makes it (only called
# when the whole page is rendered).
type PageContext = Mapping[str, object] | Callable[[], Mapping[str, object]] | None


# `request.htmx` is set by django-htmx's middleware: HttpRequest's stubs do not know it.


def is_poll(request: HttpRequest) -> bool:
    return bool(request.htmx) and "rev" in request.GET  # type: ignore[attr-defined]


def poll_language(request: HttpRequest) -> str | None:
    """A poll names its language (`lang`) in its URL, so that a proxy keeping the answer
    keeps it for that language only; the fragment is then rendered in it."""
    lang = request.GET.get("lang")
    return lang if lang in LANGUAGE_CODES else None


def shareable(response: HttpResponse) -> HttpResponse:
    """Let a shared proxy keep this answer for a moment: it holds nothing personal."""
    patch_cache_control(response, public=True, max_age=PROXY_SECONDS)
    return response


def live_page(
    token_of: Callable[..., str | None],
    *names: str,
    shown_by: Callable[[HttpRequest], tuple[object, ...]] | None = None,
) -> Callable[[LiveView], Callable[..., HttpResponse]]:
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

    def decorate(view: LiveView) -> Callable[..., HttpResponse]:
        def read_live(request: HttpRequest, ids: Mapping[str, object]) -> Live:
            token = token_of(*(ids[name] for name in names))
            if token is None:
                raise Http404("No such tournament or table.")
            shown = shown_by(request) if shown_by is not None else ()
            live = Live(token, (view.__name__, *ids.values(), *shown))
            request.public_live = live  # type: ignore[attr-defined]  # read by live_view
            return live

        def answer_poll(request: HttpRequest, ids: Mapping[str, object]) -> HttpResponse | None:
            # A public poll names its language (`lang`); one that does not goes the whole way.
            language = poll_language(request)
            if language is None:
                return None
            answer = kept_answer(request, read_live(request, ids), language)
            if answer is not None and answer.status_code == 200:
                answer["Content-Language"] = language  # as LocaleMiddleware says it
            return answer

        @wraps(view)
        def live_view(request: HttpRequest, **ids: Any) -> HttpResponse:
            # Set when the middleware read the token and found nothing to answer with:
            # the poll is then not looked at again.
            looked = getattr(request, "public_live", None)
            live = looked or read_live(request, ids)

            def run() -> HttpResponse:
                check = is_poll(request) and looked is None
                answer = kept_answer(request, live) if check else None
                return answer if answer is not None else view(request, live, **ids)

            return in_poll_language(request, run)

        # What the poll middleware answers with (live.middleware.live_view_of).
        live_view.answer_poll = answer_poll  # type: ignore[attr-defined]
        return live_view

    return decorate


def kept_answer(
    request: HttpRequest, live: Live, language: str | None = None
) -> HttpResponse | None:
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


def no_content() -> HttpResponse:
    """An unchanged poll's answer: htmx leaves the page alone; a proxy may keep it. (The
    headers `shareable` and `vary_on_htmx` would give, written as they are: this is the
    answer a room gets most.)"""
    return HttpResponse(
        status=204,
        headers={"Cache-Control": f"public, max-age={PROXY_SECONDS}", "Vary": "HX-Request"},
    )


def fragment(request: HttpRequest, html: str, gz: bytes | None, status: int = 200) -> HttpResponse:
    """A live region for htmx: the same for every phone, so a proxy may keep it."""
    return vary_on_htmx(shareable(compressed(request, html, gz, status)))


def accepts_gzip(request: HttpRequest) -> bool:
    return GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")) is not None


def compressed(
    request: HttpRequest, text: str | bytes, gz: bytes | None, status: int = 200
) -> HttpResponse:
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


def shared_page(request: HttpRequest) -> bool:
    """Whether the whole page may be kept for everyone: a visitor with neither a session
    nor a message sees what every other visitor sees (no user, no CSRF token: the
    language switch of such a page needs none, see `public:language`)."""
    cookies = request.COOKIES
    return settings.SESSION_COOKIE_NAME not in cookies and "messages" not in cookies


def respond(
    request: HttpRequest,
    template: str,
    live: Region,
    page_context: PageContext = None,
    *,
    status: int = 200,
) -> HttpResponse:
    """htmx: the region alone (shareable), or 204 when the poll shows it or a newer one
    already; otherwise the whole page around it, kept beside its region for visitors
    with no session."""
    if request.htmx:  # type: ignore[attr-defined]
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


def render_page(
    request: HttpRequest,
    template: str,
    live: Region,
    page_context: PageContext,
    *,
    shared: bool,
    status: int = 200,
    region_html: SafeString | None = None,
) -> HttpResponse:
    """The whole page around `live` (or around `region_html`); `shared`: kept for every
    visitor, so it holds no CSRF token (see `shared_page`)."""
    context = {**(page_context() if callable(page_context) else page_context or {})}
    context["live"] = live.html if region_html is None else region_html
    context["title"] = live.title
    context["shared_page"] = shared
    return render(request, template, context, status=status)


# Where the region goes in a kept page shell: a comment no page writes itself.
LIVE_MARK = "<!-- the live region -->"


def page_shell(
    request: HttpRequest, template: str, live: Region, page_context: PageContext, where: str
) -> tuple[bytes, bytes] | None:
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


def in_poll_language(request: HttpRequest, view: Callable[[], HttpResponse]) -> HttpResponse:
    """Run `view()` in the language a poll names (see `poll_language`)."""
    lang = poll_language(request) if request.htmx else None  # type: ignore[attr-defined]
    if lang is None:
        return view()
    with translation.override(lang):
        return view()
