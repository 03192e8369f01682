"""`make venue` (config/venue.py): the room's server on the TD's laptop, in one command.

The test runs the real command (migrate, collectstatic, the TD login, gunicorn) with its
state in a temporary var/ folder, and talks to it only over loopback, naming the laptop's
network address in the Host header as a phone in the room would.
"""

import os
import re
import socket
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests

from config.venue import lan_addresses, venue_environment

ROOT = Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_venue(var_dir, port):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    process = subprocess.Popen(
        [sys.executable, "-m", "config.venue", "--port", str(port), "--workers", "2"],
        cwd=ROOT,
        env={**env, "VENUE_DIR": str(var_dir)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    printed, deadline = [], time.monotonic() + 120
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        printed.append(line)
        if "TD login:" in line:
            break
    banner = "".join(printed)
    assert "TD login:" in banner, banner
    # gunicorn's access log goes on to the pipe: read it away so that it never fills.
    threading.Thread(target=process.stdout.read, daemon=True).start()
    while time.monotonic() < deadline:  # gunicorn binds just after the banner
        try:
            requests.get(f"http://127.0.0.1:{port}/", timeout=10)
            break
        except requests.RequestException:
            time.sleep(0.2)
    return process, banner


def stop(process):
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="module")
def venue(tmp_path_factory):
    var_dir = tmp_path_factory.mktemp("venue-var")
    port = free_port()
    process, banner = start_venue(var_dir, port)
    yield var_dir, port, banner
    stop(process)


def as_phone(port, path, **kwargs):
    """A request from a phone in the room: to the laptop's network address, sent over loopback."""
    address = lan_addresses()[0]
    headers = {"Host": f"{address}:{port}", **kwargs.pop("headers", {})}
    return requests.get(f"http://127.0.0.1:{port}{path}", headers=headers, timeout=10, **kwargs)


def test_the_banner_gives_the_address_phones_use_its_qr_code_and_the_td_login(venue):
    var_dir, port, banner = venue
    address = lan_addresses()[0]
    assert f"open http://{address}:{port}/" in banner
    assert re.search(r"[█▀▄]{10}", banner), "a QR code drawn in the terminal"
    password = (var_dir / "td_password").read_text().strip()
    assert f"username 'td', password '{password}'" in banner


def test_phones_reach_it_by_the_laptops_address_with_debug_off(venue):
    var_dir, port, _ = venue
    home = as_phone(port, "/")
    assert home.status_code == 200
    missing = as_phone(port, "/no-such-page/")
    assert missing.status_code == 404
    assert "Django tried these URL patterns" not in missing.text  # DEBUG is off
    assert as_phone(port, "/static/css/app.css").status_code == 200  # static files served
    assert (var_dir / "static" / "css" / "app.css").exists()  # gathered in var/, not the tree
    stranger = requests.get(
        f"http://127.0.0.1:{port}/", headers={"Host": "evil.example"}, timeout=10
    )
    assert stranger.status_code == 400  # only the laptop's own names are allowed hosts


def test_the_td_logs_in_with_the_printed_password_and_links_use_the_public_address(venue):
    var_dir, port, _ = venue
    address = lan_addresses()[0]
    session = requests.Session()
    headers = {"Host": f"{address}:{port}"}
    form = session.get(f"http://127.0.0.1:{port}/accounts/login/", headers=headers, timeout=10)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text).group(1)
    password = (var_dir / "td_password").read_text().strip()
    logged_in = session.post(
        f"http://127.0.0.1:{port}/accounts/login/",
        data={"username": "td", "password": password, "csrfmiddlewaretoken": token},
        headers={**headers, "Referer": f"http://{address}:{port}/accounts/login/"},
        timeout=10,
        allow_redirects=False,
    )
    assert logged_in.status_code == 302
    dashboard = session.get(f"http://127.0.0.1:{port}/td/", headers=headers, timeout=10)
    assert dashboard.status_code == 200
    assert "Log out" in dashboard.text or "Logga ut" in dashboard.text


def test_state_is_kept_in_var_the_secret_readable_by_the_owner_alone(venue):
    var_dir, _, _ = venue
    secret = var_dir / "secret_key"
    assert len(secret.read_text().strip()) >= 50
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    with sqlite3.connect(var_dir / "venue.sqlite3") as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_a_second_start_keeps_the_secret_and_the_password(tmp_path):
    env = venue_environment(tmp_path, 8123, ["192.168.1.20"], {})
    again = venue_environment(tmp_path, 8123, ["192.168.1.20"], {})
    assert env["DJANGO_SECRET_KEY"] == again["DJANGO_SECRET_KEY"]
    assert env["DJANGO_PUBLIC_URL"] == "http://192.168.1.20:8123"
    assert env["DJANGO_DEBUG"] == "0"
    assert env["DATABASE_URL"] == f"sqlite:///{tmp_path / 'venue.sqlite3'}"
    hosts = env["DJANGO_ALLOWED_HOSTS"].split(",")
    assert hosts[:3] == ["192.168.1.20", "127.0.0.1", "localhost"]


def test_postgresql_and_a_chosen_public_address_are_kept(tmp_path):
    given = {"DATABASE_URL": "postgres://u@db/ofc", "DJANGO_PUBLIC_URL": "https://sm.example.se"}
    env = venue_environment(tmp_path, 8000, ["10.0.0.5"], given)
    assert env["DATABASE_URL"] == "postgres://u@db/ofc"
    assert env["DJANGO_PUBLIC_URL"] == "https://sm.example.se"
