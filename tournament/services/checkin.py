"""Check-in at the door: before the first draw the TD ticks each player as he arrives,
or (self check-in, opened by the TD) the player checks himself in on his phone with the
tournament's check-in code shown at the door.

A check-in is a row (`CheckIn`), never deleted: an undo (ticked by mistake) is kept with
who undid it and when, and the player can be checked in again (a new row). Check-in is
open only before the first draw; a withdrawn player cannot be checked in (undo his
withdrawal first). The first draw's guard (services/draws.py) reads what is kept here.

Wrong check-in codes are counted per client address in Django's cache (a code counts once
however often it is typed): past `WRONG_CODES_PER_ADDRESS` different ones in `CODE_WINDOW`
no code is looked at from that address until the oldest of them is out of the window.
"""

import hashlib
import hmac
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import audit
from tournament.errors import InvalidEntry, NotAllowed, ServiceError
from tournament.models import (
    CHECK_IN_CODE_LENGTH,
    REVISOR_CODE_ALPHABET,
    CheckIn,
    Level,
    Player,
    Tournament,
    new_check_in_code,
)
from tournament.rules.validation import saved
from tournament.services.idempotency import idempotent, run_once
from tournament.tables.locking import lock_tournament, touch_tournament

CODE_WINDOW = timedelta(minutes=10)
WRONG_CODES_PER_ADDRESS = 20  # different wrong codes from one address in CODE_WINDOW


class WrongCodesPaused(ServiceError):
    """Too many wrong check-in codes lately from this address: no code is looked at."""


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


@idempotent("player.check_in", load=CheckIn)
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


@idempotent("player.check_in_undo", load=CheckIn)
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


# Self check-in: the TD opens it (a code is made the first time) and closes it; the door
# sign (views/td/check_in.py) shows the code and a QR code of the public page carrying it.


def self_check_in_open(tournament: Tournament) -> bool:
    """Whether players can check themselves in now: opened by the TD, with a code, and the
    first draw not made (1 query)."""
    return (
        tournament.self_check_in_open
        and bool(tournament.check_in_code)
        and not Level.objects.filter(tournament=tournament).exists()
    )


def _locked_before_draw(tournament: Tournament) -> Tournament:
    tournament = lock_tournament(saved(tournament, Tournament, label=_("The tournament")))
    if Level.objects.filter(tournament=tournament).exists():
        raise NotAllowed(_("The first draw is made: check-in is closed."))
    return tournament


def _unused_code(old: str) -> str:
    """A new check-in code, not the one it replaces."""
    while True:
        code = new_check_in_code()
        if code != old:
            return code


@idempotent("tournament.self_check_in", load=Tournament)
@transaction.atomic
def set_self_check_in(*, tournament: Tournament, actor: audit.Actor, open: bool) -> Tournament:
    """Open (`open`) or close self check-in, before the first draw. Opening it the first
    time makes the code; it keeps its code when closed and opened again. Already so:
    nothing is changed, nothing logged."""
    tournament = _locked_before_draw(tournament)
    if tournament.self_check_in_open == open and (tournament.check_in_code or not open):
        return tournament
    tournament.self_check_in_open = open
    if open and not tournament.check_in_code:
        tournament.check_in_code = _unused_code("")
    tournament.save(update_fields=["self_check_in_open", "check_in_code"])
    touch_tournament(tournament)
    audit.record(
        tournament=tournament,
        actor=actor,
        action="tournament.self_check_in",
        params={"open": open},
        before={"self_check_in": not open},
        after={"self_check_in": open},
    )
    return tournament


@idempotent("tournament.check_in_code", load=Tournament)
@transaction.atomic
def renew_check_in_code(*, tournament: Tournament, actor: audit.Actor) -> Tournament:
    """A new check-in code (the old one was seen where it should not be): the old one
    checks no one in from now on; print the door sign again. The code is not logged."""
    tournament = _locked_before_draw(tournament)
    tournament.check_in_code = _unused_code(tournament.check_in_code)
    tournament.save(update_fields=["check_in_code"])
    touch_tournament(tournament)
    audit.record(
        tournament=tournament,
        actor=actor,
        action="tournament.check_in_code",
        params={},
        before={},
        after={},
    )
    return tournament


