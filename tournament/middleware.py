"""The fast path of a room's phones polling the public pages.

Nearly every request a room makes is a poll of a public page: 300 phones every 5 s. Its
answer depends on the URL, one indexed query and the cache alone (`views/public/common.py`):
204 No Content when the phone shows what it would be sent already, else the region kept
for every phone. So this middleware gives that answer before the session, language, CSRF,
user, messages and the rest of the middleware run, none of which has anything to do for
it. It sits after the security, Content-Security-Policy and static-file middleware, so the
answer carries their headers.

Anything else (a page, a poll whose region must be rendered, a poll without its language,
an unknown tournament) goes on down the middleware as before, with the token already read
for the view, so that no request reads it twice.
"""

from functools import lru_cache

from django.conf import settings
from django.http import Http404
from django.urls import Resolver404, get_urlconf, resolve

from tournament.views.public.common import poll_language


class LivePollMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        answer = self.answer_poll(request)
        return answer if answer is not None else self.get_response(request)

    def answer_poll(self, request):
        """The answer to an htmx poll (`?rev=`, `?lang=`) of a live public page when it
        needs nothing rendered (see `common.kept_answer`); None for anything else."""
        if request.method != "GET" or request.META.get("HTTP_HX_REQUEST") != "true":
            return None
        language = poll_language(request)
        if language is None or "rev" not in request.GET:
            return None
        found = live_view_of(get_urlconf() or settings.ROOT_URLCONF, request.path_info)
        if found is None:
            return None
        answer_poll, ids = found
        request.get_host()  # refuses a host not in ALLOWED_HOSTS (400), as Django would
        try:
            answer = answer_poll(request, dict(ids), language)
        except Http404:
            return None  # the whole way down, for the 404 page in the visitor's language
        if answer is not None and answer.status_code == 200:
            answer["Content-Language"] = language  # as LocaleMiddleware says it
        return answer


@lru_cache(maxsize=4096)
def live_view_of(urlconf, path):
    """The `answer_poll` of the live public page at `path` and its URL's ids, or None.
    Kept per path: a room polls a few hundred addresses, each thousands of times."""
    try:
        match = resolve(path, urlconf)
    except Resolver404:
        return None
    answer_poll = getattr(match.func, "answer_poll", None)
    return None if answer_poll is None else (answer_poll, tuple(match.kwargs.items()))
