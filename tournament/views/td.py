from django.shortcuts import render

from tournament.views.access import td_required


@td_required
def dashboard(request):
    return render(request, "tournament/td/dashboard.html")
