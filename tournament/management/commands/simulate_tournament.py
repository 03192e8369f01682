"""Play a whole simulated tournament through the services and print its standings."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.demo.autoplay import simulate
from tournament.errors import ServiceError
from tournament.management.actor import actor_from_option
from tournament.selectors.standings import standings


class Command(BaseCommand):
    help = (
        "Play a simulated tournament (random boards, a few penalties) from the draw to the "
        "champion and print the final standings. The same seed plays the same tournament."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True, help="Number of players (2+).")
        parser.add_argument("--seed", required=True, help="Seed of the cards and the draws.")
        parser.add_argument("--name", help="Tournament name (default: from players and seed).")
        parser.add_argument(
            "--stop-after-level",
            type=int,
            metavar="K",
            help="Stop once K levels are closed: the next level is drawn and partly played.",
        )
        parser.add_argument(
            "--min-hands", type=int, default=20, help="Minimum hands per table (default 20)."
        )
        parser.add_argument("--actor", metavar="USERNAME", help="Record the changes as this user.")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["players"] < 2:
            raise CommandError("A tournament needs at least 2 players.")
        actor = actor_from_option(options["actor"])
        try:
            outcome = simulate(
                players=options["players"],
                seed=options["seed"],
                name=options["name"],
                min_hands=options["min_hands"],
                stop_after_level=options["stop_after_level"],
                actor=actor,
            )
        except ServiceError as exc:
            raise CommandError(exc.message) from exc
        tournament = outcome.tournament
        state = "finished" if outcome.finished else f"in play after {outcome.levels_closed} levels"
        self.stdout.write(f"{tournament.name} (id {tournament.pk}): {state}")
        for standing in standings(tournament):
            rank = "DQ" if standing.rank is None else str(standing.rank)
            points = "" if standing.points is None else f"{standing.points:+d}"
            self.stdout.write(
                f"{rank:>3}  {standing.player.name:<20} {standing.status:<12} "
                f"level {standing.level or '-'}  place {standing.place or '-'}  {points}"
            )
