"""Draws: seating a level at random, redoing it, and advancing the table winners."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import Draw, Hand, Level, Player, Seat, Table
from tournament.seating import new_seed, seat_players
from tournament.services import audit
from tournament.services.errors import DrawLocked, NotAllowed
from tournament.services.locking import lock_tournament
from tournament.services.recompute import recompute_table


def current_level(tournament):
    return Level.objects.filter(tournament=tournament).order_by("-number").first()


def current_draw(level):
    return Draw.objects.get(level=level, superseded_at__isnull=True)


def level_started(level):
    return Hand.objects.filter(table__level=level, table__draw__superseded_at__isnull=True).exists()


def _seating_summary(draw):
    return {
        "draw": draw.number,
        "seed": draw.seed,
        "tables": [
            {
                "table": table.number,
                "first_dealer_position": table.first_dealer_position,
                "players": [seat.player.name for seat in table.seats.order_by("position")],
            }
            for table in draw.tables.order_by("number")
        ],
    }


def _make_draw(*, level, players, actor, seed, number, reason=""):
    by_number = {player.number: player for player in players}
    draw = Draw.objects.create(
        level=level,
        number=number,
        seed=seed,
        created_by=audit.actor_or_none(actor),
        reason=reason,
    )
    for seating in seat_players(list(by_number), seed):
        table = Table.objects.create(
            level=level,
            draw=draw,
            number=seating.number,
            first_dealer_position=seating.first_dealer_position,
        )
        Seat.objects.bulk_create(
            Seat(table=table, draw=draw, player=by_number[key], position=position)
            for position, key in enumerate(seating.players)
        )
        recompute_table(table)
    return draw


@transaction.atomic
def draw_first_level(*, tournament, actor, seed=None):
    tournament = lock_tournament(tournament)
    if Level.objects.filter(tournament=tournament).exists():
        raise NotAllowed(_("The first draw is already made; redo it instead."))
    players = list(
        Player.objects.filter(tournament=tournament, withdrawn_at__isnull=True, disqualified=False)
    )
    if len(players) < 2:
        raise NotAllowed(_("A draw needs at least 2 players."))
    level = Level.objects.create(tournament=tournament, number=1)
    draw = _make_draw(level=level, players=players, actor=actor, seed=seed or new_seed(), number=1)
    audit.record(
        tournament=tournament,
        actor=actor,
        action="draw.create",
        summary=f"Drew level 1: {len(players)} players",
        after=_seating_summary(draw),
    )
    return level


@transaction.atomic
def redraw_level(*, level, actor, reason="", seed=None):
    """Redo a level's draw; only until its first hand is recorded."""
    tournament = lock_tournament(level.tournament)
    level.refresh_from_db()
    if level.closed_at is not None:
        raise DrawLocked(_("This level is closed."))
    if level_started(level):
        raise DrawLocked(_("The first hand of this level is recorded: the draw is locked."))
    old = current_draw(level)
    players = [
        seat.player
        for seat in Seat.objects.filter(draw=old).select_related("player")
        if not seat.player.disqualified
    ]
    if len(players) < 2:
        raise NotAllowed(_("A draw needs at least 2 players."))
    before = _seating_summary(old)
    old.superseded_at = timezone.now()
    old.save(update_fields=["superseded_at"])
    draw = _make_draw(
        level=level,
        players=players,
        actor=actor,
        seed=seed or new_seed(),
        number=old.number + 1,
        reason=reason.strip(),
    )
    audit.record(
        tournament=tournament,
        actor=actor,
        action="draw.redo",
        summary=f"Redrew level {level.number}" + (f": {reason.strip()}" if reason.strip() else ""),
        before=before,
        after=_seating_summary(draw),
    )
    return level


@transaction.atomic
def advance(*, tournament, actor, seed=None):
    """Close the current level when every table is over.

    The winners are drawn into the next level; a level with a single table (or a
    single winner) produces the champion. Returns the new level, or None when the
    tournament is finished.
    """
    tournament = lock_tournament(tournament)
    level = current_level(tournament)
    if level is None:
        raise NotAllowed(_("Make the first draw first."))
    if level.closed_at is not None or tournament.finished_at is not None:
        raise NotAllowed(_("The tournament is finished."))
    tables = list(
        Table.objects.filter(level=level, draw__superseded_at__isnull=True).select_related("winner")
    )
    playing = [table.number for table in tables if not table.is_over]
    if playing:
        numbers = ", ".join(str(n) for n in playing)
        raise NotAllowed(
            _("Not every table is over yet (still playing: table %(tables)s).")
            % {"tables": numbers}
        )
    winners = [t.winner for t in tables if t.winner is not None and not t.winner.disqualified]
    now = timezone.now()
    level.closed_at = now
    level.save(update_fields=["closed_at"])
    if len(winners) <= 1:
        tournament.finished_at = now
        tournament.champion = winners[0] if winners else None
        tournament.save(update_fields=["finished_at", "champion"])
        audit.record(
            tournament=tournament,
            actor=actor,
            action="tournament.finish",
            summary=f"Champion: {winners[0].name}" if winners else "Finished without a champion",
            after={"champion": winners[0].name if winners else None},
        )
        return None
    next_level = Level.objects.create(tournament=tournament, number=level.number + 1)
    draw = _make_draw(
        level=next_level, players=winners, actor=actor, seed=seed or new_seed(), number=1
    )
    audit.record(
        tournament=tournament,
        actor=actor,
        action="draw.create",
        summary=f"Closed level {level.number}; drew level {next_level.number}: "
        f"{len(winners)} players",
        after=_seating_summary(draw),
    )
    return next_level
