"""`make venue`: serve the app to the room from the TD's laptop, with production settings.

One command, run again every morning of the event:

1. keeps its state in `var/` beside the code (never in git): the secret key, made once;
   the SQLite database (WAL mode, see config/settings.py) unless DATABASE_URL is set; the
   automatic backups; the TD's login, made once;
2. finds the laptop's addresses on the local network, which become the allowed hosts (with
   the TD's own DJANGO_ALLOWED_HOSTS and DJANGO_PUBLIC_URL's host), and the one phones use:
   VENUE_ADDRESS if set, else the one of the interface that holds the default route (virtual
   bridges such as docker0 left out); it is the public address that every printed link and
   QR code uses, unless DJANGO_PUBLIC_URL names another. A laptop with no network yet (not
   on the venue's Wi-Fi) has only its own 127.0.0.1: that is said plainly, with what to
   do, in place of a QR code, and the pages that print links warn the same; the next start
   finds the address the laptop has then;
3. migrates, collects the static files (whitenoise serves them) when they changed since
   the last start (`collectstatic_changed`: collecting takes seconds of CPU), makes the TD
   login;
4. prints the address phones use, its QR code and the TD login, then runs gunicorn on all
   of the laptop's addresses (DEBUG off, plain HTTP: the venue Wi-Fi has no certificate),
   with threaded workers that keep each phone's connection (`WORKER_ARGS`).

Before any of that it checks that the port is free: a second `make venue` (or anything
else on the port) is told so in one line, before it migrates or prints a banner for a
server that would not start.

Run it as `python -m config.venue [--port 8000] [--workers 3]`.
"""

import argparse
import io
import ipaddress
import os
import secrets
import socket
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from urllib.parse import urlsplit

from config import port as listening
from tournament.web.public_address import this_machine_only

BASE_DIR = Path(__file__).resolve().parent.parent
TD_USERNAME = "td"
# gunicorn listens on all of the laptop's addresses: phones reach it on the network's.
BIND_ADDRESS = "0.0.0.0"

# gunicorn's threaded workers, which keep a phone's connection between its polls. Nothing
# stands in front of the laptop's gunicorn to buffer the room's phones, and a sync worker of
# gunicorn 27 waits after every response, up to 2 s, for the client to close its side: two
# phones whose Wi-Fi drops right after an answer stalled a 2-worker server for 1.45 s a
# request, against 2 ms with these (`bench/bench_slow_clients.py`, docs/deployment.md).
# An idle kept connection waits in the worker's poller, not in a thread.
WORKER_ARGS = ("--worker-class", "gthread", "--threads", "4", "--keep-alive", "10")


# Interfaces no phone in the room reaches: loopback and the virtual bridges of containers
# and virtual machines (Docker, libvirt, VirtualBox), whose private addresses look like a LAN's.
VIRTUAL = ("lo", "docker", "br-", "veth", "virbr", "vboxnet")


def interface_addresses() -> list[tuple[str, str]]:
    """(interface name, IPv4 address) of every interface that is up."""
    import psutil

    stats = psutil.net_if_stats()
    return [
        (name, address.address)
        for name, addresses in psutil.net_if_addrs().items()
        if name not in stats or stats[name].isup
        for address in addresses
        if address.family == socket.AF_INET
    ]


