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

from config import venue as venue_module
from config.venue import (
    alternatives,
    banner,
    check_port,
    choose_addresses,
    ensure_td_login,
    lan_addresses,
    manage,
    port_refusal,
    venue_environment,
)

ROOT = Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def clean_environ():
    """This machine's environment without the test run's settings (nor a VENUE_ADDRESS)."""
    prefixes = ("DJANGO_", "DATABASE_URL", "VENUE_")
    return {k: v for k, v in os.environ.items() if not k.startswith(prefixes)}


@pytest.fixture(scope="module")
def address():
    """The laptop's network address phones use; a machine with none skips the test."""
    found = lan_addresses({})
    if not found:
        pytest.skip("this machine has no network address but loopback")
    return found[0]


def start_venue(var_dir, port, **environ):
    process = subprocess.Popen(
        [sys.executable, "-m", "config.venue", "--port", str(port), "--workers", "2"],
        cwd=ROOT,
        env={**clean_environ(), "VENUE_DIR": str(var_dir), **environ},
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
    # gunicorn's log goes on to the pipe: read away (so that it never fills) and kept.
    process.later = []

    def read_on():
        for line in process.stdout:
            process.later.append(line)

    threading.Thread(target=read_on, daemon=True).start()
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
def venue(tmp_path_factory, address):
    var_dir = tmp_path_factory.mktemp("venue-var")
    port = free_port()
    process, banner = start_venue(var_dir, port)
    yield var_dir, port, banner, process
    stop(process)


def as_phone(port, path, host=None, **kwargs):
    """A request from a phone in the room: to the laptop's network address (or `host`), sent
    over loopback."""
    host = host or f"{lan_addresses({})[0]}:{port}"
    headers = {"Host": host, **kwargs.pop("headers", {})}
    return requests.get(f"http://127.0.0.1:{port}{path}", headers=headers, timeout=10, **kwargs)


def test_the_banner_gives_the_address_phones_use_its_qr_code_and_the_td_login(venue, address):
    var_dir, port, printed, _ = venue
    assert f"open http://{address}:{port}/" in printed
    assert re.search(r"[█▀▄]{10}", printed), "a QR code drawn in the terminal"
    password = (var_dir / "td_password").read_text().strip()
    assert f"username 'td', password '{password}'" in printed


def test_phones_reach_it_by_the_laptops_address_with_debug_off(venue):
    var_dir, port, _, _ = venue
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


def test_a_foreign_host_is_one_line_in_the_tds_terminal(venue):
    """A stranger's request (a scanner on the venue Wi-Fi) says what was refused in one
    line, beside its line of the access log: no traceback in the TD's terminal."""
    _, port, _, process = venue
    host = "stranger.example"
    assert as_phone(port, "/", host=host).status_code == 400
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not any(host in line for line in process.later):
        time.sleep(0.1)
    time.sleep(0.5)  # whatever else it would write comes with it
    said = [line for line in process.later if host in line and '"GET / HTTP/1.1"' not in line]
    assert said == [
        f"Invalid HTTP_HOST header: '{host}'. You may need to add '{host}' to ALLOWED_HOSTS.\n"
    ]
    assert not any("Traceback" in line for line in process.later)


def raw_get(sock, path, host):
    """One HTTP/1.1 request on an open socket; the answer's status line and headers."""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, "the server closed the connection before answering"
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    head = head.decode("latin-1").lower()
    length = int(re.search(r"content-length: *(\d+)", head).group(1))
    while len(body) < length:
        body += sock.recv(65536)
    return head


def test_phones_that_keep_their_connections_open_never_hold_the_room(venue, address):
    """No proxy stands in front of the laptop: a phone that keeps its connection after an
    answer (its Wi-Fi dropped before it could close it) must not hold a worker. The server
    keeps each phone's connection for its next poll, and with more such phones than
    workers (2 here) every other phone is still answered while they hold theirs."""
    _, port, _, _ = venue
    host = f"{address}:{port}"
    holding = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(4)]
    try:
        for sock in holding:
            head = raw_get(sock, "/", host)
            assert head.startswith("http/1.1 200")
            assert "connection: close" not in head  # kept for the phone's next poll
        # Every holding phone's connection is still open, and the room is answered.
        for _ in range(3):
            assert as_phone(port, "/").status_code == 200
        for sock in holding:  # each polls again on the connection it kept
            assert raw_get(sock, "/", host).startswith("http/1.1 200")
    finally:
        for sock in holding:
            sock.close()


