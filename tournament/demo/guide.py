"""The guide's scripted tournament (docs/guide/): one SM day told step by step, built through
the services, and after each step the pages the guide pictures at that point.

`make guide` (the `guide_screenshots` command) walks it in a real browser and saves each
picture; tests/test_guide_labels.py walks it with Django's test client and checks that every
label the guide names in bold is on the page its section pictures. One story, so that the
pictures and the check never drift apart."""

import uuid
from collections.abc import Iterator
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.urls import reverse

from tournament.models import Hand, Table, Tournament
from tournament.services import calls, checkin, draws, hands, penalties, registration

# The sizes each page is used at (CSS pixels): the revisor's phone or tablet, the TD's laptop,
# the room's big screen.
SCREENS = {
    "phone": {"viewport": {"width": 360, "height": 740}, "is_mobile": True},
    "tablet": {"viewport": {"width": 800, "height": 1280}, "is_mobile": True},
    "laptop": {"viewport": {"width": 1366, "height": 768}},
    "big": {"viewport": {"width": 1920, "height": 1080}},
}

NAME = "SM 2026 Göteborg"
# Ten signed up; the last never comes (withdrawn at the draw): nine play, three tables of 3.
PLAYERS = (
    "Anna Lindqvist",
    "Björn Ekström",
    "Cecilia Åberg",
    "David Nyström",
    "Eva Holmberg",
    "Fredrik Sjöberg",
    "Gunilla Öhman",
    "Henrik Dahl",
    "Ingrid Wallin",
    "Johan Berggren",
)


@dataclass(frozen=True)
class Shot:
    """One picture: `name` (its file, docs/guide/img/<lang>/<name>.png), the page's path, who
    looks at it (`td` logged in, `revisor` on the device bound by `enter`, `public`), the
    screen, and what to keep of it: `clip`, a CSS selector to crop to (else the screen),
    `full`, the whole page's height. `action` names a browser step done before the picture
    (the test client, which runs no script, renders the page as served)."""

    name: str
    path: str
    role: str = "td"
    screen: str = "laptop"
    enter: str = ""
    clip: str = ""
    full: bool = False
    action: str = ""


def _hand(table: Table, points: dict[int, int], fantasyland: set[int] | None = None) -> None:
    table.refresh_from_db()
    hands.record_hand(
        table=table,
        hand_number=table.hands_played + 1,
        idempotency_key=uuid.uuid4(),
        points=points,
        fantasyland=fantasyland or set(),
        actor_label="Revisor",
    )


