"""Player names: what makes one show as something, and when two are the same or alike.

The one place for the rules the forms, the services and the import all apply:

- A name must show as something: not only invisible characters (zero-width spaces,
  Hangul fillers, the blank Braille pattern...), and no character that turns the
  direction of the text around (a name could then show as another).
- Invisible characters at either end of a name are dropped, as blanks are ("Anna\u200b"
  is kept as "Anna", which it shows as); inside a name they are kept as typed.
- The same name: the very same text, as it is kept (trimmed, one space between words).
  A tournament never has two players of the same name: the second is "already
  registered", and a pasted list skips it.
- A near-duplicate (a lookalike): the same letters once case, accents, spacing and
  punctuation are set aside ("asa öberg" beside "Åsa Öberg", "Per Olof Svensson"
  beside "Per-Olof Svensson"; invisible characters do not count). They may be two
  people, so the TD is warned and confirms before the second is registered (or a player
  renamed into one); the player the TD confirmed carries it (`Player.alike_confirmed`).
- `same_key` (case, accents and blanks aside) is what the import holds a backup to: two
  players whose names differ only in case or accents are refused unless all but one of
  them carry the TD's confirmation.
"""

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext as _

from tournament.errors import InvalidEntry
from tournament.lib.search import fold
from tournament.rules.validation import Label, clean_text

