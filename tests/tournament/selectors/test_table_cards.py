"""What the printed table cards read (selectors/tables.py): the deal's order round a
table, and how many tables still need a revisor link."""

import pytest
from django.utils import timezone

from tests.tournament.conftest import single_table
from tournament.models import Table
from tournament.selectors.tables import dealer_order, level_tables, tables_without_links

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_tournament, td_user):
    return single_table(make_tournament(3), td_user)


def names(seats):
    return [seat.player.name for seat in seats]


def test_the_deal_goes_round_from_the_first_dealer(table):
    # The fixed seed seats Cia (0), Anna (1), Bo (2), and Cia deals first.
    (read,) = level_tables(table.level)
    assert names(dealer_order(read)) == ["Cia", "Anna", "Bo"]
    read.first_dealer_position = 1  # had Anna dealt first: Anna, Bo, then Cia
    assert names(dealer_order(read)) == ["Anna", "Bo", "Cia"]
    read.first_dealer_position = 2
    assert names(dealer_order(read)) == ["Bo", "Cia", "Anna"]


def test_the_tables_without_a_revisor_link_while_the_level_is_open(table):
    level = table.level
    assert tables_without_links(level, level_tables(level)) == 0  # the draw gave it one
    Table.objects.filter(pk=table.pk).update(revisor_key=None)  # as a restore leaves it
    assert tables_without_links(level, level_tables(level)) == 1
    level.closed_at = timezone.now()  # closed: no table needs one any more
    assert tables_without_links(level, level_tables(level)) == 0
