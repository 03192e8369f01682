"""No URL answers junk in a path part with a 500: every pattern of the resolver, walked
through its include()s, gets ids beyond the database's integer range, NUL and other control
characters, broken UTF-8 and very long strings in each of its parts, by GET, by POST and as
a phone's poll, from an anonymous visitor, the TD and a revisor's bound device.

Each answer must be a 404, or the refusal of a page the visitor may not see (a redirect to a
login or to the revisor's code page, a 403), and no query may fail on the way: on
PostgreSQL an id beyond bigint or a NUL in a string is a database error, which Django shows
as a 500. Run it on both databases (`DATABASE_URL=postgres://...`).
"""

import re
import secrets
import uuid
from dataclasses import dataclass

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.test import Client
from django.urls import (
    NoReverseMatch,
    Resolver404,
    URLPattern,
    URLResolver,
    get_resolver,
    resolve,
    reverse,
)
from django.urls.resolvers import RegexPattern, RoutePattern

from tournament.models import Penalty, Table, Tournament
from tournament.services import draws, hands, held_hands, penalties, registration, revisor_stations

pytestmark = pytest.mark.django_db

BIGINT_MAX = 2**63 - 1  # the largest id a BigAutoField (and PostgreSQL's bigint) holds
# What is typed or forged into a path part, as it appears in the URL (percent-encoded).
JUNK = (
    "0",
    "-1",
    "01",
    str(BIGINT_MAX + 1),  # 2**63: one beyond bigint
    str(2**64),
    "99999999999999999999999",
    "9" * 300,
    "%00",  # NUL
    "a%00b",
    "1%00",
    "%01",  # another control character
    "1%0A",  # a newline after a number
    "%7F",  # DEL
    "%C0%AE",  # an overlong (invalid) UTF-8 dot
    "%D9%A1",  # ARABIC-INDIC DIGIT ONE, a digit to Python's int()
    "%EF%BC%91",  # FULLWIDTH DIGIT ONE
    "1.0",
    "x" * 3000,
)
# Within range but no such row: a 404 (or the same refusal as any other id), never an error.
NO_SUCH_ROW = (str(BIGINT_MAX),)
PARAMETER = re.compile(r"<(?:[^>:]+:)?([^>]+)>")  # <int:tournament_id>, <id>
REGEX_GROUP = re.compile(r"\(\?P<(\w+)>[^()]*\)")  # (?P<url>.*)


@dataclass(frozen=True)
class Route:
    """A URL pattern as a template: `parts` are the literal text between its parameters."""

    name: str
    parts: tuple
    parameters: tuple

    def url(self, values):
        text = self.parts[0]
        for name, part in zip(self.parameters, self.parts[1:], strict=True):
            text += values[name] + part
        return "/" + text


def as_template(pattern):
    """A pattern's text with every parameter as `<name>`; a regex must be plain but for its
    named groups, or the walk would skip what it cannot build."""
    if isinstance(pattern, RoutePattern):
        return PARAMETER.sub(lambda m: f"<{m[1]}>", str(pattern))
    assert isinstance(pattern, RegexPattern), pattern
    text = REGEX_GROUP.sub(lambda m: f"<{m[1]}>", str(pattern)).removeprefix("^")
    text = text.removesuffix("$")
    assert not re.search(r"[\\()\[\]*+?|^$]", text), f"cannot build a URL for {pattern}"
    return text


def routes(patterns=None, prefix="", names=()):
    """Every pattern under the root URLconf, include()s walked, as `Route`s."""
    found = []
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        text = prefix + as_template(entry.pattern)
        if isinstance(entry, URLResolver):
            namespace = names + ((entry.namespace,) if entry.namespace else ())
            found += routes(entry.url_patterns, text, namespace)
            continue
        assert isinstance(entry, URLPattern)
        pieces = PARAMETER.split(text)  # literal, name, literal, name, ..., literal
        name = ":".join((*names, entry.name or text))
        found.append(Route(name, tuple(pieces[0::2]), tuple(pieces[1::2])))
    return found


@dataclass
class World:
    """A tournament in play whose every kind of object exists, so that the parts of a URL
    that are not junk name real rows and the view gets as far as it can."""

    values: dict  # a real value for each parameter name
    td: object


