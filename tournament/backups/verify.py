"""Every number a backup derives from its history, checked against that history.

A backup carries caches (a seat's total, a table's winner, a penalty's cost, a
player's disqualification, the champion). The file may have been altered, so
none is trusted: each is worked out again from the hands and penalties and
compared. Closed levels are checked too but never rewritten: their numbers are
final, and they are checked as they stood when the level closed (a winner
disqualified at a later level still won his table then).

`check_facts` needs no database (warnings, departures, cards);
`check_tables` walks every current table written by the import with
`tournament.tables.state.history_state` and then writes the caches the file does not
carry; `check_succession` checks that each level follows from the one before
and that the champion and the end follow from the last; `check_seatings` that
every draw seats its players as its seed draws them (`tournament.rules.seating`).
"""

import datetime
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from scoring import InvalidHand, Rules, score_hand
from tournament.backups.schema import ROWS, shown
from tournament.errors import InvalidEntry
from tournament.models import Hand, HandVersion, Table
from tournament.rules.hand_errors import invalid_hand_message
from tournament.rules.seating import seat_players
from tournament.rules.warnings import DISQUALIFYING_WARNING, warning_points
from tournament.services.prizes import clean_prize_settings
from tournament.tables.state import History, history_state, load_table, table_seats
from tournament.tables.store import recompute_table

# A checked backup's data (`schema.check_backup`), or one of its parts.
Data = dict[str, Any]


def _differs(where: str, found: object, expected: object) -> InvalidEntry:
    return InvalidEntry(
        _(
            "%(where)s is %(found)s in the file, but its history gives %(expected)s: "
            "the file was altered or damaged."
        )
        % {"where": where, "found": _show(found), "expected": _show(expected)}
    )


def _show(value: object) -> str:
    return shown(value.isoformat() if isinstance(value, (datetime.date, datetime.time)) else value)


def _same(where: str, found: object, expected: object) -> None:
    if found != expected:
        raise _differs(where, found, expected)


def table_key(level: Data, draw: Data, table: Data) -> tuple[int, int, int]:
    return (level["number"], draw["number"], table["number"])


def current_tables(data: Data) -> Iterator[tuple[str, Data, Data, Data]]:
    """(path, level, draw, table) for every table of every level's current draw."""
    for level_index, level in enumerate(data["levels"]):
        draw_index = len(level["draws"]) - 1
        draw = level["draws"][draw_index]
        for table_index, table in enumerate(draw["tables"]):
            where = f"levels[{level_index}].draws[{draw_index}].tables[{table_index}]"
            yield where, level, draw, table


# ---------------------------------------------------------------- warnings


def warnings_at(
    penalties: Sequence[Data], moment: datetime.datetime | None = None
) -> tuple[dict[int, tuple[int | None, int]], dict[int, int]]:
    """The penalties' warning numbers and points as they stood at `moment` (None: now).

    Returns ({penalty index: (warning number or None, points)} for the penalties
    given by then, {player number: index of the disqualifying warning}), counted
    as `store.recompute_warnings` counts them: per player, in the order given.
    """
    order = sorted(range(len(penalties)), key=lambda i: (penalties[i]["created_at"], i))
    count: defaultdict[int, int] = defaultdict(int)
    numbers: dict[int, tuple[int | None, int]] = {}
    disqualifying: dict[int, int] = {}
    for index in order:
        penalty = penalties[index]
        if moment is not None and penalty["created_at"] > moment:
            continue
        rescinded = penalty["rescinded_at"]
        if rescinded is not None and (moment is None or rescinded <= moment):
            numbers[index] = (None, 0)
            continue
        player = penalty["player"]
        count[player] += 1
        number = count[player]
        # At no table there is no score to deduct from: the warning counts, for 0 points.
        points = warning_points(penalty["kind"], number) if penalty["table"] is not None else 0
        numbers[index] = (number, points)
        if number == DISQUALIFYING_WARNING:
            disqualifying[player] = index
    return numbers, disqualifying


def disqualified_at(data: Data, moment: datetime.datetime | None = None) -> set[int]:
    """Player numbers disqualified at `moment` (None: now)."""
    return set(warnings_at(data["penalties"], moment)[1])


def _check_warnings(data: Data) -> None:
    penalties = data["penalties"]
    numbers, disqualifying = warnings_at(penalties)
    for index, penalty in enumerate(penalties):
        number, points = numbers[index]
        _same(f"penalties[{index}].warning_number", penalty["warning_number"], number)
        _same(f"penalties[{index}].points", penalty["points"], points)
    for index, player in enumerate(data["players"]):
        _same(
            f"players[{index}].disqualified",
            player["disqualified"],
            player["number"] in disqualifying,
        )


