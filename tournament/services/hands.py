"""Recording hands, correcting them, and settling ties for first."""

import uuid
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import InvalidHand, score_hand
from tournament.models import Hand, HandResult, HandVersion, Seat, TieSettlement, Tournament
from tournament.services import audit
from tournament.services.errors import HandConflict, InvalidEntry, NotAllowed, TableOver
from tournament.services.locking import lock_table
from tournament.services.recompute import compute_state, recompute_table

MAX_POINTS = 999
ROWS = ("front", "middle", "back")


@dataclass(frozen=True)
class Recorded:
    hand: Hand
    created: bool  # False: the same submission arrived again (a double tap)


def _key(idempotency_key):
    try:
        return uuid.UUID(str(idempotency_key))
    except (TypeError, ValueError, AttributeError) as exc:
        raise InvalidEntry(_("The submission has no valid key; reload the page.")) from exc


def _check_table_open(table):
    if table.draw.superseded_at is not None:
        raise NotAllowed(_("This table was redrawn; use the new table."))
    if table.level.closed_at is not None:
        raise NotAllowed(_("This level is closed: its results are final."))


def _with_names(message, seats):
    for index in range(len(seats), 0, -1):
        message = message.replace(f"player {index}", seats[index - 1].player.name)
        message = message.replace(f"Player {index}", seats[index - 1].player.name)
    return message


def _points_lines(seats, points, fantasyland):
    if not isinstance(points, dict):
        raise InvalidEntry(_("Enter each player's points."))
    expected = {seat.position for seat in seats}
    given = set(points)
    if given != expected:
        missing = [s.player.name for s in seats if s.position not in given]
        if missing:
            raise InvalidEntry(
                _("Points are missing for %(names)s.") % {"names": ", ".join(missing)}
            )
        raise InvalidEntry(_("Points were given for a seat that is not playing this hand."))
    lines = {}
    for seat in seats:
        value = points[seat.position]
        if isinstance(value, bool) or not isinstance(value, int):
            try:
                value = int(str(value).strip())
            except ValueError as exc:
                raise InvalidEntry(
                    _("%(name)s's points must be a whole number, not %(value)s.")
                    % {"name": seat.player.name, "value": repr(value)}
                ) from exc
        if abs(value) > MAX_POINTS:
            raise InvalidEntry(
                _("%(name)s's points (%(value)d) are out of range.")
                % {"name": seat.player.name, "value": value}
            )
        lines[seat.id] = {"points": value, "fantasyland_next": seat.position in fantasyland}
    total = sum(line["points"] for line in lines.values())
    if total != 0:
        raise InvalidEntry(
            _("The points must add up to zero; they add up to %(total)+d.") % {"total": total}
        )
    return lines


def _card_lines(seats, boards, rules, in_fl, streak):
    if not isinstance(boards, dict) or set(boards) != {seat.position for seat in seats}:
        raise InvalidEntry(_("Enter the cards of every player in the hand."))
    entries = []
    for seat in seats:
        board = boards[seat.position]
        if not isinstance(board, dict):
            raise InvalidEntry(_("Enter %(name)s's three rows.") % {"name": seat.player.name})
        entry = {row: board.get(row, "") for row in ROWS}
        if in_fl.get(seat.id):
            entry["fantasyland"] = True
            entry["fantasyland_streak"] = max(1, streak.get(seat.id, 1))
        entries.append(entry)
    try:
        results = score_hand(entries, rules=rules)
    except InvalidHand as exc:
        raise InvalidEntry(_with_names(str(exc), seats)) from exc
    lines = {}
    for seat, entry, result in zip(seats, entries, results, strict=True):
        cards = result.to_dict()
        lines[seat.id] = {
            "points": result.points,
            "fantasyland_next": result.fantasyland,
            "fouled": result.fouled,
            "royalties": result.royalties,
            **{row: " ".join(str(entry[row]).split()) for row in ROWS},
            "detail": {
                "categories": cards.get("categories"),
                "row_royalties": cards.get("row_royalties"),
                "descriptions": cards.get("descriptions"),
            },
        }
    return lines