@pytest.fixture
def world(django_user_model):
    td = django_user_model.objects.create_superuser("director", password="td-pass-123")
    tournament = registration.create_tournament(actor=td, name="SM 2026", min_hands=3)
    for name in ("Anna", "Bo", "Cia"):
        registration.register_player(tournament=tournament, actor=td, name=name)
    level = draws.draw_first_level(tournament=tournament, actor=td, seed="junk")
    table = Table.objects.current().get(level=level)
    seats = list(table.seats.order_by("position"))
    hands.record_hand(
        table=table,
        hand_number=1,
        idempotency_key=uuid.uuid4(),
        points={seats[0].position: 2, seats[1].position: -1, seats[2].position: -1},
        actor=td,
    )
    penalties.give_penalty(
        tournament=tournament, player=seats[0].player, kind=Penalty.Kind.SLOW, actor=td, note="."
    )
    revisor_stations.create_stations(tournament=tournament, actor=td)  # station 1 is real
    table.refresh_from_db()
    held = held_hands.hold_hand(  # a hand a card sent from offline, held for the TD
        table=table, number=1, key=uuid.uuid4(), entry={"mode": "points"}, reason="taken"
    )
    entries = [seat.player.register_entry_id for seat in seats]  # three people of the register
    values = {
        "tournament_id": str(tournament.pk),
        "table_id": str(table.pk),
        "player_id": str(seats[0].player.pk),
        "penalty_id": str(Penalty.objects.get().pk),
        "held_id": str(held.pk),
        "entry_id": str(entries[0]),
        "into_id": str(entries[1]),  # the merge's confirmation: another person's entry
        "level": "1",
        "number": "1",
        "key": table.revisor_key,
        "content_type_id": str(ContentType.objects.get_for_model(Tournament).pk),
        "object_id": str(tournament.pk),
        "id": str(td.pk),
        "app_label": "tournament",
        "url": "tournament/",
    }
    return World(values, td)


def clients(world):
    """The three kinds of visitor: anonymous, the TD, a revisor's device bound to the table."""
    anonymous = Client(raise_request_exception=True)
    td = Client(raise_request_exception=True)
    td.force_login(world.td)
    revisor = Client(raise_request_exception=True)
    assert revisor.get(reverse("revisor:link", args=[world.values["key"]])).status_code == 302
    return {"anonymous": anonymous, "td": td, "revisor": revisor}


def refusals():
    """Where a visitor may be sent instead of a 404: a login page, the revisor's code page
    ("this link is not valid")."""
    return (reverse("login"), reverse("revisor:code"))


OUR_SPACES = ("public:", "td:", "revisor:")
# The revisor's link is made of these (secrets.token_urlsafe, 43 of them; Table.revisor_key
# holds 64): a key of them that is no table's is told "this link is not valid" on the code
# page. Anything else in it, like junk in an id of our pages, is not found by the resolver.
KEY_LETTERS = re.compile(r"[A-Za-z0-9_-]{1,64}")


def only_404(route, junk):
    """Whether nothing but a 404 is right: junk in a part of our own URL spaces, which no
    visitor's rights or binding change."""
    if not route.name.startswith(OUR_SPACES) or junk in NO_SUCH_ROW:
        return False
    return not (
        route.name in ("revisor:link", "revisor:station_link") and KEY_LETTERS.fullmatch(junk)
    )


def acceptable(response, route, junk):
    """A 404; where the visitor's rights decide, a 403, a 405 (the method is refused before
    the id is looked at) or a redirect to a refusal. The admin is Django's own: it reads
    "01" or "١" as the object 1 and sends an unknown id to its index with a message, so
    there anything but a 500 will do."""
    status = response.status_code
    if status == 404:
        return True
    if only_404(route, junk):
        return False
    if route.name.startswith("admin:"):
        return status < 500
    if status == 302:
        return response["Location"].split("?")[0] in refusals()
    return status in (403, 405)


class FailedQueries:
    """Every query that raised during a request (a database error the view may have
    swallowed still means the database was handed junk)."""

    def __init__(self):
        self.errors = []

    def __call__(self, execute, sql, params, many, context):
        try:
            return execute(sql, params, many, context)
        except Exception as error:
            self.errors.append(f"{type(error).__name__}: {error}"[:200])
            raise


