"""Recording hands, correcting them, and settling ties for first."""

import uuid
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import InvalidHand, Rules, parse_row, score_hand
from scoring.cards import card_code
from tournament import audit, events
from tournament.errors import (
    Conflict,
    HandConflict,
    InvalidEntry,
    NotAllowed,
    ServiceError,
    TableOver,
)
from tournament.models import (
    Hand,
    HandResult,
    HandVersion,
    Player,
    Seat,
    Table,
    TieSettlement,
    Tournament,
)
from tournament.rules.board_parts import refuse_stray_parts, refuse_wrong_discards
from tournament.rules.hand_errors import invalid_hand_message
from tournament.rules.table_fold import (
    HandInput,
    RepeatBroken,
    ResultInput,
    TableState,
    play,
    repeat_broken,
)
from tournament.rules.validation import clean_int, clean_text, column_length, instance, saved
from tournament.services.idempotency import hand_sent_again, idempotent
from tournament.services.stale import by_whom, clock
from tournament.tables.locking import lock_table, read_table_and_seats
from tournament.tables.state import (
    cached_progress,
    cached_state,
    conclude_table,
    concluded,
    history_state,
    table_seats,
)
from tournament.tables.store import TableMoved, recompute_table, store

MAX_POINTS = 999
ROWS = ("front", "middle", "back")
LABEL_LENGTH = column_length(HandVersion, "entered_by_label")
REASON_LENGTH = column_length(HandVersion, "reason")

# A seat's line of a hand: its HandResult's fields by name (points, Fantasyland, and for
# cards the rows, fouled, royalties, detail), as the row is created with them.
type ResultLine = dict[str, Any]
# Seat id -> its line.
type Lines = dict[int, ResultLine]


@dataclass(frozen=True)
class Recorded:
    hand: Hand
    created: bool  # False: the same submission arrived again (a double tap)
    # A new hand's table (`hand.table`) came with its seats (players loaded) and its state,
    # read for the hand and written with it (at the revision it was read at): what its
    # card shows next, with no read of its own. Empty for a submission that arrived again.
    seats: tuple[Seat, ...] = ()
    state: TableState | None = None


def _key(idempotency_key: object) -> uuid.UUID:
    if isinstance(idempotency_key, uuid.UUID):
        return idempotency_key
    try:
        return uuid.UUID(idempotency_key)  # type: ignore[arg-type]  # refused below if not text
    except (TypeError, ValueError, AttributeError) as exc:
        raise InvalidEntry(_("The submission has no valid key; reload the page.")) from exc


def check_table_open(table: Table) -> None:
    """Refuse a change to a table whose results are final or whose seating is not in play."""
    if table.draw.superseded_at is not None:
        raise NotAllowed(_("This table was redrawn; use the new table."))
    if table.draw.released_at is None:
        raise NotAllowed(_("This table's seating is not released yet."))
    if table.level.closed_at is not None:
        raise NotAllowed(_("This level is closed: its results are final."))


def _positions(value: object, seats: Sequence[Seat], what: str) -> set[int]:
    """A set of seat positions among `seats` (e.g. who goes to Fantasyland)."""
    if value is None:
        return set()
    if isinstance(value, (str, bytes, dict)) or not isinstance(
        value, (set, frozenset, list, tuple)
    ):
        raise InvalidEntry(_("%(what)s must be a list of seats.") % {"what": what})
    known = {seat.position for seat in seats}
    positions: set[int] = set()
    for item in value:
        if type(item) is not int or item not in known:
            raise InvalidEntry(
                _("%(what)s names a seat that is not playing this hand.") % {"what": what}
            )
        positions.add(item)
    return positions


