"""The app with the settings docker-compose.yml gives every replica, behind what Caddy
sends it (Host: the domain, X-Forwarded-Proto: https, X-Forwarded-For: the client).

Docker cannot run here; the app server can. Its environment is compose's, interpolated
as compose would with DOMAIN and DJANGO_SECRET_KEY set, except for the addresses of the
database, the Redis and the backups folder, which are the test's own.
"""

import re
import subprocess
import sys

import pytest
import requests
import yaml

from tests.production.conftest import new_tournament
from tests.production.servers import ROOT, SECRET, stop

DOMAIN = "ofc.example.org"
AS_CADDY_SENDS = {"Host": DOMAIN, "X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}


def compose_app():
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["app"]


def interpolate(value, given):
    """`value` with compose's ${NAME}, ${NAME:-default} and ${NAME:?message} filled in."""

    def fill(match):
        name, operator, argument = match.groups()
        if given.get(name):
            return given[name]
        if operator == ":?":
            raise AssertionError(f"compose refuses to start: {argument}")
        return argument if operator == ":-" else ""

    return re.sub(r"\$\{(\w+)(?:(:-|:\?)([^}]*))?\}", fill, str(value))


@pytest.fixture(scope="module")
def replica(deployment, redis_url, tmp_path_factory):
    """One app server with compose's settings for DOMAIN; (its URL, its environment)."""
    given = {"DOMAIN": DOMAIN, "DJANGO_SECRET_KEY": SECRET}
    env = {name: interpolate(value, given) for name, value in compose_app()["environment"].items()}
    env.update(
        {
            "DATABASE_URL": deployment.database_url,
            "DJANGO_REDIS_URL": redis_url,
            "DJANGO_BACKUP_DIR": str(tmp_path_factory.mktemp("backups")),
        }
    )
    process, url = deployment.start_app_server(env)
    yield url, {**deployment.env, **env}
    stop(process)


def test_compose_needs_a_secret_key_and_makes_everything_follow_the_domain():
    environment = compose_app()["environment"]
    with pytest.raises(AssertionError, match="set DJANGO_SECRET_KEY"):
        interpolate(environment["DJANGO_SECRET_KEY"], {})
    assert interpolate(environment["DJANGO_PUBLIC_URL"], {}) == "https://localhost"
    assert interpolate(environment["DJANGO_PUBLIC_URL"], {"DOMAIN": DOMAIN}) == (
        f"https://{DOMAIN}"
    )


def test_behind_caddy_pages_are_https_only_with_secure_cookies(replica):
    url, _ = replica
    home = requests.get(url + "/", headers=AS_CADDY_SENDS, timeout=20)
    assert home.status_code == 200
    assert "max-age=31536000" in home.headers["Strict-Transport-Security"]
    login = requests.get(url + "/accounts/login/", headers=AS_CADDY_SENDS, timeout=20)
    assert login.status_code == 200
    assert "Secure" in login.headers["Set-Cookie"]  # the CSRF cookie goes over HTTPS only
    # Without Caddy's word that the client used HTTPS: sent to HTTPS.
    plain = requests.get(url + "/", headers={"Host": DOMAIN}, timeout=20, allow_redirects=False)
    assert plain.status_code == 301
    assert plain.headers["Location"] == f"https://{DOMAIN}/"
    # Any other host name is refused.
    stranger = requests.get(url + "/", headers={**AS_CADDY_SENDS, "Host": "evil.example"})
    assert stranger.status_code == 400


def test_the_td_logs_in_over_https_and_printed_links_start_with_the_domain(replica, deployment):
    url, _ = replica
    ids = new_tournament(deployment)
    # The cookies are Secure: sent here by hand, as a browser sends them over HTTPS.
    form = requests.get(url + "/accounts/login/", headers=AS_CADDY_SENDS, timeout=20)
    csrf = form.cookies["csrftoken"]
    logged_in = requests.post(
        url + "/accounts/login/",
        data={"username": "director", "password": "td-pass-123", "csrfmiddlewaretoken": csrf},
        headers={
            **AS_CADDY_SENDS,
            "Cookie": f"csrftoken={csrf}",
            "Referer": f"https://{DOMAIN}/accounts/login/",  # checked over HTTPS
        },
        timeout=20,
        allow_redirects=False,
    )
    assert logged_in.status_code == 302, logged_in.text
    assert "Secure" in logged_in.headers["Set-Cookie"]
    session = logged_in.cookies["sessionid"]
    access = requests.get(
        f"{url}/td/{ids['tournament']}/tables/{ids['table']}/access/",
        headers={**AS_CADDY_SENDS, "Cookie": f"sessionid={session}"},
        timeout=20,
    )
    assert access.status_code == 200
    assert f"https://{DOMAIN}/r/{ids['key']}/" in access.text
    poster = requests.get(f"{url}/t/{ids['tournament']}/poster/", headers=AS_CADDY_SENDS)
    assert f"{DOMAIN}/t/{ids['tournament']}" in poster.text


def test_the_replicas_health_check_passes(replica):
    url, env = replica
    check = compose_app()["healthcheck"]["test"]
    assert check[:3] == ["CMD", "python", "-c"]
    code = check[3].replace("127.0.0.1:8000", url.removeprefix("http://"))
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 0, result.stderr
