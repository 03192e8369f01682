"""docker-compose.yml, the Caddyfile and the Dockerfile cannot run here (no Docker engine
pulls images): check them by reading. tests/production/test_compose_settings.py runs the
app with the settings compose gives it, behind what Caddy sends."""

import re
from pathlib import Path

import yaml

from config.venue import WORKER_ARGS

ROOT = Path(__file__).resolve().parent.parent


def load_compose():
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def command_of(service):
    command = service["command"]
    return command if isinstance(command, str) else " ".join(command)


def caddy_block(text, opening):
    """The lines of the Caddyfile block that starts with `opening` (up to its closing brace)."""
    lines = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    lines = [line for line in lines if line]
    start = next(i for i, line in enumerate(lines) if line.startswith(opening))
    depth, block = 0, []
    for line in lines[start:]:
        depth += line.count("{") - line.count("}")
        block.append(line)
        if depth == 0:
            return block
    raise AssertionError(f"{opening} is not closed")


def test_compose_runs_a_proxy_the_app_a_one_shot_migration_postgres_16_and_redis():
    compose = load_compose()
    services = compose["services"]
    assert set(services) == {"proxy", "migrate", "app", "db", "redis"}
    assert services["db"]["image"].startswith("postgres:16")
    volume = services["db"]["volumes"][0].split(":")[0]
    assert volume in compose["volumes"]
    assert services["redis"]["image"].startswith("redis:")
    redis_command = services["redis"]["command"]
    # A cache: nothing kept on disk.
    assert redis_command[redis_command.index("--save") + 1] == ""
    assert redis_command[redis_command.index("--appendonly") + 1] == "no"


def test_migrations_run_once_before_any_replica_starts():
    services = load_compose()["services"]
    migrate, app = services["migrate"], services["app"]
    assert command_of(migrate) == "python manage.py migrate --noinput"
    assert migrate["restart"] == "no"
    assert migrate["depends_on"]["db"]["condition"] == "service_healthy"
    assert "migrate" not in command_of(app)  # replicas never race to migrate
    assert command_of(app).startswith("gunicorn config.wsgi:application --bind 0.0.0.0:8000")
    # Stopped, a replica writes the backups its catch-up had waiting (config/gunicorn.py).
    assert "--config python:config.gunicorn" in command_of(app)
    assert app["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert app["depends_on"]["redis"]["condition"] == "service_healthy"
    # The same image and settings for both.
    assert migrate["environment"] == app["environment"]
    assert migrate["build"] == app["build"] == "."


def test_only_the_proxy_is_reached_from_outside_and_the_app_scales():
    services = load_compose()["services"]
    assert "ports" not in services["app"]
    assert "replicas" in services["app"]["deploy"]
    assert [port.split(":")[0] for port in services["proxy"]["ports"]] == ["80", "443", "443"]
    for name in ("migrate", "db", "redis"):
        assert "ports" not in services[name]
    assert services["proxy"]["depends_on"]["app"]["condition"] == "service_healthy"
    assert "healthcheck" in services["app"]


def test_the_app_trusts_one_proxy_serves_https_links_and_shares_cache_and_backups():
    compose = load_compose()
    app = compose["services"]["app"]
    env = app["environment"]
    assert env["DJANGO_PROXY_COUNT"] == "1"
    assert env["DJANGO_TRUST_X_FORWARDED_PROTO"] == "1"
    assert env["DJANGO_SECURE_COOKIES"] == env["DJANGO_SECURE_SSL_REDIRECT"] == "1"
    assert env["DATABASE_URL"].startswith("postgres://") and "@db:5432/" in env["DATABASE_URL"]
    assert "DJANGO_SECRET_KEY:?" in env["DJANGO_SECRET_KEY"]  # no default secret
    # Links, hosts and origins follow the domain Caddy serves.
    assert env["DJANGO_PUBLIC_URL"] == "https://${DOMAIN:-localhost}"
    assert env["DJANGO_ALLOWED_HOSTS"] == "${DOMAIN:-localhost}"
    assert env["DJANGO_CSRF_TRUSTED_ORIGINS"] == "https://${DOMAIN:-localhost}"
    assert compose["services"]["proxy"]["environment"]["DOMAIN"] == "${DOMAIN:-localhost}"
    # The shared cache is compose's Redis service.
    assert re.fullmatch(r"redis://redis:6379/\d+", env["DJANGO_REDIS_URL"])
    # Backups go to a named volume mounted where the settings say.
    mounts = dict(mount.split(":")[::-1] for mount in app["volumes"])
    assert mounts[env["DJANGO_BACKUP_DIR"]] in compose["volumes"]


def test_caddy_serves_the_domain_over_https_in_front_of_every_replica_buffering():
    proxy = load_compose()["services"]["proxy"]
    assert proxy["image"] == "caddy:2"
    assert "./Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]
    caddyfile = (ROOT / "Caddyfile").read_text()
    site = caddy_block(caddyfile, "{$DOMAIN:localhost}")
    assert "encode zstd gzip" in site
    proxying = caddy_block("\n".join(site[1:]), "reverse_proxy")
    # Every replica of the `app` service, on the port its gunicorn binds.
    dynamic = next(line for line in proxying if line.startswith("dynamic a "))
    assert dynamic.split()[2:4] == ["app", "8000"]
    directives = {line.split()[0]: line.split()[1:] for line in proxying}
    assert {"request_buffers", "response_buffers"} <= set(directives)
    assert directives["request_buffers"] != ["-1"]  # bounded, never unlimited
    assert {"fail_duration", "max_fails", "lb_try_duration"} <= set(directives)
    # Kept connections to the app are let go before gunicorn closes them.
    transport = caddy_block("\n".join(proxying[1:]), "transport http")
    keepalive = next(line.split()[1] for line in transport if line.startswith("keepalive "))
    assert keepalive == "5s"
    command = command_of(load_compose()["services"]["app"]).split()
    assert int(command[command.index("--keep-alive") + 1]) > 5


def test_the_app_runs_the_same_threaded_workers_as_the_venue():
    """One way to run gunicorn: compose's replicas and `make venue` alike (config/venue.py
    says why: a sync worker waits after every answer for the client to close)."""
    command = command_of(load_compose()["services"]["app"])
    assert " ".join(WORKER_ARGS) in command


def test_the_image_collects_static_files_and_runs_as_its_own_user():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "collectstatic" in dockerfile
    assert "FROM python:3.13" in dockerfile
    assert re.search(r"^USER app$", dockerfile, re.M)
    assert "chown app /backups" in dockerfile
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".venv", "var", "db.sqlite3", ".git"} <= set(ignored)
