"""Translated messages for the scoring package's InvalidHand, naming the players.

The scoring package knows nothing of names or languages: it reports what is wrong
as structured fields (``code``, ``player``, ``row``, ``card``, ``params`` and
``problems``). Here those fields become one message in the active language, with
each player named and each row translated ("Anna's front", "Björks mitten").
"""

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

MAX_TOKEN = 20  # a longer bad token is cut short in the message


class _Unknown(Exception):
    """A problem this module has no message for: fall back to the English text."""


def invalid_hand_message(exc, names):
    """One translated message for ``exc`` (an InvalidHand from ``score_hand``).

    ``names`` are the player names in the order of the boards given to score_hand.
    Several problems (several duplicate cards) are joined with "; ". An error this
    module does not know (an unknown code, a player number without a name) gives
    ``str(exc)``.
    """
    names = list(names)
    problems = getattr(exc, "problems", None) or ()
    try:
        return "; ".join(_problem_message(problem, names) for problem in problems) or str(exc)
    except _Unknown:
        return str(exc)


def _name(names, player):
    if type(player) is not int or not 1 <= player <= len(names):
        raise _Unknown
    return str(names[player - 1])


def _owner(name):
    """The possessive of a name: English "Anna's"; Swedish "Annas", but "Lars"."""
    if name[-1:].lower() in ("s", "x", "z"):
        return pgettext("possessive of a name ending in s, x or z", "%(name)s's") % {"name": name}
    return pgettext("possessive of a name", "%(name)s's") % {"name": name}


def _place(names, player, row):
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


def _listed(items):
    """ "A, B and C" in the active language."""
    if len(items) == 1:
        return items[0]
    return pgettext("the end of a list", "%(first)s and %(last)s") % {
        "first": ", ".join(items[:-1]),
        "last": items[-1],
    }


def _token(text):
    text = str(text)
    return text if len(text) <= MAX_TOKEN else text[: MAX_TOKEN - 1] + "…"


def _problem_message(problem, names):
    code, params = problem.code, problem.params
    try:
        builder = _BUILDERS[code]
    except KeyError:
        raise _Unknown from None
    try:
        return builder(problem, params, names)
    except (KeyError, TypeError, ValueError, IndexError) as exc:  # fields not as expected
        raise _Unknown from exc


def _duplicate_card(problem, params, names):
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


def _unknown_card(problem, params, names):
    return _('Unknown card "%(card)s" in %(place)s') % {
        "card": _token(problem.card),
        "place": _place(names, problem.player, problem.row),
    }


def _not_a_card(problem, params, names):
    return _("%(place)s holds something that is not a card: %(value)s") % {
        "place": _place(names, problem.player, problem.row),
        "value": params["value"],
    }


def _wrong_card_count(problem, params, names):
    values = {
        "place": _place(names, problem.player, problem.row),
        "count": int(params["count"]),
        "need": int(params["need"]),
    }
    if values["count"] == 1:
        return _("%(place)s has 1 card; it needs %(need)d") % values
    return _("%(place)s has %(count)d cards; it needs %(need)d") % values


def _missing_row(problem, params, names):
    return _("%(place)s is missing") % {"place": _place(names, problem.player, problem.row)}


def _bad_row(problem, params, names):
    return _('%(place)s must be cards like "As Kd Qh"') % {
        "place": _place(names, problem.player, problem.row)
    }


def _not_a_board(problem, params, names):
    return _("The cards of %(name)s must be given as front, middle and back") % {
        "name": _name(names, problem.player)
    }


def _bad_fantasyland(problem, params, names):
    return _("Fantasyland for %(name)s must be yes or no, not %(value)s") % {
        "name": _name(names, problem.player),
        "value": params["value"],
    }


def _bad_streak(problem, params, names):
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


def _player_count(problem, params, names):
    return _("A hand needs %(min)d or %(max)d players, not %(count)d") % {
        "min": int(params["min"]),
        "max": int(params["max"]),
        "count": int(params["count"]),
    }


def _not_a_list(problem, params, names):
    return _("The hand's boards could not be read")


def _unreadable(problem, params, names):
    return _("The hand's boards could not be read")


def _rules(problem, params, names):
    if "choices" in params:
        return _("The rules setting %(setting)s must be one of %(choices)s, not %(value)s") % {
            "setting": params["setting"],
            "choices": ", ".join(params["choices"]),
            "value": params["value"],
        }
    if "setting" in params:
        return _("Unknown rules setting %(setting)s") % {"setting": params["setting"]}
    return _("The rules settings could not be read")


_BUILDERS = {
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
