"""The register of players across this server's tournaments (docs/register.md).

Every tournament's player links to a register entry: the person he is. A new player is
linked as the TD says on the players page (an earlier player picked, or a new one); a
pasted list, an older backup and migration 0021 link by name, as names are compared
(`rules/names.same_key`): a name that exactly one entry standing has, not yet used in the
tournament, is that person; any other is a new entry.

Two entries of the same person are merged (`merge_entries`) by a pointer on the one merged
away (`merged_into`, with who and when); nothing is deleted and no tournament's rows
change: the reads follow the pointer (`standing_entry`, `same_person`).
"""

import uuid
from collections.abc import Iterable, Mapping

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import audit
from tournament.errors import InvalidEntry, NotAllowed
from tournament.models import Player, RegisterEntry, Tournament
from tournament.rules.names import same_key
from tournament.rules.validation import clean_bool, saved
from tournament.services.idempotency import idempotent
from tournament.tables.locking import lock_register_entries, lock_tournament, touch_tournament

# Merges are few and chains short; a longer one would be a pointer gone round in a circle,
# which the merge refuses before it writes.
MAX_HOPS = 1000


def standing_entry(entry: RegisterEntry) -> RegisterEntry:
    """The entry `entry` stands for: itself, or the one it was merged into (followed to the
    end). One query per merge followed."""
    for _hop in range(MAX_HOPS):
        if entry.merged_into_id is None:
            return entry
        entry = RegisterEntry.objects.get(pk=entry.merged_into_id)
    raise RuntimeError("register entries merged in a circle")


def roots(pointers: Mapping[int, int | None]) -> dict[int, int]:
    """Each entry id's standing entry id, from every entry's (id -> merged_into id)."""
    found: dict[int, int] = {}
    for start in pointers:
        seen = [start]
        current = start
        while (nxt := pointers.get(current)) is not None and current not in found:
            current = nxt
            seen.append(current)
            if len(seen) > MAX_HOPS:
                raise RuntimeError("register entries merged in a circle")
        root = found.get(current, current)
        for entry_id in seen:
            found[entry_id] = root
    return found


def same_person(entry: RegisterEntry) -> list[int]:
    """The ids of every entry that is the person `entry` is: its standing entry and all
    those merged into it, however many steps away. 1 query."""
    pointers = dict(RegisterEntry.objects.values_list("id", "merged_into_id"))
    of = roots(pointers)
    root = of.get(entry.pk, entry.pk)
    return sorted(entry_id for entry_id, its_root in of.items() if its_root == root)


def _used_in(tournament: Tournament) -> set[int]:
    """The standing entries of the players `tournament` has already."""
    ids = set(
        Player.objects.filter(tournament=tournament, register_entry__isnull=False).values_list(
            "register_entry_id", flat=True
        )
    )
    if not ids:
        return set()
    of = roots(dict(RegisterEntry.objects.values_list("id", "merged_into_id")))
    return {of.get(entry_id, entry_id) for entry_id in ids}


def new_entry(name: str, *, entry_uuid: uuid.UUID | None = None) -> RegisterEntry:
    """A new person in the register, named `name` (with the backup's uuid when given)."""
    entry = RegisterEntry(name=name, folded=same_key(name) or name)
    if entry_uuid is not None:
        entry.uuid = entry_uuid
    entry.save()
    return entry


def by_name(name: str, *, exclude: Iterable[int] = ()) -> RegisterEntry | None:
    """The one standing entry whose name is `name` but for case, accents and blanks and
    that is not in `exclude` (standing entries' ids), or None: none, or several (two
    people of that name: the TD tells them apart, not the name)."""
    excluded = set(exclude)
    found = [
        entry
        for entry in RegisterEntry.objects.filter(
            folded=same_key(name) or name, merged_into__isnull=True
        )[:3]
        if entry.pk not in excluded
    ]
    return found[0] if len(found) == 1 else None


def entry_for_new_player(
    tournament: Tournament, name: str, *, picked: RegisterEntry | None = None, by_name_too: bool
) -> RegisterEntry:
    """The entry a new player of `tournament` named `name` links to. Inside the
    registration's transaction, under the tournament's lock.

    `picked`: the earlier player the TD picked (followed to its standing entry), refused if
    that person plays this tournament already. Else, with `by_name_too` (a pasted list), the
    one entry of that name not yet in the tournament (`by_name`); else a new entry.
    """
    used = _used_in(tournament)
    if picked is not None:
        entry = standing_entry(saved(picked, RegisterEntry, label=_("The earlier player")))
        if entry.pk in used:
            raise InvalidEntry(
                _("%(name)s of the register is already a player of this tournament.")
                % {"name": entry.name}
            )
        return entry
    if by_name_too:
        found = by_name(name, exclude=used)
        if found is not None:
            return found
    return new_entry(name)


