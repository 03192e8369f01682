"""The audit log: entries, filtered by table, player and kind.

Two sources, read as one list newest first: the AuditEntry rows (every change of state)
and the first version of every hand recorded since migration 0015, which is the hand's
"hand recorded" line (who, when, what it says) and has no AuditEntry of its own.
"""

from typing import overload

from django.db.models import F, Prefetch, Q, QuerySet, Value

from tournament.models import (
    AuditEntry,
    HandResult,
    HandVersion,
    Level,
    Player,
    Seat,
    Table,
    Tournament,
)

# The kinds of action the audit log can be narrowed to: the part of `AuditEntry.action`
# before the dot ("hand.record", "penalty.give", ...).
AUDIT_KINDS = ("hand", "penalty", "draw", "tie", "player", "tournament", "table")

# An entry kept as its stored sentence only (from before the log was kept as data, and
# not read back): the filters look into that text as the log used to.
AS_TEXT = Q(params__isnull=True)


def audit_tables(tournament: Tournament) -> list[tuple[int, int]]:
    """(level number, table number) of every table of the draws that stand: 1 query. A
    redone draw's tables are gone from the room (their players sit at the new draw's),
    and its entries (the redraw itself) are under "Draws"."""
    return list(
        Table.objects.current()
        .filter(level__tournament=tournament)
        .order_by("level__number", "number")
        .values_list("level__number", "number")
        .distinct()
    )


def _at_table(level_number: int, number: int) -> Q:
    """Entries whose params name table `number` of level `level_number`.

    Hands, corrections, ties, calls, revisor access and penalties given at a table.
    """
    return Q(params__level=level_number, params__table=number)


def _text_at_table(level: Level, number: int) -> Q:
    """Stored sentences about table `number` of `level` ("Level 2 table 7: ...", "Level 2
    table 7 calls the TD"); penalties named only the table number (in `after`), and were
    given while their level was the open one."""
    prefix = f"Level {level.number} table {number}"
    by_summary = Q(summary__startswith=prefix + ":") | Q(summary__startswith=prefix + " ")
    penalty = Q(action__startswith="penalty.", after__table=number, at__gte=level.created_at)
    if level.closed_at is not None:
        penalty &= Q(at__lte=level.closed_at)
    return AS_TEXT & (by_summary | penalty)


def _naming(player: Player) -> Q:
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


def _text_naming(tournament: Tournament, player: Player) -> Q:
    """Stored sentences that name the player, but not as part of a longer name ("Anna Berg")."""
    named = Q(summary__contains=player.name)
    others = Player.objects.filter(tournament=tournament, name__contains=player.name)
    for longer in others.exclude(pk=player.pk).values_list("name", flat=True):
        named &= ~Q(summary__contains=longer)
    return AS_TEXT & named


def hands_recorded(tournament: Tournament) -> QuerySet[HandVersion]:
    """The first versions that are the log's "hand recorded" lines (no AuditEntry of
    their own), as a lazy queryset."""
    return HandVersion.objects.filter(
        hand__table__level__tournament=tournament, version=1, has_audit_entry=False
    ).order_by()


def audit_entries(
    tournament: Tournament,
    *,
    table: tuple[int, int] | None = None,
    player: Player | None = None,
    kind: str | None = None,
) -> "AuditLog":
    """The tournament's audit log, newest first, as an AuditLog to paginate.

    `table`: (level number, table number); `player`: a Player of the tournament (the
    entries that name them, and the hands of every table they sat at); `kind`: one of
    AUDIT_KINDS. A filter costs at most 2 queries before the entries' own.
    """
    entries = AuditEntry.objects.filter(tournament=tournament).order_by()
    hands = hands_recorded(tournament)
    if kind:
        entries = entries.filter(action__startswith=f"{kind}.")
        if kind != "hand":
            hands = hands.none()
    if table is not None:
        level_number, number = table
        level = Level.objects.filter(tournament=tournament, number=level_number).first()
        if level is None:
            return AuditLog(entries.none(), hands.none())
        entries = entries.filter(_at_table(level_number, number) | _text_at_table(level, number))
        hands = hands.filter(hand__table__level=level, hand__table__number=number)
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
        hands = hands.filter(hand__table__seats__player=player)
    return AuditLog(entries, hands)


class AuditLog:
    """AuditEntry rows and hands' "hand recorded" lines as one list, newest first, for a
    Paginator: `count()`, and a slice read as AuditEntry instances (a hand's line is one
    made for reading, never saved). A page costs 3 queries past its count (2)."""

    ENTRY, HAND = 0, 1

    def __init__(self, entries: QuerySet[AuditEntry], hands: QuerySet[HandVersion]) -> None:
        self.entries = entries
        self.hands = hands

    def count(self) -> int:
        return self.entries.count() + self.hands.count()

    def __len__(self) -> int:
        return self.count()

    @overload
    def __getitem__(self, window: int) -> AuditEntry: ...
    @overload
    def __getitem__(self, window: slice) -> list[AuditEntry]: ...
    def __getitem__(self, window: int | slice) -> AuditEntry | list[AuditEntry]:
        if not isinstance(window, slice):
            return self[window : window + 1][0]
        window_keys = (
            self.entries.annotate(source=Value(self.ENTRY))
            .values_list("at", "id", "source")
            .union(
                self.hands.annotate(at=F("created_at"), source=Value(self.HAND)).values_list(
                    "at", "id", "source"
                ),
                all=True,
            )
            .order_by("-at", "-source", "-id")
        )[window]
        keys = list(window_keys)
        entries = AuditEntry.objects.in_bulk([pk for _, pk, source in keys if source == self.ENTRY])
        lines = {
            version.pk: hand_recorded_line(version)
            for version in for_their_lines(
                HandVersion.objects.filter(
                    pk__in=[pk for _, pk, source in keys if source == self.HAND]
                )
            )
        }
        # Nothing is deleted: every key's row is there.
        return [entries[pk] if source == self.ENTRY else lines[pk] for _, pk, source in keys]


def for_their_lines(versions: QuerySet[HandVersion]) -> QuerySet[HandVersion]:
    """`versions` with what `hand_recorded_line` reads loaded: 2 queries in all."""
    return versions.select_related("hand__table__level", "created_by").prefetch_related(
        Prefetch(
            "results", HandResult.objects.select_related("seat__player").order_by("seat__position")
        )
    )


# What a hand's line says of each player's result, as the entry of a hand recorded before
# 0015 said it ("after"): points and Fantasyland; the cards and how they scored as well.
POINTS_RESULT = ("points", "fantasyland_next")
CARDS_RESULT = (*POINTS_RESULT, "fouled", "royalties", "front", "middle", "back")


def hand_recorded_line(version: HandVersion) -> AuditEntry:
    """A hand's first version as its "hand recorded" line: an AuditEntry made for reading
    (`version.hand.table.level`, `created_by` and `results` with seats and players loaded)."""
    hand, table = version.hand, version.hand.table
    shown = POINTS_RESULT if version.mode == HandVersion.Mode.POINTS else CARDS_RESULT
    user = version.created_by
    return AuditEntry(
        tournament_id=table.level.tournament_id,
        at=version.created_at,
        actor=user,
        actor_label=version.entered_by_label or (user.get_username() if user else "system"),
        action="hand.record",
        params={
            "level": table.level.number,
            "table": table.number,
            "hand": hand.number,
            "mode": version.mode,
        },
        after={
            "hand": hand.number,
            "mode": version.mode,
            "results": {
                result.seat.player.name: {name: getattr(result, name) for name in shown}
                for result in version.results.all()
            },
        },
    )
