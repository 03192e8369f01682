"""The audit log's words: a label for every action and the sentence of every entry.

An audit entry keeps what happened as data (`AuditEntry.params`: numbers, names, codes);
the sentence is written here when the entry is shown, in the reader's language, so a
Swedish TD reads Swedish whatever language the change was made in. Each action's
sentence names its params; an entry whose params do not fit (a row from before the
log was kept as data that could not be read back) shows its stored text as it is.

An entry's before and after (what it changed, as data) are shown the same way: as
labelled lines in the reader's language (`details`), never as their raw keys.
"""

import datetime
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.utils import formats, timezone
from django.utils.functional import Promise
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournament.models import AuditEntry, HandVersion, Penalty, TableCall, Tournament
from tournament.rules import held_reasons
from tournament.rules.money import money, percent

# An entry's params, before or after: JSON as the services kept it.
Params = Mapping[str, Any]

# ---------------------------------------------------------------- who made a change
# A revisor's device records its changes as "Revisor, table N" (REVISOR_LABEL, never in the
# device's language: the label is read by a TD in any language); rows from before were kept
# in the device's language ("Revisor, bord N"). Both read in the reader's language here.
REVISOR_LABEL = "Revisor, table %(table)d"
_REVISOR = re.compile(r"^Revisor, (?:table|bord) (\d+)$")


def revisor_label(table_number: int) -> str:
    """Who a revisor's change is kept as made by (AuditEntry.actor_label, the hand's
    entered_by_label), whatever language the revisor's device speaks."""
    return REVISOR_LABEL % {"table": table_number}


def actor_name(label: str) -> str:
    """A kept actor label as the reader reads it: a revisor's "Revisor, table N" in the
    reader's language ("Revisor, bord N"); a user's name (or "system") as it is."""
    found = _REVISOR.match(label or "")
    if found is None:
        return label
    return _("Revisor, table %(table)d") % {"table": int(found.group(1))}


def _penalty_kind(code: object) -> str:
    return _label_of(Penalty.Kind, code)


def _call_kind(code: object) -> str:
    return _label_of(TableCall.Kind, code)


def _label_of(choices: type[models.Choices], code: object) -> str:
    """A choice's label in the reader's language; an unknown code as it is."""
    try:
        return str(choices(code).label)
    except ValueError:
        return str(code)


def _mode(code: str) -> str:
    words = {
        "points": _("points"),
        "cards": _("cards"),
    }
    return words.get(code, str(code))


def _moment(text: object) -> str:
    """A backup's export time (ISO 8601) as the reader's local time; other text as it is."""
    try:
        # Anything but text raises TypeError, told as it is below.
        moment = datetime.datetime.fromisoformat(text)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return str(text)
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    return formats.date_format(moment, "Y-m-d H:i")


# ---------------------------------------------------------------- one function per action
# Each takes the entry's params and returns the sentence; a missing param raises KeyError.


def _tournament_create(p: Params) -> str:
    return _("Created tournament %(name)s") % {"name": p["name"]}


def _tournament_settings(p: Params) -> str:
    return _("Changed settings")


def _tournament_rename(p: Params) -> str:
    return _("Renamed the tournament from %(old_name)s to %(name)s") % {
        "old_name": p["old_name"],
        "name": p["name"],
    }


def _tournament_finish(p: Params) -> str:
    if p["champion"] is None:
        return _("Finished without a champion")
    return _("Champion: %(name)s") % {"name": p["champion"]}


def _tournament_import(p: Params) -> str:
    return _("Imported %(name)s from a backup exported %(exported)s") % {
        "name": p["name"],
        "exported": _moment(p["exported"]),
    }


def _player_register(p: Params) -> str:
    return _("Registered %(name)s (#%(number)s)") % {"name": p["name"], "number": p["number"]}


def _player_withdraw(p: Params) -> str:
    # Withdrawn by the first draw for not being checked in (services/checkin.py).
    if p.get("reason") == "not checked in":
        return _("%(name)s withdrawn: not checked in at the draw") % {"name": p["name"]}
    return _("%(name)s withdrew") % {"name": p["name"]}


