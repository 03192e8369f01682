"""The token a live page polls with, as each process reads it: at most once per
`token_seconds()` per subject, every table's with the tournament's in one read (`room`)."""

import time
from collections.abc import Callable, Hashable, MutableMapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from tournament.selectors.tokens import RoomTokens, revision_token, room_tokens


def render_seconds() -> float:
    """How long a kept region is served after its token moved on (see the module's doc):
    settings.PUBLIC_RENDER_SECONDS, 5 s unless the environment says otherwise, 0 in tests."""
    return settings.PUBLIC_RENDER_SECONDS


def token_order(token: str | None) -> tuple[int, ...] | None:
    """A token as numbers that only grow ("12.345" -> (12, 345)): the tournament's revision
    first, then the sum of its open tables' (or one table's) revisions, which only grows
    while the first stays the same. None for anything else (a forged `?rev=`)."""
    parts = token.split(".") if token else ()
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) < 19 for p in parts):
        return None
    return tuple(map(int, parts))


def shows_already(rev: str | None, token: str) -> bool:
    """Whether a phone showing `rev` has `token`'s region or a newer one already."""
    if rev == token:
        return True
    shown, kept = token_order(rev), token_order(token)
    return shown is not None and kept is not None and shown > kept


# The token each process read last, per subject: (token, when read). See `recent_token`.
# A token is a text, or a room's (RoomTokens).
_recent_tokens: dict[Hashable, tuple[Any, float]] = {}


RECENT_TOKENS_MAX = 10_000  # subjects kept at most (a room has a few hundred pages)


def keep_bounded[K, V](kept: MutableMapping[K, V], limit: int, key: K, value: V) -> None:
    """Keep `value` under `key` in one of this module's per-process stores, emptied whole
    when it holds `limit` entries: each is read again on its next miss, and a room has a
    few hundred pages, far under any limit."""
    if len(kept) >= limit:
        kept.clear()
    kept[key] = value


def token_seconds() -> float:
    """How long a process answers polls with the token it read last: PUBLIC_TOKEN_SECONDS
    (1 s unless the environment says otherwise, 0 in tests), never more than
    `render_seconds()`, the bound a phone's view may trail the room by already."""
    return min(settings.PUBLIC_TOKEN_SECONDS, render_seconds())


def recent_token[T](token_of: Callable[..., T | None], ids: tuple[object, ...]) -> T | None:
    """`token_of(*ids)`, read at most once per `token_seconds()` per process and subject.

    A room's phones poll the same few hundred pages (2,000 phones: 400 polls a second, most
    of them unchanged); the token's read is most of what an unchanged poll costs beyond
    Django itself (docs/performance-log.md). A token read earlier is only ever older than the
    pages' content, never newer: a phone given it is sent the fresh region at its next poll
    after `token_seconds()`. No such subject (None) is not kept: a new one shows at once.
    """
    seconds = token_seconds()
    if seconds <= 0:
        return token_of(*ids)
    key = (token_of, ids)
    now = time.monotonic()
    kept = _recent_tokens.get(key)
    if kept is not None and now - kept[1] < seconds:
        return kept[0]
    token = token_of(*ids)
    kept = _recent_tokens.get(key)
    # Never over one read after it (a thread's, where a server runs them): a page that read
    # its token from the newer must not check what it shows against the older.
    if token is not None and (kept is None or kept[1] <= now):
        keep_bounded(_recent_tokens, RECENT_TOKENS_MAX, key, (token, now))
    return token


@dataclass(frozen=True)
class Live:
    """What a live page's view is given: its subject's current token, and `subject`, what
    its region shows (the view and its URL's ids), which names the kept region."""

    token: str
    subject: tuple[object, ...]


def tournament_token(tournament_id: int) -> str | None:
    """The tournament's token (`revision_token`), as its live pages poll it: read
    with every table's (`room`), at most once per `token_seconds()` per process."""
    if token_seconds() <= 0:
        return revision_token(tournament_id)
    tokens = room(tournament_id)
    return None if tokens is None else tokens.tournament


def table_token(tournament_id: int, table_id: int) -> str | None:
    """A table's token, as its score card polls it (`revision_token` of the
    table): read with every table's (`room`), at most once per `token_seconds()` per
    process. A room's phones poll a hundred tables' cards: one query a second per process
    instead of one per table and second, each after Django's connection health check (the
    check alone 12 % of a worker's time at 2,000 phones, docs/performance-log.md). A table
    the tokens read before it lack (a new draw's) is read alone, as is one of another
    tournament (None)."""
    tokens = room(tournament_id) if token_seconds() > 0 else None
    token = None if tokens is None else tokens.tables.get(table_id)
    if token is not None:
        return token
    return recent_token(revision_token, (tournament_id, table_id))


def room(tournament_id: int) -> RoomTokens | None:
    """`room_tokens`: the tournament's token and every table's, read together at
    most once per `token_seconds()` per process (None: no such tournament)."""
    return recent_token(room_tokens, (tournament_id,))
