"""The TD's audit log page: a page of entries, newest first, each with its words.

The entries are read through `audit/reading.py` (the log's rows and its hands' lines as
one list) and put into words in the reader's language (`audit/sentences.py`) from what
each entry keeps as data.
"""

from django.core.paginator import Page, Paginator

from tournament.audit.reading import audit_entries
from tournament.audit.sentences import action_label, actor_name, sentence
from tournament.models import AuditEntry, Player, Tournament

PER_PAGE = 50


def audit_log_page(
    tournament: Tournament,
    number: str | None = None,
    *,
    table: tuple[int, int] | None = None,
    player: Player | None = None,
    kind: str | None = None,
) -> Page[AuditEntry]:
    """Page `number` of the tournament's log (the last for a number past it, the first
    for anything but a number), filtered as `audit_entries` is. Each entry carries
    `sentence`, `label` (its kind of action) and `who` (the device or name that made it),
    words, not columns."""
    entries = audit_entries(tournament, table=table, player=player, kind=kind)
    # AuditLog serves what Paginator reads of it (its count and slices), not iteration.
    paginator: Paginator[AuditEntry] = Paginator(entries, PER_PAGE)  # type: ignore[arg-type]
    page = paginator.get_page(number)
    for entry in page:
        vars(entry).update(
            sentence=sentence(entry),
            label=action_label(entry.action),
            who=actor_name(entry.actor_label),
        )
    return page
