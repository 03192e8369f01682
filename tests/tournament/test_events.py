"""A change of state announces itself once it commits (tournament/events.py): a change
rolled back announces nothing, and a receiver that fails never fails the change."""

import pytest
from django.db import transaction

from tournament import events
from tournament.services import registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard():
    """What a receiver of `renamed` was told, in order."""
    told = []

    def receiver(**facts):
        told.append(facts)

    events.renamed.connect(receiver)
    yield told
    events.renamed.disconnect(receiver)


def test_a_rename_is_announced_once_it_commits_not_before(
    make_tournament, td_user, heard, django_capture_on_commit_callbacks
):
    tournament = make_tournament(players=3, name="Spring Open")
    with django_capture_on_commit_callbacks(execute=True):
        registration.rename_tournament(tournament=tournament, actor=td_user, name="Spring Cup")
        assert heard == []  # inside the change's transaction: nothing yet
    assert heard == [{"tournament_id": tournament.pk, "old_name": "Spring Open"}]


def test_a_change_rolled_back_announces_nothing(
    make_tournament, td_user, heard, django_capture_on_commit_callbacks
):
    tournament = make_tournament(players=3, name="Spring Open")
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        registration.rename_tournament(tournament=tournament, actor=td_user, name="Cup")
        raise RuntimeError("the caller's transaction fails after the rename")
    assert heard == [] and callbacks == []
    tournament.refresh_from_db()
    assert tournament.name == "Spring Open"


def test_a_receiver_that_fails_never_fails_the_change(
    make_tournament, td_user, heard, django_capture_on_commit_callbacks, caplog
):
    def full_disk(**facts):
        raise OSError(28, "No space left on device")

    tournament = make_tournament(players=3, name="Spring Open")
    events.renamed.connect(full_disk)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            registration.rename_tournament(tournament=tournament, actor=td_user, name="Cup")
    finally:
        events.renamed.disconnect(full_disk)
    tournament.refresh_from_db()
    assert tournament.name == "Cup"
    assert heard == [{"tournament_id": tournament.pk, "old_name": "Spring Open"}]
    assert "No space left on device" in caplog.text


def test_a_receiver_that_wants_nothing_leaves_nothing_to_run(
    make_tournament, td_user, django_capture_on_commit_callbacks
):
    told = []

    def receiver(**facts):
        told.append(facts)

    tournament = make_tournament(players=3, name="Spring Open")
    events.renamed.connect(receiver, wanted=lambda **facts: False)
    try:
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            registration.rename_tournament(tournament=tournament, actor=td_user, name="Cup")
    finally:
        events.renamed.disconnect(receiver)
    assert told == [] and callbacks == []  # tests run without an automatic backup folder
