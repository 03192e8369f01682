"""Links for phones: every printed or shown link and QR code starts at the public address.

The TD often opens the pages that print links (table cards, the poster, a table's revisor
access) on the laptop that serves them, as http://127.0.0.1:8000: a link built from that
host reaches nobody else. So links are built from settings.PUBLIC_URL (DJANGO_PUBLIC_URL;
`make venue` sets it); without it from the TD's own host, and the pages say plainly when
that host is one no phone can reach.
"""

import ipaddress

from django.conf import settings


def public_link(request, path):
    """The absolute address of `path` (from reverse()) as phones in the room reach it."""
    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL + path
    return request.build_absolute_uri(path)


def unreachable_host(request):
    """The TD's host when links would be built from it and no other device can reach it
    (loopback, 0.0.0.0, link-local, or a name for this machine alone); otherwise None."""
    if settings.PUBLIC_URL:
        return None
    host = request.get_host()
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    name = name.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return host
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return None
    if address.is_loopback or address.is_unspecified or address.is_link_local:
        return host
    return None