def _player_reinstate(p: Params) -> str:
    return _("%(name)s is back in the draw (#%(number)s)") % {
        "name": p["name"],
        "number": p["number"],
    }


def _player_check_in(p: Params) -> str:
    return _("%(name)s checked in (#%(number)s)") % {"name": p["name"], "number": p["number"]}


def _player_check_in_undo(p: Params) -> str:
    return _("Check-in of %(name)s undone (#%(number)s)") % {
        "name": p["name"],
        "number": p["number"],
    }


def _player_rename(p: Params) -> str:
    return _("Renamed %(old_name)s to %(name)s (#%(number)s)") % {
        "old_name": p["old_name"],
        "name": p["name"],
        "number": p["number"],
    }


def _register_merge(p: Params) -> str:
    return _("Merged %(name)s into %(into)s in the register of players") % {
        "name": p["name"],
        "into": p["into"],
    }


def _tournament_earlier_results(p: Params) -> str:
    if p["public"]:
        return _("Players' earlier results shown on their public pages")
    return _("Players' earlier results shown on the TD's pages only")


def _tournament_self_check_in(p: Params) -> str:
    if p["open"]:
        return _("Self check-in opened: players check themselves in with the code at the door")
    return _("Self check-in closed")


def _tournament_check_in_code(p: Params) -> str:
    return _("New check-in code for the door sign")


def _draw_create(p: Params) -> str:
    values = {"level": p["level"], "players": p["players"]}
    if p.get("closed_level") is None:
        return (
            ngettext(
                "Drew level %(level)s: %(players)s player",
                "Drew level %(level)s: %(players)s players",
                p["players"],
            )
            % values
        )
    return ngettext(
        "Closed level %(closed_level)s; drew level %(level)s: %(players)s player",
        "Closed level %(closed_level)s; drew level %(level)s: %(players)s players",
        p["players"],
    ) % {**values, "closed_level": p["closed_level"]}


def _draw_redo(p: Params) -> str:
    if not p["reason"]:
        return _("Redrew level %(level)s") % {"level": p["level"]}
    return _("Redrew level %(level)s: %(reason)s") % {"level": p["level"], "reason": p["reason"]}


def _table_revisor_access(p: Params) -> str:
    if p["old_code"] is None:  # the table's first link (or its first after a restore)
        return _("Level %(level)s table %(table)s: revisor link and code made") % {
            "level": p["level"],
            "table": p["table"],
        }
    return _(
        "Level %(level)s table %(table)s: new revisor link and code "
        "(the old code %(old_code)s no longer works)"
    ) % {"level": p["level"], "table": p["table"], "old_code": p["old_code"]}


def _station_create(p: Params) -> str:
    return ngettext(
        "Station card made for table %(first)s",
        "Station cards made for tables %(first)s–%(last)s",
        p["count"],
    ) % {"first": p["first"], "last": p["last"]}


def _station_revisor_access(p: Params) -> str:
    return _(
        "Station %(station)s: new revisor link and code (the old code %(old_code)s no longer works)"
    ) % {"station": p["station"], "old_code": p["old_code"]}


def _table_call(p: Params) -> str:
    values = {"level": p["level"], "table": p["table"], "kind": _call_kind(p["kind"])}
    if p.get("player"):  # the call names a player (a timeout, or a warning asked for)
        values["player"] = p["player"]
        if p["note"]:
            return _(
                "Level %(level)s table %(table)s calls the TD about %(player)s: %(kind)s (%(note)s)"
            ) % {**values, "note": p["note"]}
        return _("Level %(level)s table %(table)s calls the TD about %(player)s: %(kind)s") % values
    if p["note"]:
        return _("Level %(level)s table %(table)s calls the TD: %(kind)s (%(note)s)") % {
            **values,
            "note": p["note"],
        }
    return _("Level %(level)s table %(table)s calls the TD: %(kind)s") % values


def _table_call_cleared(p: Params) -> str:
    return _("Level %(level)s table %(table)s: call cleared (%(kind)s)") % {
        "level": p["level"],
        "table": p["table"],
        "kind": _call_kind(p["kind"]),
    }


def _hand_record(p: Params) -> str:
    return _("Level %(level)s table %(table)s: hand %(hand)s (%(mode)s)") % {
        "level": p["level"],
        "table": p["table"],
        "hand": p["hand"],
        "mode": _mode(p["mode"]),
    }


