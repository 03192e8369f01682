"""The reads a live region is built on, kept per process while nothing they show has moved:
the tournament, the standings, a table's score card, a player's record, a search's seats."""

import copy
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.core.cache import cache
from django.http import Http404

from tournament.live.regions import _renderings
from tournament.live.tokens import (
    _recent_tokens,
    keep_bounded,
    render_seconds,
    table_token,
    token_seconds,
)
from tournament.models import Seat, Table, Tournament
from tournament.selectors.public import (
    PlayerRecord,
    latest_seats,
    player_record,
    public_tournament,
)
from tournament.selectors.score_card import ScoreCard, score_card
from tournament.selectors.standings import Standing, standings
from tournament.selectors.tokens import join_token

# Each process's last read of a tournament for a live page, per tournament and the page's
# token: (when read, the tournament). See `get_tournament`.
_tournaments: dict[tuple[int, str | None], tuple[float, Tournament]] = {}


TOURNAMENTS_MAX = 1_000  # (tournament, token) pairs kept at most; each lives a second


def get_tournament(tournament_id: int, token: str | None = None) -> Tournament:
    """The tournament with its champion and `.token` (1 query), or 404.

    `token`: the token a live page read first (its `Live.token`). The tournament is then
    read once per `token_seconds()` per process and token: in a busy room every page whose
    region is rendered again after a hand needs it, and it was read after that token, so a
    region it goes into is never older than the token it shows (0.8 ms a rendering saved,
    PostgreSQL, bench/bench_public.py's room). A copy for each caller: a page may load what
    the tournament refers to (its champion) onto it."""
    seconds = token_seconds()
    keep = token is not None and seconds > 0
    now = time.monotonic()
    kept = _tournaments.get((tournament_id, token)) if keep else None
    if kept is not None and now - kept[0] < seconds:
        return copy.copy(kept[1])
    tournament = public_tournament(tournament_id)
    if tournament is None:
        raise Http404("No such tournament.")
    if keep:
        keep_bounded(_tournaments, TOURNAMENTS_MAX, (tournament_id, token), (now, tournament))
        return copy.copy(tournament)
    return tournament


def forget_kept() -> None:
    """Forget everything this process keeps of the public pages: the tests' fresh process."""
    cache.clear()
    for kept in (
        _standings,
        _recent_tokens,
        _player_records,
        _renderings,
        _tournaments,
        _score_cards,
        _found_seats,
    ):
        kept.clear()


@dataclass(frozen=True)
class KeptStandings:
    rows: list[Standing]
    token: str  # the tournament's token they were worked out at
    as_of: float  # when (time.time())

    def context(self) -> dict[str, object]:
        """What a region built on them shows as its token and its age (see `region`)."""
        return {"token": self.token, "as_of": self.as_of}


# The standings each process worked out last, per tournament: (token, when, rows). Kept in
# the process rather than in Django's cache: unpickling 300 players' rows from it cost
# 2-3 ms a page, about what working them out saves.
_standings: dict[int, tuple[str, float, list[Standing]]] = {}


def cached_standings(tournament: Tournament) -> KeptStandings:
    """`standings` of the tournament (3 queries), worked out at most once per
    `render_seconds()` per process, as a live region is, and shared by the standings, the
    players' pages and the searches: with a hand somewhere every second, a player's page
    would otherwise work out the whole room's standings at each of its polls (300 players:
    6-17 ms of a 8-20 ms page). Standings older than the token are served with their own
    token and time, which the region built on them shows (`KeptStandings.context`): the
    phone is sent the fresh ones at its first poll after `render_seconds()`."""
    # Set on the tournament by its read for the page (`get_tournament`): no column.
    current: str = tournament.token  # type: ignore[attr-defined]
    now = time.time()
    kept = _standings.get(tournament.pk)
    if kept is not None:
        token, as_of, rows = kept
        if token == current:
            return KeptStandings(rows, token, now)  # as current as if worked out now
        # A finished tournament's pages stop polling: they must show its final standings.
        if tournament.finished_at is None and now - as_of < render_seconds():
            return KeptStandings(rows, token, as_of)
    rows = standings(tournament)
    _standings[tournament.pk] = (current, now, rows)
    return KeptStandings(rows, current, now)


# Each process's last public score card per table: (the token, the table, its card).
_score_cards: dict[int, tuple[str, Table, ScoreCard]] = {}


SCORE_CARDS_MAX = 10_000  # tables kept at most