def test_the_td_logs_in_with_the_printed_password_and_links_use_the_public_address(venue, address):
    var_dir, port, _, _ = venue
    # A tournament in play, made in the venue's own database.
    env = venue_environment(var_dir, port, lan_addresses({}), clean_environ())
    made = ["--players", "6", "--seed", "cup", "--name", "Cup", "--stop-after-level", "0"]
    manage(env, "simulate_tournament", *made, capture=True)
    with sqlite3.connect(var_dir / "venue.sqlite3") as db:
        (cup,) = db.execute("SELECT id FROM tournament_tournament WHERE name = 'Cup'").fetchone()
    session = requests.Session()
    # The TD's own browser, on the laptop itself: links must not be built from its host.
    headers = {"Host": f"127.0.0.1:{port}"}
    form = session.get(f"http://127.0.0.1:{port}/accounts/login/", headers=headers, timeout=10)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text).group(1)
    password = (var_dir / "td_password").read_text().strip()
    logged_in = session.post(
        f"http://127.0.0.1:{port}/accounts/login/",
        data={"username": "td", "password": password, "csrfmiddlewaretoken": token},
        headers={**headers, "Referer": f"http://127.0.0.1:{port}/accounts/login/"},
        timeout=10,
        allow_redirects=False,
    )
    assert logged_in.status_code == 302
    dashboard = session.get(f"http://127.0.0.1:{port}/td/", headers=headers, timeout=10)
    assert dashboard.status_code == 200
    assert "Log out" in dashboard.text or "Logga ut" in dashboard.text
    cards = session.get(
        f"http://127.0.0.1:{port}/td/{cup}/levels/1/cards/", headers=headers, timeout=10
    )
    assert cards.status_code == 200
    # Each card prints where a revisor types the table's code, and its QR code's link.
    links = re.findall(r"https?://[^\s\"'<]+", cards.text)
    assert f"http://{address}:{port}/r/" in links, links
    assert not [link for link in links if "127.0.0.1" in link or "localhost" in link], links


def test_state_is_kept_in_var_the_secret_readable_by_the_owner_alone(venue):
    var_dir, _, _, _ = venue
    secret = var_dir / "secret_key"
    assert len(secret.read_text().strip()) >= 50
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    with sqlite3.connect(var_dir / "venue.sqlite3") as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_started_again_with_a_public_name_it_keeps_the_password_and_serves_that_name(
    venue, address
):
    """`make venue` again on the same var/, the TD having named the laptop in the room's DNS
    (DJANGO_PUBLIC_URL) and added a host of their own (DJANGO_ALLOWED_HOSTS): the phones
    opening that name are served, and the TD's password is the one printed the first time."""
    var_dir, first_port, first_banner, _ = venue
    port = free_port()
    public = f"http://pofc.lan:{port}"
    process, printed = start_venue(
        var_dir, port, DJANGO_PUBLIC_URL=public, DJANGO_ALLOWED_HOSTS="td-laptop.example"
    )
    try:
        password = (var_dir / "td_password").read_text().strip()
        assert f"password '{password}'" in first_banner
        assert f"password '{password}'" in printed  # the same login across the restart
        assert f"open {public}/" in printed
        assert f"other addresses: http://{address}:{port}/" in printed
        # The static files, collected at the first start, are not collected again.
        assert "Collecting the static files" in first_banner
        assert "Collecting the static files" not in printed
        for host in (f"pofc.lan:{port}", "td-laptop.example", f"{address}:{port}"):
            assert as_phone(port, "/", host=host).status_code == 200, host
        assert as_phone(port, "/", host="evil.example").status_code == 400
    finally:
        stop(process)


def test_a_second_start_keeps_the_secret(tmp_path):
    env = venue_environment(tmp_path, 8123, ["192.168.1.20"], {})
    again = venue_environment(tmp_path, 8123, ["192.168.1.20"], {})
    assert env["DJANGO_SECRET_KEY"] == again["DJANGO_SECRET_KEY"]
    assert env["DJANGO_PUBLIC_URL"] == "http://192.168.1.20:8123"
    assert env["DJANGO_DEBUG"] == "0"
    assert env["DATABASE_URL"] == f"sqlite:///{tmp_path / 'venue.sqlite3'}"
    hosts = env["DJANGO_ALLOWED_HOSTS"].split(",")
    assert hosts[:3] == ["192.168.1.20", "127.0.0.1", "localhost"]