def _check_departures(data: Data) -> None:
    """Who left a table (a 3rd warning there) and after which hand; no result after that."""
    penalties = data["penalties"]
    moments = {}
    for where, level, draw, table in current_tables(data):
        moment = level["closed_at"]
        if moment not in moments:
            moments[moment] = warnings_at(penalties, moment)[1]
        disqualifying = moments[moment]
        key = table_key(level, draw, table)
        left = {}
        for index, seat in enumerate(table["seats"]):
            penalty = (
                penalties[disqualifying[seat["player"]]]
                if seat["player"] in disqualifying
                else None
            )
            expected = None
            if penalty is not None and penalty["table"] is not None:
                ref = penalty["table"]
                if (ref["level"], ref["draw"], ref["table"]) == key:
                    expected = penalty["after_hand"]
            _same(f"{where}.seats[{index}].left_after_hand", seat["left_after_hand"], expected)
            left[seat["position"]] = expected
        for hand_index, hand in enumerate(table["hands"]):
            version_index = len(hand["versions"]) - 1
            for result_index, result in enumerate(hand["versions"][-1]["results"]):
                gone = left[result["position"]]
                if gone is not None and gone < hand["number"]:
                    raise InvalidEntry(
                        _(
                            "%(where)s is for seat %(position)d, whose player left the table "
                            "after hand %(left)d."
                        )
                        % {
                            "where": f"{where}.hands[{hand_index}].versions[{version_index}]"
                            f".results[{result_index}]",
                            "position": result["position"],
                            "left": gone,
                        }
                    )


# ---------------------------------------------------------------- cards


def _check_cards(data: Data) -> None:
    """A hand entered as cards: its points, fouls and royalties are the cards' score."""
    settings = data["settings"]
    rules = Rules(
        royalties=settings["royalties"],
        method=settings["scoring_method"],
        fantasyland_repeat=settings["fantasyland_repeat"],
    )
    names = {player["number"]: player["name"] for player in data["players"]}
    for level_index, level in enumerate(data["levels"]):
        for draw_index, draw in enumerate(level["draws"]):
            for table_index, table in enumerate(draw["tables"]):
                player_at = {seat["position"]: seat["player"] for seat in table["seats"]}
                where = f"levels[{level_index}].draws[{draw_index}].tables[{table_index}]"
                for hand_index, hand in enumerate(table["hands"]):
                    for version_index, version in enumerate(hand["versions"]):
                        if version["mode"] != HandVersion.Mode.CARDS:
                            continue
                        _check_scored(
                            version,
                            f"{where}.hands[{hand_index}].versions[{version_index}]",
                            rules,
                            [names[player_at[r["position"]]] for r in version["results"]],
                        )


def _check_scored(version: Data, where: str, rules: Rules, names: Sequence[str]) -> None:
    boards = []
    for result in version["results"]:
        board = {row: result["cards"][row] for row in ROWS}
        if result["in_fantasyland"]:
            board.update(fantasyland=True, fantasyland_streak=1)
        boards.append(board)
    try:
        scored = score_hand(boards, rules=rules)
    except InvalidHand as exc:
        raise InvalidEntry(
            _("%(where)s holds cards that cannot be scored: %(problem)s")
            % {"where": where, "problem": invalid_hand_message(exc, names)}
        ) from None
    for index, (result, score) in enumerate(zip(version["results"], scored, strict=True)):
        detail = result["detail"]
        for key, found, value in (
            ("points", result["points"], score.points),
            ("fouled", result["fouled"], score.fouled),
            ("royalties", result["royalties"], score.royalties),
            # The rows' names and royalties as shown; the descriptions are only words.
            ("detail.categories", detail.get("categories"), dict(score.categories)),
            ("detail.row_royalties", detail.get("row_royalties"), dict(score.row_royalties)),
        ):
            if found != value or type(found) is not type(value):
                raise InvalidEntry(
                    _(
                        "%(where)s is %(found)s in the file, but the cards score %(expected)s: "
                        "the file was altered or damaged."
                    )
                    % {
                        "where": f"{where}.results[{index}].{key}",
                        "found": _show(found),
                        "expected": _show(value),
                    }
                )


