"""One access helper per URL space: each refuses before any view logic runs."""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseBase, HttpResponseNotAllowed
from django.shortcuts import redirect
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request through django-htmx's middleware (settings.MIDDLEWARE): for the type checker."""

    htmx: HtmxDetails


# A view as the URLconf calls it: the request, then the URL's ids.
View = Callable[..., HttpResponseBase]


def td_required[V: View](view: V) -> V:
    """TD pages: a logged-in staff user; others go to the login page or get 403."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not request.user.is_staff:
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapper  # type: ignore[return-value]  # wraps() keeps the view's own signature


def post_only[V: View](back: Callable[..., str]) -> Callable[[V], V]:
    """A form's POST-only URL: a GET (the TD reloads the page a refused form was shown on, or
    opens the address again) goes back to the page the form is on instead of a blank 405.
    `back(**url_kwargs)` returns that page's URL, looking up what it names on the way (an
    unknown tournament or table is a 404, as on the page). Other methods get 405."""

    def decorate(view: V) -> V:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if request.method == "POST":
                return view(request, *args, **kwargs)
            if request.method in ("GET", "HEAD"):
                return redirect(back(**kwargs))
            return HttpResponseNotAllowed(["POST"])

        return wrapper  # type: ignore[return-value]  # wraps() keeps the view's own signature

    return decorate
