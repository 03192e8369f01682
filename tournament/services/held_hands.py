"""Hands a revisor's card recorded offline: received when the network is back, recorded
(or answered as already recorded) by their own keys, or held for the TD with why.

A card that lost its connection queues each hand it records, in order, with the hand
form's idempotency key and what it expected the table to be before that hand (who plays,
who is in Fantasyland, who deals, the totals), all worked out on the device the way
`rules/table_fold` does. When the network returns it sends them one at a time
(`receive_queued_hand`):

- a key that recorded a hand here already: "already recorded" (nothing written);
- a key held before: the same answer again (nothing written);
- the table no longer takes hands, or it is not as the card expected (the TD corrected a
  hand or recorded this one, a penalty changed who plays, the level closed, the table was
  redrawn), or `record_hand` refuses it: the hand is held (`HeldHand`), never dropped;
- else it is recorded by `hands.record_hand` with its key: exactly once.

The TD decides a held hand on the dashboard: record it as the table's next hand after all
(with its own key: once), or discard it with a reason kept. Nothing is deleted.
See docs/offline.md.
"""

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import audit
from tournament.errors import InvalidEntry, NotAllowed, ServiceError
from tournament.models import HandVersion, HeldHand, Table, Tournament
from tournament.rules import held_reasons
from tournament.rules.table_fold import TableState
from tournament.rules.validation import clean_text, column_length, instance
from tournament.services import hands
from tournament.services.idempotency import idempotent
from tournament.tables.locking import lock_tournament, touch_tournament
from tournament.tables.state import cached_state

REASON_LENGTH = column_length(HeldHand, "reason")
LABEL_LENGTH = column_length(HeldHand, "held_by_label")
# A card's polls write `Table.card_seen_at` at most this often.
SEEN_EVERY = timedelta(minutes=1)

RECORDED, ALREADY, REFUSED = "recorded", "already", "refused"


@dataclass(frozen=True)
class Expected:
    """What the card expected the table to be before the hand: positions of the seats
    that play it, of those in Fantasyland, of the dealer, and each position's total.
    None: not known on the device (after a hand by cards, scored when sent)."""

    playing: tuple[int, ...]
    fantasyland: tuple[int, ...] | None = None
    dealer: int | None = None
    totals: dict[int, int] | None = None


@dataclass(frozen=True)
class Answer:
    """What the card is told about one queued hand."""

    status: str  # RECORDED, ALREADY or REFUSED (held)
    hand: int  # the hand's number (recorded as, or as the card gave it)
    reason: str = ""


def undecided(tournament: Tournament) -> list[HeldHand]:
    """The tournament's held hands the TD has not recorded or discarded yet, at any level or
    draw, the oldest first: 1 query."""
    return list(
        HeldHand.objects.filter(table__level__tournament=tournament, decision="")
        .select_related("table__level", "table__draw")
        .order_by("held_at", "id")
    )


def _key(key: object) -> uuid.UUID:
    try:
        return uuid.UUID(str(key))
    except ValueError:
        raise InvalidEntry(_("The submission has no valid key; reload the page.")) from None


def _entry_kwargs(entry: dict[str, Any]) -> dict[str, Any]:
    """`record_hand`'s content from a queued entry (seat positions as JSON keys: text)."""
    if entry.get("mode") == "cards":
        boards = entry.get("boards")
        if not isinstance(boards, dict):
            raise InvalidEntry(_("Enter the cards of every player in the hand."))
        return {"boards": {_position(p): board for p, board in boards.items()}}
    points = entry.get("points")
    if not isinstance(points, dict):
        raise InvalidEntry(_("Enter each player's points."))
    fantasyland = entry.get("fantasyland") or []
    if not isinstance(fantasyland, list):
        raise InvalidEntry(_("Enter each player's points."))
    return {
        "points": {_position(p): value for p, value in points.items()},
        "fantasyland": {_position(p) for p in fantasyland},
    }


