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

from django.http import Http404
from django.urls import Resolver404, resolve
from django.utils import translation

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
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return None
        answer_poll = getattr(match.func, "answer_poll", None)
        if answer_poll is None:
            return None
        request.get_host()  # refuses a host not in ALLOWED_HOSTS (400), as Django would
        try:
            with translation.override(language):
                answer = answer_poll(request, match.kwargs)
        except Http404:
            return None  # the whole way down, for the 404 page in the visitor's language
        if answer is not None and answer.status_code == 200:
            answer["Content-Language"] = language  # as LocaleMiddleware says it
        return answer
