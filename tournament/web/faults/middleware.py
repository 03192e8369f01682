"""The middleware that answers a database fault with a clear page, never a 500.

`DatabaseFaultMiddleware` answers for a view's fault, `SessionMiddleware` (Django's, in its
place) for a session the database cannot save after the view answered (Django answers that
with 400 or 500), and `tournament.live.middleware.LivePollMiddleware` for a poll answered before
them. Any other error is still the server's.

A lost connection (kinds.py) is closed, and then:
- a read (GET, HEAD, or a POST whose view says it writes nothing: `reads_only`) is answered
  again, once, on a fresh connection: the view is called again, outside any transaction,
  as if nothing had happened. If that fails too: `lost_read_response`.
- a change is never run again: its key, looked up on a fresh connection, tells whether it
  was recorded (outcome.py), and `lost_write_response` says so and what to do.
"""

import logging
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.sessions import middleware as sessions
from django.contrib.sessions.exceptions import SessionInterrupted
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, HttpResponseBase

from tournament.web.faults.kinds import forget_connection, lost_connection, refusal
from tournament.web.faults.outcome import NOTHING_TO_RECORD, outcome
from tournament.web.faults.pages import lost_read_response, lost_write_response, refused_response

log = logging.getLogger("tournament.faults")  # its name before the move: filters name it

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
# Set on a request once it was answered again on a fresh connection: never twice.
RETRIED = "database_answered_again"


# A view as the URLconf calls it; `reads_only` marks it with its `when`.
View = Callable[..., HttpResponseBase]


def _always(request: HttpRequest) -> bool:
    return True


def reads_only(when: Callable[[HttpRequest], object] = _always) -> Callable[[View], View]:
    """Marks a view whose POST writes nothing when `when(request)` (a check shown before
    it is confirmed): it is answered again after a lost connection, as a read is. Outermost,
    above the view's other decorators."""

    def mark(view: View) -> View:
        view.reads_only = when  # type: ignore[attr-defined]
        return view

    return mark


def _writes_nothing(request: HttpRequest) -> bool:
    if request.method in SAFE_METHODS:
        return True
    match = getattr(request, "resolver_match", None)
    when = getattr(match.func, "reads_only", None) if match is not None else None
    return when is not None and bool(when(request))


def _view_again(request: HttpRequest) -> Any:
    """The request's view, called again (rendered, if it answers with a template response:
    Django renders those after the view, and would not after this answer)."""
    match = request.resolver_match
    assert match is not None  # a view's fault: its address was resolved
    response = match.func(request, *match.args, **match.kwargs)
    if callable(getattr(response, "render", None)):
        response = response.render()
    return response


def _drop_messages(request: HttpRequest) -> None:
    """The messages a lost change queued ("Hand 1 recorded") would show on the next page,
    beside those of the answer to the same entry sent again."""
    try:
        for _message in messages.get_messages(request):
            pass
    except DatabaseError:  # kept in the session, which cannot be read: nothing to drop
        forget_connection()


def lost_answer(request: HttpRequest) -> HttpResponse:
    """The 503 for a request whose connection was lost (closed already), and lost again on
    a fresh one if it was a read."""
    if request.method in SAFE_METHODS:
        return lost_read_response(request)
    found = NOTHING_TO_RECORD if _writes_nothing(request) else outcome(request.POST)
    _drop_messages(request)
    return lost_write_response(request, found)


def _yes() -> bool:
    return True


def answer_fault(
    request: HttpRequest,
    error: BaseException,
    *,
    again: Callable[[], HttpResponse] | None = None,
    again_if: Callable[[], bool] = _yes,
) -> HttpResponse | None:
    """The answer to a database fault `error` met by `request`, or None for another error.
    `again()` answers it a second time on a fresh connection, once, after a lost connection,
    if `again_if()` (not a change)."""
    kind = refusal(error)
    if kind is not None:
        log.error(
            "The database refused a change (%s) at %s: answered 503.",
            kind,
            request.path,
            exc_info=error,
        )
        return refused_response(request, kind)
    if not lost_connection(error):
        return None
    forget_connection()
    if again is not None and not getattr(request, RETRIED, False) and again_if():
        setattr(request, RETRIED, True)
        log.warning(
            "The database connection was lost at %s: answered again on a fresh one.",
            request.path,
            exc_info=error,
        )
        try:
            return again()
        except Exception as second:
            answer = answer_fault(request, second)
            if answer is None:
                raise
            return answer
    log.error("The database connection was lost at %s: answered 503.", request.path, exc_info=error)
    return lost_answer(request)


class DatabaseFaultMiddleware:
    """A view's database fault (refused change, lost connection) answers 503, not 500."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_exception(
        self, request: HttpRequest, exception: BaseException
    ) -> HttpResponseBase | None:
        return answer_fault(
            request,
            exception,
            again=lambda: _view_again(request),
            again_if=lambda: _writes_nothing(request),
        )


class SessionMiddleware(sessions.SessionMiddleware):
    """Django's session middleware, but a session the database cannot save on the way out
    answers 503 instead of Django's 400 ("session interrupted", when an existing session
    is saved) or 500 (a new one): refused, or its connection lost (then saved once more,
    on a fresh connection, first)."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        try:
            return super().process_response(request, response)
        except (SessionInterrupted, DatabaseError) as error:
            if response.has_header("X-Database-Fault"):
                return response  # the answer says it already; the session waits
            # Saving the same session again is safe whatever the request was.
            save_again = super().process_response
            answer = answer_fault(request, error, again=lambda: save_again(request, response))
            if answer is None:
                raise
            return answer
