"""The audit log: entries, filtered by table, player and kind."""

from tournament.models import (
    Level,
    Player,
    Seat,
    Table,
)

# The kinds of action the audit log can be narrowed to: the part of `AuditEntry.action`
# before the dot ("hand.record", "penalty.give", ...).
AUDIT_KINDS = ("hand", "penalty", "draw", "tie", "player", "tournament", "table")


def audit_tables(tournament):
    """(level number, table number) of every table the tournament has drawn: 1 query."""
    return list(
        Table.objects.filter(level__tournament=tournament)
        .order_by("level__number", "number")
        .values_list("level__number", "number")
        .distinct()
    )


def _audit_table_q(level, number):
    """Entries about table `number` of `level`.

    Hands, corrections, ties, calls and revisor access name the table in their summary
    ("Level 2 table 7: ..." or "Level 2 table 7 calls the TD"). Penalties name only the
    table number (in `after`), and are given while their level is the open one.
    """
    from django.db.models import Q

    prefix = f"Level {level.number} table {number}"
    by_summary = Q(summary__startswith=prefix + ":") | Q(summary__startswith=prefix + " ")
    penalty = Q(action__startswith="penalty.", after__table=number, at__gte=level.created_at)
    if level.closed_at is not None:
        penalty &= Q(at__lte=level.closed_at)
    return by_summary | penalty


def audit_entries(tournament, *, table=None, player=None, kind=None):
    """The tournament's audit entries, newest first, as a lazy queryset to paginate.

    `table`: (level number, table number); `player`: a Player of the tournament (the
    entries that name them, and the hands of every table they sat at); `kind`: one of
    AUDIT_KINDS. A filter costs at most 2 queries before the entries' own.
    """
    from django.db.models import Q

    from tournament.models import AuditEntry

    entries = AuditEntry.objects.filter(tournament=tournament).order_by("-at", "-id")
    if kind:
        entries = entries.filter(action__startswith=f"{kind}.")
    if table is not None:
        level_number, number = table
        level = Level.objects.filter(tournament=tournament, number=level_number).first()
        if level is None:
            return entries.none()
        entries = entries.filter(_audit_table_q(level, number))
    if player is not None:
        # Named in the summary, but not as part of a longer name ("Anna Berg 2").
        named = Q(summary__contains=player.name)
        others = Player.objects.filter(tournament=tournament, name__contains=player.name)
        for longer in others.exclude(pk=player.pk).values_list("name", flat=True):
            named &= ~Q(summary__contains=longer)
        levels = {}
        for seat in (
            Seat.objects.filter(player=player)
            .select_related("table__level")
            .order_by("table__level__number", "table__number")
        ):
            levels.setdefault(seat.table.level.pk, (seat.table.level, set()))[1].add(
                seat.table.number
            )
        hands = Q(pk__in=[])
        for level, numbers in levels.values():
            for number in sorted(numbers):
                prefix = f"Level {level.number} table {number}:"
                hands |= Q(summary__startswith=prefix)
        entries = entries.filter(named | (Q(action__startswith="hand.") & hands))
    return entries
