"""The "Help" link of every TD page's header: the guide's page about the page shown."""

from django import template
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import get_language

from tournament.web.guide import LANGUAGES, help_page

register = template.Library()


@register.simple_tag(takes_context=True)
def guide_url(context: template.Context) -> str:
    request: HttpRequest | None = context.get("request")
    match = getattr(request, "resolver_match", None)
    name = help_page(match.view_name if match else "")
    language = get_language() if get_language() in LANGUAGES else LANGUAGES[0]
    return reverse("guide:page", args=[language, name])
