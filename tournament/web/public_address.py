"""Links for phones: every printed or shown link and QR code starts at the public address.

The TD often opens the pages that print links (table cards, the poster, a table's revisor
access) on the laptop that serves them, as http://127.0.0.1:8000: a link built from that
host reaches nobody else. So links are built from settings.PUBLIC_URL (DJANGO_PUBLIC_URL;
`make venue` sets it); without it from the TD's own host. Either way the pages say plainly
when that address is one no phone can reach: `make venue` started on a laptop with no
network yet sets 127.0.0.1 itself.
"""

import ipaddress
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest


def public_link(request: HttpRequest, path: str) -> str:
    """The absolute address of `path` (from reverse()) as phones in the room reach it."""
    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL + path
    return request.build_absolute_uri(path)


def this_machine_only(host: str) -> bool:
    """Whether `host` (a name or address, with or without its port) is one only this
    computer opens: loopback, 0.0.0.0, link-local (169.254.x.x: no DHCP answered), or a
    name for this machine alone."""
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    name = name.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified or address.is_link_local


def unreachable_host(request: HttpRequest) -> str | None:
    """The host links are built from (the public address's, else the TD's own) when no
    other device can reach it; otherwise None."""
    host = urlsplit(settings.PUBLIC_URL).netloc if settings.PUBLIC_URL else request.get_host()
    return host if this_machine_only(host) else None


def address_warning(request: HttpRequest) -> dict[str, str | bool | None]:
    """What a page that prints links needs for its warning (_address_warning.html): the
    unreachable host, and whether it is the public address (set, by `make venue` on a
    laptop with no network yet, or by hand) rather than the TD's own."""
    host = unreachable_host(request)
    return {"unreachable_host": host, "unreachable_public": bool(host and settings.PUBLIC_URL)}
