"""TD pages: the audit log, every action of the tournament, newest first.

Filterable by table, player and kind of action (a GET form: bookmarkable, works
without JavaScript) and paginated, 50 entries a page. A hand's "recorded" line is its
first version (`audit/reading.py`); an entry's before and after are shown as labelled
lines (`templatetags/audit.py`).
"""

from django.core.paginator import Page
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.audit.reading import audit_tables
from tournament.forms.td import AuditFilterForm
from tournament.models import AuditEntry
from tournament.selectors.audit_log import audit_log_page
from tournament.views.access import td_required
from tournament.views.td.common import get_tournament


@td_required
def audit_log(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_tournament(tournament_id)
    form = AuditFilterForm(
        request.GET or None, tournament=tournament, tables=audit_tables(tournament)
    )
    page: Page[AuditEntry] | None = None
    refused = form.is_bound and not form.is_valid()
    if not refused:
        filters = form.selector_kwargs() if form.is_bound else {}
        page = audit_log_page(tournament, request.GET.get("page"), **filters)
    filtered = form.is_bound and any(request.GET.get(name) for name in form.fields)
    context = {"tournament": tournament, "form": form, "page": page, "filtered": filtered}
    status = 400 if refused else 200
    return render(request, "tournament/td/audit/audit.html", context, status=status)
