"""The yardstick of bench/bench_public.py: the least a Django view can cost.

It answers "ok" through the same middleware as every page, so that a benchmark can
compare a page or a poll with it, served by the same server in the same run. It is
routed only for a benchmark (see config/urls.py): production never has it.
"""

from django.http import HttpRequest, HttpResponse


def ok(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")