def test_the_td_password_is_made_once_and_a_changed_one_is_never_reset(tmp_path):
    env = venue_environment(tmp_path, 8123, ["192.168.1.20"], clean_environ())
    manage(env, "migrate", "--noinput", "-v", "0")
    first = ensure_td_login(env, tmp_path)
    assert first and first == (tmp_path / "td_password").read_text().strip()
    again = venue_environment(tmp_path, 8123, ["192.168.1.20"], clean_environ())
    assert ensure_td_login(again, tmp_path) == first  # a restart prints the same password
    # The TD changed it in the app: the kept one no longer opens the login, and nothing
    # resets it; the banner then says "the password you set".
    (tmp_path / "td_password").write_text("not-the-password\n", encoding="utf-8")
    assert ensure_td_login(again, tmp_path) is None
    assert "the password you set" in banner("http://192.168.1.20:8123", None)


LOCK_TD = (
    "from django.contrib.auth.models import User; "
    "User.objects.create_user('td', password=None, is_active=False)"
)
READ_TD = (
    "from django.contrib.auth.models import User; u = User.objects.get(username='td'); "
    "kept = open('{path}').read().strip(); "
    "print(u.is_active, u.is_staff, u.is_superuser, u.check_password(kept))"
)


def test_a_td_a_restore_made_locked_becomes_the_venues_login(tmp_path):
    """`make restore` into a fresh database, then `make venue`: the restore made the file's
    TD `td` a locked account (to keep who made the draws); the venue opens it with the
    password it prints, and the draws stay his."""
    env = venue_environment(tmp_path, 8123, ["192.168.1.20"], clean_environ())
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "shell", "-v", "0", "-c", LOCK_TD, capture=True)
    password = ensure_td_login(env, tmp_path)
    assert password == (tmp_path / "td_password").read_text().strip()
    path = tmp_path / "td_password"
    read = manage(env, "shell", "-v", "0", "-c", READ_TD.format(path=path), capture=True)
    assert read.stdout.split() == ["True", "True", "True", "True"]


def test_a_public_address_and_the_tds_own_hosts_are_allowed_hosts(tmp_path):
    given = {
        "DJANGO_PUBLIC_URL": "http://pofc.lan:8000/",
        "DJANGO_ALLOWED_HOSTS": "td-laptop.example, sm.example.se",
    }
    env = venue_environment(tmp_path, 8000, ["192.168.1.20"], given)
    hosts = env["DJANGO_ALLOWED_HOSTS"].split(",")
    assert hosts[:4] == ["td-laptop.example", "sm.example.se", "192.168.1.20", "pofc.lan"]
    assert env["DJANGO_PUBLIC_URL"] == "http://pofc.lan:8000"
    assert env["DJANGO_CSRF_TRUSTED_ORIGINS"] == "http://pofc.lan:8000"


def test_postgresql_and_a_chosen_public_address_are_kept(tmp_path):
    given = {"DATABASE_URL": "postgres://u@db/ofc", "DJANGO_PUBLIC_URL": "https://sm.example.se"}
    env = venue_environment(tmp_path, 8000, ["10.0.0.5"], given)
    assert env["DATABASE_URL"] == "postgres://u@db/ofc"
    assert env["DJANGO_PUBLIC_URL"] == "https://sm.example.se"
    assert "sm.example.se" in env["DJANGO_ALLOWED_HOSTS"].split(",")


# ---------------------------------------------------------------- which address is printed

LAPTOP = [
    ("lo", "127.0.0.1"),
    ("docker0", "172.17.0.1"),
    ("br-3f2a9c", "172.18.0.1"),
    ("veth12ab", "172.17.0.2"),
    ("virbr0", "192.168.122.1"),
    ("vboxnet0", "192.168.56.1"),
    ("eth0", "169.254.10.1"),  # cable in, no DHCP answered
    ("wlan0", "192.168.1.20"),
    ("tun0", "10.8.0.6"),  # a VPN
]


