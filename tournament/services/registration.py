"""Tournaments and their players: before the first draw, and until level 1's first hand.

No two tournaments have the same name, case, accents and blanks aside (`names.same_key`,
as for players): the TD's list would show two identical entries, and a backup of one
could not be restored beside the other.

After the first draw the field can still change until the first hand of level 1 is
recorded (a late player, a no-show): each change redoes level 1's draw at once, in the
same transaction, as the rules allow a draw to be redone until then.
"""

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from django.db import IntegrityError, models, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from tournament import audit, events
from tournament.errors import DrawLocked, InvalidEntry, NotAllowed
from tournament.models import (
    Hand,
    Level,
    Player,
    RegisterEntry,
    Tournament,
)
from tournament.rules.names import (
    Known,
    Line,
    Taken,
    alike_question,
    already_registered,
    clean_name,
    compare_list,
    same_key,
)
from tournament.rules.validation import (
    Label,
    clean_bool,
    clean_choice,
    clean_int,
    column_length,
    saved,
)
from tournament.services import draws, register
from tournament.services.idempotency import idempotent
from tournament.tables.locking import lock_tournament, lock_tournament_names, touch_tournament


def settings_of(tournament: Tournament) -> dict[str, object]:
    return {name: getattr(tournament, name) for name in Tournament.SETTINGS}


CHOICES: dict[str, type[models.Choices]] = {
    "entry_mode": Tournament.EntryMode,
    "royalties": Tournament.Royalties,
    "scoring_method": Tournament.Method,
    "fantasyland_repeat": Tournament.FantasylandRepeat,
}
MIN_HANDS_RANGE = (1, 200)  # as the model's check constraint
PLAYER_NAME_LENGTH = column_length(Player, "name")
TOURNAMENT_NAME_LENGTH = column_length(Tournament, "name")
MAX_LIST_NAMES = 1000  # names registered from one pasted list, at most


def _label(name: str) -> Label:
    field = Tournament._meta.get_field(name)
    assert isinstance(field, models.Field), f"Tournament.{name} is not a column"
    return capfirst(field.verbose_name)


def _validate(values: Mapping[str, object]) -> dict[str, object]:
    """Every setting checked: known names only, each of its type and range."""
    unknown = set(values) - set(Tournament.SETTINGS)
    if unknown:
        raise InvalidEntry(
            _("Unknown settings: %(names)s.") % {"names": ", ".join(sorted(map(str, unknown)))}
        )
    clean: dict[str, object] = {"name": clean_tournament_name(values.get("name"))}
    if "min_hands" in values:
        clean["min_hands"] = clean_int(
            values["min_hands"],
            label=_label("min_hands"),
            minimum=MIN_HANDS_RANGE[0],
            maximum=MIN_HANDS_RANGE[1],
        )
    for field, choices in CHOICES.items():
        if field in values:
            clean[field] = clean_choice(values[field], label=_label(field), choices=choices)
    for field in ("button_stays_in_fantasyland", "table_confirms_points", "release_draws_at_once"):
        if field in values:
            clean[field] = clean_bool(values[field], label=_label(field))
    return clean


def clean_tournament_name(name: object) -> str:
    """A tournament's name as kept: clean text that shows as something (rules/names.py)."""
    return clean_name(
        name,
        label=_label("name"),
        max_length=TOURNAMENT_NAME_LENGTH,
        empty=_("A tournament needs a name."),
    )


def tournament_named_like(name: str, *, exclude: Tournament | None = None) -> str | None:
    """The name of a tournament (other than `exclude`) that is `name` but for case, accents
    and blanks, or None. A database holds a few dozen tournaments: compared in Python, alike
    on SQLite and PostgreSQL."""
    key = same_key(name)
    tournaments = Tournament.objects.order_by("pk")
    if exclude is not None and exclude.pk is not None:
        tournaments = tournaments.exclude(pk=exclude.pk)
    return next((n for n in tournaments.values_list("name", flat=True) if same_key(n) == key), None)


