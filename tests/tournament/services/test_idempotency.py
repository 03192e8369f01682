"""The one idempotency mechanism (services/idempotency.py): a keyed change is made once,
the same submission sent again is answered with the first result, a key of another change
is refused and changes nothing, a refused change keeps no key."""

import threading
import uuid

import pytest
from django.db import connection, connections

from tests.tournament.conftest import play_named, single_table
from tournament.errors import InvalidEntry, KeyInUse
from tournament.models import (
    Announcement,
    FormSubmission,
    Penalty,
    Player,
    TableCall,
    Tournament,
)
from tournament.services import announcements, calls, penalties, registration
from tournament.services.idempotency import AlreadyDone, kept_for, run_once

pytestmark = pytest.mark.django_db

KEY_IN_USE = (
    "This form's key was already used for another change, which was made: nothing was "
    "changed now. Reload the page and send it again."
)


@pytest.fixture
def table(make_tournament, td_user):
    return single_table(make_tournament(3), td_user)


def anna(table):
    return Player.objects.get(tournament=table.level.tournament, name="Anna")


def warn(table, td_user, key, name="Anna", kind="slow"):
    player = Player.objects.get(tournament=table.level.tournament, name=name)
    return penalties.give_penalty(
        tournament=table.level.tournament, player=player, kind=kind, actor=td_user, key=key
    )


def test_the_same_key_twice_makes_one_change_and_gives_the_first_back(table, td_user):
    key = uuid.uuid4()
    first = warn(table, td_user, key)
    with pytest.raises(AlreadyDone) as again:
        warn(table, td_user, key)
    assert again.value.first == first
    assert Penalty.objects.count() == 1
    kept = FormSubmission.objects.get()
    assert (kept.key, kept.action, kept.result_id, kept.user) == (
        key,
        "penalty.give",
        first.pk,
        td_user,
    )


def test_the_key_sent_as_text_is_the_same_key(table, td_user):
    key = uuid.uuid4()
    warn(table, td_user, key)
    with pytest.raises(AlreadyDone):
        warn(table, td_user, str(key))
    assert Penalty.objects.count() == 1


def test_the_same_key_with_other_content_is_refused_and_changes_nothing(table, td_user):
    key = uuid.uuid4()
    warn(table, td_user, key)
    for name, kind in (("Bo", "slow"), ("Anna", "conduct")):
        with pytest.raises(KeyInUse) as refused:
            warn(table, td_user, key, name=name, kind=kind)
        assert refused.value.message == KEY_IN_USE
    assert list(Penalty.objects.values_list("player__name", "kind")) == [("Anna", "slow")]
    assert FormSubmission.objects.count() == 1


def test_a_key_of_another_service_is_refused(table, td_user):
    key = uuid.uuid4()
    warn(table, td_user, key)
    with pytest.raises(KeyInUse):
        calls.call_td(table=table, kind="dispute", key=key)
    with pytest.raises(KeyInUse):
        announcements.announce(
            tournament=table.level.tournament, text="Break", actor=td_user, key=key
        )
    assert not TableCall.objects.exists() and not Announcement.objects.exists()


def test_a_hands_key_is_refused_for_a_form(table, td_user):
    """A key that recorded a hand (kept on the hand's version) makes no other change."""
    play_named(table, {"Anna": 4, "Bo": -1, "Cia": -3}, actor=td_user)
    hand_key = table.hands.get().versions.get().idempotency_key
    with pytest.raises(KeyInUse):
        warn(table, td_user, hand_key)
    assert not Penalty.objects.exists() and not FormSubmission.objects.exists()


def test_a_refused_change_keeps_no_key_so_the_corrected_form_can_be_sent(table, td_user):
    key = uuid.uuid4()
    with pytest.raises(InvalidEntry):
        warn(table, td_user, key, kind="no such kind")
    assert not FormSubmission.objects.exists()
    warn(table, td_user, key)
    assert Penalty.objects.count() == 1


def test_without_a_key_the_change_is_made_each_time(table, td_user):
    warn(table, td_user, None)
    warn(table, td_user, None)
    assert Penalty.objects.count() == 2 and not FormSubmission.objects.exists()


def test_a_malformed_key_is_refused_as_an_old_form(table, td_user):
    with pytest.raises(InvalidEntry, match="This form is out of date"):
        warn(table, td_user, "not-a-key")
    assert not Penalty.objects.exists()


def test_a_repeat_is_answered_before_the_checks_that_would_now_refuse_it(table, td_user):
    """Cleared once: sent again, the call is no longer open, yet it is 'already done'."""
    calls.call_td(table=table, kind="dispute")
    key = uuid.uuid4()
    calls.clear_call(table=table, actor=td_user, key=key)
    with pytest.raises(AlreadyDone):
        calls.clear_call(table=table, actor=td_user, key=key)
    assert TableCall.objects.get().cleared_at is not None


