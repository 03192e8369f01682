"""The players' tables on the big screen show the QR code of the tournament's page, built
from the public address (DJANGO_PUBLIC_URL), never from the host the projector's browser
opened the page at (issue 18 §2, "the projector's QR")."""

import re

import pytest
from django.urls import reverse

from tests.tournament.conftest import single_table
from tournament.web.qr import BORDER, qr_code

pytestmark = pytest.mark.django_db

VENUE = "http://192.168.1.20:8000"
SCAN = re.compile(r'<aside class="projector-scan">(.*?)</aside>', re.S)


@pytest.fixture
def tournament(make_tournament, td_user):
    tournament = make_tournament(players=3, name="Scan Open")
    single_table(tournament, td_user)
    return tournament


def projector(tournament):
    return reverse("public:tables_projector", args=[tournament.pk])


def modules(html):
    """The drawn modules of the page's one QR code (its SVG path)."""
    (path,) = re.findall(r'<path[^>]* d="([^"]+)"', html)
    return path


def drawn(text):
    return modules(qr_code(text).svg_inline(border=BORDER, omitsize=True))


def test_the_tables_projector_shows_the_qr_code_of_the_public_address(client, tournament, settings):
    settings.PUBLIC_URL = VENUE
    html = client.get(projector(tournament), HTTP_HOST="127.0.0.1:8000").content.decode()
    (scan,) = SCAN.findall(html)
    assert modules(scan) == drawn(f"{VENUE}/t/{tournament.pk}/")
    assert modules(scan) != drawn(f"http://127.0.0.1:8000/t/{tournament.pk}/")
    assert f"<title>QR code of 192.168.1.20:8000/t/{tournament.pk}</title>" in scan
    assert "Scan for your table" in scan
    assert "127.0.0.1" not in html

    client.cookies["django_language"] = "sv"
    html = client.get(projector(tournament), HTTP_HOST="127.0.0.1:8000").content.decode()
    assert "Skanna för att hitta ditt bord" in SCAN.findall(html)[0]


def test_a_poll_never_draws_it_again(client, tournament, settings):
    settings.PUBLIC_URL = VENUE
    region = client.get(projector(tournament), headers={"HX-Request": "true"})
    assert region.status_code == 200
    assert 'id="live"' in region.content.decode()
    assert "projector-scan" not in region.content.decode()


def test_without_a_public_address_the_hosts_own_and_none_for_a_loopback_one(
    client, tournament, settings
):
    settings.PUBLIC_URL = ""
    html = client.get(projector(tournament)).content.decode()  # host: testserver
    assert modules(SCAN.findall(html)[0]) == drawn(f"http://testserver/t/{tournament.pk}/")
    # The projector opened on the laptop as 127.0.0.1: no phone reaches that; no code.
    html = client.get(projector(tournament), HTTP_HOST="127.0.0.1:8000").content.decode()
    assert not SCAN.findall(html)
    assert "Scan for your table" not in html


@pytest.mark.parametrize("public", ["http://127.0.0.1:8000", "http://169.254.10.20:8000"])
def test_a_public_address_no_phone_reaches_draws_no_code(client, tournament, settings, public):
    """`make venue` started before the laptop joined the Wi-Fi sets 127.0.0.1 (a cable with
    no DHCP answer gives 169.254.x.x): a code of it would send the room nowhere."""
    settings.PUBLIC_URL = public
    settings.ALLOWED_HOSTS = ["*"]
    html = client.get(projector(tournament), HTTP_HOST="127.0.0.1:8000").content.decode()
    assert not SCAN.findall(html)
    assert "Scan for your table" not in html
