"""The TD's self check-in: opened, closed and its code renewed on the players page; the
printable door sign with the code and a QR code of the public check-in page."""

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from tournament.models import AuditEntry, Tournament
from tournament.services import checkin, draws

pytestmark = pytest.mark.django_db


def url(name, tournament):
    return reverse(f"td:{name}", args=[tournament.pk])


def change(client, tournament, what, key=None):
    data = {"change": what, "submission_key": key or str(uuid.uuid4())}
    return client.post(url("self_check_in", tournament), data)


def fresh(tournament):
    return Tournament.objects.get(pk=tournament.pk)


def test_open_shows_the_code_and_the_sign(td_client, make_tournament):
    tournament = make_tournament(["Anna", "Bo"])
    page = td_client.get(url("players", tournament)).content.decode()
    assert "Closed: only you check players in." in page
    assert "Door sign (print)" not in page  # no code yet
    response = change(td_client, tournament, "open")
    assert response.status_code == 302
    assert response["Location"] == url("players", tournament) + "#self-check-in"
    code = fresh(tournament).check_in_code
    page = td_client.get(url("players", tournament)).content.decode()
    assert "Self check-in is open: players check themselves in with the door sign" in page
    assert f'<strong class="short-code">{code}</strong>' in page
    assert "Close self check-in" in page
    assert f'href="{url("check_in_sign", tournament)}"' in page


def test_close_and_renew(td_client, make_tournament):
    tournament = make_tournament(["Anna", "Bo"])
    change(td_client, tournament, "open")
    old = fresh(tournament).check_in_code
    change(td_client, tournament, "renew")
    assert fresh(tournament).check_in_code not in ("", old)
    change(td_client, tournament, "close")
    assert fresh(tournament).self_check_in_open is False
    page = td_client.get(url("players", tournament)).content.decode()
    assert "Self check-in is closed: only you can check players in." in page
    assert "Open self check-in" in page


def test_sent_twice_made_once(td_client, make_tournament):
    tournament = make_tournament(["Anna", "Bo"])
    key = str(uuid.uuid4())
    change(td_client, tournament, "renew", key=None)  # no code yet: one is made
    first = fresh(tournament).check_in_code
    renew = str(uuid.uuid4())
    change(td_client, tournament, "renew", key=renew)
    second = fresh(tournament).check_in_code
    change(td_client, tournament, "renew", key=renew)  # the same click sent again
    assert fresh(tournament).check_in_code == second != first
    page = td_client.get(url("players", tournament)).content.decode()
    assert "This form was already sent; nothing was changed again." in page
    change(td_client, tournament, "open", key=key)
    change(td_client, tournament, "open", key=key)
    assert AuditEntry.objects.filter(action="tournament.self_check_in").count() == 1
    assert AuditEntry.objects.filter(action="tournament.check_in_code").count() == 2


def test_bad_posts_change_nothing(td_client, make_tournament):
    tournament = make_tournament(["Anna", "Bo"])
    for data in ({}, {"change": "open"}, {"change": "shout", "submission_key": str(uuid.uuid4())}):
        response = td_client.post(url("self_check_in", tournament), data)
        assert response.status_code == 302
    assert fresh(tournament).self_check_in_open is False
    page = td_client.get(url("players", tournament)).content.decode()
    assert "This form is out of date (its key is missing)." in page
    assert td_client.get(url("self_check_in", tournament)).status_code == 302
    assert td_client.put(url("self_check_in", tournament)).status_code == 405


def test_after_the_draw_it_is_refused_and_gone(td_client, td_user, make_tournament):
    tournament = make_tournament(["Anna", "Bo"])
    change(td_client, tournament, "open")
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="a")
    change(td_client, tournament, "renew")
    page = td_client.get(url("players", tournament)).content.decode()
    assert "The first draw is made: check-in is closed." in page
    assert 'id="self-check-in"' not in page


def test_the_door_sign(td_client, make_tournament):
    tournament = make_tournament(["Anna", "Bo"], name="SM 2026")
    page = td_client.get(url("check_in_sign", tournament)).content.decode()
    assert "There is no check-in code yet: open self check-in on the players page first." in page
    assert "<svg" not in page
    change(td_client, tournament, "open")
    code = fresh(tournament).check_in_code
    page = td_client.get(url("check_in_sign", tournament)).content.decode()
    assert "Check in on your phone" in page
    assert f'<p class="door-sign-code short-code">{code}</p>' in page
    address = f"http://testserver/t/{tournament.pk}/check-in/"
    assert f'<p class="door-sign-address">{address}</p>' in page
    assert '<svg role="img"' in page and "QR code of the check-in page" in page
    # The QR code carries the code: a phone that scans it has nothing to type.
    assert checkin_link(td_client, tournament) == f"{address}?code={code}"
    change(td_client, tournament, "close")
    page = td_client.get(url("check_in_sign", tournament)).content.decode()
    assert "Self check-in is closed: the code on this sign checks no one in" in page


def checkin_link(client, tournament):
    from django.test import RequestFactory

    from tournament.views.td.check_in import check_in_link

    return check_in_link(RequestFactory().get("/"), fresh(tournament))


def test_owner_only(outsider, td_client, make_tournament):
    tournament = make_tournament(["Anna", "Bo"])
    client = Client()
    for name in ("check_in_sign", "self_check_in"):
        response = client.get(url(name, tournament))
        assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    response = change(client, tournament, "open")
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    client.force_login(outsider)
    assert client.get(url("check_in_sign", tournament)).status_code == 403
    assert change(client, tournament, "open").status_code == 403
    assert fresh(tournament).self_check_in_open is False
    assert td_client.get(reverse("td:check_in_sign", args=[99999])).status_code == 404
    assert checkin.self_check_in_open(fresh(tournament)) is False
