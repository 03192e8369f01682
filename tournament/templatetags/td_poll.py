"""{% td_poll_every 10 %}: the seconds between a TD page's polls (poll.js's data-poll-every):
the page's own, or settings.TD_POLL_SECONDS when it is set (the browser tests shorten it, as
they do the players' pages' with PUBLIC_POLL_SECONDS, instead of waiting 10 s for a poll)."""

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def td_poll_every(seconds: float) -> str:
    chosen: float | None = getattr(settings, "TD_POLL_SECONDS", None)
    return str(seconds if chosen is None else chosen)