def _hand_held(p: Params) -> str:
    return _(
        "Level %(level)s table %(table)s: hand %(hand)s sent from offline was held: %(reason)s"
    ) % {
        "level": p["level"],
        "table": p["table"],
        "hand": p["hand"],
        "reason": held_reasons.words(p.get("why") or {}, p["reason"]),
    }


def _held_record(p: Params) -> str:
    return _(
        "Level %(level)s table %(table)s: held hand %(held)s recorded after all as hand %(hand)s"
    ) % {"level": p["level"], "table": p["table"], "held": p["held"], "hand": p["hand"]}


def _held_discard(p: Params) -> str:
    return _("Level %(level)s table %(table)s: held hand %(hand)s discarded: %(reason)s") % {
        "level": p["level"],
        "table": p["table"],
        "hand": p["hand"],
        "reason": p["reason"],
    }


def _hand_correct(p: Params) -> str:
    return _(
        "Level %(level)s table %(table)s: corrected hand %(hand)s (version %(version)s): %(reason)s"
    ) % {
        "level": p["level"],
        "table": p["table"],
        "hand": p["hand"],
        "version": p["version"],
        "reason": p["reason"],
    }


def _tie_settle(p: Params) -> str:
    return _("Level %(level)s table %(table)s: tie settled for %(winner)s: %(reason)s") % {
        "level": p["level"],
        "table": p["table"],
        "winner": p["winner"],
        "reason": p["reason"],
    }


def _tie_change(p: Params) -> str:
    return _(
        "Level %(level)s table %(table)s: tie decided again, for %(winner)s instead of "
        "%(previous)s: %(reason)s"
    ) % {
        "level": p["level"],
        "table": p["table"],
        "winner": p["winner"],
        "previous": p["previous"],
        "reason": p["reason"],
    }


def deducted_where(table_number: int | None, after_hand: int | None) -> str:
    """Where a penalty's points come off, in words (the log and the pages say the same)."""
    if table_number is None:
        return _("not at a table: the warning counts, no points are deducted")
    if not after_hand:
        # "after hand 0" read as a hand that does not exist.
        return _("deducted at table %(table)d before its first hand") % {"table": table_number}
    return _("deducted at table %(table)d after hand %(hand)d") % {
        "table": table_number,
        "hand": after_hand,
    }


def _penalty_give(p: Params) -> str:
    where = deducted_where(p["table"], p["after_hand"])
    values = {
        "player": p["player"],
        "kind": _penalty_kind(p["kind"]),
        "warning": p["warning"],
        "points": p["points"],
        "where": where,
    }
    if p["disqualified"]:
        return (
            ngettext(
                "%(player)s: %(kind)s — warning %(warning)s, %(points)s point (%(where)s) "
                "— disqualified",
                "%(player)s: %(kind)s — warning %(warning)s, %(points)s points (%(where)s) "
                "— disqualified",
                p["points"],
            )
            % values
        )
    return (
        ngettext(
            "%(player)s: %(kind)s — warning %(warning)s, %(points)s point (%(where)s)",
            "%(player)s: %(kind)s — warning %(warning)s, %(points)s points (%(where)s)",
            p["points"],
        )
        % values
    )


def _penalty_rescind(p: Params) -> str:
    return _("Rescinded %(player)s's %(kind)s: %(reason)s") % {
        "player": p["player"],
        "kind": _penalty_kind(p["kind"]),
        "reason": p["reason"],
    }


def _announcement_make(p: Params) -> str:
    if p["ends_at"] is None:
        return _("Announced: %(text)s") % {"text": p["text"]}
    return _("Announced until %(end)s: %(text)s") % {
        "text": p["text"],
        "end": _moment(p["ends_at"]),
    }


def _announcement_withdraw(p: Params) -> str:
    if "level" in p:
        return _("Withdrew the announcement on closing level %(level)d: %(text)s") % {
            "level": p["level"],
            "text": p["text"],
        }
    return _("Withdrew the announcement: %(text)s") % {"text": p["text"]}