def default_route_address() -> str | None:
    """The laptop's address on the interface that holds the default route, or None. A UDP
    socket's connect() only picks the route (nothing is sent): its own address is that
    interface's."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routed by the default route
            address: str = probe.getsockname()[0]
            return address
    except OSError:
        return None  # no default route (a hotspot of its own, no network at all)


def choose_addresses(
    interfaces: Iterable[tuple[str, str]], default: str | None = None, chosen: str = ""
) -> list[str]:
    """The addresses phones can reach, the one to print first: `chosen` (VENUE_ADDRESS) if
    given, then `default` (the default route's), then private ones before others.
    Loopback, link-local (169.254.x.x, no DHCP answered) and virtual bridges are left out."""
    found = []
    for name, address in interfaces:
        ip = ipaddress.ip_address(address)
        if name.startswith(VIRTUAL) or ip.is_loopback or ip.is_link_local or ip.is_unspecified:
            continue
        found.append(ip)
    found.sort(key=lambda ip: (str(ip) != default, not ip.is_private, ip))
    addresses = [str(ip) for ip in found]
    if chosen:
        addresses.insert(0, chosen)
    return list(dict.fromkeys(addresses))


def lan_addresses(environ: Mapping[str, str] = os.environ) -> list[str]:
    """The laptop's IPv4 addresses on its networks (Wi-Fi, cable, its own hotspot), the one
    phones should use first (see `choose_addresses`)."""
    return choose_addresses(
        interface_addresses(),
        default_route_address(),
        environ.get("VENUE_ADDRESS", "").strip(),
    )


def kept_secret(path: Path, make: Callable[[], str]) -> str:
    """The secret in `path`, made by `make()` and written readable by the owner alone the
    first time; the same one ever after, so sessions and revisor links survive a restart."""
    if path.exists():
        return path.read_text(encoding="utf-8").strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    value = make()
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(value + "\n")
    return value


def venue_environment(
    var_dir: Path, port: int, addresses: Sequence[str], environ: Mapping[str, str]
) -> dict[str, str]:
    """The environment the app runs with at the venue (what differs from production is
    plain HTTP: no certificate for a laptop's address)."""
    env = dict(environ)
    public_host = addresses[0] if addresses else "127.0.0.1"
    public = environ.get("DJANGO_PUBLIC_URL", "").strip().rstrip("/") or (
        f"http://{public_host}:{port}"
    )
    # The TD's own hosts and the public address's host are kept: a phone opening
    # DJANGO_PUBLIC_URL=http://pofc.lan:8000 sends Host: pofc.lan:8000.
    parsed = urlsplit(public)
    given = [h.strip() for h in environ.get("DJANGO_ALLOWED_HOSTS", "").split(",") if h.strip()]
    hosts = [*given, *addresses, parsed.hostname, "127.0.0.1", "localhost"]
    hosts += [socket.gethostname(), socket.gethostname().split(".")[0] + ".local"]
    origins = environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",")
    origins = [o.strip() for o in [*origins, f"{parsed.scheme}://{parsed.netloc}"] if o.strip()]
    env.update(
        {
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": kept_secret(
                var_dir / "secret_key", lambda: secrets.token_urlsafe(50)
            ),
            "DJANGO_ALLOWED_HOSTS": ",".join(dict.fromkeys(h for h in hosts if h)),
            "DJANGO_CSRF_TRUSTED_ORIGINS": ",".join(dict.fromkeys(origins)),
            "DJANGO_PUBLIC_URL": public,
            "DJANGO_SECURE_SSL_REDIRECT": "0",
            "DJANGO_SECURE_COOKIES": "0",
            "DJANGO_HSTS_SECONDS": "0",
            "DJANGO_BACKUP_DIR": environ.get("DJANGO_BACKUP_DIR") or str(var_dir / "backups"),
            "DJANGO_STATIC_ROOT": str(var_dir / "static"),
        }
    )
    if not environ.get("DATABASE_URL"):
        env["DATABASE_URL"] = f"sqlite:///{var_dir / 'venue.sqlite3'}"
    return env


def manage(
    env: Mapping[str, str], *args: str, capture: bool = False
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BASE_DIR / "manage.py"), *args],
        env=env,
        check=True,
        capture_output=capture,
        text=True,
    )


def ensure_td_login(env: Mapping[str, str], var_dir: Path) -> str | None:
    """The TD's login: user `td` with a password made the first time and kept in var/."""
    path = var_dir / "td_password"
    password = kept_secret(path, lambda: secrets.token_urlsafe(12))
    kept = manage(env, "venue_td_login", TD_USERNAME, "--password-file", str(path), capture=True)
    return password if kept.stdout.strip() == "current" else None


def alternatives(public_url: str, addresses: Iterable[str], port: int) -> list[str]:
    """The laptop's addresses other than the printed one, as links."""
    links = [f"http://{address}:{port}/" for address in addresses]
    return [link for link in links if link != public_url + "/"]


def unreachable_reason(public_url: str, environ: Mapping[str, str]) -> str | None:
    """Why phones cannot reach `public_url`, in one line, or None when they can: an address
    only this laptop opens (tournament/web/public_address.py), which `make venue` itself sets
    on a laptop with no network yet."""
    if not this_machine_only(urlsplit(public_url).netloc):
        return None
    if environ.get("DJANGO_PUBLIC_URL", "").strip():
        return f"DJANGO_PUBLIC_URL={public_url} is an address only this laptop opens."
    chosen = environ.get("VENUE_ADDRESS", "").strip()
    if chosen:
        return f"VENUE_ADDRESS={chosen} is an address only this laptop opens."
    return "This laptop has no network address yet: it is not on the venue's Wi-Fi."


