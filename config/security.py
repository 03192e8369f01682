"""Login throttling hooks for django-axes: who the client is, and the lockout page."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def client_ip(request: HttpRequest) -> str:
    """The client's IP address, as the proxies we trust saw it.

    With `PROXY_COUNT = 0` (the default: the app is reached directly) it is the
    connection's address; X-Forwarded-For is ignored because any client can send it.
    Behind N trusted proxies that each append the address they saw to
    X-Forwarded-For, the client is the N-th entry from the right: entries further
    left were written by the client and cannot be trusted.
    """
    remote_addr = request.META.get("REMOTE_ADDR", "")
    count = settings.PROXY_COUNT
    if count <= 0:
        return remote_addr
    forwarded = [
        item.strip()
        for item in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if item.strip()
    ]
    if len(forwarded) < count:
        # Fewer hops than proxies: the request skipped a proxy; the leftmost entry
        # is still the furthest address a trusted proxy wrote.
        return forwarded[0] if forwarded else remote_addr
    return forwarded[-count]


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, object] | None = None,
) -> HttpResponse:
    """The page shown once a username has failed too often from one address."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(
        request,
        "registration/locked_out.html",
        {"cooloff_minutes": minutes, "failure_limit": settings.AXES_FAILURE_LIMIT},
        status=settings.AXES_HTTP_RESPONSE_CODE,
    )
