from tournament.models import Table, Tournament


def lock_tournament(tournament):
    """Serialise changes that span the tournament (draws, warnings)."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def lock_table(table):
    """Serialise the tablets and the TD writing to one table."""
    return Table.objects.select_for_update().select_related("level__tournament").get(pk=table.pk)
