"""Every printed or shown link starts at the public address (DJANGO_PUBLIC_URL); without
one, the pages that print links warn when the TD's own address is one phones cannot reach."""

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import RequestFactory
from django.urls import reverse

from config.env import public_url
from tests.tournament.conftest import single_table
from tournament.web.public_address import public_link, unreachable_host

pytestmark = pytest.mark.django_db

VENUE = "http://192.168.1.20:8000"
WARNING = "an address only this computer can open"
WARNING_SV = "en adress som bara den här datorn kan öppna"


@pytest.fixture
def table(make_tournament, td_user):
    return single_table(make_tournament(players=3, name="Address Open"), td_user)


def pages(table):
    tournament_id = table.level.tournament_id
    return {
        "access": reverse("td:table_access", args=[tournament_id, table.pk]),
        "cards": reverse("td:table_cards", args=[tournament_id, table.level.number]),
        "poster": reverse("public:poster", args=[tournament_id]),
    }


@pytest.mark.parametrize("page", ["access", "cards", "poster"])
def test_links_start_at_the_public_address_whatever_host_the_td_used(
    td_client, table, settings, page
):
    settings.PUBLIC_URL = VENUE
    html = td_client.get(pages(table)[page], HTTP_HOST="127.0.0.1:8000").content.decode()
    assert "192.168.1.20:8000/" in html
    assert "127.0.0.1:8000" not in html
    assert WARNING not in html


def test_the_revisor_link_and_code_address_use_the_public_address(td_client, table, settings):
    settings.PUBLIC_URL = VENUE
    html = td_client.get(pages(table)["access"], HTTP_HOST="127.0.0.1:8000").content.decode()
    table.refresh_from_db()
    assert f'href="{VENUE}/r/{table.revisor_key}/"' in html
    assert f">{VENUE}/r/<" in html  # where to type the short code


def test_the_poster_qr_code_encodes_the_public_address(td_client, table, settings):
    settings.PUBLIC_URL = VENUE
    html = td_client.get(pages(table)["poster"], HTTP_HOST="127.0.0.1:8000").content.decode()
    assert f"<title>QR code of 192.168.1.20:8000/t/{table.level.tournament_id}</title>" in html


@pytest.mark.parametrize("page", ["access", "cards", "poster"])
@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "0.0.0.0:8000"])
def test_a_loopback_host_without_a_public_address_is_said_before_printing(
    td_client, table, settings, page, host
):
    settings.PUBLIC_URL = ""
    settings.ALLOWED_HOSTS = ["*"]
    html = td_client.get(pages(table)[page], HTTP_HOST=host).content.decode()
    assert WARNING in html
    assert f"start with {host}," in html
    # before the first link or code on the page
    assert html.index(WARNING) < html.index(f"{host}/")


@pytest.mark.parametrize("page", ["access", "cards", "poster"])
def test_a_reachable_host_gets_no_warning(td_client, table, settings, page):
    settings.PUBLIC_URL = ""
    settings.ALLOWED_HOSTS = ["*"]
    html = td_client.get(pages(table)[page], HTTP_HOST="192.168.1.20:8000").content.decode()
    assert WARNING not in html
    assert "192.168.1.20:8000/" in html


NO_NETWORK = "The server was started while this computer had no network address"


@pytest.mark.parametrize("page", ["access", "cards", "poster", "stations"])
@pytest.mark.parametrize(
    "public", ["http://127.0.0.1:8000", "http://localhost:8000", "http://169.254.10.20:8000"]
)
def test_a_public_address_no_phone_reaches_is_said_before_printing(
    td_client, table, settings, page, public
):
    """`make venue` on a laptop not yet on the Wi-Fi sets the public address to
    127.0.0.1 itself: every page that prints links says so, with what to do, whatever host
    the TD opened it at."""
    settings.PUBLIC_URL = public
    settings.ALLOWED_HOSTS = ["*"]
    urls = {
        **pages(table),
        "stations": reverse("td:station_cards", args=[table.level.tournament_id]),
    }
    host = public.removeprefix("http://")
    for opened_at in ("127.0.0.1:8000", "192.168.1.20:8000"):
        html = td_client.get(urls[page], HTTP_HOST=opened_at).content.decode()
        assert WARNING in html
        assert f"start with {host}," in html
        assert NO_NETWORK in html
        assert "join the Wi-Fi or start a hotspot" in html
        if page != "stations":  # station cards print nothing before a station is made
            assert html.index(WARNING) < html.index(f"{host}/")