def _position(value: object) -> int:
    text = str(value)
    if not (text.isascii() and text.isdigit()) or len(text) > 2:
        raise InvalidEntry(_("Points were given for a seat that is not playing this hand."))
    return int(text)


def _not_as_expected(
    state: TableState, positions: dict[int, int], number: int, expect: Expected
) -> dict[str, Any] | None:
    """Why hand `number` cannot be recorded on what the card expected (rules/held_reasons'
    code and numbers), or None."""
    if number <= state.hands_played:
        return {"code": "taken", "hand": number}
    if state.is_over:
        return {"code": "over"}
    if number != state.hands_played + 1:
        return {"code": "not_next", "next": state.hands_played + 1, "given": number}
    playing = tuple(sorted(positions[sid] for sid in state.active_seat_ids))
    if tuple(sorted(expect.playing)) != playing:
        return {"code": "players"}
    in_fl = tuple(sorted(positions[s] for s in state.active_seat_ids if state.in_fantasyland[s]))
    totals = {positions[sid]: total for sid, total in state.totals.items()}
    changed = (
        (expect.fantasyland is not None and tuple(sorted(expect.fantasyland)) != in_fl)
        or (expect.dealer is not None and expect.dealer != state.next_dealer_position)
        or (expect.totals is not None and expect.totals != totals)
    )
    return {"code": "changed"} if changed else None


def receive_queued_hand(
    *,
    table: Table,
    number: int,
    key: object,
    entry: dict[str, Any],
    expect: Expected,
    actor_label: str = "",
    after_refused: int | None = None,
    hold_reason: str | None = None,
) -> Answer:
    """One hand a card queued offline: recorded, already recorded, or held (see the top).

    `after_refused`: the number of an earlier queued hand that was refused; this one was
    worked out on it, so it is held too, for the TD, and not recorded on its own.
    `hold_reason`: the device no longer keeps the table (the view found why): held."""
    key = _key(key)
    table = instance(table, Table, label=_("The table"))
    held = HeldHand.objects.filter(idempotency_key=key).first()
    if held is not None:
        return Answer(REFUSED, held.number, held_reasons.words(held.why, held.reason))
    version = (
        HandVersion.objects.filter(idempotency_key=key, hand__table=table)
        .select_related("hand")
        .first()
    )
    if version is not None:
        return Answer(ALREADY, version.hand.number)
    why: dict[str, Any] = {}
    reason: str | None = hold_reason
    if reason is None and after_refused is not None:
        why = {"code": "after_refused", "hand": after_refused}
    elif reason is None:
        reason, why = _why_not(table, number, expect)
    if why:
        reason = held_reasons.words(why, "")
    if reason is None:
        try:
            recorded = hands.record_hand(
                table=table,
                hand_number=number,
                idempotency_key=key,
                actor_label=actor_label,
                **_entry_kwargs(entry),
            )
        except ServiceError as error:
            reason = str(error)
        else:
            return Answer(RECORDED if recorded.created else ALREADY, recorded.hand.number)
    held = hold_hand(
        table=table,
        number=number,
        key=key,
        entry=entry,
        reason=reason,
        why=why,
        actor_label=actor_label,
    )
    return Answer(REFUSED, held.number, held_reasons.words(held.why, held.reason))


def _why_not(table: Table, number: int, expect: Expected) -> tuple[str | None, dict[str, Any]]:
    """(the words of a service's refusal, or the code of a mismatch), or (None, {})."""
    try:
        hands.check_table_open(table)
    except ServiceError as error:
        return str(error), {}
    state, seats = cached_state(table)
    positions = {seat.id: seat.position for seat in seats}
    return None, _not_as_expected(state, positions, number, expect) or {}