def _points_lines(seats: Sequence[Seat], points: object, fantasyland: Collection[int]) -> Lines:
    if not isinstance(points, dict):
        raise InvalidEntry(_("Enter each player's points."))
    expected = {seat.position for seat in seats}
    if set(points) != expected:
        missing = [s.player.name for s in seats if s.position not in points]
        if missing:
            raise InvalidEntry(
                _("Points are missing for %(names)s.") % {"names": ", ".join(missing)}
            )
        raise InvalidEntry(_("Points were given for a seat that is not playing this hand."))
    lines: Lines = {}
    for seat in seats:
        value = clean_int(
            points[seat.position],
            label=_("%(name)s's points") % {"name": seat.player.name},
            minimum=-MAX_POINTS,
            maximum=MAX_POINTS,
        )
        lines[seat.id] = {"points": value, "fantasyland_next": seat.position in fantasyland}
    total = sum(line["points"] for line in lines.values())
    if total != 0:
        raise InvalidEntry(
            _("The points must add up to zero; they add up to %(total)+d.") % {"total": total}
        )
    return lines


def _row_text(value: object) -> object:
    """A row as given (text, or a list of card texts) as text for the scorer."""
    if isinstance(value, (list, tuple)) and all(isinstance(card, str) for card in value):
        return " ".join(value)
    return value


def scoring_board(
    board: Mapping[str, object], *, in_fantasyland: object, streak: int | None
) -> dict[str, object]:
    """One player's rows as `scoring.score_hand` reads them, with his Fantasyland flags.

    `board` is {"front": "Qs Qh 7d", ...}; `in_fantasyland` and `streak` are the
    seat's entries of TableState.in_fantasyland and .fantasyland_streak for this hand.
    Recording a hand and checking it before it is recorded (the revisor's preview)
    both score through this, so they agree.
    """
    entry: dict[str, object] = {row: _row_text(board.get(row, "")) for row in ROWS}
    if in_fantasyland:
        entry["fantasyland"] = True
        entry["fantasyland_streak"] = max(1, streak or 1)
    return entry


def _card_lines(
    seats: Sequence[Seat],
    boards: object,
    rules: Rules,
    in_fl: Mapping[int, bool],
    streak: Mapping[int, int],
) -> Lines:
    if not isinstance(boards, dict) or set(boards) != {seat.position for seat in seats}:
        raise InvalidEntry(_("Enter the cards of every player in the hand."))
    for seat in seats:
        if not isinstance(boards[seat.position], dict):
            raise InvalidEntry(_("Enter %(name)s's three rows.") % {"name": seat.player.name})
    refuse_stray_parts(seats, boards, in_fl)
    entries: list[dict[str, object]] = []
    for seat in seats:
        board = boards[seat.position]
        entries.append(
            scoring_board(board, in_fantasyland=in_fl.get(seat.id), streak=streak.get(seat.id, 1))
        )
    try:
        results = score_hand(entries, rules=rules)
    except InvalidHand as exc:
        raise InvalidEntry(invalid_hand_message(exc, [s.player.name for s in seats])) from exc
    lines: Lines = {}
    for index, (seat, entry, result) in enumerate(zip(seats, entries, results, strict=True), 1):
        cards = result.to_dict()
        lines[seat.id] = {
            "points": result.points,
            "fantasyland_next": result.fantasyland,
            "fouled": result.fouled,
            "royalties": result.royalties,
            # Kept as plain card codes ("Qs Qh 7d"), however they were typed.
            **{
                row: " ".join(card_code(c) for c in parse_row(entry[row], index, row))
                for row in ROWS
            },
            "detail": {
                "categories": cards.get("categories"),
                "row_royalties": cards.get("row_royalties"),
                "descriptions": cards.get("descriptions"),
            },
        }
    placed = {card for line in lines.values() for row in ROWS for card in line[row].split()}
    refuse_wrong_discards(seats, boards, placed)
    return lines


