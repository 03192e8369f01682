"""The revisor's access to a table: a private link (secret key) and a short code.

Wrong short codes are throttled (docs/revisor-access.md): a small ceiling per device,
so that one person's mistakes pause only their own phone, and a much higher one per
client address, which every phone behind a venue's Wi-Fi shares. A code counts once
however often it is typed: a code typed again is a mistake, never a new guess.
"""

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Max, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import audit
from tournament.errors import InvalidEntry, ServiceError
from tournament.models import (
    REVISOR_CODE_ALPHABET,
    REVISOR_CODE_LENGTH,
    Level,
    RevisorCodeAttempt,
    RevisorStation,
    Table,
    new_revisor_code,
    new_revisor_key,
)
from tournament.rules.validation import instance
from tournament.services.idempotency import idempotent
from tournament.tables.locking import lock_table, lock_tables, lock_tournament

CODE_WINDOW = timedelta(minutes=15)
WRONG_CODES_PER_DEVICE = 10  # different wrong codes from one device in CODE_WINDOW
WRONG_CODES_PER_ADDRESS = 100  # ... from one client address, whatever the device


class WrongCodesPaused(ServiceError):
    """Too many wrong codes lately from this device or address: no code is looked at."""


def table_in_play(**lookup: object) -> Table | None:
    """The table with this key or code whose draw is current and whose level is open."""
    return (
        Table.objects.select_related("level", "draw")
        .filter(draw__superseded_at__isnull=True, level__closed_at__isnull=True, **lookup)
        .first()
    )


def not_released_message(table: Table) -> str:
    """What a revisor is told at a table the TD has not released yet (issue 19 §5)."""
    return _(
        "The seating of level %(level)d is not released yet: table %(table)d's card opens "
        "once the TD releases it. Try again then."
    ) % {"level": table.level.number, "table": table.number}


def _paused_until(
    attempts: QuerySet[RevisorCodeAttempt], ceiling: int, now: datetime
) -> datetime | None:
    """When fewer than `ceiling` different wrong codes are left in the window, or None."""
    lasts = sorted(
        attempts.filter(at__gt=now - CODE_WINDOW)
        .order_by()
        .values("code")
        .annotate(last=Max("at"))
        .values_list("last", flat=True)
    )
    if len(lasts) < ceiling:
        return None
    return lasts[len(lasts) - ceiling] + CODE_WINDOW


def _clock_time(moment: datetime) -> str:
    """`moment` on the venue's clock, rounded up to the minute: "14:35"."""
    local = timezone.localtime(moment)
    if local.second or local.microsecond:
        local = local.replace(second=0, microsecond=0) + timedelta(minutes=1)
    return local.strftime("%H:%M")


def _paused_message(device: str, client: str, now: datetime) -> str | None:
    if device:
        until = _paused_until(
            RevisorCodeAttempt.objects.filter(device=device), WRONG_CODES_PER_DEVICE, now
        )
        if until is not None:
            return _(
                "Too many wrong codes from this device: try again after %(time)s, or scan "
                "the QR code on your table's card."
            ) % {"time": _clock_time(until)}
    until = _paused_until(
        RevisorCodeAttempt.objects.filter(client=client), WRONG_CODES_PER_ADDRESS, now
    )
    if until is not None:
        return _(
            "Too many wrong codes from this network: try again after %(time)s, or scan the "
            "QR code on your table's card."
        ) % {"time": _clock_time(until)}
    return None


def clean_code(code: object) -> str:
    """A typed short code as the cards print it, or InvalidEntry (not counted as a guess:
    no table has a code of another shape)."""
    if not isinstance(code, str):
        raise InvalidEntry(_("Type the table's code."))
    code = "".join(code.split()).upper().replace("-", "")
    if not code:
        raise InvalidEntry(_("Type the table's code."))
    if len(code) != REVISOR_CODE_LENGTH or any(c not in REVISOR_CODE_ALPHABET for c in code):
        raise InvalidEntry(
            _(
                "A table code is %(length)d letters and digits, without O, 0, I, L or 1. "
                "Check the card and try again."
            )
            % {"length": REVISOR_CODE_LENGTH}
        )
    return code