class TournamentNameTaken(InvalidEntry):
    """The name is another tournament's (named `name`; case, accents and blanks aside): the
    TD's form shows it next to the name."""

    def __init__(self, name: str) -> None:
        super().__init__(
            _(
                "A tournament named “%(name)s” already exists: choose another name (add the "
                "year or the city)."
            )
            % {"name": name}
        )


def check_tournament_name_free(name: str, *, exclude: Tournament | None = None) -> str:
    """Refuse (TournamentNameTaken) a name another tournament than `exclude` has (`same_key`).

    In a transaction, the names' lock is held from here to its end (`locking`): a name
    checked free is still free when the tournament is written with it.
    """
    lock_tournament_names()
    taken = tournament_named_like(name, exclude=exclude)
    if taken is not None:
        raise TournamentNameTaken(taken)
    return name


def clean_player_name(name: object) -> str:
    """A name as kept: clean text that shows as something (tournament/rules/names.py)."""
    return clean_name(
        name,
        label=_("The player's name"),
        max_length=PLAYER_NAME_LENGTH,
        empty=_("A player needs a name."),
    )


@idempotent("tournament.create", load=Tournament)
@transaction.atomic
def create_tournament(*, actor: audit.Actor, name: object, **options: object) -> Tournament:
    values = _validate({"name": name, **options})
    check_tournament_name_free(str(values["name"]))
    tournament = Tournament.objects.create(created_by=audit.actor_or_none(actor), **values)
    audit.record(
        tournament=tournament,
        actor=actor,
        action="tournament.create",
        params={"name": tournament.name},
        after=settings_of(tournament),
    )
    return tournament


@idempotent("tournament.settings", load=Tournament)
@transaction.atomic
def update_settings(*, tournament: Tournament, actor: audit.Actor, **changes: object) -> Tournament:
    """Settings can change until the first draw; after it they shape recorded results."""
    tournament = lock_tournament(saved(tournament, Tournament, label=_("The tournament")))
    if Level.objects.filter(tournament=tournament).exists():
        raise NotAllowed(_("Settings are fixed once the first draw is made."))
    before = settings_of(tournament)
    values = _validate({**before, **changes})
    if values["name"] != tournament.name:
        check_tournament_name_free(str(values["name"]), exclude=tournament)
        events.renamed.announce(tournament_id=tournament.pk, old_name=tournament.name)
    for name, value in values.items():
        setattr(tournament, name, value)
    tournament.revision += 1
    tournament.save()
    audit.record(
        tournament=tournament,
        actor=actor,
        action="tournament.settings",
        params={},
        before=before,
        after=settings_of(tournament),
    )
    return tournament


@idempotent("tournament.rename", load=Tournament)
@transaction.atomic
def rename_tournament(*, tournament: Tournament, actor: audit.Actor, name: object) -> Tournament:
    """Correct the tournament's name, at any time: unlike the rules, a name shapes no result.

    The old name stays in the audit; the pages, the projector and later exports take the new.
    """
    tournament = lock_tournament(saved(tournament, Tournament, label=_("The tournament")))
    name = clean_tournament_name(name)  # as _validate({"name": name}) checks it
    if name == tournament.name:
        raise InvalidEntry(_("The tournament is already called %(name)s.") % {"name": name})
    check_tournament_name_free(name, exclude=tournament)
    before = tournament.name
    tournament.name = name
    tournament.save(update_fields=["name"])
    events.renamed.announce(tournament_id=tournament.pk, old_name=before)
    touch_tournament(tournament)
    audit.record(
        tournament=tournament,
        actor=actor,
        action="tournament.rename",
        params={"old_name": before, "name": name},
        before={"name": before},
        after={"name": name},
    )
    return tournament


def taken_names(tournament: Tournament, exclude: Player | None = None) -> Taken:
    """The tournament's names (withdrawn players' too) that a new one is compared with."""
    players = Player.objects.filter(tournament=tournament)
    if exclude is not None:
        players = players.exclude(pk=exclude.pk)
    return Taken.of_players(players.values_list("number", "name", "withdrawn_at"))