def kept_score_card(
    table_id: int, load_table: Callable[[], Table], token: str
) -> tuple[Table, ScoreCard]:
    """The table (`load_table()`, 1 query) and its public `score_card` (5
    queries), read once per process and table at `token`, its region's: after a hand, a
    table's region is rendered again for each language its phones read (two in a Swedish
    room with visitors), from the same card (7 ms under load, PostgreSQL). Read after that
    token, so never older than it; an equal token means nothing the card shows has moved."""
    kept = _score_cards.get(table_id)
    if kept is not None and kept[0] == token:
        return kept[1], kept[2]
    table = load_table()
    card = score_card(table, public=True)
    keep_bounded(_score_cards, SCORE_CARDS_MAX, table_id, (token, table, card))
    return table, card


# Each process's last `player_record` per player: read again only when the tournament's
# revision or his latest table's has moved since (`PlayerRecord.read_at`).
_player_records: dict[tuple[int, int], PlayerRecord] = {}


PLAYER_RECORDS_MAX = 10_000  # players kept at most


def kept_player_record(tournament: Tournament, player_id: int) -> PlayerRecord | None:
    """`player_record` (3 queries), kept per process while nothing it shows has
    moved: a player's page is watched by one or two phones, and its region is rendered
    again at their visits after the render bound because the room's token moved with a
    hand elsewhere (his place may have moved; his record has not). Checking it costs his
    table's token (one indexed query, none when he has no seat): 3.5 ms of queries saved a
    rendering (PostgreSQL, bench/bench_public.py's room)."""
    key = (tournament.pk, player_id)
    kept = _player_records.get(key)
    if kept is not None and kept.read_at == _read_now(tournament, kept):
        return kept
    record = player_record(tournament, player_id)
    if record is not None:
        keep_bounded(_player_records, PLAYER_RECORDS_MAX, key, record)
    return record


def _read_now(tournament: Tournament, record: PlayerRecord) -> str | None:
    """What `record.read_at` would be if it were read now, as far as the page's token
    knows: his table's token comes from the same read as the tournament's (`room`, or one
    after it), so a record it finds unchanged is never older than the token shown with it."""
    if record.latest_table_id is None:
        return str(tournament.revision)
    return table_token(tournament.pk, record.latest_table_id)


# Each process's last seats of the players a search found, per tournament and players:
# (what they were read at, the seats), read again only when one of their tables' tokens
# or the tournament's revision has moved since.
# (the revision, (player id, his table's token) ...), his seat by player id
_found_seats: dict[
    tuple[int, tuple[int, ...]], tuple[tuple[int, tuple[tuple[int, str], ...]], dict[int, Seat]]
] = {}


FOUND_SEATS_MAX = 10_000  # searches kept at most


def kept_latest_seats(tournament: Tournament) -> Callable[[tuple[int, ...]], dict[int, Seat]]:
    """`latest_seats` for the players a search finds (its `seats_of`), kept per
    process while nothing it holds has moved, as a player's record is: a search's region
    is rendered again at its phone's visits after the render bound because a hand
    elsewhere moved the room's token; the same players' seats have not moved. Checking
    them costs no query (their tables' tokens come with the page's own, `room`)."""

    def seats_of(player_ids: tuple[int, ...]) -> dict[int, Seat]:
        if token_seconds() <= 0:
            return latest_seats(player_ids)  # no room's tokens to check them by
        key = (tournament.pk, player_ids)
        kept = _found_seats.get(key)
        if kept is not None and kept[0] == _seats_read_now(tournament, kept[1]):
            return kept[1]
        seats = latest_seats(player_ids)
        keep_bounded(_found_seats, FOUND_SEATS_MAX, key, (_seats_read_at(tournament, seats), seats))
        return seats

    return seats_of


def _seats_read_at(
    tournament: Tournament, seats: dict[int, Seat]
) -> tuple[int, tuple[tuple[int, str], ...]]:
    """What `seats` were read at: the tournament's revision (read before them) and each
    seat's table token, as `revision_token` gives it."""
    revision = tournament.revision
    return revision, tuple(
        (player_id, join_token(revision, seat.table.revision))
        for player_id, seat in sorted(seats.items())
    )


def _seats_read_now(
    tournament: Tournament, seats: dict[int, Seat]
) -> tuple[int, tuple[tuple[int, str | None], ...]]:
    """What `_seats_read_at` would give if the same seats were read now, as far as the
    page's token knows (`table_token`, as `_read_now`)."""
    return tournament.revision, tuple(
        (player_id, table_token(tournament.pk, seat.table_id))
        for player_id, seat in sorted(seats.items())
    )
