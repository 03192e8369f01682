"""Tournaments and their players, before the first draw."""

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from tournament.models import Level, Player, Tournament
from tournament.services import audit
from tournament.services.errors import InvalidEntry, NotAllowed
from tournament.services.locking import lock_tournament, touch_tournament
from tournament.validation import clean_bool, clean_choice, clean_int, clean_text, saved

SETTINGS = (
    "name",
    "min_hands",
    "entry_mode",
    "royalties",
    "scoring_method",
    "fantasyland_repeat",
    "button_stays_in_fantasyland",
    "table_confirms_points",
)


def settings_of(tournament):
    return {name: getattr(tournament, name) for name in SETTINGS}


CHOICES = {
    "entry_mode": Tournament.EntryMode,
    "royalties": Tournament.Royalties,
    "scoring_method": Tournament.Method,
    "fantasyland_repeat": Tournament.FantasylandRepeat,
}
MIN_HANDS_RANGE = (1, 200)  # as the model's check constraint
PLAYER_NAME_LENGTH = Player._meta.get_field("name").max_length


def _label(field):
    return capfirst(Tournament._meta.get_field(field).verbose_name)


def _validate(values):
    """Every setting checked: known names only, each of its type and range."""
    unknown = set(values) - set(SETTINGS)
    if unknown:
        raise InvalidEntry(
            _("Unknown settings: %(names)s.") % {"names": ", ".join(sorted(map(str, unknown)))}
        )
    clean = {
        "name": clean_text(
            values.get("name"),
            label=_label("name"),
            max_length=Tournament._meta.get_field("name").max_length,
            empty=_("A tournament needs a name."),
        )
    }
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
    for field in ("button_stays_in_fantasyland", "table_confirms_points"):
        if field in values:
            clean[field] = clean_bool(values[field], label=_label(field))
    return clean


def clean_player_name(name):
    return clean_text(
        name,
        label=_("The player's name"),
        max_length=PLAYER_NAME_LENGTH,
        empty=_("A player needs a name."),
    )


@transaction.atomic
def create_tournament(*, actor, name, **options):
    values = _validate({"name": name, **options})
    tournament = Tournament.objects.create(created_by=audit.actor_or_none(actor), **values)
    audit.record(
        tournament=tournament,
        actor=actor,
        action="tournament.create",
        params={"name": tournament.name},
        after=settings_of(tournament),
    )
    return tournament


@transaction.atomic
def update_settings(*, tournament, actor, **changes):
    """Settings can change until the first draw; after it they shape recorded results."""
    tournament = lock_tournament(saved(tournament, Tournament, label=_("The tournament")))
    if Level.objects.filter(tournament=tournament).exists():
        raise NotAllowed(_("Settings are fixed once the first draw is made."))
    before = settings_of(tournament)
    values = _validate({**before, **changes})
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


@transaction.atomic
def register_player(*, tournament, actor, name):
    tournament = lock_tournament(saved(tournament, Tournament, label=_("The tournament")))
    name = clean_player_name(name)
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
    touch_tournament(tournament)
    audit.record(
        tournament=tournament,
        actor=actor,
        action="player.register",
        params={"name": name, "number": number},
        after={"number": number, "name": name},
    )
    return player


@transaction.atomic
def withdraw_player(*, player, actor):
    player = saved(player, Player, label=_("The player"))
    tournament = lock_tournament(player.tournament)
    player.refresh_from_db()
    if Level.objects.filter(tournament=tournament).exists():
        raise NotAllowed(_("Players can only withdraw before the first draw."))
    if player.withdrawn_at is not None:
        raise NotAllowed(_("%(name)s has already withdrawn.") % {"name": player.name})
    player.withdrawn_at = timezone.now()
    player.save(update_fields=["withdrawn_at"])
    touch_tournament(tournament)
    audit.record(
        tournament=tournament,
        actor=actor,
        action="player.withdraw",
        params={"name": player.name, "number": player.number},
        before={"withdrawn": False},
        after={"withdrawn": True},
    )
    return player


@transaction.atomic
def rename_player(*, player, actor, name):
    """Correct a player's name (a typo at registration); the old name stays in the audit."""
    player = saved(player, Player, label=_("The player"))
    tournament = lock_tournament(player.tournament)
    player.refresh_from_db()
    name = clean_player_name(name)
    if name == player.name:
        return player
    clash = Player.objects.filter(tournament=tournament, name__iexact=name).exclude(pk=player.pk)
    if clash.exists():
        raise InvalidEntry(_("%(name)s is already registered.") % {"name": name})
    before = player.name
    player.name = name
    try:
        with transaction.atomic():
            player.save(update_fields=["name"])
    except IntegrityError as exc:
        raise InvalidEntry(_("%(name)s is already registered.") % {"name": name}) from exc
    touch_tournament(tournament)
    audit.record(
        tournament=tournament,
        actor=actor,
        action="player.rename",
        params={"old_name": before, "name": name, "number": player.number},
        before={"name": before},
        after={"name": name},
    )
    return player