def _check_new_name(name: str, taken: Taken, *, lookalike_confirmed: bool) -> Known | None:
    """The same name as one taken is refused; a near-duplicate (one that differs only in
    case, accents, spacing or punctuation) needs the TD's confirmation.

    Returns the lookalike the TD confirmed, or None.
    """
    same = taken.same(name)
    if same is not None:
        raise InvalidEntry(already_registered(name, same))
    alike = taken.alike(name)
    if alike is not None and not lookalike_confirmed:
        raise InvalidEntry(alike_question(name, alike))
    return alike


def _late_level(tournament: Tournament, refusal: str) -> Level | None:
    """Level 1 while its field may still change after its draw, None before the first draw.

    Refused (`refusal`) once play has started: a hand recorded at level 1, or a later level.
    The redraw checks again under the tables' locks (`_redraw`), so that a hand recorded
    meanwhile is never redrawn away.
    """
    state = field_state(tournament)
    if state == FIELD_CLOSED:
        raise NotAllowed(refusal)
    if state == FIELD_OPEN:
        return None
    return Level.objects.get(tournament=tournament, number=1)


def _redraw(level: Level | None, actor: audit.Actor, reason: str, refusal: str) -> None:
    """Redo level 1's draw for the field as it is now, `reason` saying what changed."""
    if level is None:
        return
    if len(reason) > draws.REASON_LENGTH:
        reason = reason[: draws.REASON_LENGTH - 1] + "…"
    try:
        draws.redraw_level(level=level, actor=actor, reason=reason)
    except DrawLocked as exc:
        raise NotAllowed(refusal) from exc


def _named(player: Player) -> str:
    return _("%(name)s (no. %(number)d)") % {"name": player.name, "number": player.number}


def _closed_to_new_players() -> str:
    return _("Play has started: players can no longer be added.")


def _next_number(tournament: Tournament) -> int:
    highest: int | None = tournament.players.aggregate(m=Max("number"))["m"]
    return (highest or 0) + 1


def _create(
    tournament: Tournament,
    actor: audit.Actor,
    name: str,
    number: int,
    alike: Known | None,
    entry: RegisterEntry,
) -> Player:
    try:
        with transaction.atomic():
            player = Player.objects.create(
                tournament=tournament,
                number=number,
                name=name,
                alike_confirmed=alike is not None,
                register_entry=entry,
            )
    except IntegrityError as exc:
        raise InvalidEntry(_("%(name)s is already registered.") % {"name": name}) from exc
    audit.record(
        tournament=tournament,
        actor=actor,
        action="player.register",
        params={"name": name, "number": number},
        after={"number": number, "name": name, **_confirmed(alike)},
    )
    return player


def _confirmed(alike: Known | None) -> dict[str, str]:
    """What the audit keeps of a lookalike the TD confirmed to be another player."""
    return {} if alike is None else {"confirmed_lookalike_of": alike.name}


@idempotent("player.register", load=Player)
@transaction.atomic
def register_player(
    *,
    tournament: Tournament,
    actor: audit.Actor,
    name: object = None,
    lookalike_confirmed: object = False,
    register_entry: RegisterEntry | None = None,
) -> Player:
    """Register one player. A near-duplicate of a registered name (tournament/rules/names.py)
    needs `lookalike_confirmed`: the TD has said they are two players, and the new player
    carries it (`alike_confirmed`).

    `register_entry`: the earlier player the TD picked from the register; the new player is
    that person, under the entry's name (`name` is then not needed). Without it the player
    is a new person in the register (services/register.py)."""
    tournament = lock_tournament(saved(tournament, Tournament, label=_("The tournament")))
    if register_entry is not None:
        name = register.standing_entry(
            saved(register_entry, RegisterEntry, label=_("The earlier player"))
        ).name
    name = clean_player_name(name)
    lookalike_confirmed = clean_bool(lookalike_confirmed, label=_("The confirmation"))
    late = _late_level(tournament, _closed_to_new_players())
    alike = _check_new_name(name, taken_names(tournament), lookalike_confirmed=lookalike_confirmed)
    entry = register.entry_for_new_player(
        tournament, name, picked=register_entry, by_name_too=False
    )
    player = _create(tournament, actor, name, _next_number(tournament), alike, entry)
    touch_tournament(tournament)
    reason = _("Late registration: %(players)s") % {"players": _named(player)}
    _redraw(late, actor, reason, _closed_to_new_players())
    return player