def banner(
    public_url: str,
    password: str | None,
    others: Sequence[str] = (),
    unreachable: str | None = None,
) -> str:
    """What `make venue` prints: the address phones open and its QR code, the laptop's other
    addresses (should phones not reach that one), the TD login. When phones cannot reach
    the address (`unreachable`: why), no code: what to do instead."""
    if unreachable:
        text = "\n".join(
            [
                "",
                "POFC shootout is serving this laptop only: phones cannot reach it yet.",
                f"  {unreachable}",
                "  Join the venue's Wi-Fi (or start a hotspot on this laptop), then stop this",
                "  server (Ctrl+C) and run `make venue` again: it prints the address phones open",
                "  and its QR code. Or name that address: VENUE_ADDRESS=<address> make venue",
                "  Until then no table card, poster or big screen has an address phones can open.",
                f"  On this laptop: {public_url}/",
            ]
        )
        text += "\n"
    else:
        text = "\n".join(
            [
                "",
                "POFC shootout is serving the room.",
                f"  Phones and tablets: join the same Wi-Fi, then open {public_url}/",
                "  (or scan this QR code):",
            ]
        )
        text += "\n" + qr_drawing(public_url + "/")
    if others:
        text += "  Not reachable? This laptop's other addresses: " + ", ".join(others) + "\n"
        text += "  (VENUE_ADDRESS=<one of them> make venue prints and uses that one)\n"
    said = f"password '{password}'" if password else "the password you set"
    text += (
        f"  TD login: {public_url}/accounts/login/  username '{TD_USERNAME}', {said}\n"
        "  Stop with Ctrl+C; run `make venue` again to go on where you stopped.\n"
    )
    return text


def qr_drawing(link: str) -> str:
    """`link`'s QR code drawn in the terminal."""
    import segno

    drawing = io.StringIO()
    segno.make(link, error="m", micro=False).terminal(out=drawing, compact=True, border=2)
    return drawing.getvalue()


# What `make venue` says of a port it cannot listen on (config/port.py).
AGAIN = "VENUE_PORT={port} make venue"
GUESS = "is `make venue` already running? Stop it, or "


def port_refusal(port: int, host: str = BIND_ADDRESS) -> str | None:
    """Why gunicorn could not listen on `host`:`port`, in one line, or None when it can.
    What else runs on the port (a `make venue` still serving, another server) is only
    found out here, before the database is touched."""
    return listening.port_refusal(port, host, AGAIN, GUESS)


def check_port(port: int, host: str = BIND_ADDRESS) -> None:
    """Exit (status 1) with `port_refusal`'s line when the port cannot be listened on."""
    listening.check_port(port, host, AGAIN, GUESS)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("VENUE_PORT", 8000)))
    parser.add_argument("--workers", type=int, default=int(os.environ.get("VENUE_WORKERS", 3)))
    parser.add_argument("--var", default=os.environ.get("VENUE_DIR", str(BASE_DIR / "var")))
    args = parser.parse_args(argv)
    check_port(args.port)  # before anything else: no migration, no banner for a dead server

    var_dir = Path(args.var).resolve()
    var_dir.mkdir(parents=True, exist_ok=True)
    addresses = lan_addresses()
    env = venue_environment(var_dir, args.port, addresses, os.environ)
    manage(env, "migrate", "--noinput", "-v", "0")
    # Only when they changed since the last start: collecting takes seconds of CPU.
    manage(env, "collectstatic_changed", "--stamp", str(var_dir / "static.stamp"), "-v", "0")
    password = ensure_td_login(env, var_dir)
    public = env["DJANGO_PUBLIC_URL"]
    others = alternatives(public, addresses, args.port)
    unreachable = unreachable_reason(public, os.environ)
    print(banner(public, password, others, unreachable), flush=True)
    gunicorn = [
        sys.executable,
        "-m",
        "gunicorn",
        "config.wsgi:application",
        "--bind",
        f"{BIND_ADDRESS}:{args.port}",
        "--workers",
        str(args.workers),
        *WORKER_ARGS,
        # Ctrl+C writes the backups of the last changes before it ends (config/gunicorn.py).
        "--config",
        "python:config.gunicorn",
        "--access-logfile",
        "-",
    ]
    os.chdir(BASE_DIR)
    os.execve(sys.executable, gunicorn, env)


if __name__ == "__main__":
    main()
