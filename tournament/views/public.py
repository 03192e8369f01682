from django.shortcuts import render

from tournament import selectors


def home(request):
    return render(
        request, "tournament/public/home.html", {"tournaments": selectors.tournament_list()}
    )
