"""The revisor's access to a table: a private link (secret key) and a short code."""

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from tournament.models import Table, new_revisor_code, new_revisor_key
from tournament.services import audit
from tournament.services.locking import lock_table
from tournament.validation import instance


def unused_revisor_code():
    """A short code no table has (the space is large; a clash only costs another try)."""
    while True:
        code = new_revisor_code()
        if not Table.objects.filter(revisor_code=code).exists():
            return code


def access_fields():
    """Key and code for a table being created."""
    return {"revisor_key": new_revisor_key(), "revisor_code": unused_revisor_code()}


@transaction.atomic
def regenerate_revisor_access(*, table, actor):
    """New key and code for a table: every device bound with the old ones is cut off."""
    table = lock_table(instance(table, Table, label=_("The table")))
    old_code = table.revisor_code
    fields = access_fields()
    Table.objects.filter(pk=table.pk).update(**fields, revision=F("revision") + 1)
    for name, value in fields.items():
        setattr(table, name, value)
    table.revision += 1
    audit.record(
        tournament=table.level.tournament,
        actor=actor,
        action="table.revisor_access",
        summary=f"Level {table.level.number} table {table.number}: new revisor link and code "
        f"(the old code {old_code} no longer works)",
        before={"code": old_code},
        after={"code": table.revisor_code},
    )
    return table
