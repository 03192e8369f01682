"""The cache that keeps the public pages' rendered regions (tournament/live/regions.py).

One process's memory is the default (`make run`, `make venue`). Several app processes
(gunicorn workers, compose's replicas, several servers) share Redis instead
(DJANGO_REDIS_URL, docs/deployment.md): a region is then rendered once for all of them
and every process serves the same rendering, not one each. A Redis that cannot be
reached costs renderings, never a page (config/cache_backend.py).
"""

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

# How long one connection attempt or one answer may take: a page waits this at most.
SOCKET_SECONDS = 1.0
REDIS_SCHEMES = ("redis", "rediss", "unix")


def redis_url(*names: str, environ: Mapping[str, str]) -> str:
    """The first of the variables `names` set in `environ` as a Redis address, or "".
    Anything but a redis://, rediss:// or unix:// address stops the app at start."""
    for name in names:
        value = environ.get(name, "").strip()
        if not value:
            continue
        parts = urlsplit(value)
        where = parts.path if parts.scheme == "unix" else parts.hostname
        if parts.scheme not in REDIS_SCHEMES or not where:
            raise ImproperlyConfigured(
                f"{name}={value!r} is not a Redis address. Give one such as "
                f"{name}=redis://redis:6379/0 (or rediss:// for TLS, unix:// for a socket)."
            )
        return value
    return ""


def caches_setting(redis_location: str) -> dict[str, dict[str, Any]]:
    """Django's CACHES: Redis at `redis_location` when given, else this process's memory."""
    if redis_location:
        return {
            "default": {
                "BACKEND": "config.cache_backend.ForgivingRedisCache",
                "LOCATION": redis_location,
                "OPTIONS": {
                    "socket_connect_timeout": SOCKET_SECONDS,
                    "socket_timeout": SOCKET_SECONDS,
                },
            }
        }
    # A 300-player tournament has ~700 kept regions in two languages, more than the
    # default 300 entries, which would throw renderings away as fast as they are made.
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": 5000},
        }
    }
