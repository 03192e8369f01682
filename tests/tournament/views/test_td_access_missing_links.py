"""After a restore no table has a revisor link (keys are never in a backup, so that a copy
of one opens no table): the level's table cards give every such table one in one click,
instead of one visit to each table's access page (100 at a 300-player level)."""

import uuid

import pytest
from django.urls import reverse

from tournament.models import AuditEntry, Table
from tournament.services import draws

pytestmark = pytest.mark.django_db


@pytest.fixture
def level(make_tournament, td_user):
    tournament = make_tournament(9, min_hands=3)
    return draws.draw_first_level(tournament=tournament, actor=td_user, seed="links")


def cards_url(level):
    return reverse("td:table_cards", args=[level.tournament.pk, level.number])


def links_url(level):
    return reverse("td:table_cards_links", args=[level.tournament.pk, level.number])


def test_tables_without_a_link_are_given_one_and_the_others_keep_theirs(td_client, level):
    tables = list(Table.objects.filter(level=level).order_by("number"))
    kept = tables[1].revisor_key
    Table.objects.filter(pk__in=[tables[0].pk, tables[2].pk]).update(
        revisor_key=None, revisor_code=None
    )
    page = td_client.get(cards_url(level)).content.decode()
    assert "2 tables of this level have no revisor link yet" in page
    assert "Give each of them a link and code" in page

    key = str(uuid.uuid4())
    response = td_client.post(links_url(level), {"submission_key": key})
    assert response.status_code == 302 and response["Location"] == cards_url(level)
    for table in tables:
        table.refresh_from_db()
        assert table.revisor_key and table.revisor_code
    assert tables[1].revisor_key == kept  # a table's tablet is never cut off by this
    assert len({t.revisor_code for t in tables}) == 3
    made = AuditEntry.objects.filter(action="table.revisor_access").order_by("id")
    assert [e.params["table"] for e in made] == [1, 3]
    page = td_client.get(cards_url(level)).content.decode()
    assert "Tables 1, 3 have a revisor link and code: print their cards again." in page
    assert "have no revisor link yet" not in page

    td_client.post(links_url(level), {"submission_key": key})  # the same form again
    assert AuditEntry.objects.filter(action="table.revisor_access").count() == 2


def test_the_log_says_a_first_link_was_made_not_an_old_code_replaced(td_client, level):
    Table.objects.filter(level=level, number=1).update(revisor_key=None, revisor_code=None)
    td_client.post(links_url(level), {"submission_key": str(uuid.uuid4())})
    page = td_client.get(reverse("td:audit", args=[level.tournament.pk])).content.decode()
    assert "Level 1 table 1: revisor link and code made" in page
    assert "None" not in page


def test_one_table_without_a_link_is_offered_in_the_singular(td_client, level):
    Table.objects.filter(level=level, number=2).update(revisor_key=None, revisor_code=None)
    page = td_client.get(cards_url(level)).content.decode()
    assert "1 table of this level has no revisor link yet" in page
    assert "Give it a link and code" in page


def test_every_table_with_a_link_offers_nothing_and_a_get_goes_back(td_client, level):
    page = td_client.get(cards_url(level)).content.decode()
    assert "no revisor link yet" not in page
    response = td_client.get(links_url(level))
    assert response.status_code == 302 and response["Location"] == cards_url(level)


def test_in_swedish(td_client, level):
    Table.objects.filter(level=level).update(revisor_key=None, revisor_code=None)
    td_client.cookies["django_language"] = "sv"
    page = td_client.get(cards_url(level)).content.decode()
    assert "3 bord på den här nivån har ingen revisorslänk än" in page


def test_a_level_the_tournament_does_not_have_is_404(td_client, level):
    url = reverse("td:table_cards_links", args=[level.tournament.pk, 9])
    assert td_client.get(url).status_code == 404
    assert td_client.post(url, {"submission_key": str(uuid.uuid4())}).status_code == 404