@transaction.atomic
def hold_hand(
    *,
    table: Table,
    number: int,
    key: uuid.UUID,
    entry: dict[str, Any],
    reason: str,
    why: dict[str, Any] | None = None,
    actor_label: str = "",
) -> HeldHand:
    """Keep a refused queued hand for the TD's decision (once per key)."""
    tournament = lock_tournament(table.level.tournament)
    try:
        with transaction.atomic():
            held = HeldHand.objects.create(
                table=table,
                number=number,
                entry=entry,
                idempotency_key=key,
                reason=reason[:REASON_LENGTH],
                why=why or {},
                held_by_label=actor_label[:LABEL_LENGTH],
            )
    except IntegrityError:  # the same hand sent at the same instant
        return HeldHand.objects.get(idempotency_key=key)
    touch_tournament(tournament)
    audit.record(
        tournament=tournament,
        actor=None,
        actor_label=actor_label,
        action="hand.held",
        params={
            "level": table.level.number,
            "table": table.number,
            "hand": number,
            "reason": held.reason,
            "why": held.why,
        },
        after={"entry": entry},
    )
    return held


def _undecided(tournament: Tournament, held_id: int) -> HeldHand:
    held = (
        HeldHand.objects.select_for_update()
        .select_related("table__level__tournament", "table__draw")
        .filter(pk=held_id, table__level__tournament=tournament)
        .first()
    )
    if held is None:
        raise InvalidEntry(_("This held hand is unknown."))
    if held.decision:
        raise NotAllowed(_("This held hand was decided already."))
    return held


@idempotent("held.record")
@transaction.atomic
def record_held_hand(*, tournament: Tournament, held_id: int, actor: audit.Actor) -> HeldHand:
    """The TD records a held hand after all, as its table's next hand, with its own key."""
    tournament = lock_tournament(tournament)
    held = _undecided(tournament, held_id)
    table = held.table
    state, _seats = cached_state(table)
    recorded = hands.record_hand(
        table=table,
        hand_number=state.hands_played + 1,
        idempotency_key=held.idempotency_key,
        actor=actor,
        **_entry_kwargs(held.entry),
    )
    held.decision = HeldHand.Decision.RECORDED
    held.decided_at = timezone.now()
    held.decided_by = audit.actor_or_none(actor)
    held.recorded_hand = recorded.hand
    held.save(update_fields=["decision", "decided_at", "decided_by", "recorded_hand"])
    touch_tournament(tournament)
    audit.record(
        tournament=tournament,
        actor=actor,
        action="held.record",
        params={
            "level": table.level.number,
            "table": table.number,
            "held": held.number,
            "hand": recorded.hand.number,
        },
    )
    return held


@idempotent("held.discard")
@transaction.atomic
def discard_held_hand(
    *, tournament: Tournament, held_id: int, reason: object, actor: audit.Actor
) -> HeldHand:
    """The TD discards a held hand, with the reason kept (the hand is kept too)."""
    reason = clean_text(reason, label=_("The reason"), max_length=REASON_LENGTH)
    tournament = lock_tournament(tournament)
    held = _undecided(tournament, held_id)
    held.decision = HeldHand.Decision.DISCARDED
    held.decided_at = timezone.now()
    held.decided_by = audit.actor_or_none(actor)
    held.decision_reason = reason
    held.save(update_fields=["decision", "decided_at", "decided_by", "decision_reason"])
    touch_tournament(tournament)
    audit.record(
        tournament=tournament,
        actor=actor,
        action="held.discard",
        params={
            "level": held.table.level.number,
            "table": held.table.number,
            "hand": held.number,
            "reason": reason,
        },
    )
    return held


def card_seen(table: Table, now: datetime | None = None) -> bool:
    """The table's card polled: keep when, at most once a minute (one write then, none
    otherwise). Not an audit entry: it is no change of play, only the card's heartbeat."""
    now = now or timezone.now()
    seen = table.card_seen_at
    if seen is not None and now - seen < SEEN_EVERY:
        return False
    Table.objects.filter(pk=table.pk).update(card_seen_at=now)
    table.card_seen_at = now
    return True
