"""Reads of the register of players (docs/register.md): the earlier players the add form
offers, a player's earlier results, the TD's register page and its merge confirmation.

Every read follows merges (`services/register.py`): an entry merged away stands for the one
it points at, and a person's tournaments are those of every entry merged into him.
"""

import datetime
from collections import defaultdict
from dataclasses import dataclass, field

from django.utils import timezone

from tournament.lib.search import search
from tournament.lib.text import swedish_sort_key
from tournament.models import Player, RegisterEntry, Tournament
from tournament.selectors.prizes import with_prizes
from tournament.selectors.standings import standings
from tournament.services.register import roots

# At most this many earlier players are offered as the TD types: type more to narrow it.
MAX_SUGGESTIONS = 8


@dataclass(frozen=True)
class Played:
    """One tournament a register entry's person played, as the register lists it."""

    tournament_id: int
    name: str  # the tournament's
    year: int
    as_name: str  # the player's name in it


@dataclass(frozen=True)
class Person:
    """A standing register entry and every tournament its person played, oldest first."""

    entry: RegisterEntry
    played: list[Played] = field(default_factory=list)
    merged: list[RegisterEntry] = field(default_factory=list)  # the entries merged into it

    @property
    def latest(self) -> Played | None:
        return self.played[-1] if self.played else None


def _people(entries: list[RegisterEntry]) -> list[Person]:
    """`entries` (standing ones) with what each person played, merges followed: 3 queries."""
    of = roots(dict(RegisterEntry.objects.values_list("id", "merged_into_id")))
    wanted = {entry.pk for entry in entries}
    members = [entry_id for entry_id, root in of.items() if root in wanted]
    played: dict[int, list[Played]] = defaultdict(list)
    for entry_id, tournament_id, t_name, created, as_name in (
        Player.objects.filter(register_entry__in=members)
        .order_by("tournament__created_at", "tournament_id")
        .values_list(
            "register_entry_id",
            "tournament_id",
            "tournament__name",
            "tournament__created_at",
            "name",
        )
    ):
        played[of[entry_id]].append(Played(tournament_id, t_name, created.year, as_name))
    merged: dict[int, list[RegisterEntry]] = defaultdict(list)
    for entry in RegisterEntry.objects.filter(pk__in=members, merged_into__isnull=False):
        merged[of[entry.pk]].append(entry)
    return [Person(entry, played[entry.pk], merged[entry.pk]) for entry in entries]


def _standing_entries() -> list[RegisterEntry]:
    return list(RegisterEntry.objects.filter(merged_into__isnull=True))


def suggestions(tournament: Tournament, typed: str) -> list[Person]:
    """The earlier players the add form offers for the name `typed` (accents and case
    aside, as names are searched: `lib/search.py`), best matches first: those this
    tournament has already are not offered. 6 queries."""
    if not typed.strip():
        return []
    used = set(
        Player.objects.filter(tournament=tournament, register_entry__isnull=False).values_list(
            "register_entry_id", flat=True
        )
    )
    of = roots(dict(RegisterEntry.objects.values_list("id", "merged_into_id")))
    used = {of.get(entry_id, entry_id) for entry_id in used}
    found = [e for e in search(typed, _standing_entries()) if e.pk not in used]
    return _people(found[:MAX_SUGGESTIONS])


def standing_register_entry(entry_id: int) -> RegisterEntry | None:
    """The register entry of that id, if it stands (not merged away): 1 query."""
    return RegisterEntry.objects.filter(pk=entry_id, merged_into__isnull=True).first()


def register_list(typed: str = "") -> list[Person]:
    """The TD's register page: every person (standing entries), by name the Swedish way, or
    those whose name holds what was `typed`. 4 queries."""
    entries = _standing_entries()
    if typed.strip():
        entries = search(typed, entries)
    else:
        entries.sort(key=lambda entry: swedish_sort_key(entry.name))
    return _people(entries)


def register_person(entry_id: int) -> Person | None:
    """One standing entry with its tournaments and merges, for the merge confirmation."""
    entry = RegisterEntry.objects.filter(pk=entry_id, merged_into__isnull=True).first()
    return None if entry is None else _people([entry])[0]


