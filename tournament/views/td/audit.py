"""TD pages: the audit log, every action of the tournament, newest first.

Filterable by table, player and kind of action (a GET form: bookmarkable, works
without JavaScript) and paginated, 50 entries a page. A hand's "recorded" line is its
first version (`audit/reading.py`); an entry's before and after are shown as labelled
lines (`templatetags/audit.py`).
"""

from django.core.paginator import Page, Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.audit.reading import audit_entries, audit_tables
from tournament.audit.sentences import action_label, actor_name, sentence
from tournament.forms.td import AuditFilterForm
from tournament.models import AuditEntry
from tournament.views.access import td_required
from tournament.views.td.common import get_tournament

PER_PAGE = 50


@td_required
def audit_log(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_tournament(tournament_id)
    form = AuditFilterForm(
        request.GET or None, tournament=tournament, tables=audit_tables(tournament)
    )
    page: Page[AuditEntry] | None = None
    status = 200
    if form.is_bound and not form.is_valid():
        status = 400
    else:
        kwargs = form.selector_kwargs() if form.is_bound else {}
        entries = audit_entries(tournament, **kwargs)
        # AuditLog serves what Paginator reads of it (its count and slices), not iteration.
        paginator: Paginator[AuditEntry] = Paginator(entries, PER_PAGE)  # type: ignore[arg-type]
        page = paginator.get_page(request.GET.get("page"))
        for entry in page:
            # Written now, in the reader's language, from what the entry keeps as data.
            # Set on the entry for the template: words, not columns of AuditEntry.
            vars(entry).update(
                sentence=sentence(entry),
                label=action_label(entry.action),
                who=actor_name(entry.actor_label),
            )
    filtered = form.is_bound and any(request.GET.get(name) for name in form.fields)
    context = {"tournament": tournament, "form": form, "page": page, "filtered": filtered}
    return render(request, "tournament/td/audit/audit.html", context, status=status)
