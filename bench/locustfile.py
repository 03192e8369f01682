"""A room on the public pages of one tournament in play (bench/bench_public.py runs it).

The room as it is (`--room`, a JSON file the bench writes: the tournament, its tables with
their revisor links and seats, its players):

- **Phones**, most on their own table's score card (`/t/<id>/table/<table>/`, spread over
  every table), some on the tournament page or the standings, a few on a player's page
  (`PAGES`). A phone opens its page with its CSS and JS, then polls the page's live region
  as static/js/poll.js does: `?rev=<token>` with htmx's headers every `data-poll-every`
  seconds; 204 while nothing changed, else the fresh fragment, whose data-poll-rev is the
  revision to send next. One page a phone: poll.js pauses a page that is not shown. Phones
  are spread over the interval, never in step.
- **Projectors**: the big screens, `PROJECTORS` clients of each, polling every 10 s.
- **Revisors**: one tablet a table (`--hand-every` seconds between a table's hands; 0:
  none), as the revisor's phone does it: opened by the table's link, its card's summary
  polled every 5 s, and every hand posted as the card's form posts it (htmx, CSRF, the
  submission key), through the whole server.

A few "probes" measure the yardsticks at the same load: each every --probe-every seconds
asks, in a random order, for the bare view (/bench/ok/, which exists only when the server
runs with BENCH_BARE_VIEW=1 and DEBUG off), and for one live page kind in turn (`KINDS`:
every page a room polls) its full page and an unchanged poll (the revision that page just
gave). Their names carry the kind, so the bench reports every kind against the bare view.

Requests are named by what they turned out to be: "poll unchanged (204) [table]", "poll
changed (200) [table]", "page (full) [table]", "bare view", "static file", "revisor poll
unchanged (204)", "revisor poll" (one that brought a change), "revisor hand"; probes' start
with "probe ". With --steps, a load shape raises the number
of phones step by step and writes each step's steady window to --out; every request's
start, name, time and outcome are written there too, so the bench works out exact
percentiles per step (locust's own are rounded).

By hand, against a server of your own (the bare view only when it runs as above;
`python bench/bench_public.py --serve 600` sets one up and prints the command):

    locust -f bench/locustfile.py --headless --host http://127.0.0.1:8000 \\
        --room room.json -u 500 -r 50 -t 60s

This file sets GEVENT_RESOLVER=block unless it is set: gevent's default resolver sends
every new connection's address look-up (even of 127.0.0.1) through a thread pool, which
adds 3-4 ms to every request at rest and up to 100 ms under load, since gunicorn's sync
workers close each connection after one request.
"""

import html
import itertools
import json
import os
import random
import re
import time
import uuid
from pathlib import Path
from urllib.parse import quote

# Before gevent's hub makes its resolver (see above); an explicit setting wins.
os.environ.setdefault("GEVENT_RESOLVER", "block")

import gevent  # noqa: E402
from locust import FastHttpUser, LoadTestShape, events, task  # noqa: E402

REV = re.compile(rb'data-poll-rev="([^"]*)"')
POLL_URL = re.compile(rb'data-poll-url="([^"]*)"')
POLL_EVERY = re.compile(rb'data-poll-every="([0-9.]+)"')
ASSET = re.compile(rb'(?:href|src)="(/static/[^"]+\.(?:css|js))"')
CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
HAND_NUMBER = re.compile(
    rb'name="hand_number"[^>]*value="([0-9]+)"|value="([0-9]+)"[^>]*name="hand_number"'
)
# A room in Sweden: most phones ask for Swedish, some for English.
LANGUAGES = (("sv-SE,sv;q=0.9,en;q=0.8", 7), ("en-GB,en;q=0.9", 3))
# The page a phone has open: its own table's score card most of all.
PAGES = (("table", 70), ("tournament", 15), ("standings", 10), ("player", 5))
# Clients of each big screen (a projector in the hall, one by the TD's desk).
PROJECTORS = {"tables_projector": 2, "standings_projector": 1}
# Every live page kind, as the probes measure them.
KINDS = (
    "tournament",
    "table",
    "standings",
    "player",
    "find",
    "tables_projector",
    "standings_projector",
)
USER_AGENT = "Mozilla/5.0 (Linux; Android 14) bench-phone"

