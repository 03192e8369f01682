"""`manage.py demo_setup` adds a finished and an unfinished tournament to an empty database,
and prints the unfinished one's revisor links on every run."""

import functools
import io
import re

import pytest
from django.core.management import call_command

from tournament.demo import autoplay
from tournament.management.commands import demo_setup
from tournament.models import Table, Tournament

pytestmark = pytest.mark.django_db


def test_the_in_play_demo_stops_where_its_links_open_3_handed_tables(client):
    """The real demo (its sizes and 20 hands a table): 18 players make six tables of 3 in
    level 1, whose six winners make two tables of 3 in level 2, the level in play."""
    out = run_demo_setup()
    in_play = Tournament.objects.get(name="Demo SM 2026 (in play)")
    level = in_play.levels.get(closed_at__isnull=True)
    assert level.number == 2
    tables = Table.objects.current().filter(level=level).order_by("number")
    assert [table.seats.count() for table in tables] == [3, 3]
    links = re.findall(r"http://127\.0\.0\.1:8000(/r/[^/ ]+/)  code", out)
    assert sorted(links) == sorted(f"/r/{table.revisor_key}/" for table in tables)
    for link in links:
        device = client.__class__()
        card = device.get(link, follow=True).context["card"]
        assert len(card.seats) == 3 and len(card.playing) == 3  # no one disqualified
        assert card.table.level.tournament_id == in_play.pk


@pytest.fixture
def small_demo(monkeypatch):
    """Smaller fields and tables than the real demo, to keep the tests quick."""
    monkeypatch.setattr(demo_setup, "DEMO_TOURNAMENTS", (("Finished", 5, None), ("In play", 7, 1)))
    monkeypatch.setattr(demo_setup, "simulate", functools.partial(autoplay.simulate, min_hands=4))


def run_demo_setup():
    out = io.StringIO()
    call_command("demo_setup", stdout=out)
    return out.getvalue()


def test_an_empty_database_gets_one_finished_and_one_unfinished_tournament(small_demo):
    run_demo_setup()
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


def revisor_lines(tournament):
    """What the output must say of each open table: its link and its short code."""
    tables = Table.objects.open().filter(level__tournament=tournament).order_by("number")
    return [
        f"http://127.0.0.1:8000/r/{table.revisor_key}/  code {table.revisor_code}"
        for table in tables
    ]


def test_the_in_play_tournaments_revisor_links_are_printed_after_the_login(small_demo):
    out = run_demo_setup()
    in_play = Tournament.objects.get(name="In play")
    # 7 players: level 1 had tables of 3, 2 and 2; level 2 seats the 3 winners at one table.
    (line,) = revisor_lines(in_play)
    assert out.index("Demo TD login") < out.index(line)
    assert f"In play: the TD's live dashboard is http://127.0.0.1:8000/td/{in_play.pk}/" in out
    assert "go to http://127.0.0.1:8000/r/ and type the table's code" in out
    names = ", ".join(
        Table.objects.open()
        .get(level__tournament=in_play)
        .seats.order_by("position")
        .values_list("player__name", flat=True)
    )
    assert f"  Level 2 table 1 ({names}):\n    {line}\n" in out
    finished = Tournament.objects.get(name="Finished")
    assert not any(
        table.revisor_key in out for table in Table.objects.filter(level__tournament=finished)
    )


def test_the_links_are_printed_again_when_the_demo_exists_already(small_demo):
    run_demo_setup()
    out = run_demo_setup()
    assert "no demo tournaments added" in out
    assert Tournament.objects.count() == 2
    lines = revisor_lines(Tournament.objects.get(name="In play"))
    assert lines and all(line in out for line in lines)


def test_no_links_without_the_demo_tournament(make_tournament, small_demo):
    make_tournament(players=2, name="Real one")
    out = run_demo_setup()
    assert "/r/" not in out and "Revisor links" not in out


def test_the_links_name_the_address_make_run_serves_on(small_demo):
    """`PORT=8001 make run` passes its address: the login and every link name port 8001."""
    out = io.StringIO()
    call_command("demo_setup", "--address", "http://127.0.0.1:8001", stdout=out)
    out = out.getvalue()
    in_play = Tournament.objects.get(name="In play")
    assert "Open http://127.0.0.1:8001/ and log in at http://127.0.0.1:8001/accounts/login/" in out
    assert f"dashboard is http://127.0.0.1:8001/td/{in_play.pk}/" in out
    (table,) = Table.objects.open().filter(level__tournament=in_play)
    assert f"http://127.0.0.1:8001/r/{table.revisor_key}/  code {table.revisor_code}" in out
    assert "8000" not in out