@dataclass(frozen=True)
class ListRegistered:
    """What came of a pasted list: the players registered, and the names skipped."""

    players: list[Player]
    skipped: list[Line]  # each with `.same`: the name it repeats
    # Of `players`, those linked by name to an earlier player of the register.
    linked: list[Player] = dataclasses.field(default_factory=list)


def _clean_names(names: object) -> list[str]:
    if not isinstance(names, (list, tuple)):
        raise InvalidEntry(_("The names must be a list."))
    if len(names) > MAX_LIST_NAMES:
        raise InvalidEntry(
            _("The list has %(count)d names; at most %(max)d can be registered at once.")
            % {"count": len(names), "max": MAX_LIST_NAMES}
        )
    if not names:
        raise InvalidEntry(_("Enter at least one name."))
    return [
        clean_name(
            name,
            label=_("Name %(index)d of the list") % {"index": index},
            max_length=PLAYER_NAME_LENGTH,
        )
        for index, name in enumerate(names, start=1)
    ]


def _clean_confirmed(confirmed: object) -> set[str]:
    if not isinstance(confirmed, (list, tuple, set, frozenset)) or not all(
        isinstance(name, str) for name in confirmed
    ):
        raise InvalidEntry(_("The confirmed names must be a list of names."))
    return {name for name in confirmed if isinstance(name, str)}  # all are (checked above)


@idempotent("player.register_list")
@transaction.atomic
def register_players(
    *, tournament: Tournament, actor: audit.Actor, names: object, confirmed: object = ()
) -> ListRegistered:
    """Register a pasted list, all or nothing, in its order.

    A name already registered, or already earlier in the list (the very same name, see
    tournament/rules/names.py), is skipped and reported, not refused: an updated sign-up list
    can be pasted again. A near-duplicate (a name that differs only in case, accents,
    spacing or punctuation) is registered only when its name is in `confirmed` (the TD
    has said they are two players); otherwise nothing is registered.
    """
    tournament = lock_tournament(saved(tournament, Tournament, label=_("The tournament")))
    cleaned = _clean_names(names)
    confirmed_names = _clean_confirmed(confirmed)
    late = _late_level(tournament, _closed_to_new_players())
    lines = compare_list([(name, None) for name in cleaned], taken_names(tournament))
    unconfirmed = next(
        (
            (line.name, line.alike)
            for line in lines
            if line.alike is not None and line.name not in confirmed_names
        ),
        None,
    )
    if unconfirmed is not None:
        raise InvalidEntry(alike_question(*unconfirmed))
    number = _next_number(tournament)
    players: list[Player] = []
    linked: list[Player] = []
    for line in lines:
        if line.same is None:
            # A pasted name is linked by name: the one earlier player of that name, if any.
            entry = register.entry_for_new_player(tournament, line.name, by_name_too=True)
            earlier = entry.players.exists()
            players.append(_create(tournament, actor, line.name, number, line.alike, entry))
            if earlier:
                linked.append(players[-1])
            number += 1
    if players:
        touch_tournament(tournament)
        named = ", ".join(_named(player) for player in players)
        reason = _("Late registration: %(players)s") % {"players": named}
        _redraw(late, actor, reason, _closed_to_new_players())
    return ListRegistered(players, [line for line in lines if line.same is not None], linked)


@idempotent("player.withdraw", load=Player)
def withdraw_player(*, player: Player, actor: audit.Actor) -> Player:
    return _set_withdrawn(player, actor, withdrawn=True)


@idempotent("player.reinstate", load=Player)
def reinstate_player(*, player: Player, actor: audit.Actor) -> Player:
    """Undo a withdrawal: the player is in the draw again, with his start number (a TD who
    withdrew the wrong player, or a player who came after all)."""
    return _set_withdrawn(player, actor, withdrawn=False)


