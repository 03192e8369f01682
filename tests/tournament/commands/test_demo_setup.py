"""`manage.py demo_setup` adds a finished and an unfinished tournament to an empty database."""

import functools
import io

import pytest
from django.core.management import call_command

from tournament import autoplay
from tournament.management.commands import demo_setup
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def test_the_demo_tournaments_are_the_finished_9_and_the_12_in_play():
    assert demo_setup.DEMO_TOURNAMENTS == (
        ("Demo SM 2026 (finished)", 9, None),
        ("Demo SM 2026 (in play)", 12, 1),
    )


def test_an_empty_database_gets_one_finished_and_one_unfinished_tournament(monkeypatch):
    # Smaller fields and tables than the real demo, to keep the test quick.
    monkeypatch.setattr(demo_setup, "DEMO_TOURNAMENTS", (("Finished", 5, None), ("In play", 7, 1)))
    monkeypatch.setattr(demo_setup, "simulate", functools.partial(autoplay.simulate, min_hands=4))
    call_command("demo_setup", stdout=io.StringIO())
    finished, in_play = (Tournament.objects.get(name=n) for n in ("Finished", "In play"))
    assert finished.finished_at is not None and finished.champion is not None
    assert in_play.finished_at is None
    assert [level.closed_at is not None for level in in_play.levels.order_by("number")] == [
        True,
        False,
    ]
    assert finished.created_by.username == demo_setup.DEMO_USERNAME


def test_no_demo_tournaments_when_any_tournament_exists(make_tournament):
    make_tournament(players=2, name="Real one")
    out = io.StringIO()
    call_command("demo_setup", stdout=out)
    assert list(Tournament.objects.values_list("name", flat=True)) == ["Real one"]
    assert "no demo tournaments added" in out.getvalue()