def _lines(table, seats, *, points, boards, fantasyland, in_fl, streak):
    tournament = table.level.tournament
    if (points is None) == (boards is None):
        raise InvalidEntry(_("Enter the hand either as points or as cards."))
    if boards is not None:
        if tournament.entry_mode == Tournament.EntryMode.POINTS:
            raise InvalidEntry(_("This tournament records hands as points."))
        return HandVersion.Mode.CARDS, _card_lines(seats, boards, tournament.rules, in_fl, streak)
    if tournament.entry_mode == Tournament.EntryMode.CARDS:
        raise InvalidEntry(_("This tournament records hands as cards."))
    fantasyland = set(fantasyland or ())
    _check_fantasyland_repeat(seats, fantasyland, tournament, in_fl, streak)
    return HandVersion.Mode.POINTS, _points_lines(seats, points, fantasyland)


def _check_fantasyland_repeat(seats, fantasyland, tournament, in_fl, streak):
    """A revisor's 'stays in Fantasyland' must fit the tournament's repeat rule."""
    policy = tournament.fantasyland_repeat
    for seat in seats:
        if seat.position not in fantasyland or not in_fl.get(seat.id):
            continue
        if policy == Tournament.FantasylandRepeat.NEVER:
            raise InvalidEntry(
                _(
                    "%(name)s played this hand in Fantasyland, and in this tournament "
                    "Fantasyland never repeats."
                )
                % {"name": seat.player.name}
            )
        if policy == Tournament.FantasylandRepeat.ONCE and streak.get(seat.id, 1) > 1:
            raise InvalidEntry(
                _(
                    "%(name)s has already repeated Fantasyland once, the most this "
                    "tournament allows."
                )
                % {"name": seat.player.name}
            )


def _save_results(version, seats, lines, in_fl):
    HandResult.objects.bulk_create(
        HandResult(
            version=version,
            seat=seat,
            in_fantasyland=bool(in_fl.get(seat.id)),
            **lines[seat.id],
        )
        for seat in seats
    )


def _describe(seats, lines):
    return {
        seat.player.name: {k: v for k, v in lines[seat.id].items() if k != "detail"}
        for seat in seats
    }


def _existing(key, table):
    version = HandVersion.objects.filter(idempotency_key=key).select_related("hand").first()
    if version is None:
        return None
    if version.hand.table_id != table.pk:
        raise HandConflict(_("This submission was already used at another table; reload the page."))
    return version


@transaction.atomic
def record_hand(
    *,
    table,
    hand_number,
    idempotency_key,
    actor=None,
    actor_label="",
    points=None,
    boards=None,
    fantasyland=(),
):
    """Record the next hand at a table, as points (summing to zero) or as cards.

    The same submission (idempotency key) twice records one hand; a second
    tablet submitting the same hand number gets a HandConflict.
    """
    key = _key(idempotency_key)
    table = lock_table(table)
    existing = _existing(key, table)
    if existing is not None:
        return Recorded(existing.hand, created=False)
    _check_table_open(table)
    state, all_seats = compute_state(table)
    played = table.hands_played
    if isinstance(hand_number, bool) or not isinstance(hand_number, int):
        raise InvalidEntry(_("The hand number is missing; reload the page."))
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
            _("Table %(table)d is over: all %(played)d hands are played.")
            % {"table": table.number, "played": played}
        )
    if hand_number != played + 1:
        raise InvalidEntry(
            _("The next hand at this table is hand %(next)d, not %(given)d.")
            % {"next": played + 1, "given": hand_number}
        )
    seats = [
        s for s in sorted(all_seats, key=lambda s: s.position) if s.id in state.active_seat_ids
    ]
    mode, lines = _lines(
        table,
        seats,
        points=points,
        boards=boards,
        fantasyland=fantasyland,
        in_fl=state.in_fantasyland,
        streak=state.fantasyland_streak,
    )
    try:
        with transaction.atomic():
            hand = Hand.objects.create(table=table, number=hand_number)
            version = HandVersion.objects.create(
                hand=hand,
                version=1,
                mode=mode,
                idempotency_key=key,
                created_by=audit.actor_or_none(actor),
                entered_by_label=actor_label[:120],
            )
    except IntegrityError as exc:
        raise HandConflict(
            _("Hand %(hand)d was just recorded from another device. Reload to see it.")
            % {"hand": hand_number}
        ) from exc
    _save_results(version, seats, lines, state.in_fantasyland)
    recompute_table(table)
    audit.record(
        tournament=table.level.tournament,
        actor=actor,
        actor_label=actor_label,
        action="hand.record",
        summary=f"Level {table.level.number} table {table.number}: hand {hand_number} ({mode})",
        after={"hand": hand_number, "mode": mode, "results": _describe(seats, lines)},
    )
    return Recorded(hand, created=True)