def _lines(
    table: Table,
    seats: Sequence[Seat],
    *,
    points: object,
    boards: object,
    fantasyland: object,
    in_fl: Mapping[int, bool],
    streak: Mapping[int, int],
) -> tuple[str, Lines]:
    tournament = table.level.tournament
    if (points is None) == (boards is None):
        raise InvalidEntry(_("Enter the hand either as points or as cards."))
    if boards is not None:
        if tournament.entry_mode == Tournament.EntryMode.POINTS:
            raise InvalidEntry(_("This tournament records hands as points."))
        return HandVersion.Mode.CARDS, _card_lines(seats, boards, tournament.rules, in_fl, streak)
    if tournament.entry_mode == Tournament.EntryMode.CARDS:
        raise InvalidEntry(_("This tournament records hands as cards."))
    going = _positions(fantasyland, seats, _("Fantasyland"))
    return HandVersion.Mode.POINTS, _points_lines(seats, points, going)


def _hand_input(number: int, lines: Lines, mode: str) -> HandInput:
    return HandInput(
        number=number,
        results={
            sid: ResultInput(points=line["points"], fantasyland_next=line["fantasyland_next"])
            for sid, line in lines.items()
        },
        cards=(
            {sid: {row: line[row] for row in ROWS} for sid, line in lines.items()}
            if mode == HandVersion.Mode.CARDS
            else None
        ),
    )


def _refuse_broken_repeat(
    broken: Sequence[RepeatBroken], seats: Sequence[Seat], tournament: Tournament
) -> None:
    """A revisor's 'goes to Fantasyland' must fit the tournament's repeat rule."""
    if not broken:
        return
    first = broken[0]
    name = next(s.player.name for s in seats if s.id == first.seat_id)
    if tournament.fantasyland_repeat == Tournament.FantasylandRepeat.NEVER:
        message = _(
            "%(name)s played hand %(hand)d in Fantasyland, and in this tournament "
            "Fantasyland never repeats."
        )
    else:
        message = _(
            "%(name)s has already repeated Fantasyland once by hand %(hand)d, the most "
            "this tournament allows."
        )
    raise InvalidEntry(message % {"name": name, "hand": first.hand_number})


def _save_results(
    version: HandVersion, seats: Sequence[Seat], lines: Lines, in_fl: Mapping[int, bool]
) -> None:
    HandResult.objects.bulk_create(
        HandResult(
            version=version,
            seat=seat,
            in_fantasyland=bool(in_fl.get(seat.id)),
            **lines[seat.id],
        )
        for seat in seats
    )


def _describe(seats: Sequence[Seat], lines: Lines) -> dict[str, ResultLine]:
    return {
        seat.player.name: {k: v for k, v in lines[seat.id].items() if k != "detail"}
        for seat in seats
    }


def _says_the_same(
    old: HandVersion,
    old_results: Mapping[int, HandResult],
    mode: str,
    seats: Sequence[Seat],
    lines: Lines,
) -> bool:
    """Whether a correction would only repeat the hand's current version (entered the same
    way, every value equal): a version that changes nothing would still mark the hand as
    corrected on every page."""
    return old.mode == mode and all(
        getattr(old_results[seat.id], name) == value
        for seat in seats
        for name, value in lines[seat.id].items()
        if name != "detail"
    )


def _label(actor_label: object) -> str:
    return clean_text(
        actor_label, label=_("The entry's label"), max_length=LABEL_LENGTH, required=False
    )


class _KeyTaken(Exception):
    """The submission key is in the database already: answered outside the transaction."""


# How many times a hand is worked out again when its table moved while it was being
# recorded (a TD's penalty, another tablet's hand): each time from the table as it is
# then, so a hand is never written over what it did not see.
ATTEMPTS = 5