def test_the_default_routes_address_comes_first_and_virtual_bridges_never():
    assert choose_addresses(LAPTOP, default="192.168.1.20") == ["192.168.1.20", "10.8.0.6"]
    # No default route (the laptop's own hotspot): private addresses, in order.
    assert choose_addresses(LAPTOP) == ["10.8.0.6", "192.168.1.20"]


def test_venue_address_chooses_the_printed_one(monkeypatch, tmp_path):
    monkeypatch.setattr(venue_module, "interface_addresses", lambda: LAPTOP)
    monkeypatch.setattr(venue_module, "default_route_address", lambda: "192.168.1.20")
    assert lan_addresses({}) == ["192.168.1.20", "10.8.0.6"]
    addresses = lan_addresses({"VENUE_ADDRESS": "10.8.0.6"})
    assert addresses == ["10.8.0.6", "192.168.1.20"]
    env = venue_environment(tmp_path, 8000, addresses, {})
    assert env["DJANGO_PUBLIC_URL"] == "http://10.8.0.6:8000"
    others = alternatives(env["DJANGO_PUBLIC_URL"], addresses, 8000)
    assert others == ["http://192.168.1.20:8000/"]
    printed = banner(env["DJANGO_PUBLIC_URL"], "pw", others)
    assert "open http://10.8.0.6:8000/" in printed
    assert "other addresses: http://192.168.1.20:8000/" in printed


def test_no_network_address_at_all_serves_this_laptop_only(monkeypatch, tmp_path):
    monkeypatch.setattr(venue_module, "interface_addresses", lambda: [("lo", "127.0.0.1")])
    monkeypatch.setattr(venue_module, "default_route_address", lambda: None)
    assert lan_addresses({}) == []
    env = venue_environment(tmp_path, 8000, [], {})
    assert env["DJANGO_PUBLIC_URL"] == "http://127.0.0.1:8000"


QR = re.compile(r"[█▀▄]{10}")


def started(monkeypatch, tmp_path, addresses, environ=None):
    """`make venue` started (up to gunicorn, not run) on a laptop with these addresses:
    what it printed, and the environment gunicorn would get."""
    ran = []
    monkeypatch.setattr(venue_module, "manage", lambda *args, **kwargs: None)
    monkeypatch.setattr(venue_module, "lan_addresses", lambda *args: list(addresses))
    monkeypatch.setattr(venue_module, "ensure_td_login", lambda *args: "pw")
    monkeypatch.setattr(venue_module.os, "execve", lambda path, argv, env: ran.append(env))
    monkeypatch.setattr(venue_module.os, "chdir", lambda path: None)
    monkeypatch.setattr(venue_module.os, "environ", {**clean_environ(), **(environ or {})})
    port = free_port()
    venue_module.main(["--port", str(port), "--var", str(tmp_path / "var")])
    (env,) = ran
    return env, port


def test_a_laptop_not_yet_on_the_wifi_is_told_that_phones_cannot_reach_it(
    monkeypatch, tmp_path, capsys
):
    """No network yet: the address is the laptop's own, and the terminal says so plainly,
    what to do, and draws no QR code of 127.0.0.1 (the printing pages warn the same)."""
    env, port = started(monkeypatch, tmp_path, [])
    printed = capsys.readouterr().out
    assert env["DJANGO_PUBLIC_URL"] == f"http://127.0.0.1:{port}"
    assert "phones cannot reach it yet" in printed
    assert "This laptop has no network address yet: it is not on the venue's Wi-Fi." in printed
    assert "Join the venue's Wi-Fi (or start a hotspot on this laptop)" in printed
    assert "run `make venue` again" in printed
    assert "VENUE_ADDRESS=<address> make venue" in printed
    assert f"On this laptop: http://127.0.0.1:{port}/" in printed
    assert "serving the room" not in printed and "open http" not in printed
    assert not QR.search(printed)
    assert f"TD login: http://127.0.0.1:{port}/accounts/login/" in printed


def test_the_next_start_on_the_wifi_picks_the_address_up(monkeypatch, tmp_path, capsys):
    started(monkeypatch, tmp_path, [])
    capsys.readouterr()
    env, port = started(monkeypatch, tmp_path, ["192.168.1.20"])  # joined the Wi-Fi
    printed = capsys.readouterr().out
    assert env["DJANGO_PUBLIC_URL"] == f"http://192.168.1.20:{port}"
    assert f"open http://192.168.1.20:{port}/" in printed
    assert QR.search(printed)
    assert "cannot reach" not in printed