@transaction.atomic
def correct_hand(
    *,
    hand,
    actor,
    reason,
    points=None,
    boards=None,
    fantasyland=(),
    idempotency_key=None,
):
    """The TD replaces a recorded hand's content; the old version is kept."""
    key = _key(idempotency_key or uuid.uuid4())
    table = lock_table(hand.table)
    existing = _existing(key, table)
    if existing is not None:
        return Recorded(existing.hand, created=False)
    _check_table_open(table)
    reason = (reason or "").strip()
    if not reason:
        raise InvalidEntry(_("A correction needs a reason."))
    old = HandVersion.objects.select_for_update().get(hand=hand, superseded_at__isnull=True)
    old_results = {r.seat_id: r for r in old.results.select_related("seat__player")}
    seats = sorted(
        Seat.objects.filter(id__in=old_results).select_related("player"),
        key=lambda s: s.position,
    )
    in_fl = {sid: r.in_fantasyland for sid, r in old_results.items()}
    mode, lines = _lines(
        table, seats, points=points, boards=boards, fantasyland=fantasyland, in_fl=in_fl, streak={}
    )
    old.superseded_at = timezone.now()
    old.save(update_fields=["superseded_at"])
    version = HandVersion.objects.create(
        hand=hand,
        version=old.version + 1,
        mode=mode,
        idempotency_key=key,
        created_by=audit.actor_or_none(actor),
        reason=reason[:500],
    )
    _save_results(version, seats, lines, in_fl)
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
        action="hand.correct",
        summary=f"Level {table.level.number} table {table.number}: corrected hand "
        f"{hand.number} (version {version.version}): {reason}"[:300],
        before={"version": old.version, "mode": old.mode, "results": before},
        after={"version": version.version, "mode": mode, "results": _describe(seats, lines)},
    )
    return Recorded(hand, created=True)


@transaction.atomic
def settle_tie(*, table, actor, winner, reason):
    """The TD decides a tie for first (e.g. by a card draw) instead of playing on."""
    table = lock_table(table)
    _check_table_open(table)
    reason = (reason or "").strip()
    if not reason:
        raise InvalidEntry(_("Settling a tie needs a written reason."))
    state, seats = compute_state(table)
    leaders = {s.player_id: s for s in seats if s.id in state.tied_leader_ids}
    if not leaders:
        raise NotAllowed(
            _(
                "Table %(table)d has no tie for first to settle "
                "(%(played)d of %(required)d hands played)."
            )
            % {
                "table": table.number,
                "played": state.hands_played,
                "required": state.required_hands,
            }
        )
    if winner.pk not in leaders:
        names = ", ".join(s.player.name for s in leaders.values())
        raise InvalidEntry(
            _("%(name)s is not tied for first (tied: %(tied)s).")
            % {"name": winner.name, "tied": names}
        )
    TieSettlement.objects.create(
        table=table, winner=winner, reason=reason[:500], created_by=audit.actor_or_none(actor)
    )
    recompute_table(table)
    audit.record(
        tournament=table.level.tournament,
        actor=actor,
        action="tie.settle",
        summary=f"Level {table.level.number} table {table.number}: tie settled for "
        f"{winner.name}: {reason}"[:300],
        before={"tied": sorted(s.player.name for s in leaders.values())},
        after={"winner": winner.name, "reason": reason},
    )
    return table
