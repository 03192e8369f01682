"""Draws: seating a level at random, redoing it, and advancing the table winners."""

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, npgettext

from tournament import audit, events
from tournament.errors import Conflict, DrawLocked, NotAllowed
from tournament.models import (
    Draw,
    Hand,
    Level,
    Penalty,
    Player,
    Seat,
    Table,
    TableCall,
    Tournament,
)
from tournament.rules.seating import new_seed, seat_players
from tournament.rules.table_fold import start
from tournament.rules.validation import (
    MAX_SMALL_NUMBER,
    clean_int,
    clean_text,
    column_length,
    saved,
)
from tournament.services import announcements, checkin, held_hands
from tournament.services.idempotency import idempotent
from tournament.services.revisor_access import access_fields
from tournament.services.stale import by_whom, clock
from tournament.tables.locking import lock_tables, lock_tournament, touch_tournament
from tournament.tables.state import conclude_table, seat_inputs
from tournament.tables.store import refresh_table, store

SEED_LENGTH = column_length(Draw, "seed")
REASON_LENGTH = column_length(Draw, "reason")


def current_level(tournament: Tournament) -> Level | None:
    return Level.objects.filter(tournament=tournament).order_by("-number").first()


def current_draw(level: Level) -> Draw:
    return Draw.objects.current().get(level=level)


def level_started(level: Level) -> bool:
    return Hand.objects.filter(table__in=Table.objects.current().filter(level=level)).exists()


def field(tournament: Tournament) -> list[Player]:
    """The players the first level is drawn from: registered, not withdrawn, not disqualified."""
    return list(
        Player.objects.filter(tournament=tournament, withdrawn_at__isnull=True, disqualified=False)
    )


def _seed(seed: object) -> str:
    if seed is None:
        return new_seed()
    return clean_text(seed, label=_("The seed"), max_length=SEED_LENGTH)


def _lock_level_tables(level: Level) -> None:
    """Lock the level's current tables (after the tournament), so no hand lands meanwhile."""
    lock_tables(Table.objects.current().filter(level=level).values_list("pk", flat=True))


def _seating_summary(draw: Draw) -> dict[str, object]:
    return {
        "draw": draw.number,
        "seed": draw.seed,
        "tables": [
            {
                "table": table.number,
                "first_dealer_position": table.first_dealer_position,
                "players": [seat.player.name for seat in table.seats.order_by("position")],
            }
            for table in draw.tables.order_by("number")
        ],
    }


def _make_draw(
    *,
    level: Level,
    players: Sequence[Player],
    actor: audit.Actor,
    seed: str,
    number: int,
    reason: str = "",
) -> Draw:
    by_number = {player.number: player for player in players}
    draw = Draw.objects.create(
        level=level,
        number=number,
        seed=seed,
        created_by=audit.actor_or_none(actor),
        reason=reason,
        # As before releases existed, unless the TD keeps each new draw to himself first.
        released_at=timezone.now() if level.tournament.release_draws_at_once else None,
    )
    for seating in seat_players(list(by_number), seed):
        table = Table.objects.create(
            level=level,
            draw=draw,
            number=seating.number,
            first_dealer_position=seating.first_dealer_position,
            **access_fields(),
        )
        table.level = level
        seats = Seat.objects.bulk_create(
            Seat(table=table, draw=draw, player=by_number[key], position=position)
            for position, key in enumerate(seating.players)
        )
        inputs = seat_inputs(seats)
        store(table, seats, conclude_table(table, seats, start(inputs), {}, None))
    return draw


class NotCheckedIn(NotAllowed):
    """The first draw would seat players not checked in (`players`): the TD says first
    whether to withdraw them (`withdraw_absent=True`) or to wait."""

    def __init__(self, players: Sequence[Player]) -> None:
        self.players = players
        super().__init__(
            ngettext(
                "%(count)d player is not checked in: %(names)s. Withdraw them and draw, or "
                "wait for them.",
                "%(count)d players are not checked in: %(names)s. Withdraw them and draw, or "
                "wait for them.",
                len(players),
            )
            % {"count": len(players), "names": ", ".join(p.name for p in players)}
        )


