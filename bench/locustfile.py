"""Simulated phones on the public pages of one tournament (bench/bench_public.py runs it).

A phone opens one page, the tournament page (two phones in three) or the standings, with
its CSS and JS, then every 5 s polls that page's live region with the revision it shows,
as static/js/poll.js does: `?rev=<token>` with htmx's headers; 204 while nothing changed,
else the fresh fragment, whose data-poll-rev is the revision to send next. One page: a
phone shows one page at a time, and poll.js pauses a page that is not shown
(--both-regions polls the standings too from every phone, twice the requests). Phones are
spread over the 5 s, never in step.

A few "probes" measure the yardsticks at the same load: each every --probe-every seconds
asks, in a random order, for the bare view (/bench/ok/, which exists only when the
server runs with BENCH_BARE_VIEW=1 and DEBUG off), an unchanged poll (the revision it
last saw) and the full tournament page.

Requests are named by what they turned out to be: "poll unchanged (204)", "poll changed
(200)", "page (full)", "bare view", "static file". With --steps, a load shape raises the
number of phones step by step and writes each step's steady window to --out; every
request's start, name, time and outcome are written there too, so the bench works out
exact percentiles per step (locust's own are rounded).

By hand, against a server of your own (the bare view only when it runs as above;
`python bench/bench_public.py --serve 600` sets one up and prints the command):

    locust -f bench/locustfile.py --headless --host http://127.0.0.1:8000 \\
        --tournament-id 1 -u 500 -r 50 -t 60s

This file sets GEVENT_RESOLVER=block unless it is set: gevent's default resolver sends
every new connection's address look-up (even of 127.0.0.1) through a thread pool, which
adds 3-4 ms to every request at rest and up to 100 ms under load, since gunicorn's sync
workers close each connection after one request.
"""

import html
import json
import os
import random
import re
import time
from pathlib import Path
from urllib.parse import quote

# Before gevent's hub makes its resolver (see above); an explicit setting wins.
os.environ.setdefault("GEVENT_RESOLVER", "block")

import gevent  # noqa: E402
from locust import FastHttpUser, LoadTestShape, events, task

POLL_SECONDS = 5
REV = re.compile(rb'data-poll-rev="([^"]*)"')
POLL_URL = re.compile(rb'data-poll-url="([^"]*)"')
ASSET = re.compile(rb'(?:href|src)="(/static/[^"]+\.(?:css|js))"')
# A room in Sweden: most phones ask for Swedish, some for English.
LANGUAGES = (("sv-SE,sv;q=0.9,en;q=0.8", 7), ("en-GB,en;q=0.9", 3))
# The page a phone has open: its table (the tournament page) more often than the standings.
PAGES = (("", 2), ("standings/", 1))
USER_AGENT = "Mozilla/5.0 (Linux; Android 14) bench-phone"

UNCHANGED = "poll unchanged (204)"
CHANGED = "poll changed (200)"
PAGE = "page (full)"
BARE = "bare view"
STATIC = "static file"


