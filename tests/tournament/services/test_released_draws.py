"""Released draws (issue 19 §5): a new draw is the TD's until released, unless the
tournament releases each draw at once (the default, as before)."""

import pytest

from tests.tournament.conftest import play
from tournament.audit.sentences import sentence
from tournament.errors import NotAllowed
from tournament.models import AuditEntry, Draw, Table, Tournament
from tournament.services import draws

pytestmark = pytest.mark.django_db


def held(make_tournament, players=4):
    tournament = make_tournament(players)
    Tournament.objects.filter(pk=tournament.pk).update(release_draws_at_once=False)
    tournament.refresh_from_db()
    return tournament


def test_by_default_a_draw_is_released_when_it_is_made(make_tournament, td_user):
    level = draws.draw_first_level(tournament=make_tournament(4), actor=td_user)
    assert Draw.objects.get(level=level).released_at is not None
    play(Table.objects.get(level=level, number=1), 3, -3)  # hands go on as before


def test_a_held_draw_waits_for_the_release(make_tournament, td_user):
    tournament = held(make_tournament)
    level = draws.draw_first_level(tournament=tournament, actor=td_user)
    assert Draw.objects.get(level=level).released_at is None


def test_no_hand_is_recorded_at_an_unreleased_table(make_tournament, td_user):
    level = draws.draw_first_level(tournament=held(make_tournament), actor=td_user)
    table = Table.objects.get(level=level, number=1)
    with pytest.raises(NotAllowed, match="not released yet"):
        play(table, 3, -3)
    table.refresh_from_db()
    assert table.hands_played == 0 and not table.hands.exists()


def test_release_shows_the_draw_bumps_the_revision_and_is_audited(make_tournament, td_user):
    tournament = held(make_tournament)
    level = draws.draw_first_level(tournament=tournament, actor=td_user)
    revision = Tournament.objects.get(pk=tournament.pk).revision
    draws.release_draw(level=level, actor=td_user)
    assert Draw.objects.get(level=level).released_at is not None
    assert Tournament.objects.get(pk=tournament.pk).revision == revision + 1
    entry = AuditEntry.objects.get(action="draw.release")
    assert entry.actor == td_user and entry.params == {"level": 1, "draw": 1}
    assert sentence(entry) == "Released the seating of level 1 (draw 1)"
    play(Table.objects.get(level=level, number=1), 3, -3)


def test_a_draw_is_released_once(make_tournament, td_user):
    level = draws.draw_first_level(tournament=held(make_tournament), actor=td_user)
    draws.release_draw(level=level, actor=td_user)
    with pytest.raises(NotAllowed, match="released already"):
        draws.release_draw(level=level, actor=td_user)
    assert AuditEntry.objects.filter(action="draw.release").count() == 1


def test_a_redo_of_a_held_draw_is_held_again(make_tournament, td_user):
    level = draws.draw_first_level(tournament=held(make_tournament), actor=td_user)
    draws.release_draw(level=level, actor=td_user)
    draws.redraw_level(level=level, actor=td_user, reason="Wrong list")
    assert Draw.objects.current().get(level=level).released_at is None


def test_the_next_level_of_a_held_tournament_is_held(make_tournament, td_user):
    level = draws.draw_first_level(tournament=held(make_tournament), actor=td_user)
    draws.release_draw(level=level, actor=td_user)
    for table in Table.objects.filter(level=level):
        for _ in range(table.required_hands):
            play(table, 1, -1)
    tournament = level.tournament
    nxt = draws.advance(tournament=tournament, actor=td_user)
    assert nxt.number == 2 and Draw.objects.get(level=nxt).released_at is None


def test_a_backup_keeps_a_held_draw_held_and_the_setting(make_tournament, td_user):
    import json

    from tournament.backups import export_tournament, import_tournament

    tournament = held(make_tournament)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="one")
    draws.release_draw(level=level, actor=td_user)
    draws.redraw_level(level=level, actor=td_user, reason="Wrong list", seed="two")
    data = json.loads(json.dumps(export_tournament(tournament)))
    assert data["settings"]["release_draws_at_once"] is False
    assert [d["held"] for d in data["levels"][0]["draws"]] == [False, True]
    data["settings"]["name"] = "Copy"
    copy = import_tournament(data, actor=td_user)
    assert copy.release_draws_at_once is False
    old, new = Draw.objects.filter(level__tournament=copy).order_by("number")
    assert old.released_at == old.created_at and new.released_at is None
    # A file written before releases existed: every draw shown, each draw released at once.
    for draw in data["levels"][0]["draws"]:
        del draw["held"]
    del data["settings"]["release_draws_at_once"]
    data["settings"]["name"] = "Older"
    older = import_tournament(data, actor=td_user)
    assert older.release_draws_at_once is True
    assert not Draw.objects.filter(level__tournament=older, released_at__isnull=True).exists()