def person_of(player: Player) -> Person | None:
    """The person `player` is in the register (his entry followed to the one standing),
    with his tournaments; None for a player linked to none."""
    if player.register_entry_id is None:
        return None
    of = roots(dict(RegisterEntry.objects.values_list("id", "merged_into_id")))
    return register_person(of.get(player.register_entry_id, player.register_entry_id))


def merges() -> list[RegisterEntry]:
    """Every merge made, newest first, with who made it and into whom."""
    return list(
        RegisterEntry.objects.filter(merged_into__isnull=False)
        .select_related("merged_into", "merged_by")
        .order_by("-merged_at", "-id")
    )


@dataclass(frozen=True)
class EarlierResult:
    """A player's result in an earlier tournament of this server."""

    tournament: Tournament
    date: datetime.date
    as_name: str  # his name then
    rank: int | None  # his final place; None when disqualified
    status: str  # as `selectors.standings.Standing.status`
    prize: int | None  # in the tournament's smallest unit; None: none


def earlier_results(player: Player) -> list[EarlierResult]:
    """`player`'s results in the tournaments finished on this server before his own was
    made, newest first (merges followed). 2 queries, then 4 per earlier tournament."""
    if player.register_entry_id is None:
        return []
    of = roots(dict(RegisterEntry.objects.values_list("id", "merged_into_id")))
    root = of.get(player.register_entry_id, player.register_entry_id)
    members = [entry_id for entry_id, its_root in of.items() if its_root == root]
    own = Tournament.objects.values_list("created_at", flat=True).get(pk=player.tournament_id)
    earlier = (
        Player.objects.filter(
            register_entry__in=members,
            tournament__finished_at__isnull=False,
            tournament__created_at__lt=own,
            withdrawn_at__isnull=True,
        )
        .exclude(tournament_id=player.tournament_id)
        .select_related("tournament")
        .order_by("-tournament__finished_at")
    )
    results = []
    for then in earlier:
        tournament = then.tournament
        line = next(
            row for row in with_prizes(tournament, standings(tournament)) if row.player == then
        )
        assert tournament.finished_at is not None  # filtered above
        results.append(
            EarlierResult(
                tournament=tournament,
                date=timezone.localdate(tournament.finished_at),
                as_name=then.name,
                rank=line.rank,
                status=line.status,
                prize=line.prize or None,
            )
        )
    return results


def public_earlier_results(tournament: Tournament, player_id: int) -> list[EarlierResult] | None:
    """A player's earlier results for his public page: None where the tournament keeps them
    to the TD (`earlier_results_public` off, the default) or has no such player."""
    if not tournament.earlier_results_public:
        return None
    player = Player.objects.filter(tournament=tournament, pk=player_id).first()
    return None if player is None else earlier_results(player)


@dataclass(frozen=True)
class FileRegister:
    """The register as a backup carries it: each player's standing entry (`of_player`, by
    the player's id), those entries in the file's order (by name), and the entries merged
    into each (by the standing entry's id)."""

    of_player: dict[int, RegisterEntry]
    entries: list[RegisterEntry]
    merged: dict[int, list[RegisterEntry]]


def file_register(players: list[Player]) -> FileRegister:
    """The register entries `players` are, merges followed: 2 queries."""
    of = roots(dict(RegisterEntry.objects.values_list("id", "merged_into_id")))
    standing = {
        player.pk: of.get(player.register_entry_id, player.register_entry_id)
        for player in players
        if player.register_entry_id is not None
    }
    wanted = set(standing.values())
    members = [entry_id for entry_id, root in of.items() if root in wanted]
    rows = {entry.pk: entry for entry in RegisterEntry.objects.filter(pk__in=members)}
    merged: dict[int, list[RegisterEntry]] = defaultdict(list)
    for entry_id in sorted(members):
        if entry_id not in wanted:
            merged[of[entry_id]].append(rows[entry_id])
    entries = sorted((rows[entry_id] for entry_id in wanted), key=lambda e: (e.folded, str(e.uuid)))
    return FileRegister(
        {player_id: rows[root] for player_id, root in standing.items()}, entries, merged
    )
