"""The estimated ends the players see (issue 19 §1): the level's on the big screen, a
table's on its public page, as clock times, in English and Swedish. The room and its
figures (worked out by hand) are those of test_td_dashboard_pace."""

from unittest import mock

import pytest
from django.urls import reverse

from tests.tournament.views.test_td_dashboard_pace import at, room, tables_of  # noqa: F401
from tournament.live import kept
from tournament.models import Hand

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    kept.forget_kept()  # pages are kept per token: each test sees its own rendering
    yield
    kept.forget_kept()


def get(client, url, clock="12:40", language=None):
    if language:
        client.cookies["django_language"] = language
    with mock.patch("django.utils.timezone.now", return_value=at(clock)):
        response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def projector(tournament):
    return reverse("public:tables_projector", args=[tournament.pk])


def table_page(tournament, number):
    return reverse("public:table", args=[tournament.pk, tables_of(tournament)[number].pk])


def test_the_big_screen_shows_the_levels_end(client, room):  # noqa: F811
    assert "This level ends about 13:48–14:04" in get(client, projector(room))


def test_the_big_screen_in_swedish(client, room):  # noqa: F811
    assert "Nivån slutar omkring 13:48–14:04" in get(client, projector(room), language="sv")


def test_no_level_end_while_a_table_has_too_few_hands(client, room):  # noqa: F811
    Hand.objects.filter(table=tables_of(room)[2], number=1).update(created_at=at("12:00"))
    assert "ends about" not in get(client, projector(room))
    # Table 1 still has its own estimate: only the level's waits for table 2.
    assert "This table ends about 13:06–13:20" in get(client, table_page(room, 1))


def test_a_tables_page_shows_its_own_end(client, room):  # noqa: F811
    assert "This table ends about 13:06–13:20" in get(client, table_page(room, 1))
    kept.forget_kept()  # the hands' times were moved behind the services' back
    assert "This table ends about 13:48–14:04" in get(client, table_page(room, 3))
    kept.forget_kept()  # the hands' times were moved behind the services' back
    swedish = get(client, table_page(room, 1), language="sv")
    assert "Bordet slutar omkring 13:06–13:20" in swedish


def test_no_table_end_before_enough_hands(client, room):  # noqa: F811
    Hand.objects.filter(table=tables_of(room)[2], number=1).update(created_at=at("12:00"))
    assert "ends about" not in get(client, table_page(room, 2))
    # Before the pause was set, the same table had one: 12:38 + 16 x 2 min = 13:10.
    Hand.objects.filter(table=tables_of(room)[2], number=1).update(created_at=at("12:32"))
    kept.forget_kept()  # the hands' times were moved behind the services' back
    # Both ends the same minute: one time, not "13:10–13:10".
    page = get(client, table_page(room, 2))
    assert "This table ends about 13:10<" in page and "13:10–13:10" not in page
    kept.forget_kept()  # the hands' times were moved behind the services' back
    page = get(client, table_page(room, 2), language="sv")
    assert "Bordet slutar omkring 13:10<" in page and "13:10–13:10" not in page
