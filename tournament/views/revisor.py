"""The revisor's score card (being built: issue 10)."""

from django.http import HttpResponse


def placeholder(request, *args, **kwargs):
    return HttpResponse("Not built yet.", status=501)
