"""{{ players|and_list }}: names joined as a sentence says them, "Anna and Bo",
"Anna, Bo and Cia" ("Anna, Bo och Cia"), never "Anna, Bo are tied"."""

from collections.abc import Iterable

from django import template
from django.utils.text import get_text_list
from django.utils.translation import pgettext

register = template.Library()


@register.filter
def and_list(items: Iterable[object]) -> str:
    return get_text_list([str(item) for item in items], pgettext("names joined", "and"))
