"""Tournaments and their players, before the first draw."""

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import Level, Player, Tournament
from tournament.services import audit
from tournament.services.errors import InvalidEntry, NotAllowed
from tournament.services.locking import lock_tournament

SETTINGS = (
    "name",
    "min_hands",
    "entry_mode",
    "royalties",
    "scoring_method",
    "fantasyland_repeat",
    "button_stays_in_fantasyland",
)


def settings_of(tournament):
    return {name: getattr(tournament, name) for name in SETTINGS}


def _validate(values):
    name = (values.get("name") or "").strip()
    if not name:
        raise InvalidEntry(_("A tournament needs a name."))
    min_hands = values.get("min_hands", 20)
    if not isinstance(min_hands, int) or not 1 <= min_hands <= 200:
        raise InvalidEntry(_("Minimum hands per table must be a whole number from 1 to 200."))
    for field, choices in (
        ("entry_mode", Tournament.EntryMode.values),
        ("royalties", Tournament.Royalties.values),
        ("scoring_method", Tournament.Method.values),
        ("fantasyland_repeat", Tournament.FantasylandRepeat.values),
    ):
        if field in values and values[field] not in choices:
            raise InvalidEntry(
                _("Unknown %(setting)s: %(value)s.")
                % {"setting": field.replace("_", " "), "value": repr(values[field])}
            )
    return {**values, "name": name}


@transaction.atomic
def create_tournament(*, actor, name, **options):
    values = _validate({"name": name, **options})
    unknown = set(values) - set(SETTINGS)
    if unknown:
        raise InvalidEntry(
            _("Unknown settings: %(names)s.") % {"names": ", ".join(sorted(unknown))}
        )
    tournament = Tournament.objects.create(created_by=audit.actor_or_none(actor), **values)
    audit.record(
        tournament=tournament,
        actor=actor,
        action="tournament.create",
        summary=f"Created tournament {tournament.name}",
        after=settings_of(tournament),
    )
    return tournament


@transaction.atomic
def update_settings(*, tournament, actor, **changes):
    """Settings can change until the first draw; after it they shape recorded results."""
    tournament = lock_tournament(tournament)
    if Level.objects.filter(tournament=tournament).exists():
        raise NotAllowed(_("Settings are fixed once the first draw is made."))
    before = settings_of(tournament)
    values = _validate({**before, **changes})
    for name, value in values.items():
        setattr(tournament, name, value)
    tournament.save()
    audit.record(
        tournament=tournament,
        actor=actor,
        action="tournament.settings",
        summary="Changed settings",
        before=before,
        after=settings_of(tournament),
    )
    return tournament


@transaction.atomic
def register_player(*, tournament, actor, name):
    tournament = lock_tournament(tournament)
    name = (name or "").strip()
    if not name:
        raise InvalidEntry(_("A player needs a name."))
    if len(name) > 80:
        raise InvalidEntry(_("A player's name can have at most 80 characters."))
    if Level.objects.filter(tournament=tournament).exists():
        raise NotAllowed(_("Players can only be registered before the first draw."))
    if Player.objects.filter(tournament=tournament, name__iexact=name).exists():
        raise InvalidEntry(_("%(name)s is already registered.") % {"name": name})
    number = (tournament.players.aggregate(m=Max("number"))["m"] or 0) + 1
    try:
        with transaction.atomic():
            player = Player.objects.create(tournament=tournament, number=number, name=name)
    except IntegrityError as exc:
        raise InvalidEntry(_("%(name)s is already registered.") % {"name": name}) from exc
    audit.record(
        tournament=tournament,
        actor=actor,
        action="player.register",
        summary=f"Registered {name} (#{number})",
        after={"number": number, "name": name},
    )
    return player


@transaction.atomic
def withdraw_player(*, player, actor):
    tournament = lock_tournament(player.tournament)
    player.refresh_from_db()
    if Level.objects.filter(tournament=tournament).exists():
        raise NotAllowed(_("Players can only withdraw before the first draw."))
    if player.withdrawn_at is not None:
        raise NotAllowed(_("%(name)s has already withdrawn.") % {"name": player.name})
    player.withdrawn_at = timezone.now()
    player.save(update_fields=["withdrawn_at"])
    audit.record(
        tournament=tournament,
        actor=actor,
        action="player.withdraw",
        summary=f"{player.name} withdrew",
        before={"withdrawn": False},
        after={"withdrawn": True},
    )
    return player