@pytest.mark.parametrize(
    ("environ", "why"),
    [
        (
            {"DJANGO_PUBLIC_URL": "http://localhost:8000"},
            "DJANGO_PUBLIC_URL=http://localhost:8000 is an address only this laptop opens.",
        ),
        (
            {"VENUE_ADDRESS": "127.0.0.1"},
            "VENUE_ADDRESS=127.0.0.1 is an address only this laptop opens.",
        ),
    ],
)
def test_an_address_only_this_laptop_opens_chosen_by_hand_is_said_too(
    monkeypatch, tmp_path, capsys, environ, why
):
    chosen = ["127.0.0.1"] if "VENUE_ADDRESS" in environ else []
    started(monkeypatch, tmp_path, [*chosen, "192.168.1.20"], environ)
    printed = capsys.readouterr().out
    assert why in printed
    assert "other addresses: http://192.168.1.20:" in printed
    assert not QR.search(printed)


# ---------------------------------------------------------------- a port already in use


@pytest.fixture
def taken_port():
    """A port a server is listening on (as a `make venue` still running would), on loopback:
    gunicorn's bind on all addresses is refused all the same."""
    with socket.socket() as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", 0))
        server.listen()
        yield server.getsockname()[1]


def test_a_port_in_use_is_told_in_one_line(taken_port):
    refusal = port_refusal(taken_port)
    assert refusal == (
        f"Port {taken_port} is in use: is `make venue` already running? Stop it, or choose "
        f"another port: VENUE_PORT={taken_port + 1} make venue"
    )
    assert "\n" not in refusal


def test_a_free_port_is_left_free():
    port = free_port()
    assert port_refusal(port) is None
    # Checked and closed again: gunicorn (here a second check) can bind it right after.
    assert port_refusal(port) is None
    check_port(port)  # nothing said, no exit


def test_a_port_in_use_stops_make_venue_before_it_migrates_or_prints_a_banner(
    taken_port, tmp_path, monkeypatch, capsys
):
    ran = []
    monkeypatch.setattr(venue_module, "manage", lambda *args, **kwargs: ran.append(args))
    monkeypatch.setattr(venue_module, "lan_addresses", lambda *args: ran.append("addresses"))
    monkeypatch.setattr(venue_module.os, "execve", lambda *args: ran.append("gunicorn"))
    with pytest.raises(SystemExit) as stopped:
        venue_module.main(["--port", str(taken_port), "--var", str(tmp_path / "var")])
    assert stopped.value.code == 1
    printed = capsys.readouterr()
    assert printed.err == port_refusal(taken_port) + "\n"
    assert "serving the room" not in printed.out and "TD login" not in printed.out
    assert ran == []  # no migration, no address, no server
    assert not (tmp_path / "var").exists()  # nothing made either


def test_make_venue_on_a_port_in_use_says_so_and_fails(taken_port, tmp_path):
    """The real command, as `make venue` runs it: one line, a failed status, no migration."""
    done = subprocess.run(
        [sys.executable, "-m", "config.venue"],
        cwd=ROOT,
        env={**clean_environ(), "VENUE_DIR": str(tmp_path), "VENUE_PORT": str(taken_port)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.strip() == port_refusal(taken_port)
    assert not (tmp_path / "venue.sqlite3").exists()


def test_the_venue_server_writes_the_waiting_backups_as_it_stops(tmp_path, monkeypatch, capsys):
    """gunicorn runs with config/gunicorn.py, whose on_exit (Ctrl+C) writes the changes the
    backups' catch-up had waiting (tests/production/test_backup_at_shutdown.py runs it)."""
    ran = []
    monkeypatch.setattr(venue_module, "manage", lambda *args, **kwargs: None)
    monkeypatch.setattr(venue_module, "lan_addresses", lambda *args: ["192.0.2.7"])
    monkeypatch.setattr(venue_module, "ensure_td_login", lambda *args: "pw")
    monkeypatch.setattr(venue_module.os, "execve", lambda path, argv, env: ran.append(argv))
    monkeypatch.setattr(venue_module.os, "chdir", lambda path: None)
    venue_module.main(["--port", str(free_port()), "--var", str(tmp_path / "var")])
    (argv,) = ran
    assert argv[argv.index("--config") + 1] == "python:config.gunicorn"
    capsys.readouterr()
