"""Play a whole simulated tournament through the services, from draw to champion.

Used by `manage.py simulate_tournament`, `manage.py demo_setup` and tests. Every
write goes through a service, exactly as the TD's and revisors' pages do; the
boards come from `tournament.demo.simulation`. One `random.Random` seeded from the
given seed drives the cards, the penalties and the tie settlements, and the draw
seeds are derived from it too, so the same seed plays the same tournament.
"""

import random
import uuid
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser

from tournament.demo import simulation
from tournament.models import Level, Penalty, Seat, Table, Tournament
from tournament.rules.table_fold import TableState
from tournament.services import draws, hands, penalties, registration
from tournament.tables.state import cached_state

NAMES = (
    "Anna Berg",
    "Bo Lind",
    "Cia Holm",
    "Dan Ek",
    "Eva Strand",
    "Filip Nord",
    "Gun Sjö",
    "Hugo Dahl",
    "Ida Lund",
    "Jon Vik",
    "Kim Ås",
    "Lo Björk",
    "Maja Fors",
    "Nils Hed",
    "Olle Rapp",
    "Pia Svan",
    "Rut Ström",
    "Sven Alm",
    "Tea Ros",
    "Ulf Ring",
    "Vera Mo",
    "Yngve Ljung",
)
ACTOR_LABEL = "simulation"
# A warning after about one hand in 150; kinds a TD gives most.
PENALTY_CHANCE = 1 / 150
PENALTY_KINDS = (Penalty.Kind.TIMEOUT, Penalty.Kind.SLOW, Penalty.Kind.CONDUCT)
# From this many players one player collects three warnings in level 1.
DISQUALIFY_FROM = 12
DISQUALIFY_AFTER_HAND = 8
# A tie for first is played on for this many hands before the TD settles it.
TIE_EXTRA_HANDS = 3


@dataclass
class Outcome:
    tournament: Tournament
    levels_closed: int
    finished: bool


def player_names(count: int) -> list[str]:
    """Distinct names: the list above, then the same names numbered."""
    return [
        NAMES[i % len(NAMES)] + (f" {i // len(NAMES) + 1}" if i >= len(NAMES) else "")
        for i in range(count)
    ]


def draw_seed(seed: object, level_number: int) -> str:
    return f"sim-{seed}-level-{level_number}"[:64]


def current_tables(level: Level) -> list[Table]:
    return list(Table.objects.current().filter(level=level).select_related("level__tournament"))


class Driver:
    """The revisors' tablets and the TD of one simulated tournament."""

    def __init__(self, rng: random.Random, actor: AbstractBaseUser | None) -> None:
        self.rng = rng
        self.actor = actor

    def play_hand(self, table: Table, state: TableState, seats: list[Seat]) -> None:
        active = [
            s for s in sorted(seats, key=lambda s: s.position) if s.id in state.active_seat_ids
        ]
        dealt = simulation.deal(self.rng, [state.in_fantasyland[s.id] for s in active])
        boards = {
            seat.position: simulation.place(cards, self.rng)
            for seat, cards in zip(active, dealt, strict=True)
        }
        hands.record_hand(
            table=table,
            hand_number=state.hands_played + 1,
            idempotency_key=uuid.uuid4(),
            boards=boards,
            actor=self.actor,
            actor_label=ACTOR_LABEL,
        )
        if self.rng.random() < PENALTY_CHANCE:
            seat = self.rng.choice(active)
            kind = self.rng.choice(PENALTY_KINDS)
            penalties.give_penalty(
                tournament=table.level.tournament,
                player=seat.player,
                kind=kind,
                actor=self.actor,
                note="Simulated penalty.",
            )

    def disqualify(self, seat: Seat) -> None:
        for kind in (Penalty.Kind.CONDUCT, Penalty.Kind.TIMEOUT, Penalty.Kind.CONDUCT):
            seat.player.refresh_from_db()
            if not seat.player.disqualified:
                penalties.give_penalty(
                    tournament=seat.player.tournament,
                    player=seat.player,
                    kind=kind,
                    actor=self.actor,
                    note="Simulated misconduct.",
                )

    def play_table(
        self,
        table: Table,
        *,
        until: int | None = None,
        disqualify: tuple[int, int] | None = None,
    ) -> None:
        """Play hands until the table is over (or has played `until` hands).

        `disqualify`: (player id, after how many hands) of a player who collects
        three warnings at this table.
        """
        while True:
            table.refresh_from_db()
            if table.is_over or (until is not None and table.hands_played >= until):
                return
            state, seats = cached_state(table)
            if disqualify is not None and state.hands_played >= disqualify[1]:
                self.disqualify(next(s for s in seats if s.player_id == disqualify[0]))
                disqualify = None
                continue
            if state.tied_leader_ids and (
                state.hands_played >= state.required_hands + TIE_EXTRA_HANDS
            ):
                tied = sorted(
                    (s for s in seats if s.id in state.tied_leader_ids), key=lambda s: s.position
                )
                winner = self.rng.choice(tied).player
                hands.settle_tie(
                    table=table,
                    actor=self.actor,
                    winner=winner,
                    reason=f"Tied after {state.hands_played} hands: settled by a card draw.",
                )
                continue
            self.play_hand(table, state, seats)


def simulate(
    *,
    players: int,
    seed: object,
    name: str | None = None,
    min_hands: int = 20,
    stop_after_level: int | None = None,
    actor: AbstractBaseUser | None = None,
) -> Outcome:
    """Register `players`, draw, play every level and advance until a champion is found.

    With `stop_after_level=K`, stop once K levels are closed: the next level is
    drawn and partly played (its first table finished when it has several).
    """
    if players < 2:
        raise ValueError("A tournament needs at least 2 players.")
    rng = random.Random(f"simulate:{seed}")
    driver = Driver(rng, actor)
    tournament = registration.create_tournament(
        actor=actor,
        name=name or f"Simulation: {players} players, seed {seed}",
        min_hands=min_hands,
    )
    for player_name in player_names(players):
        registration.register_player(tournament=tournament, actor=actor, name=player_name)
    level: Level | None = draws.draw_first_level(
        tournament=tournament, actor=actor, seed=draw_seed(seed, 1)
    )
    closed = 0
    while level is not None:
        tables = current_tables(level)
        if stop_after_level is not None and closed >= stop_after_level:
            for index, table in enumerate(tables):
                whole = index == 0 and len(tables) > 1
                until = None if whole else rng.randint(1, max(1, min_hands - 1))
                driver.play_table(table, until=until)
            return Outcome(tournament, closed, finished=False)
        # One deterministic disqualification in level 1 of a larger field.
        victim_table: Table | None = None
        victim: tuple[int, int] | None = None
        if level.number == 1 and players >= DISQUALIFY_FROM:
            victim_table = rng.choice(tables)
            seat = rng.choice(list(victim_table.seats.order_by("position")))
            victim = (seat.player_id, min(DISQUALIFY_AFTER_HAND, min_hands - 1))
        for table in tables:
            driver.play_table(table, disqualify=victim if table == victim_table else None)
        level = draws.advance(
            tournament=tournament, actor=actor, seed=draw_seed(seed, level.number + 1)
        )
        closed += 1
    tournament.refresh_from_db()
    return Outcome(tournament, closed, finished=True)
