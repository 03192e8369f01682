"""Tournaments as the players' pages show them, with names of 30 characters and more: one in
play (hands by points and by cards, a correction, penalties) and one finished (a tie settled by
the TD, a champion). Every note the TD typed is a marked string, to look for on the pages."""

import uuid
from dataclasses import dataclass

from django.urls import reverse

from tournament.models import Hand, Table
from tournament.services import draws, hands, penalties, registration

LONG_NAMES = (
    "Karl-Erik Lindqvist-Söderström",
    "Anna-Karin Östergren-Wallenberg",
    "Maximiliansströmåkerblomqvists",  # one word of 30 letters: nowhere to break it
    "Per-Olof Bergström-Järvenpäässon",
    "Eva-Lotta Fredriksdotter Sjöholm",
    "Björn-Ulrik Tjäderström-Hägglund",
    "Ingrid-Maria Nordenskiöld-Stål",
    "Lars-Göran Öhman-Vesterlundqvist",
    "Sofia-Charlotte Ekelund-Rydberg",
)
# What the TD typed: never on a public page, always on the TD's.
HAND_REASON = "TD-NOTE-CORRECTION: the revisor swapped two rows"
TIE_REASON = "TD-NOTE-TIE: settled by a high card draw, ace of spades"
PENALTY_NOTE = "TD-NOTE-PENALTY: sat for 40 seconds after the count"
RESCIND_REASON = "TD-NOTE-RESCIND: the clock was wrong"
TD_NOTES = (HAND_REASON, TIE_REASON, PENALTY_NOTE, RESCIND_REASON)

# A hand by cards (worked in tests/tournament/services/test_hands.py): seat 0 +36, seat 1 -9,
# seat 2 -27; seat 0's QQ front goes to Fantasyland.
BOARDS = {
    0: {"front": "Qs Qh 2c", "middle": "Ks Kh 9d 8c 7s", "back": "As Ad Ac 3c 3s"},
    1: {"front": "4s 4h 2d", "middle": "Js Jh 5d 4c 3d", "back": "9s Th Jd Qc Kc"},
    2: {"front": "5s 6h 7d", "middle": "Tc 9h 2s 3h 4d", "back": "8s 8h 8d 7c 6c"},
}


def record(table, number, points=None, boards=None, fantasyland=(), actor=None):
    return hands.record_hand(
        table=table,
        hand_number=number,
        idempotency_key=uuid.uuid4(),
        points=points,
        boards=boards,
        fantasyland=fantasyland,
        actor=actor,
    )


def seat_player(table, position):
    return table.seats.select_related("player").get(position=position).player


@dataclass(frozen=True)
class Scene:
    tournament: object
    table: object  # the table with hands by points and by cards, a correction, penalties
    player: object  # a player of that table, with a penalty and a rescinded one

    def public_urls(self):
        """Every public page of the tournament, by name (the search finds several)."""
        pk = self.tournament.pk
        return {
            "home": reverse("public:home"),
            "tournament": reverse("public:tournament", args=[pk]),
            "find": reverse("public:find", args=[pk]),
            "find results": reverse("public:find", args=[pk]) + "?q=str",
            "standings": reverse("public:standings", args=[pk]),
            "table": reverse("public:table", args=[pk, self.table.pk]),
            "player": reverse("public:player", args=[pk, self.player.pk]),
            "poster": reverse("public:poster", args=[pk]),
            "tables projector": reverse("public:tables_projector", args=[pk]),
            "standings projector": reverse("public:standings_projector", args=[pk]),
        }


def in_play(actor=None):
    """Level 1 of 9 players in play (3 hands at least). Table 1: hand 1 by points (seat 0 to
    Fantasyland), hand 2 by cards, hand 1 corrected with a reason, a timeout (-10) with a
    note and a rescinded warning; table 2 one hand (seat 1 to Fantasyland); table 3 none yet."""
    tournament = registration.create_tournament(actor=actor, name="Malmö Open", min_hands=3)
    for name in LONG_NAMES:
        registration.register_player(tournament=tournament, actor=actor, name=name)
    level = draws.draw_first_level(tournament=tournament, actor=actor, seed="long names")
    first, second, _ = Table.objects.current().filter(level=level).order_by("number")
    record(first, 1, points={0: 14, 1: -5, 2: -9}, fantasyland={0}, actor=actor)
    record(first, 2, boards=BOARDS, actor=actor)
    hands.correct_hand(
        hand=Hand.objects.get(table=first, number=1),
        actor=actor,
        reason=HAND_REASON,
        based_on_version=1,
        points={0: 12, 1: -4, 2: -8},
        fantasyland={0},
    )
    player = seat_player(first, 1)
    given = penalties.give_penalty(
        tournament=tournament, player=player, kind="slow", actor=actor, note=PENALTY_NOTE
    )
    penalties.rescind_penalty(penalty=given, actor=actor, reason=RESCIND_REASON)
    penalties.give_penalty(
        tournament=tournament, player=player, kind="timeout", actor=actor, note=PENALTY_NOTE
    )
    record(second, 1, points={0: -3, 1: 7, 2: -4}, fantasyland={1}, actor=actor)
    tournament.refresh_from_db()
    first.refresh_from_db()
    return Scene(tournament, first, player)


def finished(actor=None):
    """Six players, 2 hands a table. Level 1: table 1 won outright (a hand by cards, one more
    for its Fantasyland), table 2 tied and settled by the TD with a reason; level 2 heads-up,
    a hand corrected with a reason; a champion."""
    tournament = registration.create_tournament(actor=actor, name="Malmö Final", min_hands=2)
    for name in LONG_NAMES[:6]:
        registration.register_player(tournament=tournament, actor=actor, name=name)
    level = draws.draw_first_level(tournament=tournament, actor=actor, seed="long names done")
    first, second = Table.objects.current().filter(level=level).order_by("number")
    record(first, 1, boards=BOARDS, actor=actor)  # seat 0 to Fantasyland: 3 hands
    record(first, 2, points={0: 9, 1: -4, 2: -5}, actor=actor)
    record(first, 3, points={0: 1, 1: 1, 2: -2}, actor=actor)
    record(second, 1, points={0: 5, 1: -3, 2: -2}, actor=actor)
    record(second, 2, points={0: -3, 1: 5, 2: -2}, actor=actor)  # seats 0 and 1 tied at 2
    hands.settle_tie(table=second, actor=actor, winner=seat_player(second, 1), reason=TIE_REASON)
    level = draws.advance(tournament=tournament, actor=actor, seed="long names final")
    (final,) = Table.objects.current().filter(level=level)
    record(final, 1, points={0: 6, 1: -6}, actor=actor)
    record(final, 2, points={0: -2, 1: 2}, actor=actor)
    hands.correct_hand(
        hand=Hand.objects.get(table=final, number=2),
        actor=actor,
        reason=HAND_REASON,
        based_on_version=1,
        points={0: 3, 1: -3},
    )
    assert draws.advance(tournament=tournament, actor=actor, seed="long names end") is None
    tournament.refresh_from_db()
    return Scene(tournament, second, seat_player(second, 1))
