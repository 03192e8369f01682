"""{% alerts_bar tournament %}: the open alerts on every TD page of a tournament but its
dashboard, rendered with the page (an empty bar filled by a poll right after the page
came pushed the page down under the TD's pointer a second later)."""

from django import template
from django.template import Context

from tournament.models import Tournament
from tournament.views.td.dashboard import ALERTS_BAR, alerts_bar_context

register = template.Library()


@register.inclusion_tag(ALERTS_BAR, takes_context=True)
def alerts_bar(context: Context, tournament: Tournament) -> dict[str, object]:
    return alerts_bar_context(tournament, board=context.get("alerts_board"))
