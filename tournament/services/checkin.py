"""Check-in at the door: before the first draw the TD ticks each player as he arrives.

A check-in is a row (`CheckIn`), never deleted: an undo (ticked by mistake) is kept with
who undid it and when, and the player can be checked in again (a new row). Check-in is
open only before the first draw; a withdrawn player cannot be checked in (undo his
withdrawal first). The first draw's guard (services/draws.py) reads what is kept here.
"""

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import audit
from tournament.errors import NotAllowed
from tournament.models import CheckIn, Level, Player, Tournament
from tournament.rules.validation import saved
from tournament.tables.locking import lock_tournament, touch_tournament


def current_check_in(player: Player) -> CheckIn | None:
    """The player's check-in not undone, or None: 1 query."""
    return CheckIn.objects.filter(player=player, undone_at__isnull=True).first()


def _locked_player(player: Player) -> Player:
    player = saved(player, Player, label=_("The player"))
    tournament = lock_tournament(player.tournament)
    player.refresh_from_db()
    player.tournament = tournament
    if Level.objects.filter(tournament=tournament).exists():
        raise NotAllowed(_("The first draw is made: check-in is closed."))
    return player


def _audit(player: Player, actor: audit.Actor, action: str, *, by_player: bool = False) -> None:
    checked_in = action == "player.check_in"
    after: dict[str, object] = {"checked_in": checked_in}
    if by_player:
        after["by_player"] = True
    audit.record(
        tournament=player.tournament,
        actor=actor,
        action=action,
        params={"name": player.name, "number": player.number},
        before={"checked_in": not checked_in},
        after=after,
        # A player's own check-in has no user: the log names him.
        actor_label=player.name if by_player and audit.actor_or_none(actor) is None else "",
    )


@transaction.atomic
def check_in(*, player: Player, actor: audit.Actor, by_player: bool = False) -> CheckIn:
    """Check `player` in: the TD's tick, or (`by_player`) the player's own on his phone."""
    player = _locked_player(player)
    if player.withdrawn_at is not None:
        raise NotAllowed(
            _("%(name)s has withdrawn: undo the withdrawal before checking him in.")
            % {"name": player.name}
        )
    if current_check_in(player) is not None:
        raise NotAllowed(_("%(name)s is already checked in.") % {"name": player.name})
    done = CheckIn.objects.create(
        player=player,
        checked_in_at=timezone.now(),
        checked_in_by=audit.actor_or_none(actor),
        by_player=by_player,
    )
    touch_tournament(player.tournament)
    _audit(player, actor, "player.check_in", by_player=by_player)
    return done


@transaction.atomic
def undo_check_in(*, player: Player, actor: audit.Actor) -> CheckIn:
    """Undo a check-in (ticked by mistake, or the player left): kept with who and when."""
    player = _locked_player(player)
    done = current_check_in(player)
    if done is None:
        raise NotAllowed(_("%(name)s is not checked in.") % {"name": player.name})
    done.undone_at = timezone.now()
    done.undone_by = audit.actor_or_none(actor)
    done.save(update_fields=["undone_at", "undone_by"])
    touch_tournament(player.tournament)
    _audit(player, actor, "player.check_in_undo")
    return done


# The first draw's guard. Check-in is optional: a tournament where no one is checked in
# (the TD does not use it) draws as before. Once one player is checked in, the TD is using
# it, and the draw seats no one who is not checked in without the TD saying so.
NOT_CHECKED_IN = "not checked in"  # the reason kept with such a withdrawal


def absent_players(players: Sequence[Player]) -> list[Player]:
    """Of `players` (the draw's field), those not checked in while someone is: 1 query.

    Empty when every one is checked in, or when no one is (check-in not used)."""
    here = set(
        CheckIn.objects.filter(player__in=players, undone_at__isnull=True).values_list(
            "player_id", flat=True
        )
    )
    if not here:
        return []
    return [player for player in players if player.pk not in here]


def withdraw_absent(
    *, tournament: Tournament, actor: audit.Actor, players: Sequence[Player]
) -> None:
    """Withdraw `players` before the first draw, the reason kept in the log: they were not
    checked in. Inside the draw's transaction, under the tournament's lock."""
    now = timezone.now()
    for player in players:
        player.withdrawn_at = now
        player.save(update_fields=["withdrawn_at"])
        audit.record(
            tournament=tournament,
            actor=actor,
            action="player.withdraw",
            params={"name": player.name, "number": player.number, "reason": NOT_CHECKED_IN},
            before={"withdrawn": False},
            after={"withdrawn": True, "reason": NOT_CHECKED_IN},
        )
