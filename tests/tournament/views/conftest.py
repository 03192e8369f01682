"""What the public pages' polling tests share: two tables in play, the live pages with
the token each polls with, a poll's URL, and a clock for the region keeper."""

from unittest import mock

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.tournament.conftest import positions, single_table
from tournament.live import kept, regions, responses, tokens
from tournament.models import Player, Table
from tournament.selectors.tokens import revision_token
from tournament.services import draws


@pytest.fixture
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def table(make_tournament, td_user):
    """Anna, Bo and Cia at one table, 3 hands required (the revisor's pages' tests)."""
    return single_table(make_tournament(["Anna", "Bo", "Cia"], min_hands=3), td_user)


@pytest.fixture
def revisor(client, table):
    """A browser bound to `table` by its revisor link."""
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    return client


@pytest.fixture
def three(make_tournament, td_user):
    """Anna, Bo, Cia at one table, 3 hands required. Seats: Cia 0, Anna 1, Bo 2."""
    tournament = make_tournament(3, min_hands=3)
    table = single_table(tournament, td_user)
    assert positions(table) == {"Cia": 0, "Anna": 1, "Bo": 2}
    return tournament, table


@pytest.fixture
def two_tables(make_tournament, td_user):
    tournament = make_tournament(6, min_hands=3)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="poll")
    first, second = Table.objects.current().filter(level=level).order_by("number")
    return tournament, first, second


def live_pages(tournament, table):
    """Every live public page of the tournament, with the token its region polls with."""
    token = revision_token(tournament.pk)
    anna = Player.objects.get(tournament=tournament, name="Anna")
    return [
        (reverse("public:tournament", args=[tournament.pk]), token),
        (reverse("public:tournament", args=[tournament.pk]) + "?level=1", token),
        (reverse("public:find", args=[tournament.pk]) + "?q=anna", token),
        (reverse("public:standings", args=[tournament.pk]), token),
        (reverse("public:player", args=[tournament.pk, anna.pk]), token),
        (reverse("public:tables_projector", args=[tournament.pk]), token),
        (reverse("public:standings_projector", args=[tournament.pk]), token),
        (
            reverse("public:table", args=[tournament.pk, table.pk]),
            revision_token(tournament.pk, table.pk),
        ),
    ]


def with_rev(url, token, lang="en"):
    """The poll of `url` by a phone showing `token`, naming its language (None: none)."""
    return f"{url}{'&' if '?' in url else '?'}rev={token}" + (f"&lang={lang}" if lang else "")


class Clock:
    """The time the region keeper sees, moved by hand."""

    def __init__(self):
        self.now = 1_000_000.0

    def time(self):
        return self.now

    def monotonic(self):
        return self.now


@pytest.fixture
def clock(monkeypatch, settings):
    settings.PUBLIC_RENDER_SECONDS = 5
    fake = Clock()
    for module in (kept, regions, responses, tokens):  # each reads the time it keeps by
        monkeypatch.setattr(module, "time", fake)
    return fake


def page_and_calls(client, url, module, name):
    """The page at `url` (200), and how many times `module.name` was called to answer it."""
    with mock.patch.object(module, name, wraps=getattr(module, name)) as calls:
        response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode(), calls.call_count