UNCHANGED = "poll unchanged (204)"
CHANGED = "poll changed (200)"
PAGE = "page (full)"
BARE = "bare view"
STATIC = "static file"
REVISOR_POLL = "revisor poll"
REVISOR_UNCHANGED = "revisor poll unchanged (204)"
REVISOR_HAND = "revisor hand"
PROBE = "probe "


def named(what, kind):
    """A request's name: what it turned out to be, and the page kind ("page (full) [table]")."""
    return f"{what} [{kind}]"


@events.init_command_line_parser.add_listener
def _options(parser):
    parser.add_argument("--room", default="room.json", help="the room (bench_public.py writes it)")
    parser.add_argument("--probes", type=int, default=8, help="yardstick users (at least 1)")
    parser.add_argument(
        "--probe-every", type=float, default=0.25, help="seconds between a probe's rounds"
    )
    parser.add_argument(
        "--hand-every",
        type=float,
        default=30,
        help="seconds between a table's hands (0: none; the tablets still poll)",
    )
    parser.add_argument("--steps", default="", help="phones per step, e.g. 0,250,500 (shape)")
    parser.add_argument(
        "--step-spawn-rate", type=float, default=100, help="phones opened per second (shape)"
    )
    parser.add_argument("--settle-seconds", type=float, default=6, help="after a step's ramp")
    parser.add_argument("--step-seconds", type=float, default=25, help="each step's window")
    parser.add_argument(
        "--stop-p95-ms", type=float, default=0, help="stop after a step over this p95 (0: never)"
    )
    parser.add_argument("--out", default="", help="folder for the windows and the samples")


ROOM = {}


@events.init.add_listener
def _init(environment, **_kwargs):
    options = environment.parsed_options
    if options is None:
        return
    ROOM.update(json.loads(Path(options.room).read_text()))
    # At least one of each: locust spreads its users by weight over classes of fixed_count 0.
    Probe.fixed_count = max(1, options.probes)
    Probe.period = options.probe_every
    Revisor.fixed_count = len(ROOM["tables"])
    Revisor.hand_every = options.hand_every
    Revisor.tables = itertools.cycle(ROOM["tables"])
    if options.out:
        events.request.add_listener(_record)
        events.test_start.add_listener(lambda **_kw: gevent.spawn(_watch_lag))
        events.test_stop.add_listener(lambda **_kw: _dump(options.out))


def fixed_users():
    """Users other than the phones: probes, projectors and revisors."""
    return (
        Probe.fixed_count
        + TablesProjector.fixed_count
        + StandingsProjector.fixed_count
        + (Revisor.fixed_count)
    )


# ------------------------------------------------------------------ every request, recorded

_samples = []
_lags = []  # (time, ms): how late a 10 ms sleep of this process woke up


def _watch_lag():
    """How late locust itself runs: a request's time includes any wait of this process
    for the CPU (the bench reports it beside the figures)."""
    while True:
        started = time.perf_counter()
        gevent.sleep(0.01)
        _lags.append((time.time(), (time.perf_counter() - started - 0.01) * 1000))


def _record(request_type, name, response_time, response_length, exception, start_time, **_kw):
    failed = exception is not None
    _samples.append((start_time, name, response_time, failed, response_length))


def _dump(folder):
    if not _samples:
        return
    path = Path(folder) / f"samples-{os.getpid()}.json"
    path.write_text(json.dumps(_samples))
    Path(folder, f"lags-{os.getpid()}.json").write_text(json.dumps(_lags))


# ------------------------------------------------------------------ the pages


def _html_attr(match):
    return html.unescape(match.group(1).decode())


