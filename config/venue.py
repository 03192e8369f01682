"""`make venue`: serve the app to the room from the TD's laptop, with production settings.

One command, run again every morning of the event:

1. keeps its state in `var/` beside the code (never in git): the secret key, made once;
   the SQLite database (WAL mode, see config/settings.py) unless DATABASE_URL is set; the
   automatic backups; the TD's login, made once;
2. finds the laptop's addresses on the local network, which become the allowed hosts, and
   the first of them the public address that every printed link and QR code uses;
3. migrates, collects the static files (whitenoise serves them), makes the TD login;
4. prints the address phones use, its QR code and the TD login, then runs gunicorn on all
   of the laptop's addresses (DEBUG off, plain HTTP: the venue Wi-Fi has no certificate).

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
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
TD_USERNAME = "td"


def lan_addresses():
    """The laptop's IPv4 addresses on its networks (Wi-Fi, cable, its own hotspot), private
    ones first: the addresses phones in the room can reach. Loopback and link-local ones
    (169.254.x.x, no DHCP answered) are left out."""
    import psutil

    found = []
    stats = psutil.net_if_stats()
    for name, addresses in psutil.net_if_addrs().items():
        if name in stats and not stats[name].isup:
            continue
        for address in addresses:
            if address.family != socket.AF_INET:
                continue
            ip = ipaddress.ip_address(address.address)
            if ip.is_loopback or ip.is_link_local or ip.is_unspecified:
                continue
            found.append(ip)
    found.sort(key=lambda ip: (not ip.is_private, ip))
    return [str(ip) for ip in dict.fromkeys(found)]


def kept_secret(path, make):
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


def venue_environment(var_dir, port, addresses, environ):
    """The environment the app runs with at the venue (what differs from production is
    plain HTTP: no certificate for a laptop's address)."""
    env = dict(environ)
    public_host = addresses[0] if addresses else "127.0.0.1"
    hosts = [*addresses, "127.0.0.1", "localhost", socket.gethostname()]
    hosts.append(socket.gethostname().split(".")[0] + ".local")
    env.update(
        {
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": kept_secret(
                var_dir / "secret_key", lambda: secrets.token_urlsafe(50)
            ),
            "DJANGO_ALLOWED_HOSTS": ",".join(dict.fromkeys(hosts)),
            "DJANGO_PUBLIC_URL": environ.get("DJANGO_PUBLIC_URL") or f"http://{public_host}:{port}",
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


def manage(env, *args, capture=False):
    return subprocess.run(
        [sys.executable, str(BASE_DIR / "manage.py"), *args],
        env=env,
        check=True,
        capture_output=capture,
        text=True,
    )


def ensure_td_login(env, var_dir):
    """The TD's login: user `td` with a password made the first time and kept in var/."""
    path = var_dir / "td_password"
    password = kept_secret(path, lambda: secrets.token_urlsafe(12))
    kept = manage(env, "venue_td_login", TD_USERNAME, "--password-file", str(path), capture=True)
    return password if kept.stdout.strip() == "current" else None


def banner(public_url, password):
    import segno

    lines = [
        "",
        "POFC shootout is serving the room.",
        f"  Phones and tablets: join the same Wi-Fi, then open {public_url}/",
        "  (or scan this QR code):",
    ]
    qr = segno.make(public_url + "/", error="m", micro=False)
    text = "\n".join(lines) + "\n"
    drawing = io.StringIO()
    qr.terminal(out=drawing, compact=True, border=2)
    text += drawing.getvalue()
    said = f"password '{password}'" if password else "the password you set"
    text += (
        f"  TD login: {public_url}/accounts/login/  username '{TD_USERNAME}', {said}\n"
        "  Stop with Ctrl+C; run `make venue` again to go on where you stopped.\n"
    )
    return text


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("VENUE_PORT", 8000)))
    parser.add_argument("--workers", type=int, default=int(os.environ.get("VENUE_WORKERS", 3)))
    parser.add_argument("--var", default=os.environ.get("VENUE_DIR", str(BASE_DIR / "var")))
    args = parser.parse_args(argv)

    var_dir = Path(args.var).resolve()
    var_dir.mkdir(parents=True, exist_ok=True)
    addresses = lan_addresses()
    env = venue_environment(var_dir, args.port, addresses, os.environ)
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "collectstatic", "--noinput", "-v", "0")
    password = ensure_td_login(env, var_dir)
    if not addresses:
        print(
            "No network address found: is the laptop on the venue Wi-Fi (or its own "
            "hotspot)? Serving on this laptop only for now.",
            file=sys.stderr,
        )
    print(banner(env["DJANGO_PUBLIC_URL"], password), flush=True)
    gunicorn = [
        sys.executable,
        "-m",
        "gunicorn",
        "config.wsgi:application",
        "--bind",
        f"0.0.0.0:{args.port}",
        "--workers",
        str(args.workers),
        "--access-logfile",
        "-",
    ]
    os.chdir(BASE_DIR)
    os.execve(sys.executable, gunicorn, env)


if __name__ == "__main__":
    main()
