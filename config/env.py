"""Small readers for settings taken from the environment.

A value that cannot be read is an error at start-up, never a silent default: a
typo such as `DJANGO_DEBUG=ture` must not quietly turn a setting off (or on).
"""

import os
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    """1/0, true/false, yes/no, on/off in any case; unset or blank gives the default."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a yes/no value. Accepted values (any case): "
        f"{', '.join(TRUE_WORDS)} for yes; {', '.join(FALSE_WORDS)} for no; empty for the default."
    )


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return list(default or [])
    return [item.strip() for item in value.split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    """A whole number (blanks trimmed); unset or blank gives the default."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    try:
        return int(value.strip())
    except ValueError:
        raise ImproperlyConfigured(
            f"{name}={value!r} is not a whole number. Accepted values: digits, "
            f"e.g. {name}={default}; empty for the default ({default})."
        ) from None


def public_url(name: str) -> str:
    """An http(s) address with a host and no query (a trailing slash dropped); unset or
    blank gives ""."""
    value = os.environ.get(name, "").strip()
    if not value:
        return ""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ImproperlyConfigured(
            f"{name}={value!r} is not a site address. Give the address phones open, with "
            f"http:// or https:// and no query, e.g. {name}=http://192.168.1.20:8000"
        )
    return value.rstrip("/")
