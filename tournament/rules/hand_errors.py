"""Translated messages for the scoring package's InvalidHand, naming the players.

The scoring package knows nothing of names or languages: it reports what is wrong
as structured fields (``code``, ``player``, ``row``, ``card``, ``params`` and
``problems``). Here those fields become one message in the active language, with
each player named and each row translated ("Anna's front", "Björks mitten").
"""

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring.errors import Problem

MAX_TOKEN = 20  # a longer bad token is cut short in the message


class _Unknown(Exception):
    """A problem this module has no message for: fall back to the English text."""


def invalid_hand_message(exc: Exception, names: Iterable[object]) -> str:
    """One translated message for ``exc`` (an InvalidHand from ``score_hand``).

    ``names`` are the player names in the order of the boards given to score_hand.
    Several problems (several duplicate cards) are joined with "; ". An error this
    module does not know (an unknown code, a player number without a name) gives
    ``str(exc)``.
    """
    shown = [str(name) for name in names]
    problems = getattr(exc, "problems", None) or ()
    try:
        return "; ".join(_problem_message(problem, shown) for problem in problems) or str(exc)
    except _Unknown:
        return str(exc)


def _name(names: Sequence[str], player: object) -> str:
    if type(player) is not int or not 1 <= player <= len(names):
        raise _Unknown
    return str(names[player - 1])


def _owner(name: str) -> str:
    """The possessive of a name: English "Anna's"; Swedish "Annas", but "Lars"."""
    if name[-1:].lower() in ("s", "x", "z"):
        return pgettext("possessive of a name ending in s, x or z", "%(name)s's") % {"name": name}
    return pgettext("possessive of a name", "%(name)s's") % {"name": name}


def _place(names: Sequence[str], player: object, row: object) -> str:
    """A player's row: "Anna's front", in Swedish "Annas topprad" (not "Annas toppen": a
    genitive takes the indefinite noun)."""
    owner = _owner(_name(names, player))
    if row == "front":
        return pgettext("a player's row", "%(owner)s front") % {"owner": owner}
    if row == "middle":
        return pgettext("a player's row", "%(owner)s middle") % {"owner": owner}
    if row == "back":
        return pgettext("a player's row", "%(owner)s back") % {"owner": owner}
    raise _Unknown


def _listed(items: Sequence[str]) -> str:
    """ "A, B and C" in the active language."""
    if len(items) == 1:
        return items[0]
    return pgettext("the end of a list", "%(first)s and %(last)s") % {
        "first": ", ".join(items[:-1]),
        "last": items[-1],
    }


def _token(text: object) -> str:
    shown = str(text)
    return shown if len(shown) <= MAX_TOKEN else shown[: MAX_TOKEN - 1] + "…"


def _problem_message(problem: Problem, names: Sequence[str]) -> str:
    code, params = problem.code, problem.params
    try:
        builder = _BUILDERS[code]
    except KeyError:
        raise _Unknown from None
    try:
        return builder(problem, params, names)
    except (KeyError, TypeError, ValueError, IndexError) as exc:  # fields not as expected
        raise _Unknown from exc


def _duplicate_card(problem: Problem, params: Mapping[str, Any], names: Sequence[str]) -> str:
    places = _listed([_place(names, player, row) for player, row in params["places"]])
    count = int(params.get("count", len(params["places"])))
    if count == 2:
        return _("Card %(card)s appears twice: %(places)s") % {
            "card": problem.card,
            "places": places,
        }
    return _("Card %(card)s appears %(count)d times: %(places)s") % {
        "card": problem.card,
        "count": count,
        "places": places,
    }


def _unknown_card(problem: Problem, params: Mapping[str, Any], names: Sequence[str]) -> str:
    return _('Unknown card "%(card)s" in %(place)s') % {
        "card": _token(problem.card),
        "place": _place(names, problem.player, problem.row),
    }


def _not_a_card(problem: Problem, params: Mapping[str, Any], names: Sequence[str]) -> str:
    return _("%(place)s holds something that is not a card: %(value)s") % {
        "place": _place(names, problem.player, problem.row),
        "value": params["value"],
    }


def _wrong_card_count(problem: Problem, params: Mapping[str, Any], names: Sequence[str]) -> str:
    values = {
        "place": _place(names, problem.player, problem.row),
        "count": int(params["count"]),
        "need": int(params["need"]),
    }
    if values["count"] == 1:
        return _("%(place)s has 1 card; it needs %(need)d") % values
    return _("%(place)s has %(count)d cards; it needs %(need)d") % values


def _missing_row(problem: Problem, params: Mapping[str, Any], names: Sequence[str]) -> str:
    return _("%(place)s is missing") % {"place": _place(names, problem.player, problem.row)}


def _bad_row(problem: Problem, params: Mapping[str, Any], names: Sequence[str]) -> str:
    return _('%(place)s must be cards like "As Kd Qh"') % {
        "place": _place(names, problem.player, problem.row)
    }


def _not_a_board(problem: Problem, params: Mapping[str, Any], names: Sequence[str]) -> str:
    return _("The cards of %(name)s must be given as front, middle and back") % {
        "name": _name(names, problem.player)
    }


def _bad_fantasyland(problem: Problem, params: Mapping[str, Any], names: Sequence[str]) -> str:
    return _("Fantasyland for %(name)s must be yes or no, not %(value)s") % {
        "name": _name(names, problem.player),
        "value": params["value"],
    }


def _bad_streak(problem: Problem, params: Mapping[str, Any], names: Sequence[str]) -> str:
    values = {"name": _name(names, problem.player), "value": params["value"]}
    if "min" in params:
        values["min"] = int(params["min"])
        return (
            _(
                "The Fantasyland streak of %(name)s must be %(min)d or more in Fantasyland, "
                "not %(value)s"
            )
            % values
        )
    return _("The Fantasyland streak of %(name)s must be a whole number, not %(value)s") % values


def _player_count(problem: Problem, params: Mapping[str, Any], names: Sequence[str]) -> str:
    return _("A hand needs %(min)d or %(max)d players, not %(count)d") % {
        "min": int(params["min"]),
        "max": int(params["max"]),
        "count": int(params["count"]),
    }


def _not_a_list(problem: Problem, params: Mapping[str, Any], names: Sequence[str]) -> str:
    return _("The hand's boards could not be read")


def _unreadable(problem: Problem, params: Mapping[str, Any], names: Sequence[str]) -> str:
    return _("The hand's boards could not be read")


def _rules(problem: Problem, params: Mapping[str, Any], names: Sequence[str]) -> str:
    if "choices" in params:
        return _("The rules setting %(setting)s must be one of %(choices)s, not %(value)s") % {
            "setting": params["setting"],
            "choices": ", ".join(params["choices"]),
            "value": params["value"],
        }
    if "setting" in params:
        return _("Unknown rules setting %(setting)s") % {"setting": params["setting"]}
    return _("The rules settings could not be read")


_BUILDERS: dict[str, Callable[[Problem, Mapping[str, Any], Sequence[str]], str]] = {
    "duplicate_card": _duplicate_card,
    "unknown_card": _unknown_card,
    "not_a_card": _not_a_card,
    "wrong_card_count": _wrong_card_count,
    "missing_row": _missing_row,
    "bad_row": _bad_row,
    "not_a_board": _not_a_board,
    "bad_fantasyland": _bad_fantasyland,
    "bad_streak": _bad_streak,
    "player_count": _player_count,
    "not_a_list": _not_a_list,
    "unreadable": _unreadable,
    "rules": _rules,
}