def page_url(kind, rng=random):
    """A live page of the room's tournament: its own table's, a player's, a search..."""
    tournament = ROOM["tournament"]
    if kind == "table":
        return f"/t/{tournament}/table/{rng.choice(ROOM['tables'])['id']}/"
    if kind == "player":
        return f"/t/{tournament}/player/{rng.choice(ROOM['players'])}/"
    if kind == "find":
        return f"/t/{tournament}/find/?q={quote(rng.choice(ROOM['searches']))}"
    if kind == "tournament":
        return f"/t/{tournament}/"
    return (
        f"/t/{tournament}/"
        + {
            "standings": "standings/",
            "tables_projector": "projector/tables/",
            "standings_projector": "projector/standings/",
        }[kind]
    )


class Region:
    """A live region as poll.js keeps it: the URL it polls, the revision it shows, how
    often it polls."""

    def __init__(self, url, rev, every):
        self.url, self.rev, self.every, self.stopped = url, rev, every, False


def paced(user):
    """Seconds until the user's next tick: one every `user.period` from its first, each
    user keeping the phase it drew. (locust's constant_pacing counts from the moment a
    user was spawned, and locust spawns a second's users together: their ticks would
    fall on the same instants, a burst every second.)"""
    now = time.monotonic()
    due = getattr(user, "due", now) + user.period
    user.due = max(due, now)  # a late tick is not caught up with a burst
    return user.due - now


class Reader(FastHttpUser):
    abstract = True
    wait_time = paced
    period = 5
    prefix = ""  # "probe " for the yardsticks

    def htmx_headers(self, page):
        return {
            **self.headers,
            "HX-Request": "true",
            "HX-Current-URL": self.host + page,
            "HX-Target": "live",
            "HX-Trigger": "live",
        }

    def load_page(self, kind, url, assets=False):
        """A live page as a phone opens it: its live region (URL, revision, interval)."""
        with self.client.get(
            url, headers=self.headers, name=self.prefix + named(PAGE, kind), catch_response=True
        ) as response:
            body = response.content or b""
            poll_url, rev = POLL_URL.search(body), REV.search(body)
            if response.status_code != 200 or not (poll_url and rev):
                response.failure(f"no live region (HTTP {response.status_code})")
                return None
        if assets:
            for path in dict.fromkeys(m.decode() for m in ASSET.findall(body)):
                self.client.get(path, headers=self.headers, name=STATIC)
        every = POLL_EVERY.search(body)
        self.page = url
        return Region(_html_attr(poll_url), _html_attr(rev), float(every.group(1)) if every else 5)

    def poll(self, kind, region):
        """One tick of poll.js: 204 leaves the region; 200 brings it with its new revision."""
        if region is None or region.stopped:
            return
        sep = "&" if "?" in region.url else "?"
        url = f"{region.url}{sep}rev={quote(region.rev)}"
        with self.client.get(
            url, headers=self.htmx_headers(self.page), name="poll", catch_response=True
        ) as response:
            if response.status_code == 204:
                response.request_meta["name"] = self.prefix + named(UNCHANGED, kind)
                return
            response.request_meta["name"] = self.prefix + named(CHANGED, kind)
            head = (response.content or b"")[:2000]
            rev = REV.search(head)
            if response.status_code != 200 or rev is None:
                response.failure(f"poll answered HTTP {response.status_code} without a revision")
                return
            region.rev = _html_attr(rev)
            region.stopped = b"data-poll-stop" in head.split(b">", 1)[0]

    def open_language(self):
        language = random.choices([a for a, _ in LANGUAGES], [w for _, w in LANGUAGES])[0]
        self.headers = {"Accept-Language": language, "User-Agent": USER_AGENT}

    def spread(self, period):
        """Users are opened at different moments: their ticks are spread over the period."""
        self.period = period
        gevent.sleep(random.uniform(0, period))
        self.due = time.monotonic()


class Phone(Reader):
    """A player's phone: one page (`PAGES`), then its live region as poll.js polls it."""

    def on_start(self):
        self.open_language()
        self.kind = random.choices([p for p, _ in PAGES], [w for _, w in PAGES])[0]
        self.region = self.load_page(self.kind, page_url(self.kind), assets=True)
        self.spread(self.region.every if self.region else 5)

    @task
    def tick(self):
        self.poll(self.kind, self.region)