def record_hand(
    *,
    table: Table,
    hand_number: object,
    idempotency_key: object,
    actor: audit.Actor = None,
    actor_label: object = "",
    points: object = None,
    boards: object = None,
    fantasyland: object = (),
) -> Recorded:
    """Record the next hand at a table, as points (summing to zero) or as cards.

    The same submission (idempotency key) twice records one hand: the second
    answers `created=False`. The key of another change (another hand, a correction)
    is refused (KeyInUse). A second tablet submitting the same hand number gets
    a HandConflict. The cost is the same at every hand: the table's cached
    progress is folded with this hand only.

    No lock is taken before the hand is written (tables/locking.py): the table is
    read, the hand inserted, and the table's row written only if its revision is the
    one read. If another service locked the table meanwhile, or another hand took the
    number, nothing is kept and the hand is worked out again from the table as it is
    now: it lands on what it saw, or is refused for what it did not.

    The key is looked up only when the submission cannot be recorded as it is
    (the table has moved on, the input is refused, or the key is taken): a
    replayed submission always lands there, and a new one costs no lookup.
    """
    key = _key(idempotency_key)
    table = instance(table, Table, label=_("The table"))
    try:
        for _attempt in range(ATTEMPTS):
            try:
                return _record(
                    table=table,
                    hand_number=hand_number,
                    key=key,
                    actor=actor,
                    actor_label=actor_label,
                    points=points,
                    boards=boards,
                    fantasyland=fantasyland,
                )
            except TableMoved:
                continue
        # A Conflict, not a HandConflict: nobody recorded the hand, and the form that sent it
        # is kept with what was typed, to send again.
        raise Conflict(
            _("The table kept changing while hand %(hand)d was recorded: send it again.")
            % {"hand": hand_number}
        )
    except (ServiceError, _KeyTaken) as refused:
        existing = hand_sent_again(
            key, table, lambda version: version.version == 1 and version.hand.number == hand_number
        )
        if existing is not None:
            return Recorded(existing.hand, created=False)
        if isinstance(refused, _KeyTaken):
            raise HandConflict(
                _("Hand %(hand)d was just recorded from another device. Reload to see it.")
                % {"hand": hand_number}
            ) from refused
        raise


@transaction.atomic
def _record(
    *,
    table: Table,
    hand_number: object,
    key: uuid.UUID,
    actor: audit.Actor,
    actor_label: object,
    points: object,
    boards: object,
    fantasyland: object,
) -> Recorded:
    label = _label(actor_label)
    # Read without a lock: the table's write at the end is checked against this revision.
    table, all_seats = read_table_and_seats(table)
    read_at_revision = table.revision
    check_table_open(table)
    if type(hand_number) is not int:
        raise InvalidEntry(_("The hand number is missing; reload the page."))
    penalty_points = {s.id: s.penalty_points for s in all_seats}
    state = concluded(table, all_seats, cached_progress(table, all_seats), penalty_points)
    played = table.hands_played
    if hand_number <= played:
        raise HandConflict(
            _(
                "Hand %(hand)d is already recorded at table %(table)d. "
                "Reload to see it; the TD can correct it."
            )
            % {"hand": hand_number, "table": table.number}
        )
    if state.is_over:
        raise TableOver(
            ngettext(
                "Table %(table)d is over: its %(played)d hand is played.",
                "Table %(table)d is over: all %(played)d hands are played.",
                played,
            )
            % {"table": table.number, "played": played}
        )
    if hand_number != played + 1:
        raise InvalidEntry(
            _("The next hand at this table is hand %(next)d, not %(given)d.")
            % {"next": played + 1, "given": hand_number}
        )
    seats = [s for s in all_seats if s.id in state.active_seat_ids]
    mode, lines = _lines(
        table,
        seats,
        points=points,
        boards=boards,
        fantasyland=fantasyland,
        in_fl=state.in_fantasyland,
        streak=state.fantasyland_streak,
    )
    hand_input = _hand_input(hand_number, lines, mode)
    tournament = table.level.tournament
    _refuse_broken_repeat(
        repeat_broken(state.progress, hand_input, tournament.fantasyland_repeat)
        if mode == HandVersion.Mode.POINTS
        else [],
        seats,
        tournament,
    )
    dealer = state.next_dealer_position
    # One INSERT each for the hand, its version and its results (bulk_create): the same
    # number of queries at every hand (tests/tournament/services/test_hand_cost.py).
    try:
        hand = Hand.objects.create(table=table, number=hand_number, dealer_position=dealer)
    except IntegrityError as exc:
        # Another submission took this number since the read (it waited for that one to
        # commit): worked out again, it finds the hand recorded.
        raise TableMoved from exc
    try:
        version = HandVersion.objects.create(
            hand=hand,
            version=1,
            mode=mode,
            idempotency_key=key,
            created_by=audit.actor_or_none(actor),
            entered_by_label=label,
        )
    except IntegrityError as exc:
        # Raised straight out of this atomic block, which rolls back (the hand too).
        raise _KeyTaken from exc
    HandResult.objects.bulk_create(
        HandResult(
            version=version,
            seat=seat,
            in_fantasyland=bool(state.in_fantasyland.get(seat.id)),
            **lines[seat.id],
        )
        for seat in seats
    )
    progress = play(state.progress, hand_input, dealer=dealer)
    after = store(
        table,
        all_seats,
        concluded(table, all_seats, progress, penalty_points),
        read_at_revision=read_at_revision,
    )
    # The version is the hand's line in the audit log (who, when, what it says: it is read
    # there as "hand recorded", audit/reading.py); no AuditEntry says it again. The
    # change still announces itself, as every change does.
    events.changed.announce(tournament_id=tournament.pk)
    return Recorded(hand, created=True, seats=tuple(all_seats), state=after)