@idempotent("draw.create", load=Level)
@transaction.atomic
def draw_first_level(
    *,
    tournament: Tournament,
    actor: audit.Actor,
    seed: object = None,
    withdraw_absent: bool = False,
) -> Level:
    """Draw level 1 from the field. Once check-in is used (services/checkin.py), players
    not checked in are never seated silently: refused (NotCheckedIn) unless
    `withdraw_absent`, when they are withdrawn first, "not checked in" kept as the reason."""
    tournament = lock_tournament(saved(tournament, Tournament, label=_("The tournament")))
    seed = _seed(seed)
    if Level.objects.filter(tournament=tournament).exists():
        raise NotAllowed(_("The first draw is already made; redo it instead."))
    players = field(tournament)
    absent = checkin.absent_players(players)
    if absent:
        if not withdraw_absent:
            raise NotCheckedIn(absent)
        checkin.withdraw_absent(tournament=tournament, actor=actor, players=absent)
        players = [player for player in players if player not in absent]
    if len(players) < 2:
        raise NotAllowed(_("A draw needs at least 2 players."))
    level = Level.objects.create(tournament=tournament, number=1)
    draw = _make_draw(level=level, players=players, actor=actor, seed=seed, number=1)
    touch_tournament(tournament)
    audit.record(
        tournament=tournament,
        actor=actor,
        action="draw.create",
        params={"level": 1, "players": len(players), "closed_level": None},
        after=_seating_summary(draw),
    )
    return level


def _check_based_on(level: Level, current: Draw, based_on_draw: object) -> None:
    """Refuse a redraw asked for from a page that showed another draw than `current`."""
    if based_on_draw == current.pk:
        return
    if current.number == 1:  # never redone: not a draw of this level's page
        raise Conflict(_("This form is out of date: reload the page and send it again."))
    who = by_whom(current.created_by)
    params = {
        "level": level.number,
        "time": clock(current.created_at),
        "who": who,
        "reason": current.reason,
    }
    if who:
        message = _(
            "The draw of level %(level)d was already redone at %(time)s by %(who)s "
            "(reason: %(reason)s): check the new seating; redo it again from the fresh "
            "page if needed."
        )
    else:
        message = _(
            "The draw of level %(level)d was already redone at %(time)s (reason: "
            "%(reason)s): check the new seating; redo it again from the fresh page if needed."
        )
    raise Conflict(message % params)


@idempotent("draw.redo", load=Level)
@transaction.atomic
def redraw_level(
    *,
    level: Level,
    actor: audit.Actor,
    reason: object,
    seed: object = None,
    based_on_draw: int | None = None,
) -> Level:
    """Redo a level's draw, with a reason; only until its first hand is recorded.

    `based_on_draw`: the id of the draw the TD's page showed. When the level has another
    current draw now (redone meanwhile in another tab), nothing is redrawn: a Conflict
    says when, by whom and why it was redone, so that a draw the TD never saw is not
    replaced. Checked under the level's locks. None (not checked) only for the redraw
    that a change of the field makes (services/registration.py), which has no such page.
    """
    level = saved(level, Level, label=_("The level"))
    tournament = lock_tournament(level.tournament)
    _lock_level_tables(level)
    level.refresh_from_db()
    reason = clean_text(
        reason,
        label=_("The reason"),
        max_length=REASON_LENGTH,
        empty=_("Redoing a draw needs a reason."),
    )
    seed = _seed(seed)
    if level.closed_at is not None:
        raise DrawLocked(_("This level is closed."))
    if level_started(level):
        raise DrawLocked(_("The first hand of this level is recorded: the draw is locked."))
    old = current_draw(level)
    if based_on_draw is not None:
        _check_based_on(level, old, based_on_draw)
    if level.number == 1:
        # The field as it is now: a player added, withdrawn or brought back since the draw
        # (services/registration.py) is drawn, or not, with everyone else.
        players = field(tournament)
    else:
        players = [
            seat.player
            for seat in Seat.objects.filter(draw=old).select_related("player")
            if not seat.player.disqualified
        ]
    level.tournament = tournament
    if len(players) < 2:
        raise NotAllowed(_("A draw needs at least 2 players."))
    before = _seating_summary(old)
    old.superseded_at = timezone.now()
    old.save(update_fields=["superseded_at"])
    draw = _make_draw(
        level=level,
        players=players,
        actor=actor,
        seed=seed,
        number=old.number + 1,
        reason=reason,
    )
    carried = _carry_penalties(old, draw)
    touch_tournament(tournament)
    audit.record(
        tournament=tournament,
        actor=actor,
        action="draw.redo",
        params={"level": level.number, "reason": reason},
        before=before,
        after={**_seating_summary(draw), **({"penalties_carried": carried} if carried else {})},
    )
    return level


