"""The 503 answers of a database fault (`templates/503.html`), each in its reader's words.

Whom it speaks to follows from the address: the TD's pages (and the admin and the login)
say what to do about the database; a revisor's or a player's say what to do on the page
(and to tell the TD when it lasts).

- A plain request gets the whole page.
- An htmx request gets only its alert. An entry's goes at the top of the form it was
  sent from (`HX-Retarget`), so the form and what was typed into it stay;
  `static/js/faults.js` lets htmx swap this 503 in, as htmx swaps no error answer by
  itself, and sends the entry again by itself when the answer says that is safe
  (`X-Database-Resend`: it carries its key). A poll's goes at the top of its region, which
  goes on polling.
"""

from collections.abc import Mapping

from django.contrib.auth.models import AnonymousUser
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _

from tournament.web.faults.kinds import DISK_FULL
from tournament.web.faults.outcome import Outcome

TEMPLATE = "503.html"
REFUSED_RETRY_SECONDS = 60  # a database made writable again takes a person
LOST_RETRY_SECONDS = 5  # a connection comes back by itself, or the database restarts
# An entry whose key was just looked up: the database answers again, so at once (before the
# card's next poll, which would otherwise bring the card without the entry's answer).
RESEND_AT_ONCE_SECONDS = 1
TD, REVISOR, PUBLIC = "td", "revisor", "public"
RESEND_HEADER = "X-Resent-After-Fault"
# Where an htmx entry's alert goes: first thing in the form it was sent from.
HTMX_HEADERS = {
    "HX-Retarget": "closest form",
    "HX-Reswap": "afterbegin",
    "HX-Reselect": ".fault-alert",
}


def reader(request: HttpRequest) -> str:
    """TD, REVISOR or PUBLIC: whom the page answering `request` speaks to."""
    match = getattr(request, "resolver_match", None)
    if match is None:
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return PUBLIC
    if {"td", "admin"} & set(match.namespaces) or match.url_name in ("login", "logout"):
        return TD
    return REVISOR if "revisor" in match.namespaces else PUBLIC


def is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def resent_after_lost_connection(request: HttpRequest) -> bool:
    """Whether this entry is the page sending again by itself one whose connection was
    lost (static/js/faults.js): its answer says what the revisor sent once."""
    return request.headers.get(RESEND_HEADER) == "lost"


def _answer(
    request: HttpRequest,
    context: Mapping[str, object],
    *,
    fault: str,
    seconds: int,
    resend_in: int | None = None,
    read_database: bool = True,
) -> HttpResponse:
    """The 503 (the whole page, or an htmx request's alert) with `Retry-After`.
    `resend_in`: seconds after which the page sends an htmx entry again by itself (None:
    it does not). `read_database`: the page's header may read the user (the database
    answers reads); else, or when that fails, the page goes out without the user and the
    messages."""
    template = f"{TEMPLATE}#alert" if is_htmx(request) else TEMPLATE
    context = {**context, "seconds": seconds}
    if not read_database:
        context.update(user=AnonymousUser(), messages=())
    try:
        response = render(request, template, context, status=503)
    except DatabaseError:
        context.update(user=AnonymousUser(), messages=())
        response = render(request, template, context, status=503)
    response["Retry-After"] = str(seconds)
    response["X-Database-Fault"] = fault
    if is_htmx(request) and request.method not in ("GET", "HEAD"):
        # A poll's or a link's alert is placed by the page (static/js/faults.js).
        for header, value in HTMX_HEADERS.items():
            response[header] = value
        if resend_in is not None:
            response["X-Database-Resend"] = str(resend_in)
    return response


# ---------------------------------------------------------------- refused


def _what_the_td_does(kind: str) -> str:
    """What the TD does about a database that refuses changes, on this kind of database."""
    name = connection.settings_dict.get("NAME")
    sqlite = connection.vendor == "sqlite"
    if kind == DISK_FULL and sqlite:
        return _("This computer's disk is full: free space on it (the database is %(file)s).") % {
            "file": name
        }
    if kind == DISK_FULL:
        return _("The database server's disk is full: free space on it.")
    if sqlite:
        return _(
            "The database file cannot be written: check that %(file)s and its folder can be "
            "written to."
        ) % {"file": name}
    return _(
        "The database server is read-only (a standby after a failover, or set read-only): "
        "make it writable again, or point DATABASE_URL at the primary (docs/faults.md)."
    )


