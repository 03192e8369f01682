"""Settings come from the environment, with safe production defaults."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_int

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION_ENV = {
    "DJANGO_SECRET_KEY": "k3Jq9-Vz7wLm2xR8tYb5nHc4pDs6fGa1eUo0iWyTrQvXzMkN-prod-test-key",
    "DJANGO_ALLOWED_HOSTS": "ofc.example.org",
    "DJANGO_CSRF_TRUSTED_ORIGINS": "https://ofc.example.org",
}


def run_manage(*args, env_overrides):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )


def run_settings_probe(expression, env_overrides):
    code = f"import django; django.setup(); from django.conf import settings; print({expression})"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings", **env_overrides})
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )


def test_check_deploy_is_clean_under_production_settings():
    result = run_manage(
        "check", "--deploy", "--fail-level", "WARNING", env_overrides=PRODUCTION_ENV
    )
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    result = run_manage("check", env_overrides={"DJANGO_ALLOWED_HOSTS": "x.org"})
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_production_defaults_are_hardened():
    result = run_settings_probe(
        "settings.DEBUG, settings.SECURE_SSL_REDIRECT, settings.SESSION_COOKIE_SECURE,"
        " settings.SECURE_HSTS_SECONDS, settings.ALLOWED_HOSTS, settings.CSRF_TRUSTED_ORIGINS",
        PRODUCTION_ENV,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        "False True True 31536000 ['ofc.example.org'] ['https://ofc.example.org']"
    )


def test_sqlite_is_the_default_database():
    result = run_settings_probe("settings.DATABASES['default']['ENGINE']", {"DJANGO_DEBUG": "1"})
    assert result.stdout.strip() == "django.db.backends.sqlite3", result.stderr


def test_database_url_switches_to_postgresql():
    result = run_settings_probe(
        "settings.DATABASES['default']['ENGINE'], settings.DATABASES['default']['NAME'],"
        " settings.DATABASES['default']['HOST']",
        {"DJANGO_DEBUG": "1", "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/ofc"},
    )
    assert result.stdout.strip() == "django.db.backends.postgresql ofc 127.0.0.1", result.stderr


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1", True),
        ("true", True),
        ("TRUE", True),
        ("Yes", True),
        (" on ", True),
        ("0", False),
        ("false", False),
        ("False", False),
        ("NO", False),
        ("off\n", False),
    ],
)
def test_env_bool_reads_every_accepted_spelling(monkeypatch, raw, expected):
    monkeypatch.setenv("POFC_TEST_FLAG", raw)
    assert env_bool("POFC_TEST_FLAG", not expected) is expected


@pytest.mark.parametrize("raw", [None, "", "   "])
def test_env_bool_and_env_int_fall_back_to_the_default_when_unset_or_blank(monkeypatch, raw):
    for name in ("POFC_TEST_FLAG", "POFC_TEST_NUMBER"):
        monkeypatch.delenv(name, raising=False)
        if raw is not None:
            monkeypatch.setenv(name, raw)
    assert env_bool("POFC_TEST_FLAG", True) is True
    assert env_bool("POFC_TEST_FLAG", False) is False
    assert env_int("POFC_TEST_NUMBER", 60) == 60


def test_env_int_reads_a_whole_number_with_blanks_around(monkeypatch):
    monkeypatch.setenv("POFC_TEST_NUMBER", " 3600 ")
    assert env_int("POFC_TEST_NUMBER", 60) == 3600


@pytest.mark.parametrize("raw", ["ture", "2", "y", "enabled", "of"])
def test_env_bool_refuses_anything_else(monkeypatch, raw):
    monkeypatch.setenv("POFC_TEST_FLAG", raw)
    with pytest.raises(ImproperlyConfigured, match="POFC_TEST_FLAG"):
        env_bool("POFC_TEST_FLAG", False)


@pytest.mark.parametrize("raw", ["1y", "60s", "1.5", "sixty"])
def test_env_int_refuses_a_non_integer(monkeypatch, raw):
    monkeypatch.setenv("POFC_TEST_NUMBER", raw)
    with pytest.raises(ImproperlyConfigured, match="POFC_TEST_NUMBER"):
        env_int("POFC_TEST_NUMBER", 60)


def test_a_misspelt_yes_no_setting_stops_manage_py_with_a_clear_message():
    result = run_manage("check", env_overrides={**PRODUCTION_ENV, "DJANGO_DEBUG": "ture"})
    assert result.returncode != 0
    last_line = result.stderr.strip().splitlines()[-1]
    assert last_line.startswith("django.core.exceptions.ImproperlyConfigured: ")
    assert "DJANGO_DEBUG='ture'" in last_line
    for word in ("1", "true", "yes", "on", "0", "false", "no", "off"):
        assert re.search(rf"\b{word}\b", last_line), word


def test_a_non_integer_number_setting_stops_manage_py_with_a_clear_message():
    result = run_manage("check", env_overrides={**PRODUCTION_ENV, "DJANGO_HSTS_SECONDS": "1y"})
    assert result.returncode != 0
    last_line = result.stderr.strip().splitlines()[-1]
    assert last_line.startswith("django.core.exceptions.ImproperlyConfigured: ")
    assert "DJANGO_HSTS_SECONDS='1y'" in last_line
    assert "whole number" in last_line


def test_yes_no_settings_accept_any_case_and_blanks_through_manage_py():
    result = run_manage(
        "check",
        env_overrides={**PRODUCTION_ENV, "DJANGO_DEBUG": " OFF ", "DJANGO_SECURE_COOKIES": "Yes"},
    )
    assert result.returncode == 0, result.stderr


def test_login_throttling_is_configurable_from_the_environment():
    result = run_settings_probe(
        "settings.AXES_FAILURE_LIMIT, settings.AXES_COOLOFF_TIME, settings.PROXY_COUNT,"
        " settings.AXES_RESET_ON_SUCCESS, settings.AXES_HANDLER",
        {
            "DJANGO_DEBUG": "1",
            "DJANGO_LOGIN_FAILURE_LIMIT": "3",
            "DJANGO_LOGIN_COOLOFF_MINUTES": "30",
            "DJANGO_PROXY_COUNT": "1",
        },
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ("3 0:30:00 1 True axes.handlers.database.AxesDatabaseHandler")


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DJANGO_LOGIN_FAILURE_LIMIT", "0"),
        ("DJANGO_LOGIN_COOLOFF_MINUTES", "0"),
        ("DJANGO_PROXY_COUNT", "-1"),
        ("DJANGO_LOGIN_FAILURE_LIMIT", "five"),
    ],
)
def test_login_throttling_refuses_settings_that_would_disable_it(name, value):
    result = run_manage("check", env_overrides={**PRODUCTION_ENV, name: value})
    assert result.returncode != 0
    assert name in result.stderr.strip().splitlines()[-1]


def test_sqlite_transactions_take_the_write_lock_when_they_begin():
    result = run_settings_probe(
        "settings.DATABASES['default']['OPTIONS']['transaction_mode']", {"DJANGO_DEBUG": "1"}
    )
    assert result.stdout.strip() == "IMMEDIATE", result.stderr


def test_public_renders_and_connection_checks_come_from_the_environment():
    # Defaults: a public region is served up to 5 s after a change; a kept connection is
    # checked before each request's first query (a database restart costs no 500).
    result = run_settings_probe(
        "settings.PUBLIC_RENDER_SECONDS, settings.DATABASES['default']['CONN_HEALTH_CHECKS']",
        {"DJANGO_DEBUG": "1"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "5 True"
    result = run_settings_probe(
        "settings.PUBLIC_RENDER_SECONDS, settings.DATABASES['default']['CONN_HEALTH_CHECKS']",
        {
            "DJANGO_DEBUG": "1",
            "DJANGO_PUBLIC_RENDER_SECONDS": "0",
            "DJANGO_CONN_HEALTH_CHECKS": "off",
        },
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "0 False"