def _draw_release(p: Params) -> str:
    return _("Released the seating of level %(level)d (draw %(draw)d)") % {
        "level": p["level"],
        "draw": p["draw"],
    }


def _tournament_prizes(p: Params) -> str:
    currency = p["currency"]
    values = {
        "buy_in": money(p["buy_in"], currency),
        "fee": money(p["fee"], currency),
        "added": money(p["added_money"], currency),
    }
    if not p["shares"]:
        return (
            _(
                "Buy-in %(buy_in)s (fee %(fee)s), added money %(added)s; the standard "
                "payout structure for the field's size"
            )
            % values
        )
    return _("Buy-in %(buy_in)s (fee %(fee)s), added money %(added)s; places paid: %(shares)s") % {
        **values,
        "shares": " · ".join(percent(share) for share in p["shares"]),
    }


def _prize_lines(value: dict[str, Any]) -> list[tuple[str, str]]:
    """A prize settings' before or after: amounts with their currency, shares as percents."""
    currency = value.get("currency", "")
    lines = []
    # In the form's order: PostgreSQL's jsonb keeps an object's keys in an order of its own.
    order = {key: index for index, key in enumerate(Tournament.PRIZE_SETTINGS)}
    for key, item in sorted(value.items(), key=lambda pair: order.get(pair[0], len(order))):
        label = _detail_label(key, "tournament.prizes")
        if key in ("buy_in", "fee", "added_money", "prize_rounding") and type(item) is int:
            lines.append((label, money(item, currency)))
        elif key == "payout_shares" and isinstance(item, list):
            shares = [percent(share) for share in item if type(share) is int]
            lines.append((label, " · ".join(shares) or _("standard for the field's size")))
        else:
            lines.append((label, _detail_text(key, item, "tournament.prizes")))
    return lines


class Action:
    def __init__(self, label: Promise, sentence: Callable[[Params], str]) -> None:
        self.label = label
        self.sentence = sentence


ACTIONS = {
    "tournament.create": Action(gettext_lazy("Tournament created"), _tournament_create),
    "tournament.settings": Action(gettext_lazy("Settings changed"), _tournament_settings),
    "tournament.rename": Action(gettext_lazy("Tournament renamed"), _tournament_rename),
    "tournament.prizes": Action(gettext_lazy("Buy-ins and prizes changed"), _tournament_prizes),
    "tournament.finish": Action(gettext_lazy("Tournament finished"), _tournament_finish),
    "tournament.import": Action(gettext_lazy("Tournament imported"), _tournament_import),
    "player.register": Action(gettext_lazy("Player registered"), _player_register),
    "player.withdraw": Action(gettext_lazy("Player withdrew"), _player_withdraw),
    "player.reinstate": Action(gettext_lazy("Withdrawal undone"), _player_reinstate),
    "player.rename": Action(gettext_lazy("Player renamed"), _player_rename),
    "player.check_in": Action(gettext_lazy("Player checked in"), _player_check_in),
    "player.check_in_undo": Action(gettext_lazy("Check-in undone"), _player_check_in_undo),
    "register.merge": Action(gettext_lazy("Register entries merged"), _register_merge),
    "tournament.earlier_results": Action(
        gettext_lazy("Earlier results shown or hidden"), _tournament_earlier_results
    ),
    "tournament.self_check_in": Action(
        gettext_lazy("Self check-in opened or closed"), _tournament_self_check_in
    ),
    "tournament.check_in_code": Action(
        gettext_lazy("New check-in code"), _tournament_check_in_code
    ),
    "draw.create": Action(gettext_lazy("Level drawn"), _draw_create),
    "draw.redo": Action(gettext_lazy("Level redrawn"), _draw_redo),
    "draw.release": Action(gettext_lazy("Seating released"), _draw_release),
    "table.revisor_access": Action(gettext_lazy("New revisor link"), _table_revisor_access),
    "station.create": Action(gettext_lazy("Station cards made"), _station_create),
    "station.revisor_access": Action(gettext_lazy("New station link"), _station_revisor_access),
    "table.call": Action(gettext_lazy("Table called the TD"), _table_call),
    "table.call_cleared": Action(gettext_lazy("Call cleared"), _table_call_cleared),
    "hand.record": Action(gettext_lazy("Hand recorded"), _hand_record),
    "hand.correct": Action(gettext_lazy("Hand corrected"), _hand_correct),
    "hand.held": Action(gettext_lazy("Hand held for the TD"), _hand_held),
    "held.record": Action(gettext_lazy("Held hand recorded"), _held_record),
    "held.discard": Action(gettext_lazy("Held hand discarded"), _held_discard),
    "tie.settle": Action(gettext_lazy("Tie settled"), _tie_settle),
    "tie.change": Action(gettext_lazy("Tie decided again"), _tie_change),
    "penalty.give": Action(gettext_lazy("Penalty given"), _penalty_give),
    "penalty.rescind": Action(gettext_lazy("Penalty rescinded"), _penalty_rescind),
    "announcement.make": Action(gettext_lazy("Announcement made"), _announcement_make),
    "announcement.withdraw": Action(gettext_lazy("Announcement withdrawn"), _announcement_withdraw),
}

