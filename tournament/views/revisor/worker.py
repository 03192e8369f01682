"""/r/sw.js: the revisor's service worker, so that the card opens offline where the server
is reached over HTTPS (compose with Caddy). Browsers allow no service worker over plain
HTTP: there the open card works offline without a reload (static/js/revisor-queue.js),
and this answers 404. The setting REVISOR_SERVICE_WORKER turns it off. docs/offline.md."""

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

# Bumped when the worker's caching changes: the old cache is dropped on activation.
VERSION = "1"


def offered(request: HttpRequest) -> bool:
    """Whether the card registers the worker: the setting, over HTTPS."""
    return bool(settings.REVISOR_SERVICE_WORKER) and request.is_secure()


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    if not offered(request):
        raise Http404
    context = {
        "version": VERSION,
        "card_url": reverse("revisor:card"),
        "static_url": settings.STATIC_URL,
    }
    response = render(request, "tournament/revisor/sw.js", context, content_type="text/javascript")
    response["Service-Worker-Allowed"] = reverse("revisor:code")  # /r/
    response["Cache-Control"] = "no-cache"
    return response