class Projector(Reader):
    abstract = True
    kind = ""

    def on_start(self):
        self.open_language()
        self.region = self.load_page(self.kind, page_url(self.kind), assets=True)
        self.spread(self.region.every if self.region else 10)

    @task
    def tick(self):
        self.poll(self.kind, self.region)


class TablesProjector(Projector):
    fixed_count = PROJECTORS["tables_projector"]
    kind = "tables_projector"


class StandingsProjector(Projector):
    fixed_count = PROJECTORS["standings_projector"]
    kind = "standings_projector"


class Revisor(FastHttpUser):
    """One table's revisor tablet: its card's summary polled every 5 s, and the next hand
    posted every `hand_every` seconds (the first at a random moment; none when 0), as the
    card's form posts it with htmx. Nobody plays: a hand's points are a winner and losers."""

    fixed_count = 1  # one per table (set from --room)
    hand_every = 30
    tables = None
    wait_time = paced
    period = 5

    def on_start(self):
        self.table = next(self.tables)
        self.headers = {"Accept-Language": "sv-SE,sv;q=0.9", "User-Agent": f"{USER_AGENT} revisor"}
        link = f"/r/{self.table['key']}/"
        with self.client.get(
            link, headers=self.headers, name="revisor opens", catch_response=True
        ) as response:
            if response.status_code != 200 or not self.read_card(response.content or b""):
                response.failure(f"no card (HTTP {response.status_code})")
                self.card = None
                return
        gevent.sleep(random.uniform(0, self.period))
        self.due = time.monotonic()
        if self.hand_every > 0:
            self.next_hand = time.monotonic() + random.uniform(0, self.hand_every)
        else:
            self.next_hand = float("inf")

    def read_card(self, body):
        """The card's poll (URL, revision), its form's CSRF token and hand number."""
        poll_url, rev, csrf = POLL_URL.search(body), REV.search(body), CSRF.search(body)
        number = HAND_NUMBER.search(body)
        if not (poll_url and rev and csrf and number):
            return False
        self.card = Region(_html_attr(poll_url), _html_attr(rev), 5)
        self.csrf = csrf.group(1).decode()
        self.hand = int(number.group(1) or number.group(2))
        return True

    @task
    def tick(self):
        if self.card is None:
            return
        if time.monotonic() >= self.next_hand:
            self.next_hand += self.hand_every
            self.record_hand()
        else:
            self.poll_summary()

    def hx(self):
        return {**self.headers, "HX-Request": "true", "HX-Current-URL": self.host + "/r/card/"}

    def poll_summary(self):
        sep = "&" if "?" in self.card.url else "?"
        url = f"{self.card.url}{sep}rev={quote(self.card.rev)}"
        with self.client.get(url, headers=self.hx(), name=REVISOR_POLL, catch_response=True) as r:
            if r.status_code == 204:
                r.request_meta["name"] = REVISOR_UNCHANGED
            elif r.status_code == 200:
                rev = REV.search(r.content or b"")
                if rev is not None:
                    self.card.rev = _html_attr(rev)
            else:
                r.failure(f"revisor poll answered HTTP {r.status_code}")

    def record_hand(self):
        positions = self.table["positions"]
        winner = random.choice(positions)
        loss = random.randint(1, 6)
        data = {
            f"points_{p}": str(loss * (len(positions) - 1) if p == winner else -loss)
            for p in positions
        }
        data.update(
            {
                "hand_number": str(self.hand),
                "idempotency_key": str(uuid.uuid4()),
                "csrfmiddlewaretoken": self.csrf,
            }
        )
        headers = {**self.hx(), "X-CSRFToken": self.csrf, "Referer": self.host + "/r/card/"}
        with self.client.post(
            "/r/card/hand/", data=data, headers=headers, name=REVISOR_HAND, catch_response=True
        ) as response:
            number = self.hand
            if not self.read_card(response.content or b""):
                self.card = None  # the table is over, or the card is not what it was
            if response.status_code != 200 or self.card is None or self.hand != number + 1:
                response.failure(f"hand {number} not recorded (HTTP {response.status_code})")


