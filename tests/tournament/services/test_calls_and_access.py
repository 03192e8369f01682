import pytest

from tests.tournament.conftest import single_table
from tournament.errors import NotAllowed, ServiceError
from tournament.models import AuditEntry, Table, TableCall
from tournament.services import calls, draws
from tournament.services.revisor_access import regenerate_revisor_access

pytestmark = pytest.mark.django_db


def test_every_drawn_table_has_a_private_key_and_a_short_code(make_tournament, td_user):
    level = draws.draw_first_level(tournament=make_tournament(9), actor=td_user, seed="k")
    tables = list(Table.objects.filter(level=level))
    keys = {t.revisor_key for t in tables}
    codes = {t.revisor_code for t in tables}
    assert len(keys) == len(codes) == 3
    assert all(len(key) >= 43 for key in keys)  # 256 bits, URL-safe base64
    assert all(len(code) == 6 and not set(code) & set("0O1IL") for code in codes)


def test_regenerating_replaces_key_and_code_and_is_audited(make_tournament, td_user):
    table = single_table(make_tournament(3), td_user)
    old_key, old_code, old_revision = table.revisor_key, table.revisor_code, table.revision
    regenerate_revisor_access(table=table, actor=td_user)
    table.refresh_from_db()
    assert table.revisor_key != old_key and table.revisor_code != old_code
    assert table.revision == old_revision + 1
    entry = AuditEntry.objects.get(action="table.revisor_access")
    assert entry.before == {"code": old_code} and entry.actor == td_user


def test_a_call_flags_the_table_once_until_the_td_clears_it(make_tournament, td_user):
    table = single_table(make_tournament(3), td_user)
    first = calls.call_td(table=table, kind="dispute", note="Who won the back?", actor_label="Bo")
    again = calls.call_td(table=table, kind="misdeal")
    assert again.pk == first.pk and TableCall.objects.count() == 1
    cleared = calls.clear_call(table=table, actor=td_user)
    assert cleared.cleared_at is not None and cleared.cleared_by == td_user
    with pytest.raises(NotAllowed, match="Table 1 has no open call"):
        calls.clear_call(table=table, actor=td_user)
    assert calls.call_td(table=table, kind="timeout").pk != first.pk
    assert [e.action for e in AuditEntry.objects.filter(action__startswith="table.call")] == [
        "table.call",
        "table.call_cleared",
        "table.call",
    ][::-1]


@pytest.mark.parametrize("kind", ["", "fire", None, 3])
def test_a_call_needs_a_known_reason(make_tournament, td_user, kind):
    table = single_table(make_tournament(3), td_user)
    with pytest.raises(ServiceError, match="reason for the call must be one of"):
        calls.call_td(table=table, kind=kind)
    assert not TableCall.objects.exists()
