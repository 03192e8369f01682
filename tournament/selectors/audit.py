"""The audit log: entries, filtered by table, player and kind."""

from django.db.models import Q

from tournament.models import (
    AuditEntry,
    Level,
    Player,
    Seat,
    Table,
)

# The kinds of action the audit log can be narrowed to: the part of `AuditEntry.action`
# before the dot ("hand.record", "penalty.give", ...).
AUDIT_KINDS = ("hand", "penalty", "draw", "tie", "player", "tournament", "table")

# An entry kept as its stored sentence only (from before the log was kept as data, and
# not read back): the filters look into that text as the log used to.
AS_TEXT = Q(params__isnull=True)


def audit_tables(tournament):
    """(level number, table number) of every table the tournament has drawn: 1 query."""
    return list(
        Table.objects.filter(level__tournament=tournament)
        .order_by("level__number", "number")
        .values_list("level__number", "number")
        .distinct()
    )


def _at_table(level_number, number):
    """Entries whose params name table `number` of level `level_number`.

    Hands, corrections, ties, calls, revisor access and penalties given at a table.
    """
    return Q(params__level=level_number, params__table=number)


def _text_at_table(level, number):
    """Stored sentences about table `number` of `level` ("Level 2 table 7: ...", "Level 2
    table 7 calls the TD"); penalties named only the table number (in `after`), and were
    given while their level was the open one."""
    prefix = f"Level {level.number} table {number}"
    by_summary = Q(summary__startswith=prefix + ":") | Q(summary__startswith=prefix + " ")
    penalty = Q(action__startswith="penalty.", after__table=number, at__gte=level.created_at)
    if level.closed_at is not None:
        penalty &= Q(at__lte=level.closed_at)
    return AS_TEXT & (by_summary | penalty)


def _naming(player):
    """Entries whose params name the player: registered, renamed, penalised, tie won (or
    decided again for another), champion."""
    name = player.name
    return (
        (Q(action__startswith="player.") & (Q(params__name=name) | Q(params__old_name=name)))
        | Q(params__player=name)
        | Q(params__winner=name)
        | Q(params__previous=name)
        | Q(params__champion=name)
    )


def _text_naming(tournament, player):
    """Stored sentences that name the player, but not as part of a longer name ("Anna Berg")."""
    named = Q(summary__contains=player.name)
    others = Player.objects.filter(tournament=tournament, name__contains=player.name)
    for longer in others.exclude(pk=player.pk).values_list("name", flat=True):
        named &= ~Q(summary__contains=longer)
    return AS_TEXT & named


def audit_entries(tournament, *, table=None, player=None, kind=None):
    """The tournament's audit entries, newest first, as a lazy queryset to paginate.

    `table`: (level number, table number); `player`: a Player of the tournament (the
    entries that name them, and the hands of every table they sat at); `kind`: one of
    AUDIT_KINDS. A filter costs at most 2 queries before the entries' own.
    """
    entries = AuditEntry.objects.filter(tournament=tournament).order_by("-at", "-id")
    if kind:
        entries = entries.filter(action__startswith=f"{kind}.")
    if table is not None:
        level_number, number = table
        level = Level.objects.filter(tournament=tournament, number=level_number).first()
        if level is None:
            return entries.none()
        entries = entries.filter(_at_table(level_number, number) | _text_at_table(level, number))
    if player is not None:
        sat_at = Q(pk__in=[])
        for level_number, number in (
            Seat.objects.filter(player=player)
            .order_by("table__level__number", "table__number")
            .values_list("table__level__number", "table__number")
            .distinct()
        ):
            prefix = f"Level {level_number} table {number}:"
            sat_at |= _at_table(level_number, number) | (AS_TEXT & Q(summary__startswith=prefix))
        entries = entries.filter(
            _naming(player)
            | _text_naming(tournament, player)
            | (Q(action__startswith="hand.") & sat_at)
        )
    return entries