def test_the_warning_without_a_public_address_says_how_to_set_one(td_client, table, settings):
    settings.PUBLIC_URL = ""
    html = td_client.get(pages(table)["cards"], HTTP_HOST="127.0.0.1:8000").content.decode()
    assert "serve the site with make venue" in html
    assert NO_NETWORK not in html


def test_the_warning_speaks_swedish(td_client, table, settings):
    settings.PUBLIC_URL = ""
    td_client.cookies["django_language"] = "sv"
    html = td_client.get(pages(table)["cards"], HTTP_HOST="127.0.0.1:8000").content.decode()
    assert WARNING_SV in html


@pytest.mark.parametrize(
    ("host", "unreachable"),
    [
        ("127.0.0.1:8000", True),
        ("127.1.2.3", True),
        ("localhost", True),
        ("td.localhost:8000", True),
        ("[::1]:8000", True),
        ("0.0.0.0:8000", True),
        ("169.254.10.20:8000", True),
        ("[fe80::1]:8000", True),
        ("192.168.1.20:8000", False),
        ("10.0.0.5", False),
        ("sm.example.se", False),
        ("[fd00::2]:8000", False),
    ],
)
def test_which_hosts_no_phone_can_reach(settings, host, unreachable):
    settings.PUBLIC_URL = ""
    settings.ALLOWED_HOSTS = ["*"]
    request = RequestFactory().get("/", HTTP_HOST=host)
    assert unreachable_host(request) == (host if unreachable else None)


def test_a_reachable_public_address_is_never_unreachable_and_prefixes_paths(settings):
    settings.PUBLIC_URL = "https://sm.example.se"
    request = RequestFactory().get("/", HTTP_HOST="127.0.0.1:8000")
    assert unreachable_host(request) is None
    assert public_link(request, "/t/3/") == "https://sm.example.se/t/3/"


@pytest.mark.parametrize(
    ("public", "host"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000"),
        ("http://localhost:8000", "localhost:8000"),
        ("http://[::1]:8000", "[::1]:8000"),
        ("http://169.254.10.20:8000", "169.254.10.20:8000"),
        ("http://0.0.0.0:8000", "0.0.0.0:8000"),
    ],
)
def test_a_public_address_on_this_machine_alone_is_unreachable(settings, public, host):
    settings.PUBLIC_URL = public
    request = RequestFactory().get("/", HTTP_HOST="192.168.1.20:8000")
    assert unreachable_host(request) == host


@pytest.mark.parametrize(
    ("value", "kept"),
    [
        ("", ""),
        ("http://192.168.1.20:8000", "http://192.168.1.20:8000"),
        ("https://sm.example.se/", "https://sm.example.se"),
        ("  https://sm.example.se/pofc/  ", "https://sm.example.se/pofc"),
    ],
)
def test_the_public_address_setting_is_read(monkeypatch, value, kept):
    monkeypatch.setenv("DJANGO_PUBLIC_URL", value)
    assert public_url("DJANGO_PUBLIC_URL") == kept


@pytest.mark.parametrize(
    "value", ["192.168.1.20:8000", "ftp://host", "http://", "https://x.se/?a=1", "http://x.se/#t"]
)
def test_a_public_address_that_is_no_site_address_stops_the_start(monkeypatch, value):
    monkeypatch.setenv("DJANGO_PUBLIC_URL", value)
    with pytest.raises(ImproperlyConfigured, match="DJANGO_PUBLIC_URL"):
        public_url("DJANGO_PUBLIC_URL")