def entry_for_restored_player(
    name: str, *, key: uuid.UUID | None, merged: Iterable[uuid.UUID], used: set[int]
) -> RegisterEntry:
    """The entry a restored player links to, inside the import's transaction: his file
    entry's (`key`), followed to its standing entry here; else one of the entries merged
    into it in the file (`merged`); else a new entry with the file's uuid. A backup without
    a register (`key` None, written before it) links by name as a pasted list does
    (`by_name`). `used`: the standing entries the tournament's players have so far (one
    person, one player); a person found here who is one of them already is a new entry."""
    if key is None:
        return by_name(name, exclude=used) or new_entry(name)
    for candidate in (key, *merged):
        found = RegisterEntry.objects.filter(uuid=candidate).first()
        if found is not None:
            entry = standing_entry(found)
            if entry.pk not in used:
                return entry
            break
    taken = RegisterEntry.objects.filter(uuid=key).exists()
    return new_entry(name, entry_uuid=None if taken else key)


@idempotent("register.merge", load=RegisterEntry)
@transaction.atomic
def merge_entries(
    *, entry: RegisterEntry, into: RegisterEntry, actor: audit.Actor
) -> RegisterEntry:
    """Merge `entry` into `into`: the TD says they are one person. `entry` keeps its row
    and its players; it points at `into` from now on (who and when kept, audited), and
    every read follows the pointer. Refused for an entry merged already, into itself or
    into one merged away, and for two entries that played the same tournament (two people
    who sat in one field)."""
    entry = saved(entry, RegisterEntry, label=_("The register entry"))
    into = saved(into, RegisterEntry, label=_("The register entry"))
    entry, into = lock_register_entries(entry, into)
    if entry.pk == into.pk:
        raise InvalidEntry(_("An entry cannot be merged into itself."))
    for item in (entry, into):
        if item.merged_into_id is not None:
            raise NotAllowed(
                _("%(name)s is already merged into another entry: merge that one instead.")
                % {"name": item.name}
            )
    both = set(
        Player.objects.filter(register_entry__in=same_person(entry)).values_list(
            "tournament_id", flat=True
        )
    ) & set(
        Player.objects.filter(register_entry__in=same_person(into)).values_list(
            "tournament_id", flat=True
        )
    )
    if both:
        shared = Tournament.objects.filter(pk__in=both).order_by("created_at").first()
        raise NotAllowed(
            _("%(one)s and %(other)s both played %(tournament)s: they are two people, not one.")
            % {"one": entry.name, "other": into.name, "tournament": shared}
        )
    entry.merged_into = into
    entry.merged_at = timezone.now()
    entry.merged_by = audit.actor_or_none(actor)
    entry.save(update_fields=["merged_into", "merged_at", "merged_by"])
    audit.record(
        tournament=None,
        actor=actor,
        action="register.merge",
        params={"name": entry.name, "into": into.name},
        before={"entry": str(entry.uuid), "merged_into": None},
        after={"entry": str(entry.uuid), "merged_into": str(into.uuid)},
    )
    return entry


@idempotent("tournament.earlier_results", load=Tournament)
@transaction.atomic
def set_earlier_results_public(
    *, tournament: Tournament, actor: audit.Actor, public: object
) -> Tournament:
    """Show the players' earlier results on their public pages, or on the TD's only. At
    any time: it shapes no result, only who reads them."""
    tournament = lock_tournament(saved(tournament, Tournament, label=_("The tournament")))
    public = clean_bool(public, label=_("Earlier results"))
    if public == tournament.earlier_results_public:
        return tournament
    tournament.earlier_results_public = public
    tournament.save(update_fields=["earlier_results_public"])
    touch_tournament(tournament)
    audit.record(
        tournament=tournament,
        actor=actor,
        action="tournament.earlier_results",
        params={"public": public},
        before={"earlier_results_public": not public},
        after={"earlier_results_public": public},
    )
    return tournament
