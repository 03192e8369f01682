"""Rule settings of a game: royalty table, scoring method, Fantasyland repeats."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from .errors import InvalidHand
from .errors import show_value as _show

# Allowed values of every setting, the first being the default (SM).
RULE_CHOICES: dict[str, tuple[str, ...]] = {
    "royalties": ("us", "russian"),
    "method": ("1-6", "2-4"),
    "fantasyland_repeat": ("unlimited", "once", "never"),
}

# Help text for the tournament director, one line per setting value.
RULE_HELP: dict[str, dict[str, str]] = {
    "royalties": {
        "us": "US royalties (SM): back quads 10, straight flush 15, royal 25; "
        "middle quads 20, straight flush 30, royal 50.",
        "russian": "Russian royalties: back quads 8, straight flush 10, royal 15; "
        "middle quads 16, straight flush 20, royal 30; the rest as US.",
    },
    "method": {
        "1-6": "1-6 method (SM): 1 point per row won, 3 more for winning all three "
        "rows; 6 against a fouled hand.",
        "2-4": "2-4 method: 1 point per row won, 1 more for winning two or three rows; "
        "4 against a fouled hand.",
    },
    "fantasyland_repeat": {
        "unlimited": "Fantasyland repeats as long as the player qualifies to stay (SM).",
        "once": "Fantasyland repeats at most once: a player may stay only after his first "
        "Fantasyland hand.",
        "never": "Fantasyland never repeats: after a Fantasyland hand the player returns "
        "to normal play.",
    },
}


@dataclass(frozen=True)
class Rules:
    """Rule settings; ``Rules()`` is the SM default (US royalties, 1-6, unlimited repeats)."""

    royalties: str = "us"
    method: str = "1-6"
    fantasyland_repeat: str = "unlimited"

    def __post_init__(self) -> None:
        for name, choices in RULE_CHOICES.items():
            value = getattr(self, name)
            if isinstance(value, str):
                normalized = value.strip().lower()
                if normalized in choices:
                    object.__setattr__(self, name, normalized)
                    continue
            allowed = ", ".join(repr(c) for c in choices)
            raise InvalidHand(
                f"Rules {name} must be one of {allowed}, got {_show(value)}",
                code="rules",
                params={"setting": name, "value": _show(value), "choices": choices},
            )

    def to_dict(self) -> dict[str, str]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        if not isinstance(data, Mapping):
            raise InvalidHand(
                f"Rules must be given as a mapping, got {type(data).__name__}",
                code="rules",
                params={"type": type(data).__name__},
            )
        unknown = [k for k in data if k not in RULE_CHOICES]
        if unknown:
            known = ", ".join(RULE_CHOICES)
            raise InvalidHand(
                f"Unknown rules setting {_show(unknown[0])} (known settings: {known})",
                code="rules",
                params={"setting": _show(unknown[0])},
            )
        return cls(**data)

    def describe(self) -> list[str]:
        """The help text of each chosen setting, for the tournament director."""
        return [RULE_HELP[name][getattr(self, name)] for name in RULE_CHOICES]


SM = Rules()
RUSSIAN = Rules(royalties="russian")


def coerce_rules(rules: object) -> Rules:
    """``rules`` as a :class:`Rules`: a Rules, a mapping of settings, or None for SM."""
    if rules is None:
        return SM
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, Mapping):
        try:
            return Rules.from_dict(rules)
        except InvalidHand:
            raise
        except Exception as exc:  # a strange mapping: never leak another exception type
            raise InvalidHand(
                f"Rules could not be read: {type(exc).__name__}",
                code="rules",
                params={"type": type(exc).__name__},
            ) from exc
    raise InvalidHand(
        f"rules must be a Rules object (SM, RUSSIAN, ...), got {type(rules).__name__}",
        code="rules",
        params={"type": type(rules).__name__},
    )
