"""A revisor's device is bound to one table by its link or short code, and nothing else."""

from html import unescape

import pytest
from django.urls import reverse

from tests.tournament.conftest import play, single_table
from tournament.models import Hand, RevisorCodeAttempt, Table
from tournament.services import draws
from tournament.services.revisor_access import regenerate_revisor_access

pytestmark = pytest.mark.django_db

CARD = reverse("revisor:card")
CODE = reverse("revisor:code")
HTMX = {"HX-Request": "true"}
REPLACED = (
    "This device's access to table 1 was replaced by the TD: type the table's new code, "
    "or scan its new QR code."
)


@pytest.fixture
def table(make_tournament, td_user):
    return single_table(make_tournament(3), td_user)


def text(response):
    return unescape(response.content.decode())


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


def test_regenerating_the_link_cuts_the_device_off(client, table, td_user):
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    regenerate_revisor_access(table=table, actor=td_user)
    response = client.get(CARD, follow=True)
    assert response.redirect_chain[-1][0] == CODE
    assert REPLACED in text(response)
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
    assert (
        "The TD redid the draw of level 1, so this device no longer keeps table 1: type the "
        "code on your new table's card, or scan its QR code."
    ) in text(response)
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
    assert (
        "Level 1 is closed and its results are final: this device no longer keeps table 1."
    ) in text(response)


def test_a_revisor_reaches_no_td_page(client, table):
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    response = client.get(reverse("td:dashboard"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


# A device cut off (issue 17 §8): whatever it asked, it is sent to /r/ as a whole page,
# told why, and the new code typed there opens the card at once.


def cut_off(client, table, td_user):
    """Bind the device, then the TD replaces the table's link and code: the new code."""
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    regenerate_revisor_access(table=table, actor=td_user)
    return Table.objects.get(pk=table.pk).revisor_code


def test_a_cut_off_poll_makes_htmx_load_the_code_page(client, table, td_user):
    cut_off(client, table, td_user)
    response = client.get(reverse("revisor:summary") + "?rev=1", headers=HTMX)
    # Not a 302 that htmx would follow and swap into the card at /r/card/.
    assert response.status_code == 200 and response["HX-Redirect"] == CODE
    assert "Location" not in response and response.content == b""
    assert "HX-Request" in response["Vary"]
    assert bound_table_id(client) is None


def test_a_cut_off_htmx_form_makes_htmx_load_the_code_page(client, table, td_user):
    cut_off(client, table, td_user)
    response = client.post(
        reverse("revisor:hand"), {"hand_number": "1", "idempotency_key": "x"}, headers=HTMX
    )
    assert response.status_code == 200 and response["HX-Redirect"] == CODE
    assert not Hand.objects.exists()


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_cut_off_page_or_plain_form_is_redirected_to_the_code_page(
    client, table, td_user, method
):
    cut_off(client, table, td_user)
    response = getattr(client, method)(CARD if method == "get" else reverse("revisor:hand"))
    assert response.status_code == 302 and response["Location"] == CODE
    assert "HX-Redirect" not in response and "HX-Request" in response["Vary"]


def test_the_code_page_says_why_and_takes_the_new_code_at_once(client, table, td_user):
    new_code = cut_off(client, table, td_user)
    client.get(reverse("revisor:summary") + "?rev=1", headers=HTMX)  # the poll that was refused
    page = text(client.get(CODE))
    assert REPLACED in page
    assert "not bound to a table yet" not in page
    assert f'action="{CODE}"' in page  # posts to /r/ wherever it is shown
    # The reason stays on a reload, until the device is bound again.
    assert REPLACED in text(client.get(CODE))
    response = client.post(CODE, {"code": new_code})
    assert response.status_code == 302 and response["Location"] == CARD
    assert bound_table_id(client) == table.pk
    assert client.get(CARD).status_code == 200
    assert REPLACED not in text(client.get(CODE))


def test_the_reason_is_said_in_swedish(client, table, td_user):
    cut_off(client, table, td_user)
    client.cookies["django_language"] = "sv"
    page = text(client.get(CARD, follow=True))
    assert (
        "Den här enhetens åtkomst till bord 1 har ersatts av TL: skriv bordets nya kod eller "
        "skanna dess nya QR-kod."
    ) in page


def test_a_cut_off_device_typing_the_old_code_is_told_nothing_more(client, table, td_user):
    old_code = table.revisor_code
    cut_off(client, table, td_user)
    response = client.post(CODE, {"code": old_code})
    assert response.status_code == 400
    assert "No table in play has this code." in text(response)
    assert client.get(CARD)["Location"] == CODE


def test_a_stranger_learns_nothing_of_a_cut_off_device(client, table, td_user):
    cut_off(client, table, td_user)
    client.get(CARD)
    stranger = client.__class__()
    page = stranger.get(CODE).content.decode()
    assert "table 1" not in page and "replaced" not in page
    response = stranger.get(CARD, follow=True)
    assert "This device is not bound to a table yet." in response.content.decode()
