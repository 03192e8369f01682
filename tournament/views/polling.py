"""The server side of the one polling mechanism (static/js/poll.js)."""

from django.http import HttpResponse
from django.utils.cache import patch_vary_headers


def unchanged(request, token):
    """A poll that already shows `token`: answer 204 No Content, and htmx leaves the page."""
    if request.GET.get("rev") == token:
        response = HttpResponse(status=204)
        patch_vary_headers(response, ["HX-Request"])
        return response
    return None


def vary_on_htmx(response):
    """One URL serves the page and its fragment: caches must tell them apart."""
    patch_vary_headers(response, ["HX-Request"])
    return response
