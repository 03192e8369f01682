"""The base UI shell: htmx from static, CSRF for htmx, languages, TD login."""

import re

import pytest
from django.core.management import call_command
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_home_loads_vendored_htmx_and_sends_csrf_with_htmx(client):
    response = client.get(reverse("public:home"))
    assert response.status_code == 200
    html = response.content.decode()
    assert '<script src="/static/vendor/htmx-2.0.11.min.js"' in html
    # Every script and stylesheet from the app's own static files: no CDN (the venue's
    # Wi-Fi may have no internet), or inline. Looked for in the tags alone: a CSRF token is
    # random text, and once held "cdn".
    loaded = re.findall(r'<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]*)"', html)
    assert loaded and all(url.startswith(("/static/", "data:")) for url in loaded), loaded
    token = re.search(r"hx-headers='\{\"X-CSRFToken\": \"([^\"]+)\"\}'", html)
    assert token and len(token.group(1)) >= 32


def test_vendored_htmx_file_is_served(client, settings):
    from django.contrib.staticfiles import finders

    path = finders.find("vendor/htmx-2.0.11.min.js")
    assert path is not None
    with open(path) as fh:
        assert "htmx" in fh.read(2000)


def test_htmx_post_with_csrf_header_passes_csrf(td_user):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    page = client.get(reverse("public:home")).content.decode()
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
    response = client.post(
        reverse("set_language"),
        {"language": "sv", "next": "/"},
        headers={"X-CSRFToken": token, "HX-Request": "true"},
    )
    assert response.status_code == 302
    refused = Client(enforce_csrf_checks=True).post(reverse("set_language"), {"language": "sv"})
    assert refused.status_code == 403


def test_language_switch_to_swedish_and_back(client):
    response = client.post(reverse("set_language"), {"language": "sv", "next": "/"})
    assert response.status_code == 302
    html = client.get(reverse("public:home")).content.decode()
    assert '<html lang="sv">' in html
    assert "TL-inloggning" in html
    assert 'value="en"' in html  # the switch now offers English
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert "TD login" in client.get(reverse("public:home")).content.decode()


def test_td_dashboard_requires_login(client):
    response = client.get(reverse("td:dashboard"))
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/td/"


def test_td_dashboard_refuses_non_staff(client, outsider):
    client.force_login(outsider)
    assert client.get(reverse("td:dashboard")).status_code == 403


def test_td_dashboard_for_staff(td_client):
    response = td_client.get(reverse("td:dashboard"))
    assert response.status_code == 200
    assert "Logged in as director." in response.content.decode()


def test_demo_setup_creates_a_td_who_can_log_in(client, capsys):
    call_command("demo_setup", "--no-demo-tournaments")
    printed = capsys.readouterr().out
    assert "username 'td', password 'pineapple-demo'" in printed
    response = client.post(
        reverse("login"), {"username": "td", "password": "pineapple-demo", "next": "/td/"}
    )
    assert response.status_code == 302 and response["Location"] == "/td/"
    assert client.get("/td/").status_code == 200


def test_wrong_password_shows_error_on_login_page(client):
    call_command("demo_setup", "--no-demo-tournaments")
    response = client.post(reverse("login"), {"username": "td", "password": "nope"})
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()
