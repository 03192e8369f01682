"""Login throttling (django-axes): too many wrong passwords lock a username out from
one address for a while, with a clear page; the state lives in the database."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "td-pass-123"  # td_user's, from tests/conftest.py


def attempt(client, password, username="director", **extra):
    return client.post(
        reverse("login"), {"username": username, "password": password, "next": "/td/"}, **extra
    )


def test_the_limit_and_cool_off_are_the_documented_defaults():
    assert settings.AXES_FAILURE_LIMIT == 5
    assert timedelta(minutes=15) == settings.AXES_COOLOFF_TIME
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert settings.AXES_HANDLER == "axes.handlers.database.AxesDatabaseHandler"


def test_fifty_wrong_passwords_lock_out_then_even_the_right_one_is_refused(client, td_user):
    limit = settings.AXES_FAILURE_LIMIT
    statuses = [attempt(client, f"wrong-{n}").status_code for n in range(50)]
    # Before the limit: the login page with its error; from the limit on: locked out.
    assert statuses[: limit - 1] == [200] * (limit - 1)
    assert statuses[limit - 1 :] == [429] * (50 - limit + 1)

    response = attempt(client, PASSWORD)
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("td:dashboard")).status_code == 302  # still not logged in


def test_the_lockout_page_is_a_real_page_that_says_what_to_do(client, td_user):
    for n in range(settings.AXES_FAILURE_LIMIT):
        response = attempt(client, f"wrong-{n}")
    assert response.status_code == 429
    html = response.content.decode()
    assert '<header class="site-header">' in html  # extends base.html
    assert "<h1>Too many login attempts</h1>" in html
    assert "paused for 15 min." in html
    assert "Wait and try again, or ask the TD to unlock it." in html
    assert 'href="/accounts/login/"' in html


def test_the_lockout_page_speaks_swedish(client, td_user):
    client.post(reverse("set_language"), {"language": "sv", "next": "/"})
    for n in range(settings.AXES_FAILURE_LIMIT):
        response = attempt(client, f"fel-{n}")
    assert response.status_code == 429
    html = response.content.decode()
    assert '<html lang="sv">' in html
    assert "<h1>För många inloggningsförsök</h1>" in html
    assert "pausad i 15 min." in html
    assert "Vänta och försök igen, eller be TL att låsa upp det." in html


def test_another_username_from_the_same_address_is_not_locked(client, td_user, django_user_model):
    django_user_model.objects.create_user("deputy", password="deputy-pass-7", is_staff=True)
    for n in range(settings.AXES_FAILURE_LIMIT + 3):
        attempt(client, f"wrong-{n}")
    assert attempt(client, PASSWORD).status_code == 429
    response = attempt(client, "deputy-pass-7", username="deputy")
    assert response.status_code == 302 and response["Location"] == "/td/"


def test_the_same_username_from_another_address_is_not_locked(client, td_user):
    for n in range(settings.AXES_FAILURE_LIMIT):
        attempt(client, f"wrong-{n}", REMOTE_ADDR="203.0.113.7")
    assert attempt(client, PASSWORD, REMOTE_ADDR="203.0.113.7").status_code == 429
    response = attempt(Client(), PASSWORD, REMOTE_ADDR="198.51.100.20")
    assert response.status_code == 302


def test_the_right_password_before_the_limit_logs_in_and_clears_the_count(client, td_user):
    limit = settings.AXES_FAILURE_LIMIT
    for n in range(limit - 1):
        assert attempt(client, f"wrong-{n}").status_code == 200
    response = attempt(client, PASSWORD)
    assert response.status_code == 302 and response["Location"] == "/td/"
    assert client.get(reverse("td:dashboard")).status_code == 200
    client.post(reverse("logout"))
    # AXES_RESET_ON_SUCCESS: the earlier failures no longer count.
    for n in range(limit - 1):
        assert attempt(client, f"again-{n}").status_code == 200
    assert attempt(client, PASSWORD).status_code == 302


def test_after_the_cool_off_the_right_password_works_again(client, td_user):
    for n in range(settings.AXES_FAILURE_LIMIT + 2):
        attempt(client, f"wrong-{n}")
    assert attempt(client, PASSWORD).status_code == 429
    # The state is in the database: age it past the cool-off as time would.
    past = settings.AXES_COOLOFF_TIME + timedelta(minutes=1)
    for row in AccessAttempt.objects.all():
        row.attempt_time -= past
        row.save(update_fields=["attempt_time"])
    response = attempt(client, PASSWORD)
    assert response.status_code == 302 and response["Location"] == "/td/"


def test_failures_are_counted_in_the_database_without_the_password(client, td_user):
    for n in range(3):
        attempt(client, f"secret-guess-{n}")
    row = AccessAttempt.objects.get(username="director")
    assert row.failures_since_start == 3
    assert row.ip_address == "127.0.0.1"
    assert "secret-guess" not in row.post_data


def test_direct_clients_cannot_dodge_the_lockout_with_a_forged_forwarded_for(client, td_user):
    assert settings.PROXY_COUNT == 0
    for n in range(settings.AXES_FAILURE_LIMIT):
        attempt(client, f"wrong-{n}", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}")
    response = attempt(client, PASSWORD, HTTP_X_FORWARDED_FOR="10.9.9.9")
    assert response.status_code == 429


def test_behind_a_proxy_the_client_address_comes_from_forwarded_for(client, td_user, settings):
    settings.PROXY_COUNT = 1
    proxy = {"REMOTE_ADDR": "10.0.0.2"}  # every request arrives from the proxy
    for n in range(settings.AXES_FAILURE_LIMIT):
        # Whatever the client forged on the left, the proxy appended the real address.
        forged = f"192.0.2.{n}, 203.0.113.7"
        attempt(client, f"wrong-{n}", HTTP_X_FORWARDED_FOR=forged, **proxy)
    assert attempt(client, PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.7", **proxy).status_code == 429
    assert AccessAttempt.objects.get().ip_address == "203.0.113.7"
    # Another client behind the same proxy is not locked out.
    other = attempt(Client(), PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.20", **proxy)
    assert other.status_code == 302


@pytest.mark.parametrize(
    ("proxy_count", "remote_addr", "forwarded_for", "expected"),
    [
        (0, "203.0.113.7", None, "203.0.113.7"),
        (0, "203.0.113.7", "10.1.1.1", "203.0.113.7"),  # a direct client's header is ignored
        (1, "10.0.0.2", "203.0.113.7", "203.0.113.7"),
        (1, "10.0.0.2", "1.2.3.4, 203.0.113.7", "203.0.113.7"),  # the forged left part is not used
        (2, "10.0.0.2", "1.2.3.4,203.0.113.7 , 10.0.0.9", "203.0.113.7"),
        (2, "10.0.0.2", "203.0.113.7", "203.0.113.7"),
        (1, "10.0.0.2", None, "10.0.0.2"),
    ],
)
def test_client_ip_trusts_only_as_many_forwarded_entries_as_proxies(
    rf, settings, proxy_count, remote_addr, forwarded_for, expected
):
    from config.security import client_ip

    settings.PROXY_COUNT = proxy_count
    headers = {"REMOTE_ADDR": remote_addr}
    if forwarded_for is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded_for
    assert client_ip(rf.post("/accounts/login/", **headers)) == expected
