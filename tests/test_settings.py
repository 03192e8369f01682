"""Settings come from the environment, with safe production defaults."""

import os
import subprocess
import sys
from pathlib import Path

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
