"""TD pages: tournaments (being built)."""

from django.http import HttpResponse

from tournament.views.access import td_required


@td_required
def placeholder(request, *args, **kwargs):
    return HttpResponse("Not built yet.", status=501)
