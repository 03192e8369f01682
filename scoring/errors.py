"""The one exception type the scoring package raises for bad input."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a hand, as data a caller can turn into its own message.

    ``code`` is a short stable string (see :class:`InvalidHand`); ``player`` is the
    1-based seat index of the board at fault (or None), ``row`` is "front", "middle"
    or "back" (or None), ``card`` is the card as shown ("Q♠") or the bad token's text
    (or None), and ``params`` holds whatever else the message needs. ``message`` is
    the English text of this one problem.
    """

    code: str
    player: int | None = None
    row: str | None = None
    card: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    message: str = ""


class InvalidHand(ValueError):
    """A hand (or a rules setting) that cannot be scored.

    ``str(exc)`` is written for the table's scorekeeper: it names what is wrong
    and where (player number, 1-based, and row).

    The same facts are also given as fields, so that callers can build their own
    (translated) messages: ``code``, ``player``, ``row``, ``card`` and ``params``
    describe the (first) problem, and ``problems`` is a tuple of every problem the
    error reports (several only for duplicate cards; otherwise the one problem).

    Codes, with the fields and params each sets:

    - ``duplicate_card``: card, player/row of its first place; params ``places``
      (tuple of (player, row) pairs, in seat and row order) and ``count``.
    - ``unknown_card``: player, row, card (the token's text).
    - ``not_a_card``: player, row; params ``type`` and ``value`` (a short repr).
    - ``wrong_card_count``: player, row; params ``count`` and ``need``.
    - ``missing_row``: player, row.
    - ``bad_row``: player, row; params ``type``.
    - ``not_a_board``: player; params ``type``.
    - ``player_count``: params ``count``, ``min`` and ``max``.
    - ``not_a_list``: params ``type``.
    - ``bad_fantasyland``: player; params ``value`` (a short repr).
    - ``bad_streak``: player; params ``value`` (a short repr), and ``min`` when the
      value is a whole number below the minimum for a Fantasyland hand.
    - ``rules``: params ``setting``, ``value`` and ``choices`` for a bad value,
      ``setting`` alone for an unknown setting, ``type`` for a rules object of the
      wrong type (or one that could not be read).
    - ``unreadable``: params ``type`` (the exception's type name).
    - ``command_line``: the command line could not be read (``python -m scoring``).
    - ``invalid``: the default, for an error made from a message alone.
    """

    def __init__(
        self,
        message: str,
        *,
        code: str = "invalid",
        player: int | None = None,
        row: str | None = None,
        card: str | None = None,
        params: Mapping[str, Any] | None = None,
        problems: tuple[Problem, ...] | None = None,
    ) -> None:
        super().__init__(message)
        if problems:
            first = problems[0]
            code, player, row, card = first.code, first.player, first.row, first.card
            params = first.params
        self.code = code
        self.player = player
        self.row = row
        self.card = card
        self.params: Mapping[str, Any] = dict(params or {})
        self.problems: tuple[Problem, ...] = (
            tuple(problems)
            if problems
            else (Problem(code, player, row, card, self.params, message),)
        )

    # Keep the fields when pickled (e.g. across processes).
    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), str(self), self.problems))


def _rebuild(cls: type[InvalidHand], message: str, problems: tuple[Problem, ...]) -> InvalidHand:
    return cls(message, problems=problems)


def show_value(value: object) -> str:
    """A short, safe rendering of a bad value for an error message."""
    try:
        text = repr(value)
    except Exception:  # a value whose repr fails must not change the exception type
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."