def _carry_penalties(old: Draw, draw: Draw) -> list[dict[str, object]]:
    """Penalties given at the redone draw's tables (before its first hand, so after hand 0)
    come off at each player's table of the new draw instead: a player's penalty points are
    deducted at his table of the current level. A player no longer drawn keeps his at the
    old table, where nothing is deducted any more; his warnings still count.

    Returns what moved, for the redraw's audit entry: (player, old table, new table).
    """
    new_table = {
        seat.player_id: seat.table
        for seat in Seat.objects.filter(draw=draw).select_related("table__level__tournament")
    }
    carried: list[Penalty] = []
    moved: list[dict[str, object]] = []
    tables: set[Table] = set()  # the new draw's tables that took one
    for penalty in Penalty.objects.filter(table__draw=old).select_related("player", "table"):
        table = new_table.get(penalty.player_id)
        if table is None:
            continue
        old_table = penalty.table
        assert old_table is not None  # a penalty of the old draw's tables (the filter)
        moved.append({"player": penalty.player.name, "from": old_table.number, "to": table.number})
        penalty.table = table
        carried.append(penalty)
        tables.add(table)
    if carried:
        Penalty.objects.bulk_update(carried, ["table"])
        for table in tables:
            refresh_table(table)
    return moved


@idempotent("draw.release", load=Draw)
@transaction.atomic
def release_draw(*, level: Level, actor: audit.Actor) -> Draw:
    """Show the level's current draw to the players, the big screen and the revisors."""
    level = saved(level, Level, label=_("The level"))
    tournament = lock_tournament(level.tournament)
    level.refresh_from_db()
    if level.closed_at is not None:
        raise NotAllowed(_("This level is closed."))
    draw = current_draw(level)
    if draw.released_at is not None:
        raise NotAllowed(_("This seating is released already."))
    draw.released_at = timezone.now()
    draw.save(update_fields=["released_at"])
    touch_tournament(tournament)
    audit.record(
        tournament=tournament,
        actor=actor,
        action="draw.release",
        params={"level": level.number, "draw": draw.number},
    )
    return draw


def awaits_tie(table: Table) -> bool:
    """The table's required hands are played and the lead is shared: the TD settles the
    tie, or the table plays on (from the table's caches, as `table_state.conclude` left them)."""
    return not table.is_over and table.hands_played >= table.required_hands


def call_place(table: Table, level: Level) -> str:
    """Where a call is, seen from `level`: "table 3", "table 3 of draw 1", "table 3 of level 1"."""
    if table.level_id != level.pk:
        return _("table %(table)d of level %(level)d") % {
            "table": table.number,
            "level": table.level.number,
        }
    if table.draw.superseded_at is not None:
        return _("table %(table)d of draw %(draw)d") % {
            "table": table.number,
            "draw": table.draw.number,
        }
    return _("table %(table)d") % {"table": table.number}


def open_calls(tournament: Tournament) -> list[TableCall]:
    """Every call of the tournament not cleared yet, at any level or draw: 1 query."""
    return list(
        TableCall.objects.filter(table__level__tournament=tournament, cleared_at__isnull=True)
        .select_related("table__level", "table__draw")
        .order_by("table__level__number", "table__draw__number", "table__number")
    )


def _refuse_while_open(tournament: Tournament, level: Level, tables: Sequence[Table]) -> None:
    """Closing makes the level's results final: refuse while anything is still open.

    An open call (at any table of the tournament: none is left behind), a hand held from
    an offline card that the TD has not recorded or discarded (it may change who won), a
    tie for first not settled, a table still short of its hands. Every reason at once, so
    the TD sees the whole list; the tables are locked, so no call or hand lands after the
    check.
    """
    reasons: list[str] = []
    places = [call_place(call.table, level) for call in open_calls(tournament)]
    if places:
        reasons.append(
            ngettext(
                "Clear the open call first: %(places)s.",
                "Clear the open calls first: %(places)s.",
                len(places),
            )
            % {"places": ", ".join(places)}
        )
    held = [
        _("%(place)s, hand %(hand)d") % {"place": call_place(h.table, level), "hand": h.number}
        for h in held_hands.undecided(tournament)
    ]
    if held:
        reasons.append(
            ngettext(
                "Record or discard the hand held from an offline card first (on the "
                "dashboard): %(hands)s.",
                "Record or discard the hands held from offline cards first (on the "
                "dashboard): %(hands)s.",
                len(held),
            )
            % {"hands": "; ".join(held)}
        )
    ties = [table.number for table in tables if awaits_tie(table)]
    if ties:
        reasons.append(
            ngettext(
                "Settle the tie for first at table %(tables)s, or let it play on.",
                "Settle the ties for first at tables %(tables)s, or let them play on.",
                len(ties),
            )
            % {"tables": ", ".join(str(n) for n in ties)}
        )
    playing = [t.number for t in tables if not t.is_over and not awaits_tie(t)]
    if playing:
        reasons.append(
            npgettext(
                "the tables of a level still playing",
                "Not every table is over yet (still playing: table %(tables)s).",
                "Not every table is over yet (still playing: tables %(tables)s).",
                len(playing),
            )
            % {"tables": ", ".join(str(n) for n in playing)}
        )
    if reasons:
        raise NotAllowed(" ".join(reasons))