def _check_based_on(hand: Hand, current: HandVersion, based_on_version: object) -> None:
    """Refuse a correction made from another version of the hand than its `current` one."""
    if type(based_on_version) is not int:
        raise InvalidEntry(_("The hand's version is missing; reload the page."))
    if based_on_version == current.version:
        return
    who = by_whom(current.created_by, current.entered_by_label)
    params = {"hand": hand.number, "time": clock(current.created_at), "who": who}
    if who:
        message = _(
            "Hand %(hand)d was changed at %(time)s by %(who)s after this page was opened: "
            "reload to see it, then correct it again."
        )
    else:
        message = _(
            "Hand %(hand)d was changed at %(time)s after this page was opened: "
            "reload to see it, then correct it again."
        )
    raise HandConflict(message % params)


@transaction.atomic
def correct_hand(
    *,
    hand: Hand,
    actor: audit.Actor,
    reason: object,
    based_on_version: object,
    points: object = None,
    boards: object = None,
    fantasyland: object = (),
    idempotency_key: object = None,
    actor_label: object = "",
    only_if_last: bool = False,
) -> Recorded:
    """The TD replaces a recorded hand's content; the old version is kept.

    `based_on_version`: the number of the hand's version the correction was made from
    (the one its page showed). When the hand has another current version now (the TD
    corrected it in another tab, or the revisor fixed it), the correction is refused
    with a HandConflict saying who changed it and when: a page left open never replaces
    a correction made meanwhile. Checked under the table's lock.

    `only_if_last`: the revisor's "fix the last hand", allowed until the next hand
    is recorded (checked under the table's lock); after that only the TD corrects.

    The table's history is walked again from the start with the new version, so
    that who played later hands in Fantasyland (and so how cards score there, and
    the repeat rule) follows from it.
    """
    key = _key(uuid.uuid4() if idempotency_key is None else idempotency_key)
    hand = saved(hand, Hand, label=_("The hand"))
    table = lock_table(hand.table)
    existing = hand_sent_again(
        key,
        table,
        lambda version: (
            version.hand_id == hand.pk
            and type(based_on_version) is int
            and version.version == based_on_version + 1 > 1
        ),
    )
    if existing is not None:
        return Recorded(existing.hand, created=False)
    check_table_open(table)
    label = _label(actor_label)
    if only_if_last and hand.number != table.hands_played:
        raise NotAllowed(
            _("Hand %(hand)d is no longer the last hand: only the TD can correct it now.")
            % {"hand": hand.number}
        )
    history = history_state(table)
    index = next(i for i, v in enumerate(history.versions) if v.hand_id == hand.pk)
    old, how = history.versions[index], history.played[index]
    _check_based_on(hand, old, based_on_version)
    reason = clean_text(
        reason,
        label=_("The reason"),
        max_length=REASON_LENGTH,
        empty=_("A correction needs a reason."),
    )
    old_results = {r.seat_id: r for r in old.results.all()}
    seats = [s for s in history.seats if s.id in old_results]
    mode, lines = _lines(
        table,
        seats,
        points=points,
        boards=boards,
        fantasyland=fantasyland,
        in_fl=how.in_fantasyland,
        streak=how.streak,
    )
    if _says_the_same(old, old_results, mode, seats, lines):
        raise InvalidEntry(
            _("Hand %(hand)d already says this: change what is wrong, or leave it as it is.")
            % {"hand": hand.number}
        )
    tried = history_state(
        table,
        seats=history.seats,
        versions=history.versions,
        replace_version=(hand.number, _hand_input(hand.number, lines, mode)),
    )
    _refuse_broken_repeat(
        [b for b in tried.repeat_broken if b.hand_number >= hand.number],
        seats,
        table.level.tournament,
    )
    HandVersion.objects.filter(pk=old.pk).update(superseded_at=timezone.now())
    version = HandVersion.objects.create(
        hand=hand,
        version=old.version + 1,
        mode=mode,
        idempotency_key=key,
        created_by=audit.actor_or_none(actor),
        entered_by_label=label,
        reason=reason,
    )
    _save_results(version, seats, lines, how.in_fantasyland)
    before = {
        seat.player.name: {
            field: getattr(old_results[seat.id], field)
            for field in ("points", "fantasyland_next", "fouled", "royalties", *ROWS)
        }
        for seat in seats
    }
    recompute_table(table)
    audit.record(
        tournament=table.level.tournament,
        actor=actor,
        actor_label=label,
        action="hand.correct",
        params={
            "level": table.level.number,
            "table": table.number,
            "hand": hand.number,
            "version": version.version,
            "reason": reason,
        },
        before={"version": old.version, "mode": old.mode, "results": before},
        after={"version": version.version, "mode": mode, "results": _describe(seats, lines)},
    )
    return Recorded(hand, created=True)


