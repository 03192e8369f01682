"""A level's draws as the TD's level page reads them: what is locked, what can close."""

import pytest

from tests.tournament.conftest import play
from tournament.selectors.draws import level_page
from tournament.services import draws

pytestmark = pytest.mark.django_db


def test_a_draw_locks_with_its_first_hand_and_the_level_closes_when_all_are_over(
    make_tournament, td_user, django_assert_num_queries
):
    tournament = make_tournament(3, min_hands=1)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="s")
    with django_assert_num_queries(3):
        page = level_page(tournament, level)
    assert (page.started, page.locked, page.can_advance, page.history) == (False, False, False, [])
    play(level.tables.get(), 2, -1, -1)  # the one hand the table must play: it is over
    page = level_page(tournament, level)
    assert (page.started, page.locked, page.can_advance) == (True, True, True)
