"""A revisor's device is bound to one table by its link or short code, and nothing else."""

import pytest
from django.urls import reverse

from tests.tournament.conftest import play, single_table
from tournament.models import RevisorCodeAttempt, Table
from tournament.services import draws
from tournament.services.revisor_access import regenerate_revisor_access
from tournament.views.revisor.entry import CODE_ATTEMPTS

pytestmark = pytest.mark.django_db

CARD = reverse("revisor:card")
CODE = reverse("revisor:code")


@pytest.fixture
def table(make_tournament, td_user):
    return single_table(make_tournament(3), td_user)


def bound_table_id(client):
    return client.session.get("revisor_binding", {}).get("table")


def test_no_binding_sends_the_device_to_the_code_page(client):
    response = client.get(CARD)
    assert response.status_code == 302 and response["Location"] == CODE
    page = client.get(CODE).content.decode()
    assert "This device is not bound to a table yet." in page


def test_the_private_link_binds_the_device_to_its_table(client, table):
    response = client.get(reverse("revisor:link", args=[table.revisor_key]))
    assert response.status_code == 302 and response["Location"] == CARD
    assert bound_table_id(client) == table.pk
    assert client.get(CARD).status_code != 302


def test_an_unknown_link_binds_nothing(client, table):
    response = client.get(reverse("revisor:link", args=["not-a-key"]), follow=True)
    assert "This link is not valid (any more)" in response.content.decode()
    assert bound_table_id(client) is None


def test_the_short_code_binds_in_any_case_and_spacing(client, table):
    typed = " ".join(table.revisor_code.lower())  # "a b c d e f"
    response = client.post(CODE, {"code": typed})
    assert response.status_code == 302 and response["Location"] == CARD
    assert bound_table_id(client) == table.pk


def test_a_wrong_code_is_refused_in_place_and_counted(client, table):
    response = client.post(CODE, {"code": "ZZZZZZ"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "No table in play has this code." in page and 'value="ZZZZZZ"' in page
    assert RevisorCodeAttempt.objects.count() == 1 and bound_table_id(client) is None


def test_wrong_codes_beyond_the_limit_are_refused_even_the_right_one(client, table):
    for _ in range(CODE_ATTEMPTS):
        assert client.post(CODE, {"code": "ZZZZZZ"}).status_code == 400
    response = client.post(CODE, {"code": table.revisor_code})
    assert response.status_code == 429
    assert "Too many wrong codes from this device. Wait 15 minutes" in response.content.decode()
    assert bound_table_id(client) is None
    # Another client (another address) is not held up.
    other = client.__class__(REMOTE_ADDR="10.1.2.3")
    assert other.post(CODE, {"code": table.revisor_code}).status_code == 302


def test_regenerating_the_link_cuts_the_device_off(client, table, td_user):
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    regenerate_revisor_access(table=table, actor=td_user)
    response = client.get(CARD, follow=True)
    assert response.redirect_chain[-1][0] == CODE
    assert "The TD has issued a new link for this table" in response.content.decode()
    assert bound_table_id(client) is None
    # The old link no longer binds either.
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    assert bound_table_id(client) is None


def test_a_redone_draw_ends_the_binding(client, make_tournament, td_user):
    level = draws.draw_first_level(tournament=make_tournament(3), actor=td_user, seed="a")
    table = level.tables.get()
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    draws.redraw_level(level=level, actor=td_user, reason="Wrong seats")
    response = client.get(CARD, follow=True)
    assert "The draw was redone" in response.content.decode()
    new_table = Table.objects.current().get(level=level)
    client.get(reverse("revisor:link", args=[new_table.revisor_key]))
    assert bound_table_id(client) == new_table.pk


def test_a_closed_level_ends_the_binding(client, make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo"], min_hands=1)
    table = single_table(tournament, td_user)
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    play(table, 3, -3)
    draws.advance(tournament=tournament, actor=td_user)
    response = client.get(CARD, follow=True)
    assert "This level is closed" in response.content.decode()


def test_a_revisor_reaches_no_td_page(client, table):
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    response = client.get(reverse("td:dashboard"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
