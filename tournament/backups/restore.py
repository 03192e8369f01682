"""Restore a tournament from its backup, all or nothing (docs/export-format.md).

In order: the file's bytes (`schema.parse_backup`: size, encoding,
nesting, JSON), its shape and self-consistency (`schema.check_backup`),
the facts that need no database (`verify.check_facts`: warnings,
disqualifications, departures, card scores); then, in one transaction, the rows
are written as they are (original times included), every current table is
walked from its history and compared with the file (`verify.check_tables`,
which also writes the caches the file does not carry), the levels, the end
and the champion are checked to follow (`verify.check_succession`), and
every draw's seating to follow from its seed (`verify.check_seatings`). Any
refusal is an `InvalidEntry` naming the place in the file; nothing is kept.
"""

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Model
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament import audit
from tournament.audit.legacy import read_back
from tournament.audit.sentences import fits
from tournament.backups.export import FILE_SEAT_CACHES, ROWS
from tournament.backups.schema import check_backup, parse_backup
from tournament.backups.verify import (
    Data,
    check_facts,
    check_seatings,
    check_succession,
    check_tables,
    table_key,
)
from tournament.errors import InvalidEntry
from tournament.models import (
    SEAT_CACHE_DEFAULTS,
    AuditEntry,
    Draw,
    Hand,
    HandResult,
    HandVersion,
    Level,
    Penalty,
    Player,
    Seat,
    Table,
    TieSettlement,
    Tournament,
)
from tournament.services import register
from tournament.services.idempotency import idempotent
from tournament.services.registration import tournament_named_like
from tournament.tables.locking import lock_tournament_names

BATCH = 500