@transaction.atomic
def _set_withdrawn(player: Player, actor: audit.Actor, *, withdrawn: bool) -> Player:
    """Withdraw a player or undo it: before the first draw, or after it until level 1's
    first hand (a no-show; he came after all), when level 1 is drawn again without him
    (or with him)."""
    player = saved(player, Player, label=_("The player"))
    tournament = lock_tournament(player.tournament)
    player.refresh_from_db()
    closed = (
        _("Play has started: players can no longer withdraw.")
        if withdrawn
        else _("Play has started: a withdrawal can no longer be undone.")
    )
    late = _late_level(tournament, closed)
    if (player.withdrawn_at is not None) == withdrawn:
        refusal = (
            _("%(name)s has already withdrawn.") if withdrawn else _("%(name)s has not withdrawn.")
        )
        raise NotAllowed(refusal % {"name": player.name})
    player.withdrawn_at = timezone.now() if withdrawn else None
    player.save(update_fields=["withdrawn_at"])
    touch_tournament(tournament)
    audit.record(
        tournament=tournament,
        actor=actor,
        action="player.withdraw" if withdrawn else "player.reinstate",
        params={"name": player.name, "number": player.number},
        before={"withdrawn": not withdrawn},
        after={"withdrawn": withdrawn},
    )
    reason = (
        _("Withdrawn before play: %(player)s")
        if withdrawn
        else _("Back in the draw before play: %(player)s")
    )
    _redraw(late, actor, reason % {"player": _named(player)}, closed)
    return player


@idempotent("player.rename", load=Player)
@transaction.atomic
def rename_player(
    *, player: Player, actor: audit.Actor, name: object, lookalike_confirmed: object = False
) -> Player:
    """Correct a player's name (a typo at registration); the old name stays in the audit.

    The new name is held to the rules of a new player's (`register_player`); the player
    carries the TD's confirmation (`alike_confirmed`) only while his name is a confirmed
    near-duplicate.
    """
    player = saved(player, Player, label=_("The player"))
    tournament = lock_tournament(player.tournament)
    player.refresh_from_db()
    name = clean_player_name(name)
    lookalike_confirmed = clean_bool(lookalike_confirmed, label=_("The confirmation"))
    if name == player.name:
        return player
    alike = _check_new_name(
        name, taken_names(tournament, exclude=player), lookalike_confirmed=lookalike_confirmed
    )
    before = player.name
    player.name = name
    player.alike_confirmed = alike is not None
    try:
        with transaction.atomic():
            player.save(update_fields=["name", "alike_confirmed"])
    except IntegrityError as exc:
        raise InvalidEntry(_("%(name)s is already registered.") % {"name": name}) from exc
    touch_tournament(tournament)
    audit.record(
        tournament=tournament,
        actor=actor,
        action="player.rename",
        params={"old_name": before, "name": name, "number": player.number},
        before={"name": before},
        after={"name": name, **_confirmed(alike)},
    )
    return player


def first_draw_made(tournament: Tournament) -> bool:
    """Whether the tournament's first draw is made (its settings fixed): 1 query."""
    return Level.objects.filter(tournament=tournament).exists()


# Whether players can still be added, withdrawn or brought back: the field's state, which
# the players page shows and every change of the field checks.
FIELD_OPEN = "open"  # before the first draw


FIELD_LATE = "late"  # level 1 drawn, no hand recorded: each change redoes its draw


FIELD_CLOSED = "closed"  # play has started


def field_state(tournament: Tournament) -> str:
    """FIELD_OPEN, FIELD_LATE or FIELD_CLOSED: 2 queries at most."""
    levels = list(Level.objects.filter(tournament=tournament).order_by("number")[:2])
    if not levels:
        return FIELD_OPEN
    first = levels[0]
    started = Hand.objects.filter(table__level=first, table__draw__superseded_at__isnull=True)
    if len(levels) > 1 or first.closed_at is not None or started.exists():
        return FIELD_CLOSED
    return FIELD_LATE
