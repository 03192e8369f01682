"""{% alerts_bar tournament %}: the open alerts on every TD page of a tournament but its
dashboard, rendered with the page (an empty bar filled by a poll right after the page
came pushed the page down under the TD's pointer a second later)."""

from django import template
from django.utils import timezone

from tournament.selectors.dashboard import dashboard, live_revision

register = template.Library()

ALERTS_BAR = "tournament/td/_alerts_bar.html"


def alerts_bar_context(tournament, *, now=None, rev=None, board=None):
    """What the bar shows: every open alert (the dashboard's own list) and the revision
    its poll sends. `board`: the page's own dashboard read, when it made one (the close
    confirmation's), so that nothing is read twice."""
    now = now or timezone.now()
    return {
        "tournament": tournament,
        "board": board or dashboard(tournament, now=now),
        "rev": rev if rev is not None else live_revision(tournament.pk, now),
    }


@register.inclusion_tag(ALERTS_BAR, takes_context=True)
def alerts_bar(context, tournament):
    return alerts_bar_context(tournament, board=context.get("alerts_board"))
