"""The TD's revisor access page of a table: link, QR code, short code, regenerate."""

import re
import uuid

import pytest
import segno
from django.test import Client
from django.urls import reverse

from tests.tournament.conftest import single_table
from tournament.models import AuditEntry, FormSubmission, Table
from tournament.services import draws
from tournament.web.qr import qr_svg

pytestmark = pytest.mark.django_db


def access_url(table):
    return reverse("td:table_access", args=[table.level.tournament_id, table.pk])


def regenerate_url(table):
    return reverse("td:table_access_regenerate", args=[table.level.tournament_id, table.pk])


@pytest.fixture
def five(make_tournament, td_user):
    """5 players, drawn with a fixed seed: table 1 Bo, Cia, Eva (Eva deals first),
    table 2 Anna, Dan (Dan deals first)."""
    tournament = make_tournament(players=5, name="Five")
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="fixed-seed")
    return tournament, list(level.tables.order_by("number"))


def dark_modules(svg):
    """The dark modules (row, column) that an SVG of segno's draws, read from its path."""
    path = re.search(r' d="([^"]+)"', svg).group(1)
    dark, x, y = set(), 0.0, 0.0
    for command, first, second in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", path):
        if command == "M":
            x, y = float(first), float(second)
        elif command == "m":
            x, y = x + float(first), y + float(second)
        else:
            length = int(first)
            dark.update((int(y), int(x) + i) for i in range(length))
            x += length
    return dark


def matrix_modules(qrcode, border=4):
    return {
        (r + border, c + border)
        for r, row in enumerate(qrcode.matrix)
        for c, value in enumerate(row)
        if value
    }


def test_the_page_shows_the_link_its_qr_code_and_the_short_code(td_client, five):
    tournament, (table, _) = five
    response = td_client.get(access_url(table))
    assert response.status_code == 200
    page = response.content.decode()
    link = f"http://testserver/r/{table.revisor_key}/"
    assert f'href="{link}"' in page
    assert table.revisor_code in page and len(table.revisor_code) == 6
    assert 'href="http://testserver/r/"' in page
    assert "Devices holding the old link or code will be cut off" in page
    assert 'name="submission_key"' in page
    assert "Regenerate link and code" in page
    # The button that cuts the tablet off is behind a second click, in a closed <details>.
    behind = re.search(r"<details class=\"confirm-first\">(.*?)</details>", page, re.S).group(1)
    assert "<summary>A new link and code for this table…</summary>" in behind
    assert regenerate_url(table) in behind and 'class="danger">Regenerate' in behind
    assert page.count(regenerate_url(table)) == 1
    assert reverse("td:table_cards", args=[tournament.pk, 1]) in page
    # The QR code is inline SVG, with a title, and no style attribute (the CSP forbids it).
    svg = re.search(r"<svg\b.*?</svg>", page, re.S).group(0)
    assert "<title>QR code of the revisor link for table 1</title>" in svg
    assert 'role="img"' in svg
    assert "style=" not in svg and "<style" not in svg and "data:" not in svg
    # It draws exactly segno's QR code of the link, module by module ...
    assert dark_modules(svg) == matrix_modules(segno.make(link, error="m", micro=False))
    # ... and is segno's own output for that link.
    expected_path = re.search(r' d="[^"]+"', segno.make(link, error="m").svg_inline()).group(0)
    assert expected_path in svg


def test_qr_svg_encodes_the_text_and_escapes_the_title():
    svg = qr_svg("http://example.org/r/abc/", title='Table <1> & "2"')
    assert svg.startswith('<svg role="img" viewBox=')
    assert "<title>Table &lt;1&gt; &amp; " in svg
    assert 'class="qr"' in svg and 'class="qr-modules"' in svg
    assert "style" not in svg and "width=" not in svg
    assert dark_modules(svg) == matrix_modules(segno.make("http://example.org/r/abc/", error="m"))
    assert dark_modules(qr_svg("other")) != dark_modules(svg)


def test_refusals(outsider, td_client, five, make_tournament, td_user):
    tournament, (table, _) = five
    client = Client()  # not td_client's: that one is logged in
    url = access_url(table)
    response = client.get(url)
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    client.force_login(outsider)
    assert client.get(url).status_code == 403
    other = make_tournament(players=3, name="Other")
    other_table = single_table(other, td_user)
    assert td_client.get(access_url(other_table)).status_code == 200
    # The table of another tournament, an unknown table, an unknown tournament.
    assert td_client.get(reverse("td:table_access", args=[other.pk, table.pk])).status_code == 404
    assert td_client.get(reverse("td:table_access", args=[tournament.pk, 99999])).status_code == 404
    assert td_client.get(reverse("td:table_access", args=[99999, table.pk])).status_code == 404


