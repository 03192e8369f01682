"""The revisor's card: the table's revision and its last hands."""

from tournament.models import Hand, Table
from tournament.selectors.core import current_versions_with_results


def table_revision(table_id):
    """The table's revision (what its revisor's card polls): 1 indexed query."""
    return Table.objects.filter(pk=table_id).values_list("revision", flat=True).first()


def last_hands(table, count=5):
    """The table's last `count` hands, newest first, with their current results: 3 queries."""
    return list(
        Hand.objects.filter(table=table)
        .order_by("-number")
        .prefetch_related(current_versions_with_results())[:count]
    )
