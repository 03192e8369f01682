"""Settings for the POFC shootout app.

Everything that differs between deployments comes from the environment. The
defaults are the safe production ones; `make run` sets DJANGO_DEBUG=1 for
development, and the test runner gets a throwaway secret key.
"""

import os
import sys
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

from config.cache import caches_setting, redis_url
from config.env import env_bool, env_int, env_list, env_str, public_url

BASE_DIR = Path(__file__).resolve().parent.parent
TESTING = "pytest" in sys.modules

DEBUG = env_bool("DJANGO_DEBUG", False)

SECRET_KEY = env_str("DJANGO_SECRET_KEY")
if not SECRET_KEY:
    if not (DEBUG or TESTING):
        raise ImproperlyConfigured("Set DJANGO_SECRET_KEY (or DJANGO_DEBUG=1 for development).")
    SECRET_KEY = "dev-only-insecure-key-never-use-in-production"

ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG or TESTING else []
)
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])
# The address players' phones reach the site at (`make venue` sets the laptop's, e.g.
# http://192.168.1.20:8000; production its domain). Every printed or shown link and QR
# code is built from it (tournament/web/public_address.py), never from the host the TD's own
# browser happened to use. Empty: the TD's host, with a warning where it is unreachable.
PUBLIC_URL = public_url("DJANGO_PUBLIC_URL")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "tournament",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before the session and the rest: a room's unchanged polls need none of them.
    "tournament.live.middleware.LivePollMiddleware",
    # Django's session middleware, and a view's database fault (a change refused: read-only,
    # disk full; the connection lost): a clear 503 page, never a 500 (tournament/web/faults/).
    "tournament.web.faults.SessionMiddleware",
    "tournament.web.faults.DatabaseFaultMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a flagged lockout into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

# SQLite is the embedded default; DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/ofc)
# switches to PostgreSQL.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("DJANGO_CONN_MAX_AGE", 60),
        # On: a kept connection is checked (a `SELECT 1` round trip) before each request's
        # first query and replaced if the database ended it, so a database restart costs
        # no request an error (tests/faults/test_database_restart.py). The check costs
        # 0.1-0.2 ms a request, a fifth to a third of an unchanged poll
        # (docs/performance-log.md);
        # DJANGO_CONN_HEALTH_CHECKS=0 saves it, and each worker's first request after a
        # restart then meets the dead connection (docs/faults.md: a read is answered again,
        # an entry is answered 503 "not recorded").
        conn_health_checks=env_bool("DJANGO_CONN_HEALTH_CHECKS", True),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Wait for a busy database instead of failing a tablet's submission at once.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    # SQLite has no row locks: every transaction takes the write lock when it begins,
    # so two writers queue instead of failing when a reader upgrades to a writer.
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"
    # Write-ahead logging: readers (the room's phones) never wait for a writer (a hand
    # being recorded), and several gunicorn workers share one file safely (`make venue`).
    # Kept in the database file itself; an in-memory test database ignores it.
    DATABASES["default"]["OPTIONS"]["init_command"] = "PRAGMA journal_mode=WAL"
# A connection pooler between the app and PostgreSQL (docs/deployment.md). In transaction
# mode (PgBouncer's pool_mode = transaction) each transaction may get another server
# connection, so nothing may outlive one there: Django's server-side cursors, which
# QuerySet.iterator() reads in chunks, would be looked for on the wrong connection.
DB_POOLER = env_str("DJANGO_DB_POOLER").strip().lower()
if DB_POOLER not in ("", "session", "transaction"):
    raise ImproperlyConfigured(
        f"DJANGO_DB_POOLER={env_str('DJANGO_DB_POOLER')!r} is not a pooling mode. Set "
        "DJANGO_DB_POOLER=transaction behind PgBouncer in transaction mode; session mode "
        "(DJANGO_DB_POOLER=session) and no pooler (empty) need nothing."
    )
if DB_POOLER == "transaction":
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
if TESTING:
    # Hashing a password the production way takes most of a second; tests log in a lot.
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# django-axes refuses a locked-out login before the password is even checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "td:dashboard"
LOGOUT_REDIRECT_URL = "public:home"

# How long a public page's live region, once rendered, is served although the tournament
# moved on (tournament/live/regions.py): a room's phones then cost one rendering per
# few seconds, not one per hand. Tests see every change at once.
PUBLIC_RENDER_SECONDS = 0 if TESTING else env_int("DJANGO_PUBLIC_RENDER_SECONDS", 5)
# How long a process answers the players' polls with the token it read last (the same
# module): a room of phones polling one page then costs one read of the token a second per
# process, not one per poll. Never longer than PUBLIC_RENDER_SECONDS. Tests read it each time.
PUBLIC_TOKEN_SECONDS = 0 if TESTING else env_int("DJANGO_PUBLIC_TOKEN_SECONDS", 1)
# The TD's pages and projectors poll every 5 s, the alerts bar every 10 s; TD_POLL_SECONDS,
# unset here, replaces each (tournament/templatetags/td_poll.py): browser tests shorten it.