class _Writer:
    """Writes checked data (`check_backup`'s result) as rows; nothing is checked here."""

    def __init__(self, data: Data) -> None:
        self.data = data
        self.users: dict[str, User | None] = {}
        self.added: list[str] = []  # usernames given a locked account (`locked_account`)
        self.left_blank: list[str] = []  # usernames no account could have
        self.players: dict[int, Player] = {}
        self.tables: dict[
            tuple[int, int, int], Table
        ] = {}  # table key (level, draw, table numbers) -> Table
        # (level, table, hand numbers) of the hands the file's audit log has an entry
        # "hand recorded" for (a backup written before migration 0015): that entry stays
        # their line in the log. The others' first version is their line.
        self.hands_with_entries = {
            (params["level"], params["table"], params["hand"])
            for params in (
                audit_params(entry, data["levels"])
                for entry in data["audit"]
                if entry["action"] == "hand.record"
            )
            if params is not None
        }
        # auto_now_add fields are overwritten on create: the file's times are put back after.
        self.stamps: dict[tuple[type[Model], str], list[tuple[Model, object]]] = {}

    def user(self, username: str | None) -> User | None:
        """The account named `username`; one made for it, locked, when this database has
        none (`locked_account`), so that who made each change is kept."""
        if username is None:
            return None
        if username not in self.users:
            model = get_user_model()
            found = model._default_manager.filter(**{model.USERNAME_FIELD: username}).first()
            self.users[username] = found or self.locked_account(username)
        return self.users[username]

    def locked_account(self, username: str) -> User | None:
        """An account for a name of the file that has none here: inactive, with no password
        (nobody logs in with it until someone gives it one: `make venue` does for its TD).
        A name no account could have here (not as Django would write it) is left out: the
        field stays blank, as the log keeps the name."""
        model = get_user_model()
        try:
            # The username's own field (a column), whose validators Django applies.
            model._meta.get_field(model.USERNAME_FIELD).run_validators(username)  # type: ignore[union-attr]
        except ValidationError:
            self.left_blank.append(username)
            return None
        if model.normalize_username(username) != username:
            self.left_blank.append(username)
            return None
        self.added.append(username)
        created: User = model._default_manager.create_user(
            **{model.USERNAME_FIELD: username}, password=None, is_active=False
        )
        return created

    def stamp(self, obj: Model, field: str, value: object) -> None:
        self.stamps.setdefault((type(obj), field), []).append((obj, value))

    def player(self, number: int | None) -> Player | None:
        return None if number is None else self.players[number]

    def write(self) -> Tournament:
        data = self.data
        tournament = Tournament.objects.create(
            created_by=self.user(data["created_by"]),
            # A setting the file leaves out (added to the format later) takes its default.
            **{
                name: data["settings"][name]
                for name in Tournament.SETTINGS
                if data["settings"][name] is not None
            },
            # A backup written before buy-ins and prizes has none: the defaults (no prizes).
            **(data["prizes"] or {}),
            # One written before the register: the earlier results are the TD's only.
            earlier_results_public=bool(data["earlier_results_public"]),
        )
        self.stamp(tournament, "created_at", data["created_at"])
        self.write_players(tournament)
        for level in data["levels"]:
            self.write_level(tournament, level)
        self.write_penalties(tournament)
        self.write_audit(tournament)
        Tournament.objects.filter(pk=tournament.pk).update(
            finished_at=data["finished_at"], champion=self.player(data["champion"])
        )
        for (model, field), pairs in self.stamps.items():
            for obj, value in pairs:
                setattr(obj, field, value)
            model._default_manager.bulk_update([obj for obj, _ in pairs], [field], batch_size=BATCH)
        tournament.refresh_from_db()
        return tournament

    def write_players(self, tournament: Tournament) -> None:
        rows = []
        # The register entries the file's players are (docs/register.md): by uuid, merges
        # followed; a backup written before the register links each player by name.
        merged = {item["uuid"]: item["merged"] for item in self.data["register"] or []}
        used: set[int] = set()
        for item in self.data["players"]:
            entry = register.entry_for_restored_player(
                item["name"],
                key=item["register"],
                merged=merged.get(item["register"], ()),
                used=used,
            )
            used.add(entry.pk)
            player = Player(
                tournament=tournament,
                number=item["number"],
                name=item["name"],
                withdrawn_at=item["withdrawn_at"],
                disqualified=item["disqualified"],
                alike_confirmed=bool(item["alike_confirmed"]),  # None: an older backup
                register_entry=entry,
            )
            self.stamp(player, "registered_at", item["registered_at"])
            rows.append(player)
        Player.objects.bulk_create(rows, batch_size=BATCH)
        self.players = {player.number: player for player in rows}

    def write_level(self, tournament: Tournament, item: Data) -> None:
        level = Level.objects.create(
            tournament=tournament, number=item["number"], closed_at=item["closed_at"]
        )
        self.stamp(level, "created_at", item["created_at"])
        for draw_item in item["draws"]:
            draw = Draw.objects.create(
                level=level,
                number=draw_item["number"],
                seed=draw_item["seed"],
                created_by=self.user(draw_item["created_by"]),
                superseded_at=draw_item["superseded_at"],
                reason=draw_item["reason"],
                # A draw the TD had not released stays his; the release's moment is not
                # kept, only that it was shown (from its making, as every draw before).
                released_at=None if draw_item["held"] else draw_item["created_at"],
            )
            self.stamp(draw, "created_at", draw_item["created_at"])
            for table_item in draw_item["tables"]:
                table = self.write_table(level, draw, table_item)
                self.tables[table_key(item, draw_item, table_item)] = table

    def write_table(self, level: Level, draw: Draw, item: Data) -> Table:
        table = Table.objects.create(
            level=level,
            draw=draw,
            number=item["number"],
            first_dealer_position=item["first_dealer_position"],
            hands_played=item["hands_played"],
            required_hands=item["required_hands"],
            is_over=item["is_over"],
            winner=self.player(item["winner"]),
            # The file's standings; whether each seat plays the next hand in Fantasyland
            # comes from the walk of its hands (`verify`).
            seat_caches={
                str(seat["position"]): {
                    **SEAT_CACHE_DEFAULTS,
                    **{name: seat[name] for name in FILE_SEAT_CACHES},
                }
                for seat in item["seats"]
            },
        )
        seats = [
            Seat(
                table=table,
                draw=draw,
                player=self.player(seat["player"]),
                position=seat["position"],
                left_after_hand=seat["left_after_hand"],
            )
            for seat in item["seats"]
        ]
        Seat.objects.bulk_create(seats)
        self.write_hands(table, {seat.position: seat for seat in seats}, item)
        for tie in item["tie_settlements"]:
            # The schema requires a settlement's winner: a player of the file.
            settlement = TieSettlement.objects.create(  # type: ignore[misc]
                table=table,
                winner=self.player(tie["winner"]),
                reason=tie["reason"],
                created_by=self.user(tie["created_by"]),
            )
            self.stamp(settlement, "created_at", tie["created_at"])
        return table

    def write_hands(self, table: Table, seats: Mapping[int, Seat], item: Data) -> None:
        hands: list[Hand] = []
        versions: list[tuple[Hand, HandVersion]] = []
        results: list[tuple[HandVersion, HandResult]] = []
        for hand_item in item["hands"]:
            hand = Hand(table=table, number=hand_item["number"])
            self.stamp(hand, "created_at", hand_item["created_at"])
            hands.append(hand)
            for version_item in hand_item["versions"]:
                version = HandVersion(
                    version=version_item["version"],
                    mode=version_item["mode"],
                    idempotency_key=version_item["idempotency_key"],
                    created_by=self.user(version_item["created_by"]),
                    entered_by_label=version_item["entered_by_label"],
                    reason=version_item["reason"],
                    superseded_at=version_item["superseded_at"],
                    has_audit_entry=(
                        version_item["version"] == 1
                        and (table.level.number, item["number"], hand_item["number"])
                        in self.hands_with_entries
                    ),
                )
                self.stamp(version, "created_at", version_item["created_at"])
                versions.append((hand, version))
                results.extend(
                    (version, self.result(seats, result)) for result in version_item["results"]
                )
        Hand.objects.bulk_create(hands, batch_size=BATCH)
        for hand, version in versions:
            version.hand = hand
        HandVersion.objects.bulk_create([version for _, version in versions], batch_size=BATCH)
        for version, result in results:
            result.version = version
        HandResult.objects.bulk_create([result for _, result in results], batch_size=BATCH)

    @staticmethod
    def result(seats: Mapping[int, Seat], item: Data) -> HandResult:
        cards = item["cards"] or {}
        return HandResult(
            seat=seats[item["position"]],
            points=item["points"],
            fouled=item["fouled"],
            royalties=item["royalties"],
            in_fantasyland=item["in_fantasyland"],
            fantasyland_next=item["fantasyland_next"],
            **{row: cards[row] for row in ROWS if cards},
            detail=item["detail"],
        )

    def write_penalties(self, tournament: Tournament) -> None:
        rows = []
        for item in self.data["penalties"]:
            ref = item["table"]
            penalty = Penalty(
                tournament=tournament,
                player=self.player(item["player"]),
                table=None
                if ref is None
                else self.tables[(ref["level"], ref["draw"], ref["table"])],
                kind=item["kind"],
                note=item["note"],
                after_hand=item["after_hand"],
                created_by=self.user(item["created_by"]),
                rescinded_at=item["rescinded_at"],
                rescinded_by=self.user(item["rescinded_by"]),
                rescind_reason=item["rescind_reason"],
                warning_number=item["warning_number"],
                points=item["points"],
            )
            self.stamp(penalty, "created_at", item["created_at"])
            rows.append(penalty)
        # In file order, so that the ids keep the order of penalties given in the same instant.
        Penalty.objects.bulk_create(rows, batch_size=BATCH)

    def write_audit(self, tournament: Tournament) -> None:
        entries = []
        for item in self.data["audit"]:
            params = audit_params(item, self.data["levels"])
            entry = AuditEntry(
                tournament=tournament,
                actor=self.user(item["actor"]),
                actor_label=item["actor_label"],
                action=item["action"],
                params=params,
                # The file's English sentence is kept only where it is all there is.
                summary="" if params is not None else item["summary"],
                before=item["before"],
                after=item["after"],
            )
            self.stamp(entry, "at", item["at"])
            entries.append(entry)
        AuditEntry.objects.bulk_create(entries, batch_size=BATCH)