def refused_response(request: HttpRequest, kind: str) -> HttpResponse:
    """The database refused the change (READ_ONLY or DISK_FULL): nothing was recorded."""
    in_form = is_htmx(request)
    if reader(request) == TD:
        lines = [
            _("The database cannot take changes right now: nothing was recorded."),
            _what_the_td_does(kind),
            _("The app needs no restart. Then send it again: it is recorded once.")
            if in_form
            else _(
                "The app needs no restart. Then go back with your browser's Back button and "
                "send it again: it is recorded once."
            ),
        ]
        after = []
    else:
        lines = [
            _(
                "The database cannot take changes right now: nothing was recorded. "
                "Tell the TD; try again in a minute."
            )
        ]
        if in_form:
            lines.append(_("What you typed is still in the form: send it again in a minute."))
        after = [
            _("Go back to the page with your browser's Back button and send it again in a minute.")
        ]
    context = {
        "heading": _("The database cannot take changes"),
        "kind": kind,
        "lines": lines,
        "after": after,
    }
    return _answer(request, context, fault="refused", seconds=REFUSED_RETRY_SECONDS)


# ---------------------------------------------------------------- lost


def _lasting(request: HttpRequest) -> str:
    """What to do when the connection stays lost, for this reader."""
    if reader(request) == TD:
        return _(
            "If it happens again, check that the database server is running and that the app "
            "can reach it (docs/faults.md)."
        )
    return _("If it lasts, tell the TD.")


def lost_read_response(request: HttpRequest) -> HttpResponse:
    """A read whose connection was lost, and lost again on a fresh one: the page tries
    again by itself (a poll at its next turn, a page by reloading)."""
    seconds = LOST_RETRY_SECONDS
    if is_htmx(request):
        lines = [_("The server lost its connection to the database: trying again…")]
        after = []
    else:
        lines = [
            _(
                "This page could not be read: the server lost its connection to the "
                "database, and it is not back yet."
            )
        ]
        after = [
            _("The page tries again by itself in %(seconds)d seconds.") % {"seconds": seconds},
            _lasting(request),
        ]
    context = {
        "heading": _("The connection to the database was lost"),
        "lines": lines,
        "after": after,
        "refresh": True,
        "again": (request.get_full_path(), _("Try again now")),
    }
    return _answer(request, context, fault="lost", seconds=seconds, read_database=False)


def _what_happened(outcome: Outcome) -> str:
    """What the change did, as its key told (`outcome.Outcome`)."""
    hand = {"hand": outcome.hand}
    if outcome.recorded is None and not outcome.keyed:
        return _(
            "The connection to the database was lost while this was sent: it may or may not "
            "have been saved."
        )
    if outcome.recorded is None:
        return _(
            "The connection to the database was lost, and it is not back yet: whether this "
            "was saved cannot be told yet."
        )
    if outcome.recorded:
        if outcome.hand is not None and outcome.correction:
            return (
                _(
                    "The correction of hand %(hand)d is recorded: the connection to the "
                    "database was lost only after it was saved."
                )
                % hand
            )
        if outcome.hand is not None:
            return (
                _(
                    "Hand %(hand)d is recorded: the connection to the database was lost only "
                    "after it was saved."
                )
                % hand
            )
        return _(
            "The change was made: the connection to the database was lost only after it was saved."
        )
    if outcome.hand is not None and outcome.correction:
        return (
            _(
                "The correction of hand %(hand)d is not recorded: the connection to the "
                "database was lost before it was saved."
            )
            % hand
        )
    if outcome.hand is not None:
        return (
            _(
                "Hand %(hand)d is not recorded: the connection to the database was lost "
                "before it was saved."
            )
            % hand
        )
    return _("Nothing was recorded: the connection to the database was lost before it was saved.")


def _what_to_do(request: HttpRequest, outcome: Outcome) -> str:
    if not outcome.keyed:
        return _("Look at the page again to see whether it was saved before you send it again.")
    if is_htmx(request):
        return _("It is sent again by itself in a moment: it is recorded once.")
    if outcome.recorded:
        return _("There is nothing to send again: open the page again to see it.")
    return _(
        "Go back with your browser's Back button and send it again in a moment: it is "
        "recorded once."
    )


def lost_write_response(request: HttpRequest, outcome: Outcome) -> HttpResponse:
    """A change whose connection was lost: what it did (`outcome`, told by its key on a
    fresh connection) and what to do. An htmx entry with a key is sent again by the page."""
    lines = [_what_happened(outcome), _what_to_do(request, outcome)]
    if reader(request) == TD:
        lines.append(_lasting(request))
    context = {
        "heading": _("The connection to the database was lost"),
        "lines": lines,
        "after": [],
        "again": None if is_htmx(request) else (request.path, _("Open the page again")),
    }
    resend_in = None
    if outcome.keyed:
        resend_in = RESEND_AT_ONCE_SECONDS if outcome.looked_up else LOST_RETRY_SECONDS
    return _answer(
        request,
        context,
        fault="lost",
        seconds=LOST_RETRY_SECONDS,
        resend_in=resend_in,
        read_database=False,
    )
