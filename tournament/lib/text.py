"""Text helpers for what people read: sorting names the Swedish way."""

import re
import unicodedata
from functools import lru_cache

# Swedish alphabet order: a-z, then å, ä, ö. The three are mapped to the characters
# right after "z" so that a plain string comparison puts them last, in that order.
# Æ and Ø sort as Ä and Ö, and Ü as Y (Svenska Akademiens ordlista); other accented
# letters sort as their base letter (é as e, ç as c).
_AFTER_Z = {
    "å": "{",
    "ä": "|",
    "æ": "|",
    "ö": "}",
    "ø": "}",
    "ü": "y",
}


def _primary(char: str) -> str:
    if char in _AFTER_Z:
        return _AFTER_Z[char]
    decomposed = unicodedata.normalize("NFD", char)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


# The same few hundred names are sorted again and again (a search's players found, the
# TD's lists): kept per process, a third of a rebuilt search region's time on 300 players.
@lru_cache(maxsize=8192)
def swedish_sort_key(name: str) -> tuple[str, str, str]:
    """A key that sorts names as a Swedish reader expects: Å, Ä, Ö after Z.

    Case and accents on other letters only break ties, so "Émile" sits among the
    E's and "anna" next to "Anna".
    """
    folded = unicodedata.normalize("NFC", " ".join(name.split())).casefold()
    return ("".join(_primary(c) for c in folded), folded, name)


# A line may break at a space, or after a hyphen (an en dash, a non-breaking hyphen aside).
_UNBROKEN = re.compile(r"[^\s-]*-|[^\s-]+")


@lru_cache(maxsize=8192)
def longest_unbroken(name: str) -> int:
    """The length of the longest piece of `name` no line breaks inside when it may break
    only at spaces and after hyphens: 12 for "Anna Fredriksson-Lindqvist" ("Fredriksson-")."""
    return max((len(piece) for piece in _UNBROKEN.findall(name)), default=0)
