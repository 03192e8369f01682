"""docker-compose.yml cannot run here (no Docker engine): check it by reading."""

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def load_compose():
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_has_app_and_postgres_16_with_named_volume():
    compose = load_compose()
    services = compose["services"]
    assert set(services) == {"app", "db"}
    assert services["db"]["image"].startswith("postgres:16")
    volume = services["db"]["volumes"][0].split(":")[0]
    assert volume in compose["volumes"]


def test_app_migrates_then_serves_with_gunicorn_against_postgres():
    app = load_compose()["services"]["app"]
    command = app["command"] if isinstance(app["command"], str) else " ".join(app["command"])
    assert command.index("migrate") < command.index("gunicorn")
    assert app["environment"]["DATABASE_URL"].startswith("postgres://")
    assert "DJANGO_SECRET_KEY" in app["environment"]
    assert app["depends_on"]["db"]["condition"] == "service_healthy"


def test_dockerfile_collects_static_files_for_whitenoise():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "collectstatic" in dockerfile
    assert "FROM python:3.13" in dockerfile
