"""Reading and validating the players' boards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple, cast

from .cards import TOKENS, format_card, parse_card
from .errors import InvalidHand, Problem
from .errors import show_value as _show

ROWS = ("front", "middle", "back")
ROW_SIZES = {"front": 3, "middle": 5, "back": 5}
MIN_PLAYERS = 2
MAX_PLAYERS = 3


class Board(NamedTuple):
    """One player's validated board: rows as tuples of card ints."""

    front: tuple[int, ...]
    middle: tuple[int, ...]
    back: tuple[int, ...]
    in_fantasyland: bool = False
    fantasyland_streak: int = 0


def _where(player: int, row: str) -> str:
    return f"player {player} {row}"


def parse_row(value: object, player: int, row: str) -> tuple[int, ...]:
    """Cards of one row given as ``"As Kd Qh"`` or ``["As", "Kd", "Qh"]``."""
    tokens: Sequence[object]
    found: tuple[int | None, ...]
    if isinstance(value, str):
        tokens = (value.replace(",", " ") if "," in value else value).split()
        found = tuple(map(TOKENS.get, tokens))
    elif isinstance(value, (list, tuple)):
        tokens = value
        all_text = all(type(t) is str for t in tokens)
        # (None,) sends a row holding something other than text to the error report below
        found = tuple(map(TOKENS.get, tokens)) if all_text else (None,)
    else:
        raise InvalidHand(
            f'{_where(player, row)} must be card text like "As Kd Qh" or a list of cards, '
            f"got {type(value).__name__}",
            code="bad_row",
            player=player,
            row=row,
            params={"type": type(value).__name__},
        )
    if None in found:
        cards = tuple(_parse_token(token, player, row) for token in tokens)
    else:
        cards = cast(tuple[int, ...], found)
    need = ROW_SIZES[row]
    if len(cards) != need:
        noun = "card" if len(cards) == 1 else "cards"
        raise InvalidHand(
            f"{_where(player, row)} has {len(cards)} {noun}, needs {need}",
            code="wrong_card_count",
            player=player,
            row=row,
            params={"count": len(cards), "need": need},
        )
    return cards


def _parse_token(token: object, player: int, row: str) -> int:
    card = parse_card(token)
    if card is not None:
        return card
    if isinstance(token, str):
        raise InvalidHand(
            f"Unknown card {_show(token)} in {_where(player, row)}",
            code="unknown_card",
            player=player,
            row=row,
            card=token,
        )
    raise InvalidHand(
        f'{_where(player, row)}: a card must be text like "As", '
        f"got {type(token).__name__} {_show(token)}",
        code="not_a_card",
        player=player,
        row=row,
        params={"type": type(token).__name__, "value": _show(token)},
    )


def _parse_board(board: object, player: int) -> Board:
    if type(board) is not dict and not isinstance(board, Mapping):
        raise InvalidHand(
            f"player {player} board must be a mapping with front, middle and back rows, "
            f"got {type(board).__name__}",
            code="not_a_board",
            player=player,
            params={"type": type(board).__name__},
        )
    for row in ROWS:
        if row not in board:
            raise InvalidHand(
                f"player {player} board has no {row} row",
                code="missing_row",
                player=player,
                row=row,
            )
    front = parse_row(board["front"], player, "front")
    middle = parse_row(board["middle"], player, "middle")
    back = parse_row(board["back"], player, "back")

    in_fl = board.get("fantasyland")
    if in_fl is None:
        in_fl = False
    elif type(in_fl) is not bool:
        raise InvalidHand(
            f"player {player} fantasyland must be true or false, got {_show(in_fl)}",
            code="bad_fantasyland",
            player=player,
            params={"value": _show(in_fl)},
        )
    streak = board.get("fantasyland_streak")
    if streak is not None and (type(streak) is not int or streak < 0):
        raise InvalidHand(
            f"player {player} fantasyland_streak must be a whole number, got {_show(streak)}",
            code="bad_streak",
            player=player,
            params={"value": _show(streak)},
        )
    if in_fl:
        if streak is None:
            streak = 1
        elif streak < 1:
            raise InvalidHand(
                f"player {player} fantasyland_streak must be 1 or more for a Fantasyland "
                f"hand, got {streak}",
                code="bad_streak",
                player=player,
                params={"value": _show(streak), "min": 1},
            )
    else:
        streak = 0
    return Board(front, middle, back, in_fl, streak)


def _check_duplicates(boards: list[Board]) -> None:
    total = 0
    every: set[int] = set()
    for board in boards:
        every.update(board.front, board.middle, board.back)
        total += len(board.front) + len(board.middle) + len(board.back)
    if len(every) == total:
        return
    seen: dict[int, list[tuple[int, str]]] = {}
    for player, board in enumerate(boards, start=1):
        for row in ROWS:
            cards = getattr(board, row)
            for card in cards:
                seen.setdefault(card, []).append((player, row))
    problems = []
    for card, places in seen.items():
        if len(places) > 1:
            times = "twice" if len(places) == 2 else f"{len(places)} times"
            where = [_where(player, row) for player, row in places]
            listed = ", ".join(where[:-1]) + " and " + where[-1]
            shown = format_card(card)
            problems.append(
                Problem(
                    "duplicate_card",
                    player=places[0][0],
                    row=places[0][1],
                    card=shown,
                    params={"places": tuple(places), "count": len(places)},
                    message=f"Card {shown} appears {times}: {listed}",
                )
            )
    raise InvalidHand("; ".join(p.message for p in problems), problems=tuple(problems))


def parse_boards(boards: object) -> list[Board]:
    """Validate the players' boards (seat order); raise :class:`InvalidHand` if anything is off."""
    try:
        return _parse_boards(boards)
    except InvalidHand:
        raise
    except Exception as exc:  # strange objects (a mapping that raises, ...): still InvalidHand
        raise InvalidHand(
            f"The boards could not be read ({type(exc).__name__})",
            code="unreadable",
            params={"type": type(exc).__name__},
        ) from exc


def _parse_boards(boards: object) -> list[Board]:
    if isinstance(boards, (str, bytes, bytearray, Mapping)) or not isinstance(boards, Sequence):
        raise InvalidHand(
            f"A hand needs a list of 2 or 3 player boards, got {type(boards).__name__}",
            code="not_a_list",
            params={"type": type(boards).__name__},
        )
    n = len(boards)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise InvalidHand(
            f"A hand needs 2 or 3 players, got {n}",
            code="player_count",
            params={"count": n, "min": MIN_PLAYERS, "max": MAX_PLAYERS},
        )
    parsed = [_parse_board(board, player) for player, board in enumerate(boards, start=1)]
    _check_duplicates(parsed)
    return parsed
