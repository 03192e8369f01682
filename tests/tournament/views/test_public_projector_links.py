"""A projector view has no navigation: every link to one, on the players' and the TD's pages,
opens it in a new tab (and without a handle on the page it came from), so that the TD is never
stranded on it."""

import re

import pytest
from django.urls import reverse

from tests.browser import public_scenes

pytestmark = pytest.mark.django_db

LINK = re.compile(r"<a\s[^>]*>", re.S)


def projector_links(html):
    """The opening tags of the page's links to a projector view."""
    return [tag for tag in LINK.findall(html) if "/projector/" in tag]


def opens_in_a_new_tab(tag):
    rel = re.search(r'\srel="([^"]*)"', tag)
    return ' target="_blank"' in tag and rel is not None and "noopener" in rel.group(1).split()


@pytest.mark.parametrize(
    "build, on_dashboard",
    [
        (public_scenes.in_play, 3),  # the seating, the public tables and standings
        (public_scenes.finished, 4),  # and the TD's standings
    ],
)
def test_every_link_to_a_projector_view_opens_in_a_new_tab(client, td_user, build, on_dashboard):
    scene = build(td_user)
    pk = scene.tournament.pk
    pages = {
        # page: how many links to projector views it has
        reverse("public:tournament", args=[pk]): 2,  # the tables and the standings
        reverse("td:tournament", args=[pk]): on_dashboard,
        reverse("td:level", args=[pk, 1]): 1,  # the seating
        reverse("td:standings", args=[pk]): 1,  # the TD's standings
    }
    client.force_login(td_user)
    for url, count in pages.items():
        response = client.get(url)
        assert response.status_code == 200, url
        links = projector_links(response.content.decode())
        assert len(links) == count, (url, links)
        for tag in links:
            assert opens_in_a_new_tab(tag), (url, tag)
        assert "(opens in a new tab)" in response.content.decode(), url
