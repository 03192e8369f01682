"""The TD's words are the TD's: the players' pages and big screens show that a hand was
corrected (and its versions) and that the TD settled a tie, never the reason; nor a penalty's
note or why it was rescinded. The TD's table page shows all of them."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.browser import public_scenes
from tests.browser.public_scenes import (
    HAND_REASON,
    PENALTY_NOTE,
    RESCIND_REASON,
    TD_NOTES,
    TIE_REASON,
)
from tournament.models import Table

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def every_public_answer(client, scene):
    """Every public page of the scene, whole and as the region a poll gets, and the score
    card of every table of the tournament, with the URL each came from."""
    urls = dict(scene.public_urls())
    for table in Table.objects.filter(level__tournament=scene.tournament):
        urls[f"table {table.pk}"] = reverse("public:table", args=[scene.tournament.pk, table.pk])
    for name, url in urls.items():
        for headers in ({}, HTMX):
            response = client.get(url, headers=headers)
            assert response.status_code == 200, url
            yield name, response.content.decode()


@pytest.mark.parametrize("build", [public_scenes.in_play, public_scenes.finished])
def test_no_public_page_shows_what_the_td_wrote(client, td_user, build):
    scene = build(td_user)
    for name, body in every_public_answer(client, scene):
        for note in TD_NOTES:
            assert note not in body, f"{name} shows {note!r}"
        assert "TD-NOTE" not in body, name
        assert "Reason:" not in body, name


def test_the_public_card_still_shows_that_a_hand_was_corrected_and_its_versions(client, td_user):
    scene = public_scenes.in_play(td_user)
    body = client.get(reverse("public:table", args=[scene.tournament.pk, scene.table.pk]))
    body = body.content.decode()
    assert "History of hand 1 (2 versions)" in body
    assert "Version 1" in body and "Version 2" in body
    assert "version 2" in body  # the badge on the hand's line


def test_the_public_card_says_the_td_settled_the_tie_without_the_reason(client, td_user):
    scene = public_scenes.finished(td_user)
    body = client.get(reverse("public:table", args=[scene.tournament.pk, scene.table.pk]))
    name = scene.player.name  # the winner the TD chose
    assert f"The tie for first was settled by the TD for {name}." in body.content.decode()


def test_the_tds_table_page_still_shows_every_reason_and_note(td_client, td_user):
    scene = public_scenes.in_play(td_user)
    body = td_client.get(reverse("td:table", args=[scene.tournament.pk, scene.table.pk]))
    body = body.content.decode()
    for note in (HAND_REASON, PENALTY_NOTE, RESCIND_REASON):
        assert note in body
    scene = public_scenes.finished(td_user)
    body = td_client.get(reverse("td:table", args=[scene.tournament.pk, scene.table.pk]))
    assert f"{scene.player.name}: {TIE_REASON}" in body.content.decode()


def test_the_public_score_card_does_not_even_read_the_tds_words(client, td_user):
    """Not read, so that no template slip can show them: the reasons' and notes' columns are
    in none of the public table page's queries (they are in the TD's)."""
    scene = public_scenes.in_play(td_user)
    columns = (
        '"tournament_handversion"."reason"',
        '"tournament_tiesettlement"."reason"',
        '"tournament_penalty"."note"',
        '"tournament_penalty"."rescind_reason"',
        '"tournament_tablecall"."note"',
        '"tournament_draw"."reason"',
    )
    public = reverse("public:table", args=[scene.tournament.pk, scene.table.pk])
    player = reverse("public:player", args=[scene.tournament.pk, scene.player.pk])
    for url in (public, player):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        sql = " ".join(query["sql"] for query in queries.captured_queries)
        assert "tournament_penalty" in sql  # the penalties are read, their notes are not
        for column in columns:
            assert column not in sql, (url, column)
    client.force_login(td_user)
    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("td:table", args=[scene.tournament.pk, scene.table.pk]))
    sql = " ".join(query["sql"] for query in queries.captured_queries)
    assert '"tournament_handversion"."reason"' in sql  # what the check looks for is real
