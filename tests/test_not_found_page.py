"""A page that is not there, in the visitor's language, with the way to every tournament
(a Swedish phone got Django's English "Not Found")."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/t/999/", "/t/999/table/1/", "/no-such-page/"])
def test_a_missing_page_says_so_in_english(client, path):
    response = client.get(path)
    assert response.status_code == 404
    page = response.content.decode()
    assert "<h1>Page not found</h1>" in page
    assert '<a href="/">Every tournament</a>' in page


def test_a_missing_page_says_so_in_swedish(client):
    response = client.get("/t/999/", headers={"Accept-Language": "sv"})
    assert response.status_code == 404
    page = response.content.decode()
    assert "<h1>Sidan finns inte</h1>" in page and "Not Found" not in page
    assert '<a href="/">Alla turneringar</a>' in page