# The params that hold a player's name, for the log's filter by player.
NAME_PARAMS = ("name", "old_name", "player", "winner", "previous", "champion")


def action_label(code: str) -> str:
    """The action's name in the reader's language ("Hand recorded"); an unknown code as it is."""
    action = ACTIONS.get(code)
    return str(action.label) if action else code


def fits(action: str, params: object) -> bool:
    """Whether `params` give `action` its sentence (a backup's params are checked with it)."""
    if action not in ACTIONS or not isinstance(params, dict):
        return False
    try:
        ACTIONS[action].sentence(params)
    except (KeyError, TypeError, ValueError):
        return False
    return True


def sentence(entry: AuditEntry) -> str:
    """What the entry records, as a sentence in the reader's language.

    Its stored text when its params are missing or do not fit its action's sentence
    (an old row that could not be read back, or an action this version does not know).
    """
    action = ACTIONS.get(entry.action)
    if action is None or not isinstance(entry.params, dict):
        return entry.summary
    try:
        return action.sentence(entry.params)
    except (KeyError, TypeError, ValueError):
        return entry.summary or action_label(entry.action)


# ---------------------------------------------------------------- an entry's before and after
# What the services keep as an entry's before/after (JSON), as labelled lines. A key this
# version does not know (a newer backup's) shows as words made of it.

_DETAIL_LABELS = {
    "name": gettext_lazy("Name"),
    "number": gettext_lazy("Start number"),
    "confirmed_lookalike_of": gettext_lazy("Confirmed to be another player than"),
    "withdrawn": gettext_lazy("Withdrawn"),
    "checked_in": gettext_lazy("Checked in"),
    "register_entry": gettext_lazy("Entry in the register of players"),
    "entry": gettext_lazy("Entry in the register of players"),
    "merged_into": gettext_lazy("Merged into"),
    "by_player": gettext_lazy("By the player, on his phone"),
    "self_check_in": gettext_lazy("Self check-in open"),
    "draw": gettext_lazy("Draw"),
    "seed": gettext_lazy("Seed"),
    "penalties_carried": gettext_lazy("Penalties moved to the new tables"),
    "champion": gettext_lazy("Champion"),
    "hand": gettext_lazy("Hand"),
    "version": gettext_lazy("Version"),
    "mode": gettext_lazy("Entry"),
    "points": gettext_lazy("Points"),
    "fantasyland_next": gettext_lazy("To Fantasyland next"),
    "fouled": gettext_lazy("Fouled"),
    "front": gettext_lazy("Front"),
    "middle": gettext_lazy("Middle"),
    "back": gettext_lazy("Back"),
    "tied": gettext_lazy("Tied for first"),
    "winner": gettext_lazy("Winner"),
    "reason": gettext_lazy("Reason"),
    "note": gettext_lazy("Note"),
    "player": gettext_lazy("Player"),
    "warning_number": gettext_lazy("Warning"),
    "table": gettext_lazy("Table"),
    "rescinded": gettext_lazy("Rescinded"),
    "disqualified": gettext_lazy("Disqualified"),
    "code": gettext_lazy("Short code"),
    "stations": gettext_lazy("Stations"),
    "text": gettext_lazy("Message"),
    "ends_at": gettext_lazy("Shown until"),
    "levels": gettext_lazy("Levels"),
    "players": gettext_lazy("Players"),
}