def audit_params(item: Data, levels: Sequence[Data]) -> dict[str, Any] | None:
    """An audit entry's params: the file's, or read back from the English sentence of a
    backup written before the log kept them (None when neither gives the sentence)."""
    if fits(item["action"], item["params"]):
        return item["params"]

    def level_at() -> int | None:
        open_then = [
            level["number"]
            for level in levels
            if level["created_at"] <= item["at"]
            and (level["closed_at"] is None or item["at"] <= level["closed_at"])
        ]
        return max(open_then, default=None)

    return read_back(
        action=item["action"],
        summary=item["summary"],
        before=item["before"],
        after=item["after"],
        level_at=level_at,
    )


def ref_key(ref: Data) -> tuple[int, int, int]:
    """A penalty's table reference as a table key."""
    return (ref["level"], ref["draw"], ref["table"])


def _versions(data: Data) -> Iterator[tuple[str, Data]]:
    """(path, hand version) for every hand version in the file."""
    for level_index, level in enumerate(data["levels"]):
        for draw_index, draw in enumerate(level["draws"]):
            for table_index, table in enumerate(draw["tables"]):
                for hand_index, hand in enumerate(table["hands"]):
                    for version_index, version in enumerate(hand["versions"]):
                        yield (
                            f"levels[{level_index}].draws[{draw_index}].tables[{table_index}]"
                            f".hands[{hand_index}].versions[{version_index}]",
                            version,
                        )


