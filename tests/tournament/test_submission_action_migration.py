"""Migration 0018: the form keys kept before it stay, each marked as kept by a view's form
("form"), so that a key sent again answers by the fingerprint it was kept with; the ones
kept without a fingerprint still count as the same submission sent again."""

import uuid

import pytest

from tests.tournament.test_audit_migration import leaves, migrate
from tournament.errors import KeyInUse
from tournament.models import FormSubmission
from tournament.services import registration
from tournament.services.idempotency import AlreadyDone

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tournament", "0017_tournament_prizes")]


def test_keys_kept_before_stay_and_answer_as_they_did(td_user):
    apps = migrate(BEFORE)
    without, with_print = uuid.uuid4(), uuid.uuid4()
    try:
        kept = apps.get_model("tournament", "FormSubmission").objects
        kept.create(key=without, fingerprint="")
        kept.create(key=with_print, fingerprint="ab" * 32)
        migrate(leaves())
        rows = sorted(
            FormSubmission.objects.values_list("key", "fingerprint", "action", "result_id")
        )
        assert rows == sorted([(without, "", "form", None), (with_print, "ab" * 32, "form", None)])
        with pytest.raises(AlreadyDone):
            registration.create_tournament(actor=td_user, name="Cup", key=without)
        with pytest.raises(KeyInUse):
            registration.create_tournament(actor=td_user, name="Cup", key=with_print)
        assert FormSubmission.objects.count() == 2
    finally:
        migrate(leaves())