def _even_hands(table: Table, count: int) -> None:
    """Hands that leave the totals as they were, in pairs: the guide's tables play the SM's
    20 hands without the pictures' figures turning on them."""
    for _ in range(count // 2):
        _hand(table, {0: 1, 1: -1, 2: 0})
        _hand(table, {0: -1, 1: 1, 2: 0})


def _tables(tournament: Tournament, level: int) -> list[Table]:
    found = Table.objects.current().filter(level__tournament=tournament, level__number=level)
    return list(found.order_by("number"))


def _link(table: Table) -> str:
    table.refresh_from_db()
    return reverse("revisor:link", args=[table.revisor_key])


def story(actor: AbstractBaseUser) -> Iterator[list[Shot]]:
    """The day, step by step: each step changes the tournament through the services, then
    yields the pictures of that moment."""
    yield [Shot("td-new-tournament", reverse("td:tournament_create"), clip="main")]

    tournament = registration.create_tournament(
        actor=actor, name=NAME, min_hands=20, release_draws_at_once=False
    )
    pk = tournament.pk
    yield [Shot("td-settings", reverse("td:settings", args=[pk]))]

    players = [
        registration.register_player(tournament=tournament, actor=actor, name=name)
        for name in PLAYERS
    ]
    for player in players[:6]:
        checkin.check_in(player=player, actor=actor)
    yield [Shot("td-check-in", reverse("td:players", args=[pk]), full=True)]

    for player in players[6:9]:
        checkin.check_in(player=player, actor=actor)
    yield [Shot("td-draw", reverse("td:draw", args=[pk]), clip="main")]

    level = draws.draw_first_level(
        tournament=tournament, actor=actor, seed="guide", withdraw_absent=True
    )
    yield [Shot("td-level-held", reverse("td:level", args=[pk, 1]), clip="main")]

    draws.release_draw(level=level, actor=actor)
    first, second, third = _tables(tournament, 1)
    yield [Shot("td-table-cards", reverse("td:table_cards", args=[pk, 1]), clip="main")]

    # Play: table 1 two hands (a Fantasyland), table 2 one and a call, table 3 not started.
    _hand(first, {0: 7, 1: -2, 2: -5})
    _hand(first, {0: -3, 1: 9, 2: -6}, fantasyland={1})
    _hand(second, {0: 4, 1: -4, 2: 0})
    calls.call_td(table=second, kind="dispute", note="", actor_label="Revisor")
    player = first.seats.select_related("player").get(position=2).player
    yield [
        Shot("td-dashboard", reverse("td:tournament", args=[pk])),
        Shot("card-code", reverse("revisor:code"), role="revisor", screen="phone"),
        Shot("card-points", reverse("revisor:card"), "revisor", "phone", _link(first)),
        Shot(
            "card-cards",
            reverse("revisor:cards"),
            "revisor",
            "tablet",
            _link(third),
        ),
        Shot(
            "card-timer",
            reverse("revisor:card"),
            "revisor",
            "phone",
            _link(first),
            clip="#timer",
        ),
        Shot(
            "card-call",
            reverse("revisor:card"),
            "revisor",
            "phone",
            _link(first),
            clip="form.call-form",
        ),
        Shot("card-fix", reverse("revisor:fix"), "revisor", "phone", _link(first)),
        Shot(
            "card-offline",
            reverse("revisor:card"),
            "revisor",
            "phone",
            _link(first),
            action="offline",
        ),
        Shot("players-tournament", reverse("public:tournament", args=[pk]), "public", "phone"),
        Shot(
            "players-find",
            reverse("public:find", args=[pk]) + "?q=ohman",
            "public",
            "phone",
        ),
        Shot(
            "players-table",
            reverse("public:table", args=[pk, first.pk]),
            "public",
            "phone",
        ),
        Shot(
            "players-player",
            reverse("public:player", args=[pk, player.pk]),
            "public",
            "phone",
        ),
        Shot("players-standings", reverse("public:standings", args=[pk]), "public", "phone"),
        Shot("players-screen", reverse("public:tables_projector", args=[pk]), "public", "big"),
    ]

    penalties.give_penalty(tournament=tournament, player=player, kind="slow", actor=actor)
    yield [
        Shot("td-table", reverse("td:table", args=[pk, first.pk]), full=True),
        Shot("td-penalty", reverse("td:table", args=[pk, first.pk]), clip="#penalty"),
    ]

    yield [Shot("td-correct", reverse("td:hand_correct", args=[pk, first.pk, 1]), clip="main")]
    hands.correct_hand(
        hand=Hand.objects.get(table=first, number=1),
        actor=actor,
        reason="The revisor swapped seats 2 and 3",
        based_on_version=1,
        points={0: 7, 1: -5, 2: -2},
    )

    # Table 3 ties for first after its 20 hands; table 1 and 2 play on.
    _even_hands(third, 16)
    _hand(third, {0: 5, 1: -5, 2: 0})
    _hand(third, {0: -5, 1: 5, 2: 0})
    _hand(third, {0: 1, 1: 1, 2: -2})
    _hand(third, {0: 2, 1: 2, 2: -4})
    yield [Shot("td-tie", reverse("td:table", args=[pk, third.pk]), clip="#tie")]

    hands.settle_tie(
        table=third,
        actor=actor,
        winner=third.seats.get(position=1).player,
        reason="High card: ace of spades against the king",
    )
    calls.clear_call(table=second, actor=actor)
    _hand(first, {0: 6, 1: -3, 2: -3})
    _even_hands(first, 16)
    _hand(first, {0: 2, 1: -1, 2: -1})
    _hand(first, {0: 2, 1: -1, 2: -1})  # the hand added for hand 2's Fantasyland
    _even_hands(second, 16)
    _hand(second, {0: 2, 1: -1, 2: -1})
    _hand(second, {0: 3, 1: -2, 2: -1})
    _hand(second, {0: 1, 1: -1, 2: 0})
    yield [Shot("td-close-level", reverse("td:advance", args=[pk]), clip="main")]

    final_level = draws.advance(tournament=tournament, actor=actor, seed="guide final")
    assert final_level is not None
    draws.release_draw(level=final_level, actor=actor)
    (final,) = _tables(tournament, 2)
    _hand(final, {0: 8, 1: -3, 2: -5})
    yield [
        Shot("td-final", reverse("td:tournament", args=[pk])),
        Shot(
            "players-final-screen", reverse("public:tables_projector", args=[pk]), "public", "big"
        ),
    ]

    _even_hands(final, 16)
    _hand(final, {0: 4, 1: -2, 2: -2})
    _hand(final, {0: 2, 1: -1, 2: -1})
    _hand(final, {0: 2, 1: -1, 2: -1})
    assert draws.advance(tournament=tournament, actor=actor, seed="guide end") is None
    yield [
        Shot("td-standings", reverse("td:standings", args=[pk]), clip="main"),
        Shot("td-backups", reverse("td:tournament", args=[pk]), full=True),
        Shot(
            "players-standings-screen",
            reverse("public:standings_projector", args=[pk]),
            "public",
            "big",
        ),
    ]