def _refuse_what_the_database_has(data: Data) -> None:
    # The same name as the TD's create and rename refuse: case, accents and blanks aside.
    lock_tournament_names()
    taken = tournament_named_like(data["settings"]["name"])
    if taken is not None:
        raise InvalidEntry(
            _("A tournament named “%(name)s” already exists: the backup is not imported.")
            % {"name": taken}
        )
    where_of = {version["idempotency_key"]: where for where, version in _versions(data)}
    keys = list(where_of)
    for start in range(0, len(keys), BATCH):
        key_taken = (
            HandVersion.objects.filter(idempotency_key__in=keys[start : start + BATCH])
            .values_list("idempotency_key", flat=True)
            .first()
        )
        if key_taken is not None:
            raise InvalidEntry(
                _(
                    "%(where)s is already in this database (its submission key is taken): "
                    "this backup was restored here before under another name."
                )
                % {"where": f"{where_of[key_taken]}.idempotency_key"}
            )


@idempotent("backup.import", load=Tournament)
@transaction.atomic
def import_tournament(data: object, *, actor: User | None = None) -> Tournament:
    """Restore a tournament from its backup's JSON data (parsed), all or nothing.

    Refused (InvalidEntry, naming the place in the file) when the data is
    malformed, contradicts itself or its history, or a tournament of that name
    (case, accents and blanks aside) already exists. Users are matched by username;
    a username this database has no account for gets one, locked (`_Writer.
    locked_account`), so that who made each draw, penalty and hand is kept. The
    tournament's `accounts_note` says so (None when every name had an account).
    """
    data = check_backup(data)
    check_facts(data)
    _refuse_what_the_database_has(data)
    writer = _Writer(data)
    try:
        with transaction.atomic():
            tournament = writer.write()
    except IntegrityError as exc:
        raise InvalidEntry(
            _("This backup contradicts itself or this database and is not imported.")
        ) from exc
    check_tables(data, {key: table.pk for key, table in writer.tables.items()})
    check_succession(data)
    check_seatings(data)
    exported = data["exported_at"].isoformat()
    audit.record(
        tournament=tournament,
        actor=actor,
        action="tournament.import",
        params={"name": tournament.name, "exported": exported},
        after={"levels": len(data["levels"]), "players": len(data["players"])},
    )
    # Said by the page or the command that imported it; never stored.
    tournament.accounts_note = accounts_note(  # type: ignore[attr-defined]
        writer.added, writer.left_blank
    )
    return tournament


def accounts_note(added: list[str], left_blank: list[str]) -> str | None:
    """What the TD is told of the accounts an import made, or could not make: one line."""
    said = []
    if added:
        said.append(
            ngettext(
                "%(names)s had no login in this database: added, locked (no password), to "
                "keep who made each change.",
                "%(names)s had no login in this database: added, locked (no password), to "
                "keep who made each change.",
                len(added),
            )
            % {"names": get_text_list(added, _("and"))}
        )
    if left_blank:
        said.append(
            _(
                "The changes made by %(names)s are kept without who made them: no login can "
                "have that name here (the log keeps it)."
            )
            % {"names": get_text_list(left_blank, _("and"))}
        )
    return " ".join(said) or None


def import_backup(raw: object, *, actor: User | None = None) -> Tournament:
    """Restore a tournament from a backup file's bytes (the page's upload, the command)."""
    return import_tournament(parse_backup(raw), actor=actor)