def test_regenerate_gives_a_new_key_and_code_and_the_old_ones_are_gone(td_client, five, td_user):
    _, (table, other_table) = five
    old_key, old_code = table.revisor_key, table.revisor_code
    key = uuid.uuid4()
    response = td_client.post(regenerate_url(table), {"submission_key": key})
    assert response.status_code == 302 and response.url == access_url(table)
    table.refresh_from_db()
    assert table.revisor_key != old_key and table.revisor_code != old_code
    assert len(table.revisor_key) >= 43 and len(table.revisor_code) == 6
    entry = AuditEntry.objects.get(action="table.revisor_access")
    assert entry.actor == td_user and entry.before == {"code": old_code}
    page = td_client.get(response.url).content.decode()
    assert old_key not in page and old_code not in page
    assert f"http://testserver/r/{table.revisor_key}/" in page and table.revisor_code in page
    assert "Table 1 has a new revisor link and code: devices holding the old ones are cut off." in (
        page
    )
    # The other table is untouched.
    before = (other_table.revisor_key, other_table.revisor_code)
    other_table.refresh_from_db()
    assert (other_table.revisor_key, other_table.revisor_code) == before


def test_a_second_submission_with_the_same_key_regenerates_once(td_client, five):
    _, (table, _) = five
    key = uuid.uuid4()
    td_client.post(regenerate_url(table), {"submission_key": key})
    table.refresh_from_db()
    first = (table.revisor_key, table.revisor_code)
    response = td_client.post(regenerate_url(table), {"submission_key": key})
    assert response.status_code == 302
    table.refresh_from_db()
    assert (table.revisor_key, table.revisor_code) == first
    assert AuditEntry.objects.filter(action="table.revisor_access").count() == 1
    assert FormSubmission.objects.filter(key=key).count() == 1


def test_a_form_without_its_key_changes_nothing_and_says_so(td_client, five):
    _, (table, _) = five
    before = (table.revisor_key, table.revisor_code)
    for data in ({}, {"submission_key": "not-a-key"}):
        response = td_client.post(regenerate_url(table), data)
        assert response.status_code == 400
        page = response.content.decode()
        assert 'role="alert"' in page and "The form was out of date" in page
        # A fresh key to send again.
        assert re.search(r'name="submission_key" value="[0-9a-f-]{36}"', page)
        table.refresh_from_db()
        assert (table.revisor_key, table.revisor_code) == before
    # A GET (the TD reloads the refused page) goes back to the access page, changing nothing.
    response = td_client.get(regenerate_url(table))
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "td:table_access", args=[table.level.tournament_id, table.pk]
    )
    table.refresh_from_db()
    assert (table.revisor_key, table.revisor_code) == before


def test_regenerate_refusals_change_nothing(outsider, td_client, five, make_tournament):
    tournament, (table, _) = five
    client = Client()
    before = (table.revisor_key, table.revisor_code)
    data = {"submission_key": uuid.uuid4()}
    response = client.post(regenerate_url(table), data)
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    client.force_login(outsider)
    assert client.post(regenerate_url(table), data).status_code == 403
    other = make_tournament(players=2, name="Other")
    url = reverse("td:table_access_regenerate", args=[other.pk, table.pk])
    assert td_client.post(url, data).status_code == 404
    table.refresh_from_db()
    assert (table.revisor_key, table.revisor_code) == before
    assert not AuditEntry.objects.filter(action="table.revisor_access").exists()


def test_a_table_without_access_gets_one_created(td_client, five):
    """A table restored from a backup has no link yet: the page offers to create one."""
    _, (table, _) = five
    Table.objects.filter(pk=table.pk).update(revisor_key=None, revisor_code=None)
    page = td_client.get(access_url(table)).content.decode()
    assert "This table has no revisor link yet" in page and "<svg" not in page
    assert "Create link and code" in page
    assert "<details" not in page  # nothing to cut off: one click creates it
    response = td_client.post(regenerate_url(table), {"submission_key": uuid.uuid4()})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.revisor_key and table.revisor_code
    page = td_client.get(access_url(table)).content.decode()
    assert "Table 1 has a revisor link and code." in page
    assert f"http://testserver/r/{table.revisor_key}/" in page


def test_a_table_of_a_redone_draw_says_so(td_client, five, td_user):
    tournament, (table, _) = five
    draws.redraw_level(level=table.level, actor=td_user, reason="Wrong player list")
    page = td_client.get(access_url(table)).content.decode()
    assert "This table belongs to a draw that was redone" in page


def test_the_page_is_in_swedish_for_a_swedish_td(td_client, five):
    _, (table, _) = five
    td_client.cookies["django_language"] = "sv"
    page = td_client.get(access_url(table)).content.decode()
    assert '<html lang="sv">' in page
    assert "Devices holding the old link" not in page
    assert "Skapa ny länk och kod" in page and "Revisorns åtkomst, bord 1" in page