# Letters that draw nothing: Hangul fillers and the blank Braille pattern.
_FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Categories that draw nothing on their own: controls and format characters (zero-width
# space and joiners, word joiner, byte order mark...), spaces, and combining marks.
_NOTHING_TO_SEE = frozenset({"Cc", "Cf", "Cs", "Cn", "Zs", "Zl", "Zp", "Mn", "Mc", "Me"})
# Embeddings, overrides (U+202A-U+202E) and isolates (U+2066-U+2069): they reorder what
# follows them, so "\u202eAnna" shows as something else than it is.
_DIRECTION = frozenset(map(chr, [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]))


# Characters that draw nothing, dropped at either end of a name (with blanks): zero-width
# space, non-joiner and joiner, word joiner, byte order mark, soft hyphen, Mongolian vowel
# separator, the invisible operators, and the fillers. Not the direction marks (U+200E,
# U+200F: an Arabic or Hebrew name may need its own) nor tag characters (they end a flag).
_INVISIBLE_AT_ENDS = frozenset("\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e\u2061\u2062\u2063\u2064")
_INVISIBLE_AT_ENDS |= _FILLERS
# A joiner or non-joiner right after a virama shapes the consonant before it (the older
# Malayalam chillu letters end so): part of the name, kept.
_SHAPING = frozenset("\u200c\u200d")
_VIRAMA = 9  # the canonical combining class of viramas


def _shows(char: str) -> bool:
    return char not in _FILLERS and unicodedata.category(char) not in _NOTHING_TO_SEE


def _blank(char: str) -> bool:
    return char.isspace() or char in _INVISIBLE_AT_ENDS


def strip_invisible(text: str) -> str:
    """`text` without the blanks and invisible characters at its ends (inside it, they
    stay). A text with nothing to see is left whole, for `check_shown` to name what it is
    made of."""
    start, end = 0, len(text)
    while start < end and _blank(text[start]):
        start += 1
    while end > start and _blank(text[end - 1]):
        after_virama = end - 2 >= start and unicodedata.combining(text[end - 2]) == _VIRAMA
        if text[end - 1] in _SHAPING and after_virama:
            break
        end -= 1
    stripped = text[start:end]
    return stripped if any(_shows(c) for c in stripped) else text


def check_shown(text: str, *, label: Label) -> str:
    """Refuse (InvalidEntry) a text with nothing to see, or that turns its direction."""
    turning = next((c for c in text if c in _DIRECTION), None)
    if turning is not None:
        raise InvalidEntry(
            _(
                "%(label)s contains a character that changes the direction of the text "
                "(U+%(code)04X): the name could show as something it is not."
            )
            % {"label": label, "code": ord(turning)}
        )
    if text and not any(_shows(c) for c in text):
        hidden = next((c for c in text if not c.isspace()), text[0])
        raise InvalidEntry(
            _(
                "%(label)s is made only of invisible characters (such as U+%(code)04X): "
                "it would show as nothing."
            )
            % {"label": label, "code": ord(hidden)}
        )
    return text


def clean_name(value: object, *, label: Label, max_length: int, empty: Label | None = None) -> str:
    """A name as it is kept (`validation.clean_text`, invisible characters at its ends
    dropped), refused if it would not show."""
    if isinstance(value, str):
        value = strip_invisible(value)
    text = clean_text(value, label=label, max_length=max_length, empty=empty)
    return check_shown(text, label=label)


def same_key(name: str) -> str:
    """Equal for names that differ only in case or accents (runs of blanks and invisible
    characters aside too)."""
    visible = "".join(" " if c in _FILLERS else c for c in name if unicodedata.category(c) != "Cf")
    # fold() strips the marks that combine with a letter; those that do not (the combining
    # grapheme joiner, variation selectors) draw nothing either.
    return "".join(c for c in fold(visible) if unicodedata.category(c) not in {"Mn", "Me"})


def lookalike_key(name: str) -> str:
    """Equal for lookalikes: only the letters and digits of `same_key` count.

    A name without letters or digits ("♠♠") is only like the same name.
    """
    key = same_key(name)
    letters = "".join(c for c in key if unicodedata.category(c)[0] in "LN")
    return letters or key


@dataclass(frozen=True)
class Known:
    """A name taken already: a player's (with his start number) or a pasted list's line."""

    name: str
    number: int | None = None
    line: int | None = None
    withdrawn: bool = False  # a player who withdrew: his name can be brought back, not reused


class Taken:
    """The names a new one is compared with: a tournament's players, then a list's lines."""

    def __init__(self, known: Iterable[Known] = ()) -> None:
        self._same: dict[str, Known] = {}
        self._case: dict[str, Known] = {}
        self._alike: dict[str, Known] = {}
        for item in known:
            self.add(item)

    @classmethod
    def of_players(cls, players: Iterable[tuple[int, str, datetime | None]]) -> "Taken":
        """From (number, name, withdrawn_at) rows, as the players' table holds them."""
        return cls(
            Known(name, number=number, withdrawn=withdrawn_at is not None)
            for number, name, withdrawn_at in players
        )

    def add(self, known: Known) -> None:
        self._same.setdefault(known.name, known)
        self._case.setdefault(same_key(known.name), known)
        self._alike.setdefault(lookalike_key(known.name), known)

    def same(self, name: str) -> Known | None:
        """The name taken that is the very same as `name` (as kept), or None."""
        return self._same.get(name)

    def alike(self, name: str) -> Known | None:
        """A name taken that `name` is a near-duplicate of without being the same, or None:
        one that differs only in case or accents first, else only in spacing or punctuation
        too."""
        if self.same(name) is not None:
            return None
        return self._case.get(same_key(name)) or self._alike.get(lookalike_key(name))


@dataclass(frozen=True)
class Line:
    """One name of a list, compared with those taken before it."""

    name: str
    line: int | None
    same: Known | None  # taken already: skipped
    alike: Known | None  # a near-duplicate: registered only when the TD confirms


def compare_list(entries: Iterable[tuple[str, int | None]], taken: Taken) -> list[Line]:
    """`entries` ((name, line number or None) pairs), each compared with `taken` and the
    entries before it. `taken` grows by every name that is not skipped."""
    lines: list[Line] = []
    for name, line in entries:
        same = taken.same(name)
        alike = None if same is not None else taken.alike(name)
        if same is None:
            taken.add(Known(name, line=line))
        lines.append(Line(name, line, same, alike))
    return lines


# ---------------------------------------------------------------- what the TD is told


def already_registered(name: str, known: Known) -> str:
    """`name` is the very name of the player `known`."""
    if known.withdrawn:
        return _(
            "%(name)s (no. %(number)d) has withdrawn. To put this player back in the draw, "
            "choose Undo withdrawal in the player list."
        ) % {"name": name, "number": known.number}
    return _("%(name)s is already registered (no. %(number)d).") % {
        "name": name,
        "number": known.number,
    }


def alike_question(name: str, known: Known) -> str:
    """`name` looks like `known` (a player, an earlier line, or an earlier name of a list)."""
    params = {"name": name, "other": known.name, "number": known.number, "line": known.line}
    if known.number is not None:
        message = _("%(name)s is very like %(other)s (no. %(number)d). Is this another player?")
    elif known.line is not None:
        message = _("%(name)s is very like %(other)s on line %(line)d. Is this another player?")
    else:
        message = _("%(name)s is very like %(other)s, earlier in the list. Is this another player?")
    return message % params