def requests(client, route, url):
    """GET, POST and, for a public page, a phone's htmx poll, which LivePollMiddleware
    answers before the views."""
    yield "GET", lambda: client.get(url)
    # No fields: the admin deletes an object ("01" is 1 to it) on any POST with some.
    yield "POST", lambda: client.post(url)
    if route.name.startswith("public:"):
        poll = url + "?rev=1.1&lang=en"
        yield "poll", lambda: client.get(poll, headers={"HX-Request": "true"})


def junk_urls(world, visitor):
    """Each pattern with junk in one of its parameters at a time, the others real. A
    revisor's device is bound in our spaces only: to the admin it is any anonymous visitor."""
    for route in routes():
        if visitor == "revisor" and not route.name.startswith(OUR_SPACES):
            continue
        for parameter in route.parameters:
            for junk in JUNK + NO_SUCH_ROW:
                values = {name: world.values.get(name, "1") for name in route.parameters}
                values[parameter] = junk
                yield route, junk, route.url(values)


def test_an_id_is_any_positive_bigint_written_without_leading_zeros():
    assert resolve("/t/1/").kwargs == {"tournament_id": 1}
    assert resolve("/t/9223372036854775807/").kwargs == {"tournament_id": 2**63 - 1}
    for junk in ("0", "01", "-1", "9223372036854775808", "+1", "1 "):
        with pytest.raises(Resolver404):
            resolve(f"/t/{junk}/")
    assert reverse("td:level", args=[2**63 - 1, 1]) == "/td/9223372036854775807/levels/1/"
    for outside in (0, 2**63):
        with pytest.raises(NoReverseMatch):
            reverse("public:tournament", args=[outside])


def test_a_revisor_key_is_up_to_64_url_safe_letters():
    key = secrets.token_urlsafe(32)
    assert resolve(f"/r/{key}/").kwargs == {"key": key}
    assert resolve(f"/r/{'a' * 64}/").url_name == "link"
    for junk in ("a" * 65, "a\x00b", "a b", "a.b", "ä"):
        with pytest.raises(Resolver404):
            resolve(f"/r/{junk}/")


def test_the_walk_reaches_every_url_space_and_the_admin():
    names = {route.name for route in routes()}
    for expected in (
        "public:table",
        "td:hand_correct",
        "td:penalty_rescind",
        "revisor:link",
        "admin:tournament_table_change",
        "admin:view_on_site",
        "admin:auth_user_password_change",
        "admin:app_list",
    ):
        assert expected in names


@pytest.mark.parametrize("visitor", ["anonymous", "td", "revisor"])
def test_every_url_with_real_values_is_no_error(world, visitor):
    """The walk's yardstick: what the junk replaces works, and no converter refuses an id
    the pages link to (a link built with an id outside it is a NoReverseMatch, a 500)."""
    client = clients(world)[visitor]
    problems = []
    for route in routes():
        url = route.url({name: world.values.get(name, "1") for name in route.parameters})
        try:
            status = client.get(url).status_code
        except Exception as error:
            problems.append(f"{url} ({route.name}): {error!r}"[:300])
            continue
        # The TD sees every page of our spaces for the rows the values name.
        real_page = visitor == "td" and route.name.startswith(("public:", "td:"))
        if status >= 500 or (real_page and status == 404):
            problems.append(f"{url} ({route.name}): {status}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("visitor", ["anonymous", "td", "revisor"])
def test_junk_in_any_path_part_is_a_404_never_a_500(world, visitor):
    client = clients(world)[visitor]
    failed = FailedQueries()
    problems = []
    with connection.execute_wrapper(failed):
        for route, junk, url in junk_urls(world, visitor):
            for method, send in requests(client, route, url):
                failed.errors.clear()
                try:
                    response = send()
                except Exception as error:
                    problems.append(f"{method} {url[:90]} ({route.name}): {error!r}"[:300])
                    continue
                if failed.errors or not acceptable(response, route, junk):
                    where = response.get("Location", "")
                    problems.append(
                        f"{method} {url[:90]} ({route.name}): {response.status_code} {where} "
                        f"{failed.errors}"[:300]
                    )
    assert not problems, f"{len(problems)} bad answers:\n" + "\n".join(problems[:60])