def _choices_of(key: str, action: str) -> type[models.TextChoices] | None:
    """The TextChoices whose label a code under `key` of `action`'s data stands for."""
    if key == "kind":
        return TableCall.Kind if action.startswith("table.") else Penalty.Kind
    by_key: dict[str, type[models.TextChoices]] = {
        "mode": HandVersion.Mode,
        "entry_mode": Tournament.EntryMode,
        "royalties": Tournament.Royalties,
        "scoring_method": Tournament.Method,
        "fantasyland_repeat": Tournament.FantasylandRepeat,
    }
    return by_key.get(key)


def _detail_label(key: str, action: str) -> str:
    if key == "kind":
        return _("Kind") if action.startswith("table.") else _("Kind of penalty")
    if key == "royalties" and action.startswith("hand."):
        return _("Royalties")  # a player's royalty points, not the tournament's table
    if key in _DETAIL_LABELS:
        return str(_DETAIL_LABELS[key])
    try:  # a tournament setting: its field's name, as on the settings page
        field = Tournament._meta.get_field(key)
    except FieldDoesNotExist:
        field = None
    # A tournament's related rows ("penalties", "announcements") have no name of their own.
    if isinstance(field, models.Field):
        return str(capfirst(field.verbose_name))
    return capfirst(str(key).replace("_", " "))  # words made of the key


def _detail_text(key: str, value: object, action: str) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    choices = _choices_of(key, action)
    if choices is not None and isinstance(value, str):
        return _label_of(choices, value)
    if key == "ends_at" and isinstance(value, str):
        return _moment(value)
    if isinstance(value, dict):  # a player's line of a hand: what it has ("" or None: not)
        return " · ".join(
            f"{_detail_label(k, action)}: {_detail_text(k, v, action)}"
            for k, v in value.items()
            if v not in (None, "")
        )
    if isinstance(value, (list, tuple)):
        return ", ".join(_detail_text(key, item, action) for item in value)
    return str(value)


def _seating_lines(tables: Iterable[Params]) -> list[tuple[str, str]]:
    """A draw's tables: who sits at each, in seat order, and who deals first."""
    lines: list[tuple[str, str]] = []
    for table in tables:
        players = table.get("players") or []
        first = table.get("first_dealer_position")
        text = ", ".join(str(name) for name in players)
        if isinstance(first, int) and 0 <= first < len(players):
            text = _("%(players)s; %(name)s deals first") % {
                "players": text,
                "name": players[first],
            }
        lines.append((_("Table %(number)s") % {"number": table.get("table", "?")}, text))
    return lines


def _moved_lines(moved: Iterable[Params]) -> list[tuple[str, str]]:
    return [
        (
            str(_DETAIL_LABELS["penalties_carried"]),
            ", ".join(
                _("%(player)s: from table %(from)s to table %(to)s")
                % {"player": item.get("player"), "from": item.get("from"), "to": item.get("to")}
                for item in moved
            ),
        )
    ]


def details(action: str, value: object) -> list[tuple[str, str]]:
    """An entry's before or after as (label, text) lines in the reader's language.

    A hand's results give a line per player; a draw's tables, a line per table; a value
    that is not a dict (an old row's) shows as a single line.
    """
    if value is None or value == "" or value == {} or value == []:
        return []
    if not isinstance(value, dict):
        return [("", _detail_text("", value, action))]
    if action == "tournament.prizes":
        return _prize_lines(value)
    lines: list[tuple[str, str]] = []
    for key, item in value.items():
        if key == "player" and isinstance(item, int) and not isinstance(item, bool):
            continue  # a call's player as a row id: the sentence names him
        if key == "results" and isinstance(item, dict):
            lines += [(str(name), _detail_text(key, line, action)) for name, line in item.items()]
        elif key == "tables" and isinstance(item, list) and all(isinstance(t, dict) for t in item):
            lines += _seating_lines(item)
        elif key == "penalties_carried" and isinstance(item, list):
            lines += _moved_lines([m for m in item if isinstance(m, dict)])
        else:
            lines.append((_detail_label(key, action), _detail_text(key, item, action)))
    return lines