def _tie(
    table: Table,
) -> tuple[TableState, list[Seat], dict[int, Seat], TieSettlement | None]:
    """The table's tie for first and how it stands: (state, seats, leaders, settlement).

    `state` is the table concluded without any settlement, so that `leaders` maps the tied
    players' ids to their seats whether the TD has settled the tie or not; `settlement` is
    the latest TieSettlement when its winner is among the leaders (the one that decides
    the table, as the score card shows it), or None. 1 query, 2 while tied.
    """
    seats = table_seats(table)
    penalty_points = {s.id: s.penalty_points for s in seats}
    state = conclude_table(table, seats, cached_progress(table, seats), penalty_points, None)
    leaders = {s.player_id: s for s in seats if s.id in state.tied_leader_ids}
    settlement = None
    if leaders:
        settlement = (
            TieSettlement.objects.filter(table=table)
            .select_related("winner", "created_by")
            .order_by("-id")
            .first()
        )
        if settlement is not None and settlement.winner_id not in leaders:
            settlement = None  # no tie for it to settle (any more): it decides nothing
    return state, seats, leaders, settlement


# `settle_tie(based_on_settlement=...)` left out: not checked (the simulation, which
# settles what it reads itself, with no page in between).
NOT_CHECKED = object()


def tie_decided_meanwhile(table: Table, settlement: TieSettlement | None) -> Conflict:
    """The refusal of a decision on the tie at `table` made from a page that showed another
    decision than `settlement` (the one that decides the table now, or None)."""
    if settlement is None:
        # The decision the page showed decides nothing any more (a correction changed
        # who is tied): the page is out of date.
        return Conflict(_("This form is out of date: reload the page and send it again."))
    who = by_whom(settlement.created_by)
    params = {
        "table": table.number,
        "name": settlement.winner.name,
        "who": who,
        "time": clock(settlement.created_at),
    }
    if who:
        message = _(
            "The tie at table %(table)d was already decided for %(name)s by %(who)s at "
            "%(time)s: use “Decide the tie again” to change it."
        )
    else:
        message = _(
            "The tie at table %(table)d was already decided for %(name)s at %(time)s: "
            "use “Decide the tie again” to change it."
        )
    return Conflict(message % params)


