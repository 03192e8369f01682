"""The guide, served by the app (tournament/web/guide.py): open to anyone, like the players'
pages, so that a revisor can read his part too; nothing in it is the TD's to keep."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language

from tournament.web.guide import LANGUAGES, guide_page


def index(request: HttpRequest) -> HttpResponse:
    """/guide/: the contents in the reader's language."""
    language = get_language() if get_language() in LANGUAGES else LANGUAGES[0]
    return redirect("guide:page", language, "index")


def page(request: HttpRequest, language: str, name: str) -> HttpResponse:
    found = guide_page(language, name)
    if found is None:
        raise Http404("No such page in the guide.")
    other = next(code for code in LANGUAGES if code != language)
    return render(request, "guide/page.html", {"page": found, "other_language": other})
