"""Why a hand a card sent from offline was held (services/held_hands.py), kept as data (a
code and its numbers) and put into words where it is read, in the reader's language: the
revisor's device was told in its own, the TD reads it in his. A reason without a code
(a service's refusal, said in the words of the request that met it) is kept as words."""

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _

Why = Mapping[str, Any]


def _taken(p: Why) -> str:
    return _("Hand %(hand)d was recorded meanwhile (by the TD or from another device).") % {
        "hand": p["hand"]
    }


def _over(p: Why) -> str:
    return _("The table is over: no more hands are taken.")


def _not_next(p: Why) -> str:
    return _("The next hand at this table is hand %(next)d, not %(given)d.") % {
        "next": p["next"],
        "given": p["given"],
    }


def _players(p: Why) -> str:
    return _("A penalty changed who plays at this table since the card went offline.")


def _changed(p: Why) -> str:
    return _(
        "The table changed since the card went offline (a hand corrected or a penalty "
        "given): its totals, Fantasyland or dealer are not what the card counted on."
    )


def _after(p: Why) -> str:
    return _("Sent after hand %(hand)d, which was refused: it was worked out on that hand.") % {
        "hand": p["hand"]
    }


REASONS: dict[str, Callable[[Why], str]] = {
    "taken": _taken,
    "over": _over,
    "not_next": _not_next,
    "players": _players,
    "changed": _changed,
    "after_refused": _after,
}


def words(why: Why, kept: str) -> str:
    """The reason in the reader's language; `kept` (the words kept with it) when it has no
    code this knows, or its numbers do not fit."""
    say = REASONS.get(str(why.get("code")))
    if say is None:
        return kept
    try:
        return say(why)
    except (KeyError, TypeError, ValueError):
        return kept