def _check_prizes(data: Data) -> None:
    """The prize settings as the TD's form could have saved them: the fee within the
    buy-in, shares adding up to 100 %, a rounding unit offered (services/prizes.py)."""
    if data["prizes"] is None:
        return
    try:
        clean_prize_settings(data["prizes"])
    except InvalidEntry as error:
        raise InvalidEntry(
            _("%(where)s: %(problem)s") % {"where": "prizes", "problem": error.message}
        ) from None


def check_facts(data: Data) -> None:
    """Warnings, disqualifications, departures, card scores and prize settings: no
    database needed."""
    _check_warnings(data)
    _check_departures(data)
    _check_cards(data)
    _check_prizes(data)


# ---------------------------------------------------------------- tables


def _compare(history: History, item: Data, where: str) -> None:
    """The file's caches of one table against its walked history."""
    state = history.state
    seats = {seat.id: seat for seat in history.seats}
    if history.repeat_broken:
        broken = history.repeat_broken[0]
        index = broken.hand_number - 1
        last = len(item["hands"][index]["versions"]) - 1
        raise InvalidEntry(
            _(
                "%(where)s sends seat %(position)d to Fantasyland again, which the "
                "tournament's Fantasyland rule does not allow."
            )
            % {
                "where": f"{where}.hands[{index}].versions[{last}]",
                "position": seats[broken.seat_id].position,
            }
        )
    for key in ("hands_played", "required_hands", "is_over"):
        _same(f"{where}.{key}", item[key], getattr(state, key))
    winner_id = state.winner_seat_id
    winner = seats.get(winner_id) if winner_id is not None else None
    _same(f"{where}.winner", item["winner"], winner.player.number if winner else None)
    for index, seat in enumerate(history.seats):
        file_seat = item["seats"][index]
        here = f"{where}.seats[{index}]"
        _same(f"{here}.hand_points", file_seat["hand_points"], state.hand_points[seat.id])
        _same(f"{here}.penalty_points", file_seat["penalty_points"], state.penalty_points[seat.id])
        _same(f"{here}.total", file_seat["total"], state.totals[seat.id])
        _same(f"{here}.place", file_seat["place"], state.places[seat.id])
    by_position = {seat.position: seat.id for seat in history.seats}
    for index, played in enumerate(history.played):
        versions = item["hands"][index]["versions"]
        here = f"{where}.hands[{index}].versions[{len(versions) - 1}]"
        for result_index, result in enumerate(versions[-1]["results"]):
            seat_id = by_position[result["position"]]
            _same(
                f"{here}.results[{result_index}].in_fantasyland",
                result["in_fantasyland"],
                played.in_fantasyland[seat_id],
            )
            _same(
                f"{here}.results[{result_index}].fantasyland_next",
                result["fantasyland_next"],
                played.fantasyland_next[seat_id],
            )


def _store_walk(table: Table, history: History) -> None:
    """A closed table's caches the file does not carry, from the walk; nothing else moves."""
    state = history.state
    caches = {position: dict(cache) for position, cache in table.seat_caches.items()}
    for seat in history.seats:
        caches[str(seat.position)].update(
            in_fantasyland=state.in_fantasyland[seat.id],
            fantasyland_streak=state.fantasyland_streak[seat.id],
        )
    table.seat_caches = caches
    Table.objects.filter(pk=table.pk).update(
        seat_caches=caches,
        fantasyland_hands=state.progress.fantasyland_hands,
        last_dealer_position=state.progress.last_dealer,
        next_dealer_position=state.next_dealer_position,
    )
    hands: list[Hand] = []
    for version, played in zip(history.versions, history.played, strict=True):
        version.hand.dealer_position = played.dealer
        hands.append(version.hand)
    Hand.objects.bulk_update(hands, ["dealer_position"], batch_size=500)


def check_tables(data: Data, table_ids: Mapping[tuple[int, int, int], int]) -> None:
    """Walk every current table (`table_ids`: table key -> pk) and compare with the file.

    An open level's table is recomputed (`recompute_table`) and so gets every
    cache; a closed level's table is walked as it stood when the level closed
    (who was disqualified then) and gets only the caches the file lacks.
    """
    disqualified: dict[datetime.datetime, set[int]] = {}
    for where, level, draw, item in current_tables(data):
        table = load_table(table_ids[table_key(level, draw, item)])
        moment = level["closed_at"]
        if moment is None:
            _compare(recompute_table(table), item, where)
            continue
        if moment not in disqualified:
            disqualified[moment] = disqualified_at(data, moment)
        seats = table_seats(table)
        for seat in seats:
            seat.player.disqualified = seat.player.number in disqualified[moment]
        history = history_state(table, seats=seats)
        _compare(history, item, where)
        _store_walk(table, history)