def table_for_code(*, code: object, device: object, client: object) -> Table | RevisorStation:
    """The table in play with this short code, or the station (RevisorStation) with it,
    typed on `device` from address `client`.

    Refuses every code, even a right one, while the device or the address has too
    many wrong codes in the window (else guessing would simply go on through the
    pause); a wrong code is counted for both. A right code clears nothing: a player
    knows their own table's code and could otherwise reset their count with it. No
    transaction: the one write must stay when the refusal is raised, and two guesses
    at the same instant may both pass the check, which costs one guess over the ceiling.
    """
    typed = clean_code(code)
    device_id = device[:32] if isinstance(device, str) else ""
    address = client[:64] if isinstance(client, str) else ""
    now = timezone.now()
    paused = _paused_message(device_id, address, now)
    if paused is not None:
        raise WrongCodesPaused(paused)
    table = table_in_play(revisor_code=typed)
    if table is None:
        # A station's code (printed once for the event) is looked up and throttled alike.
        station = RevisorStation.objects.select_related("tournament").filter(code=typed).first()
        if station is not None:
            return station
        RevisorCodeAttempt.objects.create(client=address, device=device_id, code=typed)
        raise InvalidEntry(_("No table in play has this code. Check the card and try again."))
    if table.draw.released_at is None:
        raise InvalidEntry(not_released_message(table))
    return table


def unused_revisor_code() -> str:
    """A short code no table and no station has (the space is large; a clash only costs
    another try): one code typed at /r/ names one thing."""
    while True:
        code = new_revisor_code()
        if not (
            Table.objects.filter(revisor_code=code).exists()
            or RevisorStation.objects.filter(code=code).exists()
        ):
            return code


def access_fields() -> dict[str, str]:
    """Key and code for a table being created."""
    return {"revisor_key": new_revisor_key(), "revisor_code": unused_revisor_code()}


@idempotent("table.revisor_access", load=Table)
@transaction.atomic
def regenerate_revisor_access(*, table: Table, actor: audit.Actor) -> Table:
    """New key and code for a table: every device bound with the old ones is cut off."""
    table = lock_table(instance(table, Table, label=_("The table")))
    old_code = table.revisor_code
    fields = access_fields()
    # The lock moved the table's revision already (tables/locking.py).
    Table.objects.filter(pk=table.pk).update(**fields)
    for name, value in fields.items():
        setattr(table, name, value)
    audit.record(
        tournament=table.level.tournament,
        actor=actor,
        action="table.revisor_access",
        params={"level": table.level.number, "table": table.number, "old_code": old_code},
        before={"code": old_code},
        after={"code": table.revisor_code},
    )
    return table


@idempotent("level.revisor_access")
@transaction.atomic
def give_missing_revisor_access(*, level: Level, actor: audit.Actor) -> list[int]:
    """A link and a code for every table of the level's current draw that has none (a
    tournament restored from a backup: keys are never in one, so that a copied backup
    opens no table); tables that have one keep it. Returns the numbers of the tables
    given one, in order."""
    level = instance(level, Level, label=_("The level"))
    lock_tournament(level.tournament)
    missing = Table.objects.current().filter(level=level, revisor_key__isnull=True)
    lock_tables(missing.values_list("pk", flat=True))
    given: list[int] = []
    for table in missing.order_by("number"):  # read again under the locks
        fields = access_fields()
        Table.objects.filter(pk=table.pk).update(**fields)  # its lock moved its revision
        audit.record(
            tournament=level.tournament,
            actor=actor,
            action="table.revisor_access",
            params={"level": level.number, "table": table.number, "old_code": None},
            before={"code": None},
            after={"code": fields["revisor_code"]},
        )
        given.append(table.number)
    return given