def _end_announcement(
    tournament: Tournament, actor: audit.Actor, level: Level, finishes: bool, asked: bool | None
) -> None:
    """Closing a level takes the standing announcement down when the TD said so; when not
    asked, one without an end ends with the tournament (no finished tournament's pages
    and projectors keep "until withdrawn" for ever), and stays at a level change."""
    if asked is None:
        standing = announcements.standing(tournament)
        asked = finishes and standing is not None and standing.ends_at is None
    if asked:
        announcements.withdraw_standing(tournament, actor, closing_level=level.number)


@idempotent("level.close")
@transaction.atomic
def advance(
    *,
    tournament: Tournament,
    actor: audit.Actor,
    seed: object = None,
    level_number: object = None,
    withdraw_announcement: bool | None = None,
) -> Level | None:
    """Close the current level when every table is over and nothing is left open.

    Refused (nothing changed) while a call is open or a tie for first is not settled, and,
    when `level_number` is given (the level a confirmation page showed), unless that is
    still the level in play: a page left open does not close the next level.
    The winners are drawn into the next level; a level with a single table (or a
    single winner) produces the champion. Returns the new level, or None when the
    tournament is finished.
    `withdraw_announcement`: the TD's answer to "withdraw the announcement shown now?"
    (True, False); None when not asked: an announcement without an end then ends with the
    tournament, and stays at a level change.
    """
    tournament = lock_tournament(saved(tournament, Tournament, label=_("The tournament")))
    seed = _seed(seed)
    if level_number is not None:
        level_number = clean_int(
            level_number, label=_("The level"), minimum=1, maximum=MAX_SMALL_NUMBER
        )
    level = current_level(tournament)
    if level is None:
        raise NotAllowed(_("Make the first draw first."))
    if level.closed_at is not None or tournament.finished_at is not None:
        raise NotAllowed(_("The tournament is finished."))
    if level_number is not None and level_number != level.number:
        raise NotAllowed(
            _("Level %(level)d is not the level in play (level %(current)d is).")
            % {"level": level_number, "current": level.number}
        )
    _lock_level_tables(level)
    tables = list(Table.objects.current().filter(level=level).select_related("winner"))
    _refuse_while_open(tournament, level, tables)
    winners = [t.winner for t in tables if t.winner is not None and not t.winner.disqualified]
    finishes = len(winners) <= 1
    _end_announcement(tournament, actor, level, finishes, withdraw_announcement)
    now = timezone.now()
    level.closed_at = now
    level.save(update_fields=["closed_at"])
    touch_tournament(tournament)
    events.level_closed.announce(tournament_id=tournament.pk)
    if finishes:
        tournament.finished_at = now
        tournament.champion = winners[0] if winners else None
        tournament.save(update_fields=["finished_at", "champion"])
        audit.record(
            tournament=tournament,
            actor=actor,
            action="tournament.finish",
            params={"champion": winners[0].name if winners else None},
            after={"champion": winners[0].name if winners else None},
        )
        return None
    next_level = Level.objects.create(tournament=tournament, number=level.number + 1)
    next_level.tournament = tournament
    draw = _make_draw(level=next_level, players=winners, actor=actor, seed=seed, number=1)
    audit.record(
        tournament=tournament,
        actor=actor,
        action="draw.create",
        params={
            "level": next_level.number,
            "players": len(winners),
            "closed_level": level.number,
        },
        after=_seating_summary(draw),
    )
    return next_level