def clean_check_in_code(code: object) -> str:
    """A typed check-in code as the door sign prints it, or InvalidEntry (not counted as a
    guess: no code has another shape)."""
    if not isinstance(code, str) or not "".join(code.split()):
        raise InvalidEntry(_("Type the check-in code shown at the door."))
    code = "".join(code.split()).upper().replace("-", "")
    if len(code) != CHECK_IN_CODE_LENGTH or any(c not in REVISOR_CODE_ALPHABET for c in code):
        raise InvalidEntry(
            _(
                "The check-in code is %(length)d letters and digits, without O, 0, I, L or 1. "
                "Check the sign at the door and try again."
            )
            % {"length": CHECK_IN_CODE_LENGTH}
        )
    return code


def _wrong_codes_key(client: str) -> str:
    return "check-in-wrong-codes:" + hashlib.blake2s(client.encode(), digest_size=16).hexdigest()


def _recent(client: str, now: datetime) -> dict[str, float]:
    """The wrong codes from `client` in the window: code -> when it was last typed."""
    kept = cache.get(_wrong_codes_key(client))
    since = (now - CODE_WINDOW).timestamp()
    if not isinstance(kept, dict):
        return {}
    return {code: at for code, at in kept.items() if at > since}


def paused_until(client: str, now: datetime) -> datetime | None:
    """When `client` may type a code again, while it has too many wrong ones; else None."""
    lasts = sorted(_recent(client, now).values())
    if len(lasts) < WRONG_CODES_PER_ADDRESS:
        return None
    oldest = lasts[len(lasts) - WRONG_CODES_PER_ADDRESS]
    return datetime.fromtimestamp(oldest, tz=now.tzinfo) + CODE_WINDOW


def _count_wrong(client: str, code: str, now: datetime) -> None:
    """A wrong code from `client`, counted once however often it is typed. Two at the same
    instant may count as one: it costs one guess over the ceiling."""
    recent = _recent(client, now)
    recent[code] = now.timestamp()
    cache.set(_wrong_codes_key(client), recent, int(CODE_WINDOW.total_seconds()))


def _clock_time(moment: datetime) -> str:
    """`moment` on the venue's clock, rounded up to the minute: "14:35"."""
    local = timezone.localtime(moment)
    if local.second or local.microsecond:
        local = local.replace(second=0, microsecond=0) + timedelta(minutes=1)
    return local.strftime("%H:%M")


def self_check_in_closed_message(tournament: Tournament) -> str:
    if Level.objects.filter(tournament=tournament).exists():
        return _("The first draw is made: check-in is closed.")
    return _("Self check-in is closed: check in with the TD at the door.")


@transaction.atomic
def _self_check_in(*, player: Player, code: object, client: str) -> CheckIn:
    player = saved(player, Player, label=_("The player"))
    tournament = lock_tournament(player.tournament)
    if not self_check_in_open(tournament):
        raise NotAllowed(self_check_in_closed_message(tournament))
    typed = clean_check_in_code(code)
    now = timezone.now()
    until = paused_until(client, now)
    if until is not None:
        raise WrongCodesPaused(
            _(
                "Too many wrong codes from this network: try again after %(time)s, scan the "
                "QR code on the sign at the door, or check in with the TD."
            )
            % {"time": _clock_time(until)}
        )
    if not hmac.compare_digest(typed, tournament.check_in_code):
        _count_wrong(client, typed, now)
        raise InvalidEntry(
            _("This is not the check-in code shown at the door. Check the sign and try again.")
        )
    player.tournament = tournament
    return check_in(player=player, actor=None, by_player=True)


def self_check_in(*, player: Player, code: object, client: str, key: object = None) -> CheckIn:
    """The player checks himself in on his phone with the code shown at the door, from
    address `client`. Refused when self check-in is closed (by the TD, or by the first
    draw), when the address has too many wrong codes lately (`WrongCodesPaused`, even
    for the right one), for a wrong code (counted), and when he is checked in already.
    Made once per `key` (services/idempotency.py)."""
    address = client[:64]
    done: CheckIn = run_once(
        lambda: _self_check_in(player=player, code=code, client=address),
        key=key,
        action="player.self_check_in",
        content=[player, str(code)],
        load=CheckIn,
    )
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