@idempotent("tie.settle")
@transaction.atomic
def settle_tie(
    *,
    table: Table,
    actor: audit.Actor,
    winner: Player,
    reason: object,
    based_on_settlement: object = NOT_CHECKED,
) -> Table:
    """The TD decides a tie for first (e.g. by a card draw) instead of playing on.

    Until the level closes, a settled tie can be decided again for another of the tied
    players (a wrong click, a card draw misreported): the latest settlement counts, and
    every earlier one is kept, with the change in the log.

    `based_on_settlement`: the id of the settlement that decided the tie on the page the
    TD confirmed from, or None when it showed the tie undecided. When another one decides
    it now (another tab or TD decided it meanwhile), nothing is settled: a Conflict says
    for whom, by whom and when, so that deciding again stays its own deliberate step.
    Checked under the table's lock.
    """
    table = lock_table(instance(table, Table, label=_("The table")))
    check_table_open(table)
    reason = clean_text(
        reason,
        label=_("The reason"),
        max_length=column_length(TieSettlement, "reason"),
        empty=_("Settling a tie needs a written reason."),
    )
    winner = saved(winner, Player, label=_("The winner"), tournament=table.level.tournament)
    state, seats, leaders, settlement = _tie(table)
    if not leaders:
        raise NotAllowed(
            ngettext(
                "Table %(table)d has no tie for first to settle "
                "(%(played)d of %(required)d hand played).",
                "Table %(table)d has no tie for first to settle "
                "(%(played)d of %(required)d hands played).",
                state.required_hands,
            )
            % {
                "table": table.number,
                "played": state.hands_played,
                "required": state.required_hands,
            }
        )
    current = settlement.pk if settlement is not None else None
    if based_on_settlement is not NOT_CHECKED and based_on_settlement != current:
        raise tie_decided_meanwhile(table, settlement)
    if winner.pk not in leaders:
        names = ", ".join(s.player.name for s in leaders.values())
        raise InvalidEntry(
            _("%(name)s is not tied for first (tied: %(tied)s).")
            % {"name": winner.name, "tied": names}
        )
    decided = leaders[settlement.winner_id] if settlement is not None else None
    if decided is not None and decided.player_id == winner.pk:
        raise InvalidEntry(
            _("The tie is already settled for %(name)s: choose another player to change it.")
            % {"name": winner.name}
        )
    TieSettlement.objects.create(
        table=table, winner=winner, reason=reason, created_by=audit.actor_or_none(actor)
    )
    state, _seats = cached_state(table, seats)
    store(table, seats, state)
    params = {
        "level": table.level.number,
        "table": table.number,
        "winner": winner.name,
        "reason": reason,
    }
    if decided is None:
        audit.record(
            tournament=table.level.tournament,
            actor=actor,
            action="tie.settle",
            params=params,
            before={"tied": sorted(s.player.name for s in leaders.values())},
            after={"winner": winner.name, "reason": reason},
        )
    else:
        audit.record(
            tournament=table.level.tournament,
            actor=actor,
            action="tie.change",
            params={**params, "previous": decided.player.name},
            before={"winner": decided.player.name},
            after={"winner": winner.name, "reason": reason},
        )
    return table
