"""The database refusing changes: a clear page, never a 500.

When the database cannot take changes (PostgreSQL read-only: a standby after a failover,
`default_transaction_read_only`, SQLSTATE 25006; its disk full: 53100; SQLite's file
read-only or its disk full), the change's transaction is rolled back whole, so nothing
was recorded. The person who sent it gets 503 with what to do, in their language, and
the same entry sent again once the database takes changes is recorded once (every entry
carries its submission key).

- A plain request gets the whole page (`templates/503.html`).
- An htmx request gets only its alert, put at the top of the form it was sent from
  (`HX-Retarget`), so the form and what was typed into it stay; `static/js/faults.js`
  lets htmx swap this 503 in, as htmx swaps no error answer by itself.

`DatabaseFaultMiddleware` answers for a view's refusal, and `SessionMiddleware` (Django's,
in its place) for a session the database refuses to save after the view answered, which
Django would answer with 400 or 500. Any other error is still the server's.
"""

import logging

from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions import middleware as sessions
from django.contrib.sessions.exceptions import SessionInterrupted
from django.db import DatabaseError
from django.shortcuts import render

log = logging.getLogger(__name__)

READ_ONLY, DISK_FULL = "read-only", "disk full"
# PostgreSQL's SQLSTATE codes (read_only_sql_transaction, disk_full).
POSTGRESQL = {"25006": READ_ONLY, "53100": DISK_FULL}
# SQLite's result codes, by name (extended codes such as SQLITE_READONLY_DBMOVED too).
SQLITE = {"SQLITE_READONLY": READ_ONLY, "SQLITE_FULL": DISK_FULL}
RETRY_SECONDS = 60
TEMPLATE = "503.html"
# Where an htmx entry's alert goes: first thing in the form it was sent from.
HTMX_HEADERS = {
    "HX-Retarget": "closest form",
    "HX-Reswap": "afterbegin",
    "HX-Reselect": ".fault-alert",
    "X-Database-Fault": "refused",
}


def refusal(exception):
    """READ_ONLY or DISK_FULL when `exception` is (or was caused by) the database refusing
    a change; None for anything else."""
    seen = set()
    while exception is not None and id(exception) not in seen:
        seen.add(id(exception))
        kind = POSTGRESQL.get(getattr(exception, "sqlstate", None))
        name = getattr(exception, "sqlite_errorname", None) or ""
        kind = kind or next((k for prefix, k in SQLITE.items() if name.startswith(prefix)), None)
        if kind is not None:
            return kind
        # Django's database errors carry the driver's as their cause.
        exception = exception.__cause__ or exception.__context__
    return None


def refused_response(request, kind):
    """The 503 that says the change was refused (see the module's docstring)."""
    htmx = request.headers.get("HX-Request") == "true"
    template = f"{TEMPLATE}#alert" if htmx else TEMPLATE
    context = {"in_form": htmx, "kind": kind}
    try:
        response = render(request, template, context, status=503)
    except DatabaseError:
        # Reading failed too (the user and the messages, for the page's header): the page
        # without them, rather than no page.
        context.update(user=AnonymousUser(), messages=())
        response = render(request, template, context, status=503)
    response["Retry-After"] = str(RETRY_SECONDS)
    if htmx:
        for header, value in HTMX_HEADERS.items():
            response[header] = value
    return response


class DatabaseFaultMiddleware:
    """A view's change refused by the database (see `refusal`) answers 503, not 500."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        kind = refusal(exception)
        if kind is None:
            return None
        log.error(
            "The database refused a change (%s) at %s: answered 503.",
            kind,
            request.path,
            exc_info=exception,
        )
        return refused_response(request, kind)


class SessionMiddleware(sessions.SessionMiddleware):
    """Django's session middleware, but a session the database refuses to save on the way
    out (see `refusal`) answers 503 instead of Django's 400 ("session interrupted", when
    an existing session is saved) or 500 (a new one)."""

    def process_response(self, request, response):
        try:
            return super().process_response(request, response)
        except (SessionInterrupted, DatabaseError) as error:
            kind = refusal(error)
            if kind is None:
                raise
            log.error(
                "The database refused to save a session (%s) at %s: answered 503.",
                kind,
                request.path,
                exc_info=error,
            )
            return refused_response(request, kind)