# ---------------------------------------------------------------- levels


def _players(draw: Data) -> list[int]:
    return sorted(seat["player"] for table in draw["tables"] for seat in table["seats"])


def check_succession(data: Data) -> None:
    """Each level seats the winners of the one before; the end and the champion follow.

    Run after `check_tables`, so that the tables' winners are known to be right.
    """
    levels = data["levels"]
    for index, level in enumerate(levels):
        where = f"levels[{index}]"
        # Level 1's draws follow the field, which may change until its first hand (a late
        # player drawn in, services/registration.py); a later level's are its winners.
        for draw_index in range(1, len(level["draws"]) if index > 0 else 1):
            before = set(_players(level["draws"][draw_index - 1]))
            extra = [n for n in _players(level["draws"][draw_index]) if n not in before]
            if extra:
                raise InvalidEntry(
                    _("%(where)s seats player %(number)d, who was not in the draw it redid.")
                    % {"where": f"{where}.draws[{draw_index}]", "number": extra[0]}
                )
        closed = level["closed_at"]
        if closed is None:
            continue
        draw_index = len(level["draws"]) - 1
        tables = level["draws"][draw_index]["tables"]
        for table_index, table in enumerate(tables):
            if not table["is_over"]:
                raise InvalidEntry(
                    _("%(where)s must be true: the level is closed.")
                    % {"where": f"{where}.draws[{draw_index}].tables[{table_index}].is_over"}
                )
        gone = disqualified_at(data, closed)
        winners = sorted(
            table["winner"]
            for table in tables
            if table["winner"] is not None and table["winner"] not in gone
        )
        if index + 1 < len(levels):
            if len(winners) < 2:
                raise InvalidEntry(
                    _(
                        "%(where)s left at most one winner to go on, so the tournament ended "
                        "with it: no level can follow."
                    )
                    % {"where": where}
                )
            seated = _players(levels[index + 1]["draws"][0])
            if seated != winners:
                raise InvalidEntry(
                    _(
                        "%(where)s must seat exactly the winners of level %(level)d "
                        "(players %(expected)s), not players %(found)s."
                    )
                    % {
                        "where": f"levels[{index + 1}].draws[0]",
                        "level": level["number"],
                        "expected": ", ".join(map(str, winners)),
                        "found": ", ".join(map(str, seated)),
                    }
                )
        elif len(winners) > 1:
            raise InvalidEntry(
                _(
                    "%(where)s is closed, but its %(count)d winners were not drawn into "
                    "a next level."
                )
                % {"where": where, "count": len(winners)}
            )
    last = levels[-1] if levels else None
    finished = last["closed_at"] if last is not None else None
    _same("finished_at", data["finished_at"], finished)
    champion = None
    if last is not None and finished is not None:  # a closed last level
        gone = disqualified_at(data, finished)
        tables = last["draws"][-1]["tables"]
        winners = [
            t["winner"] for t in tables if t["winner"] is not None and t["winner"] not in gone
        ]
        champion = winners[0] if winners else None
    _same("champion", data["champion"], champion)


# ---------------------------------------------------------------- draws


def check_seatings(data: Data) -> None:
    """Every draw (redone ones too) seats its players as its seed draws them.

    The players are those the draw seats (`check_succession` checks that they are the
    right ones); their start numbers and the seed give the tables, each one's seat
    order and its first dealer (`seating.seat_players`, as the draw service used it).
    Run last, so that a file changed elsewhere is refused for that change.
    """
    for level_index, level in enumerate(data["levels"]):
        for draw_index, draw in enumerate(level["draws"]):
            where = f"levels[{level_index}].draws[{draw_index}]"
            tables = draw["tables"]
            found = [
                ([seat["player"] for seat in table["seats"]], table["first_dealer_position"])
                for table in tables
            ]
            drawn = [
                (list(seating.players), seating.first_dealer_position)
                for seating in seat_players(_players(draw), draw["seed"])
            ]
            if len(found) != len(drawn):
                raise _not_drawn(f"{where}.tables")
            for table_index, (table, expected) in enumerate(zip(found, drawn, strict=True)):
                if table != expected:
                    raise _not_drawn(f"{where}.tables[{table_index}]")


def _not_drawn(where: str) -> InvalidEntry:
    return InvalidEntry(
        _(
            "%(where)s is not the seating that its draw's seed gives: the file was altered "
            "or damaged."
        )
        % {"where": where}
    )