def test_a_key_kept_by_a_form_before_0018_answers_by_its_fingerprint(td_user):
    key = uuid.uuid4()
    FormSubmission.objects.create(key=key, action="form", fingerprint="")
    with pytest.raises(AlreadyDone) as again:
        run_once(lambda: 1 / 0, key=key, action="tournament.create", content={"name": "Cup"})
    assert again.value.first is None
    other = uuid.uuid4()
    FormSubmission.objects.create(key=other, action="form", fingerprint="ab" * 32)
    with pytest.raises(KeyInUse):
        run_once(lambda: 1 / 0, key=other, action="tournament.create", content={"name": "Cup"})


def test_kept_for_tells_a_key_that_made_that_kind_of_change(table, td_user):
    key = uuid.uuid4()
    warn(table, td_user, key)
    assert kept_for(key, "penalty.give") and kept_for(str(key), "penalty.give")
    assert not kept_for(key, "table.call")
    assert not kept_for(uuid.uuid4(), "penalty.give")
    assert not kept_for("not-a-key", "penalty.give") and not kept_for(None, "penalty.give")


# What views/once.py's tests asserted of `submit_once`, now of the services that take the key.


def test_the_same_key_creates_the_tournament_once(td_user):
    key = uuid.uuid4()
    first = registration.create_tournament(actor=td_user, name="Cup", key=key)
    assert isinstance(first, Tournament)
    with pytest.raises(AlreadyDone) as again:
        registration.create_tournament(actor=td_user, name="Cup", key=key)
    assert again.value.first == first
    assert Tournament.objects.count() == 1 and FormSubmission.objects.get().user == td_user


def test_a_refused_tournament_keeps_no_key_so_the_corrected_form_can_be_sent(td_user):
    key = uuid.uuid4()
    with pytest.raises(InvalidEntry):
        registration.create_tournament(actor=td_user, name="", key=key)
    assert not FormSubmission.objects.exists()
    registration.create_tournament(actor=td_user, name="Cup", key=key)
    assert Tournament.objects.get().name == "Cup"


def test_a_key_kept_for_another_tournament_change_is_refused_and_nothing_is_changed(td_user):
    key = uuid.uuid4()
    cup = registration.create_tournament(actor=td_user, name="Cup", key=key)
    other = registration.create_tournament(actor=td_user, name="Autumn Cup")
    for change in (
        lambda: registration.create_tournament(actor=td_user, name="Spring Cup", key=key),
        lambda: registration.rename_tournament(
            tournament=other, actor=td_user, name="Cup 2", key=key
        ),
        lambda: registration.rename_tournament(tournament=cup, actor=td_user, name="Cup", key=key),
    ):
        with pytest.raises(KeyInUse) as refused:
            change()
        assert refused.value.message == KEY_IN_USE
    assert sorted(Tournament.objects.values_list("name", flat=True)) == ["Autumn Cup", "Cup"]
    assert FormSubmission.objects.count() == 1


def test_a_key_kept_before_fingerprints_counts_as_the_same_submission(td_user):
    """Kept by the version before (no fingerprint): a double click then is still one."""
    key = uuid.uuid4()
    FormSubmission.objects.create(key=key, user=td_user)
    with pytest.raises(AlreadyDone):
        registration.create_tournament(actor=td_user, name="Cup", key=key)
    assert not Tournament.objects.exists()


def run_together(*calls_):
    """Start every call at the same instant, each in its own thread and connection."""
    barrier = threading.Barrier(len(calls_))
    outcomes = [None] * len(calls_)

    def worker(index, call):
        try:
            barrier.wait()
            outcomes[index] = call()
        except Exception as exc:  # noqa: BLE001 - the outcome is what the test checks
            outcomes[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls_)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="concurrent transactions need PostgreSQL"
)
def test_the_same_key_at_the_same_instant_makes_one_change(table, td_user):
    for _ in range(3):
        key = uuid.uuid4()
        outcomes = run_together(
            lambda key=key: warn(table, td_user, key), lambda key=key: warn(table, td_user, key)
        )
        made = [o for o in outcomes if isinstance(o, Penalty)]
        repeats = [o for o in outcomes if isinstance(o, AlreadyDone)]
        assert len(made) == 1 and len(repeats) == 1, outcomes
        assert repeats[0].first == made[0]
        assert FormSubmission.objects.filter(key=key).count() == 1
    # Three keys, three warnings: Anna's 3rd disqualifies her.
    assert Penalty.objects.filter(player=anna(table)).count() == 3
    assert anna(table).disqualified