@events.init_command_line_parser.add_listener
def _options(parser):
    parser.add_argument("--tournament-id", type=int, default=1, help="the tournament polled")
    parser.add_argument("--probes", type=int, default=6, help="yardstick users (0: none)")
    parser.add_argument(
        "--probe-every", type=float, default=0.25, help="seconds between a probe's rounds"
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
    parser.add_argument(
        "--both-regions",
        action="store_true",
        help="every phone polls the tournament page's region and the standings",
    )


@events.init.add_listener
def _init(environment, **_kwargs):
    options = environment.parsed_options
    if options is None:
        return
    Probe.fixed_count = max(0, options.probes)
    Probe.period = options.probe_every
    if options.out:
        events.request.add_listener(_record)
        events.test_start.add_listener(lambda **_kw: gevent.spawn(_watch_lag))
        events.test_stop.add_listener(lambda **_kw: _dump(options.out))


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


# ------------------------------------------------------------------ the users


def _html_attr(match):
    return html.unescape(match.group(1).decode())


class Region:
    """A live region as poll.js keeps it: the URL it polls and the revision it shows."""

    def __init__(self, url, rev):
        self.url, self.rev, self.stopped = url, rev, False


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
    period = POLL_SECONDS

    def htmx_headers(self, page_url):
        return {
            **self.headers,
            "HX-Request": "true",
            "HX-Current-URL": self.host + page_url,
            "HX-Target": "live",
            "HX-Trigger": "live",
        }

    def load_page(self, assets=False, page=""):
        """A page of the tournament (its tables, or `page`), as a phone opens it: its live
        region (URL, revision)."""
        tournament = self.environment.parsed_options.tournament_id
        self.page_url = f"/t/{tournament}/{page}"
        with self.client.get(
            self.page_url, headers=self.headers, name=PAGE, catch_response=True
        ) as response:
            body = response.content or b""
            url, rev = POLL_URL.search(body), REV.search(body)
            if response.status_code != 200 or not (url and rev):
                response.failure(f"no live region (HTTP {response.status_code})")
                return None
        if assets:
            for path in dict.fromkeys(m.decode() for m in ASSET.findall(body)):
                self.client.get(path, headers=self.headers, name=STATIC)
        return Region(_html_attr(url), _html_attr(rev))

    def poll(self, region):
        """One tick of poll.js: 204 leaves the region; 200 brings it with its new revision."""
        if region is None or region.stopped:
            return
        sep = "&" if "?" in region.url else "?"
        url = f"{region.url}{sep}rev={quote(region.rev)}"
        with self.client.get(
            url, headers=self.htmx_headers(self.page_url), name="poll", catch_response=True
        ) as response:
            if response.status_code == 204:
                response.request_meta["name"] = UNCHANGED
                return
            response.request_meta["name"] = CHANGED
            head = (response.content or b"")[:2000]
            rev = REV.search(head)
            if response.status_code != 200 or rev is None:
                response.failure(f"poll answered HTTP {response.status_code} without a revision")
                return
            region.rev = _html_attr(rev)
            region.stopped = b"data-poll-stop" in head.split(b">", 1)[0]


class Phone(Reader):
    """A player's phone: one page, then its live region every 5 s (--both-regions: the
    tournament page, then its region and the standings' every 5 s)."""

    def on_start(self):
        language = random.choices([a for a, _ in LANGUAGES], [w for _, w in LANGUAGES])[0]
        self.headers = {"Accept-Language": language, "User-Agent": USER_AGENT}
        both = self.environment.parsed_options.both_regions
        page = "" if both else random.choices([p for p, _ in PAGES], [w for _, w in PAGES])[0]
        region = self.load_page(assets=True, page=page)
        self.regions = [] if region is None else [region]
        if region is not None and both:
            # The standings poll the same token; the page names the language in its URL.
            tournament = self.environment.parsed_options.tournament_id
            url = region.url
            lang = url.split("lang=", 1)[-1].split("&", 1)[0] if "lang=" in url else ""
            standings = f"/t/{tournament}/standings/" + (f"?lang={lang}" if lang else "")
            self.regions.append(Region(standings, region.rev))
        # Phones are opened at different moments: their polls are spread over the period.
        gevent.sleep(random.uniform(0, self.period))
        self.due = time.monotonic()

    @task
    def tick(self):
        for region in self.regions:
            self.poll(region)


class Probe(Reader):
    """The yardsticks, at the same load: bare view, unchanged poll, full page."""

    fixed_count = 6  # --probes
    period = 0.25  # --probe-every

    def on_start(self):
        self.headers = {"Accept-Language": "en-GB,en;q=0.9", "User-Agent": USER_AGENT + " probe"}
        self.region = self.load_page()
        gevent.sleep(random.uniform(0, self.period))
        self.due = time.monotonic()

    @task
    def round(self):
        asks = [self.bare, self.unchanged_poll, self.page]
        random.shuffle(asks)
        for ask in asks:
            ask()

    def bare(self):
        with self.client.get("/bench/ok/", name=BARE, catch_response=True) as response:
            if response.status_code != 200 or response.content != b"ok":
                response.failure(f"bare view answered HTTP {response.status_code}")

    def unchanged_poll(self):
        self.poll(self.region)  # named by its answer: a hand may have landed meanwhile

    def page(self):
        region = self.load_page()
        if region is not None and self.region is not None:
            self.region.rev = region.rev


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
        window of --step-seconds, written to --out/windows.json as it ends."""

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
            users = phones + max(0, options.probes)
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
                users = phones + max(0, options.probes)
            return users, options.step_spawn_rate