# Automatic backups (tournament/backups/automatic.py): the tournament's JSON backup is
# written into this folder when a level closes and, while anything changes, at most
# BACKUP_MINUTES after the change; the newest BACKUP_KEEP of each tournament are kept.
# Empty: none (the default under tests, which turn them on where they test them, and run
# the catch-up that a timer thread runs in a server themselves).
BACKUP_DIR = env_str("DJANGO_BACKUP_DIR", "" if TESTING else str(BASE_DIR / "var" / "backups"))
BACKUP_MINUTES = env_int("DJANGO_BACKUP_MINUTES", 5)
BACKUP_KEEP = env_int("DJANGO_BACKUP_KEEP", 20)
BACKUP_CATCH_UP_TIMERS = not TESTING

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("sv", _("Swedish"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("DJANGO_TIME_ZONE", "Europe/Stockholm")
USE_I18N = True
USE_TZ = True

# The public pages' rendered regions and pages are kept in the cache (tournament/views/
# public/common.py, config/cache.py): each process's memory by default; Redis shared by
# every app process when DJANGO_REDIS_URL (or REDIS_URL) is set, so that several of them
# (compose's replicas, several servers) render a region once between them. Tests keep
# their own memory cache, which they empty between tests, and never touch a Redis.
REDIS_URL = "" if TESTING else redis_url("DJANGO_REDIS_URL", "REDIS_URL", environ=os.environ)
CACHES = caches_setting(REDIS_URL)

STATIC_URL = "static/"
# The guide's pictures (docs/guide/img/, made by `make guide`) are served as static/guide/.
STATICFILES_DIRS = [BASE_DIR / "static", ("guide", BASE_DIR / "docs" / "guide" / "img")]
if TESTING:
    # axe-core, for the browser tests' accessibility checks (tests/browser/axe.py): loaded by
    # the page as a script of its own origin, chromium compiles it once, not on every page.
    STATICFILES_DIRS.append(("axe-core", BASE_DIR / "tests" / "browser" / "vendor" / "axe-core"))
# Where collectstatic gathers them for whitenoise; `make venue` keeps them in its var/.
STATIC_ROOT = env_str("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or TESTING
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Production hardening; each can be relaxed from the environment where a proxy
# terminates TLS or for a local HTTP-only trial.
HARDENED = not (DEBUG or TESTING)
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", HARDENED)
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", HARDENED)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31536000 if HARDENED else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = HARDENED
SECURE_HSTS_PRELOAD = HARDENED
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Only our own files run: no inline <script>, no on*= handlers, no eval (htmx's
# allowEval is off in base.html), no inline <style>. Small static JS files in
# static/js/ do what htmx cannot.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}
# The revisor's card opens offline through a service worker (/r/sw.js, docs/offline.md)
# where the server is reached over HTTPS (browsers allow none over plain HTTP).
REVISOR_SERVICE_WORKER = env_bool("DJANGO_REVISOR_SERVICE_WORKER", True)
if env_bool("DJANGO_TRUST_X_FORWARDED_PROTO", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Login throttling (django-axes). Failures are counted per username and client IP
# together, in the database (shared by every app server), so one player guessing
# at the TD's password from a tablet does not lock the TD out elsewhere.
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = env_int("DJANGO_LOGIN_FAILURE_LIMIT", 5)
login_cooloff_minutes = env_int("DJANGO_LOGIN_COOLOFF_MINUTES", 15)
AXES_COOLOFF_TIME = timedelta(minutes=login_cooloff_minutes)
# More wrong passwords during the lockout do not prolong it: the page's "wait N
# minutes" stays true.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
AXES_HTTP_RESPONSE_CODE = 429
# Failures and lockouts are still logged as warnings; no start-up banner.
AXES_VERBOSE = False
AXES_LOCKOUT_CALLABLE = "config.security.lockout_response"
AXES_CLIENT_IP_CALLABLE = "config.security.client_ip"
# How many trusted proxies in front of the app append to X-Forwarded-For; 0 means
# clients connect directly and the header is ignored (anyone can forge it).
PROXY_COUNT = env_int("DJANGO_PROXY_COUNT", 0)
for name, value, least in [
    ("DJANGO_LOGIN_FAILURE_LIMIT", AXES_FAILURE_LIMIT, 1),
    ("DJANGO_LOGIN_COOLOFF_MINUTES", login_cooloff_minutes, 1),
    ("DJANGO_PROXY_COUNT", PROXY_COUNT, 0),
    ("DJANGO_BACKUP_MINUTES", BACKUP_MINUTES, 0),
    ("DJANGO_BACKUP_KEEP", BACKUP_KEEP, 1),
]:
    if value < least:
        raise ImproperlyConfigured(f"{name}={value} is too small; use {least} or more.")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A refused suspicious request (a foreign Host header) is one line, not a traceback.
    "formatters": {"plain": {"()": "config.log_format.OneLineRefusals"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("DJANGO_LOG_LEVEL", "INFO")},
}
if TESTING:
    # The suite asks for thousands of refusals on purpose (403s, 404s, 405s): Django logs
    # each as a warning with its traceback, which in a test run's output reads as an error.
    # A 500 is still logged (an error), and a test that wants a warning sets its own level.
    LOGGING["loggers"] = {
        "django.request": {"level": "ERROR"},
        "django.security.csrf": {"level": "ERROR"},
    }
