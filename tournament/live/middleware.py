"""The fast path of a room's polls: the phones' of the public pages, the tablets' of their cards.

Nearly every request a room makes is a poll of a live page: 300 phones every 5 s, and a
revisor's tablet at every table. Its answer depends on the URL, one indexed query and the
cache alone (`live/responses.py`, `views/revisor/card.py`): 204 No Content when the
page shows what it would be sent already, else (a public page) the region kept for every
phone. So this middleware gives that answer before the session, language, CSRF, user,
messages and the rest of the middleware run, none of which has anything to do for it. It
sits after the security, Content-Security-Policy and static-file middleware, so the
answer carries their headers.

Anything else (a page, a poll whose region must be rendered, a public poll without its
language, a card whose table moved on, an unknown tournament) goes on down the middleware
as before, with a public page's token already read for the view, so that no request reads
it twice. So does a poll whose connection to the database is lost while it is answered
here: the connection closed, its view answers it on a fresh one, as a read whose
connection is lost is answered again (tournament/web/faults/).
"""

import logging
from collections.abc import Callable
from functools import lru_cache

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponseBase
from django.urls import Resolver404, get_urlconf, resolve

from tournament.web.faults.kinds import forget_connection, lost_connection
from tournament.web.faults.middleware import RETRIED

log = logging.getLogger("tournament.faults")  # its name before the move: filters name it


class LivePollMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        answer = self.answer_poll(request)
        return answer if answer is not None else self.get_response(request)

    def answer_poll(self, request: HttpRequest) -> HttpResponseBase | None:
        """The answer to an htmx poll (`?rev=`) of a live page when it needs nothing
        rendered (the view's `answer_poll`); None for anything else."""
        if request.method != "GET" or request.META.get("HTTP_HX_REQUEST") != "true":
            return None
        if "rev" not in request.GET:
            return None
        found = live_view_of(get_urlconf() or settings.ROOT_URLCONF, request.path_info)
        if found is None:
            return None
        answer_poll, ids = found
        request.get_host()  # refuses a host not in ALLOWED_HOSTS (400), as Django would
        try:
            return answer_poll(request, dict(ids))
        except Http404:
            return None  # the whole way down, for the 404 page in the visitor's language
        except Exception as error:
            if not lost_connection(error):
                raise
            forget_connection()
            setattr(request, RETRIED, True)  # the view's answer is the second try
            log.warning(
                "The database connection was lost at %s: answered again on a fresh one.",
                request.path,
                exc_info=error,
            )
            return None


# A live page's fast answer to its poll: (request, its URL's ids) -> the answer, or None.
AnswerPoll = Callable[[HttpRequest, dict[str, object]], HttpResponseBase | None]


@lru_cache(maxsize=4096)
def live_view_of(
    urlconf: str, path: str
) -> tuple[AnswerPoll, tuple[tuple[str, object], ...]] | None:
    """The `answer_poll` of the live page at `path` and its URL's ids, or None.
    Kept per path: a room polls a few hundred addresses, each thousands of times."""
    try:
        match = resolve(path, urlconf)
    except Resolver404:
        return None
    answer_poll = getattr(match.func, "answer_poll", None)
    return None if answer_poll is None else (answer_poll, tuple(match.kwargs.items()))
