"""Django's Redis cache backend, forgiving a Redis that cannot be reached.

The cache only saves work (config/cache.py): whatever is kept can be rendered again. So a
Redis that stops answering must not stop the pages: while it cannot be reached, reads miss
and writes are skipped. After a failure a process leaves Redis alone for `PAUSE_SECONDS`,
so that a room's requests do not each wait for a connection timeout, then tries again; the
log says so once per pause.
"""

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

UNREACHABLE = (RedisConnectionError, RedisTimeoutError)
# How long a process leaves an unreachable Redis alone before trying it again.
PAUSE_SECONDS = 5


class ForgivingRedisCache(RedisCache):
    """Django's Redis cache, whose reads miss and writes are skipped while Redis is away."""

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._lock = threading.Lock()
        self._paused_until = 0.0

    def _forgiving[T](self, call: Callable[[], T], fallback: T) -> T:
        if time.monotonic() < self._paused_until:
            return fallback
        try:
            return call()
        except UNREACHABLE as error:
            with self._lock:
                if time.monotonic() >= self._paused_until:
                    log.warning(
                        "The shared cache (Redis) cannot be reached (%s): pages are rendered "
                        "without it for the next %s s.",
                        error,
                        PAUSE_SECONDS,
                    )
                    self._paused_until = time.monotonic() + PAUSE_SECONDS
            return fallback

    def get(self, key: Any, default: Any | None = None, version: int | None = None) -> Any:
        return self._forgiving(lambda: RedisCache.get(self, key, default, version), default)

    def get_many(self, keys: Iterable[Any], version: int | None = None) -> dict[Any, Any]:
        return self._forgiving(lambda: RedisCache.get_many(self, keys, version), {})

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._forgiving(lambda: RedisCache.has_key(self, key, version), False)

    def set(
        self,
        key: Any,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> None:
        self._forgiving(lambda: RedisCache.set(self, key, value, timeout, version), None)

    def set_many(
        self,
        data: dict[Any, Any],
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> list[Any]:
        return self._forgiving(
            lambda: RedisCache.set_many(self, data, timeout, version), list(data)
        )

    def add(
        self,
        key: Any,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> bool:
        return self._forgiving(lambda: RedisCache.add(self, key, value, timeout, version), False)

    def touch(
        self, key: Any, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        return self._forgiving(lambda: RedisCache.touch(self, key, timeout, version), False)

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self._forgiving(lambda: RedisCache.delete(self, key, version), False)

    def delete_many(self, keys: Iterable[Any], version: int | None = None) -> None:
        self._forgiving(lambda: RedisCache.delete_many(self, keys, version), None)
