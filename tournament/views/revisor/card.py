"""The bound table's score card (being built)."""

from django.http import HttpResponse

from tournament.views.revisor.binding import revisor_required


@revisor_required
def card(request):
    return HttpResponse(f"Table {request.revisor_table.number}", status=501)
