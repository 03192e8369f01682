"""The cache several app processes share: Redis (DJANGO_REDIS_URL), config/cache.py.

What the public pages keep in it (rendered regions and pages, standings) must work when
shared: values that pickle, keys naming the token and the language. And the cache only
saves work: a Redis that goes away costs renderings, never a page.
"""

import logging
import shutil
import subprocess
import sys
import time
from urllib.parse import urlsplit

import pytest
import redis
from django.test import override_settings
from django.urls import reverse

from config import cache_backend
from config.cache import caches_setting
from tests.production.servers import ROOT, SECRET, clean_environment, start_redis, stop
from tournament.services import draws, registration

needs_redis = pytest.mark.skipif(
    shutil.which("redis-server") is None,
    reason="redis-server is not installed (apt-get install -y redis-server)",
)


def cache_settings(**env):
    """settings.CACHES['default'] as the app reads it from `env` (production settings)."""
    probe = (
        "import django; django.setup(); from django.conf import settings; "
        "d = settings.CACHES['default']; print(d['BACKEND'], d.get('LOCATION', '-'))"
    )
    return subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env={
            **clean_environment(),
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_SECRET_KEY": SECRET,
            **env,
        },
        capture_output=True,
        text=True,
    )


def test_redis_is_the_cache_when_its_address_is_set_else_each_process_memory():
    memory = cache_settings()
    assert memory.stdout.split() == ["django.core.cache.backends.locmem.LocMemCache", "-"]
    shared = cache_settings(DJANGO_REDIS_URL="redis://redis:6379/0")
    assert shared.stdout.split() == [
        "config.cache_backend.ForgivingRedisCache",
        "redis://redis:6379/0",
    ], shared.stderr
    # REDIS_URL, as hosting platforms name it, when DJANGO_REDIS_URL is not set.
    platform = cache_settings(REDIS_URL="rediss://cache.example:6380/1")
    assert platform.stdout.split()[1] == "rediss://cache.example:6380/1"
    both = cache_settings(DJANGO_REDIS_URL="redis://a:6379/0", REDIS_URL="redis://b:6379/0")
    assert both.stdout.split()[1] == "redis://a:6379/0"


@pytest.mark.parametrize("wrong", ["redis:6379", "localhost:6379", "http://redis:6379/0"])
def test_an_address_that_is_not_redis_stops_the_app_with_a_message(wrong):
    refused = cache_settings(DJANGO_REDIS_URL=wrong)
    assert refused.returncode != 0
    assert f"DJANGO_REDIS_URL={wrong!r} is not a Redis address" in refused.stderr


@pytest.fixture
def own_redis(tmp_path):
    """A Redis of the test's own, and the means to stop and start it again: a dict with
    its URL and process."""
    process, url = start_redis(tmp_path)
    running = {"url": url, "process": process, "dir": tmp_path}
    yield running
    stop(running["process"])


@pytest.fixture
def tournament(td_user):
    """Three players drawn at one table."""
    tournament = registration.create_tournament(actor=td_user, name="SM 2026", min_hands=3)
    for name in ["Anna", "Bo", "Cia"]:
        registration.register_player(tournament=tournament, actor=td_user, name=name)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="fixed-seed")
    return tournament


def kept_keys(url, pattern="*public-region*"):
    return redis.Redis.from_url(url).keys(pattern)


@needs_redis
@pytest.mark.django_db
def test_public_pages_keep_their_regions_in_redis_by_token_and_language(
    client, tournament, own_redis
):
    table = tournament.levels.get().tables.get()
    path = reverse("public:table", args=[tournament.pk, table.pk])
    with override_settings(CACHES=caches_setting(own_redis["url"])):
        english = client.get(path)
        assert english.status_code == 200
        assert "Score card, table 1" in english.content.decode()
        assert kept_keys(own_redis["url"]), "the region was not kept in Redis"
        # A Swedish phone's poll of the same region gets it in Swedish, not the English
        # rendering kept a moment ago.
        swedish = client.get(path, {"rev": "0.0", "lang": "sv"}, HTTP_HX_REQUEST="true")
        assert swedish.status_code == 200
        assert "Protokoll, bord 1" in swedish.content.decode()
        again = client.get(path, {"rev": "0.0", "lang": "en"}, HTTP_HX_REQUEST="true")
        assert "Score card, table 1" in again.content.decode()
        # The standings, the tournament and the player pages keep theirs too (pickled).
        # (The standings' rows themselves stay in the process that worked them out:
        # unpickling 300 players' rows cost about what working them out does.)
        for name, args in [
            ("public:tournament", [tournament.pk]),
            ("public:standings", [tournament.pk]),
            ("public:player", [tournament.pk, tournament.players.first().pk]),
        ]:
            for _ in range(2):  # rendered, then served from Redis
                assert client.get(reverse(name, args=args)).status_code == 200
            view = name.split(":")[1]
            assert kept_keys(own_redis["url"], f"*public-region:{view}:*"), view


@needs_redis
@pytest.mark.django_db
def test_a_redis_that_goes_away_costs_renderings_never_a_page(
    client, tournament, own_redis, monkeypatch, caplog
):
    monkeypatch.setattr(cache_backend, "PAUSE_SECONDS", 0.5)
    url = own_redis["url"]
    path = reverse("public:tournament", args=[tournament.pk])
    with override_settings(CACHES=caches_setting(url)):
        assert client.get(path).status_code == 200
        assert kept_keys(url)

        stop(own_redis["process"])
        with caplog.at_level(logging.WARNING, logger="config.cache_backend"):
            started = time.monotonic()
            for _ in range(3):
                page = client.get(path)
                assert page.status_code == 200 and "SM 2026" in page.content.decode()
                poll = client.get(path, {"rev": "0.0", "lang": "en"}, HTTP_HX_REQUEST="true")
                assert poll.status_code == 200
            assert time.monotonic() - started < 5, "pages waited for the missing Redis"
        warnings = [r for r in caplog.records if "cannot be reached" in r.getMessage()]
        assert len(warnings) == 1  # said once per pause, not once per request

        # Back again: after the pause the pages keep their regions in it once more.
        own_redis["process"], _ = start_redis(own_redis["dir"], port=urlsplit(url).port)
        time.sleep(0.6)
        assert not kept_keys(url)
        assert client.get(path).status_code == 200
        assert kept_keys(url)
