"""axe-core over every page of the TD and of the players in English, in each state of
tests/browser/axe_scenes.py (the walk: tests/browser/axe_walk.py; what it must visit, and
why: test_axe_every_page_browser.py). A file of its own per language, so that the two walks,
the suite's longest tests, run side by side on two workers (`--dist loadfile`)."""

import pytest

from tests.browser import axe_walk
from tests.browser.test_axe_every_page_browser import CHECKED

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en"])
def test_every_page_passes_axe(chromium_browser, live_server, td_user, language):
    walk = axe_walk.every_page(chromium_browser, live_server, td_user, language)
    assert not walk.failures, "\n\n".join(walk.failures)
    assert walk.visited == CHECKED