class Probe(Reader):
    """The yardsticks, at the same load: the bare view, and for each live page kind in
    turn its full page and an unchanged poll (of the probe's own table, player, search)."""

    fixed_count = 8  # --probes
    period = 0.25  # --probe-every
    prefix = PROBE

    def on_start(self):
        self.headers = {"Accept-Language": "en-GB,en;q=0.9", "User-Agent": USER_AGENT + " probe"}
        self.kinds = itertools.cycle(random.sample(KINDS, len(KINDS)))
        # Its own table, player and search, as a phone has: the page it opens again and
        # again is kept for everyone between two hands there, as the room's phones find it.
        own = random.Random()
        self.urls = {kind: page_url(kind, own) for kind in KINDS}
        gevent.sleep(random.uniform(0, self.period))
        self.due = time.monotonic()

    @task
    def round(self):
        kind = next(self.kinds)
        asks = [self.bare, lambda: self.page_and_poll(kind)]
        random.shuffle(asks)
        for ask in asks:
            ask()

    def bare(self):
        with self.client.get("/bench/ok/", name=BARE, catch_response=True) as response:
            if response.status_code != 200 or response.content != b"ok":
                response.failure(f"bare view answered HTTP {response.status_code}")

    def page_and_poll(self, kind):
        """The page (kept for every phone), then its poll with the revision it showed:
        named by its answer, since a hand may have landed in between."""
        self.poll(kind, self.load_page(kind, self.urls[kind]))


# ------------------------------------------------------------------ the steps (--steps)


class _Window:
    """Request counts and times (as locust rounds them) at a window's start, to judge a
    step before the next one starts (the bench works out exact figures afterwards)."""

    def __init__(self, stats):
        total = stats.total
        self.requests, self.failures = total.num_requests, total.num_failures
        self.times = dict(total.response_times)

    def p95_and_failures(self, stats):
        total = stats.total
        times = {
            ms: count - self.times.get(ms, 0)
            for ms, count in total.response_times.items()
            if count - self.times.get(ms, 0) > 0
        }
        count = sum(times.values())
        failures = total.num_failures - self.failures
        if count == 0:
            return None, failures
        seen = 0
        for ms in sorted(times):
            seen += times[ms]
            if seen >= 0.95 * count:
                return ms, failures
        return max(times), failures


if os.environ.get("LOCUST_BENCH_SHAPE") == "1":

    class Steps(LoadTestShape):
        """Phones step by step (--steps): ramp at --step-spawn-rate, settle, then a steady
        window of --step-seconds, written to --out/windows.json as it ends. The probes,
        projectors and revisors are there from the first step on."""

        def __init__(self):
            super().__init__()
            self.step = -1
            self.phase = None
            self.since = 0.0
            self.windows = []
            self.window = None

        def _options(self):
            return self.runner.environment.parsed_options

        def _phones(self):
            return [int(x) for x in self._options().steps.split(",") if x.strip()]

        def _begin(self, step, now):
            self.step, self.phase, self.since = step, "ramp", now

        def tick(self):
            options = self._options()
            steps = self._phones()
            now = time.time()
            if self.step < 0:
                self._begin(0, now)
            phones = steps[self.step]
            users = phones + fixed_users()
            if self.phase == "ramp":
                spawning = getattr(self.runner, "spawning_greenlet", None)
                done = self.runner.user_count == users and (spawning is None or spawning.dead)
                if done and now - self.since > 1:
                    self.phase, self.since = "settle", now
            elif self.phase == "settle" and now - self.since >= options.settle_seconds:
                self.phase, self.since = "measure", now
                self.window = _Window(self.runner.stats)
            elif self.phase == "measure" and now - self.since >= options.step_seconds:
                p95, failures = self.window.p95_and_failures(self.runner.stats)
                self.windows.append(
                    {"phones": phones, "start": self.since, "end": now, "locust_p95": p95}
                )
                Path(options.out, "windows.json").write_text(json.dumps(self.windows))
                missed = failures or (p95 or 0) >= options.stop_p95_ms
                over = options.stop_p95_ms and phones > 0 and missed
                if over or self.step + 1 >= len(steps):
                    return None
                self._begin(self.step + 1, now)
                phones = steps[self.step]
                users = phones + fixed_users()
            return users, options.step_spawn_rate
