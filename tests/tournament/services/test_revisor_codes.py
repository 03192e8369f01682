"""The short-code service, called as a careless client would: a message, never a crash."""

import pytest
from django.utils.translation import override

from tests.tournament.conftest import single_table
from tournament.errors import InvalidEntry
from tournament.models import RevisorCodeAttempt
from tournament.services.revisor_access import table_for_code

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_tournament, td_user):
    return single_table(make_tournament(3), td_user)


@pytest.mark.parametrize("junk", [None, 7, b"ZZZZZZ", "", "   ", "Z" * 5000, "ZZZZZ\x00"])
def test_junk_codes_are_refused_and_not_counted(table, junk):
    with pytest.raises(InvalidEntry):
        table_for_code(code=junk, device="d", client="127.0.0.1")
    assert not RevisorCodeAttempt.objects.exists()


def test_junk_device_and_address_still_count_the_wrong_code(table):
    with override("en"), pytest.raises(InvalidEntry, match="No table in play has this code."):
        table_for_code(code="zz-zz-zz", device=None, client="x" * 500)
    attempt = RevisorCodeAttempt.objects.get()
    assert (attempt.device, attempt.client, attempt.code) == ("", "x" * 64, "ZZZZZZ")


def test_the_right_code_is_the_table_and_counts_nothing(table):
    typed = f" {table.revisor_code[:3].lower()}-{table.revisor_code[3:]} "
    assert table_for_code(code=typed, device="d", client="127.0.0.1") == table
    assert not RevisorCodeAttempt.objects.exists()
