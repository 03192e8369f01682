import uuid

import pytest
from django.test import RequestFactory

from tournament.errors import InvalidEntry, KeyInUse
from tournament.forms.fields import OnceForm
from tournament.models import FormSubmission, Tournament
from tournament.services import registration
from tournament.views.once import ALREADY_DONE, submit_once

pytestmark = pytest.mark.django_db


def test_the_same_key_makes_the_change_once(td_user):
    request = RequestFactory().post("/")
    request.user = td_user
    key = uuid.uuid4()

    def create():
        return registration.create_tournament(actor=td_user, name="Cup")

    first = submit_once(request, key, create)
    assert isinstance(first, Tournament)
    assert submit_once(request, key, create) is ALREADY_DONE
    assert Tournament.objects.count() == 1 and FormSubmission.objects.get().user == td_user


def test_a_refused_change_keeps_no_key_so_the_corrected_form_can_be_sent(td_user):
    request = RequestFactory().post("/")
    request.user = td_user
    key = uuid.uuid4()
    with pytest.raises(InvalidEntry):
        submit_once(request, key, lambda: registration.create_tournament(actor=td_user, name=""))
    assert not FormSubmission.objects.exists()
    submit_once(request, key, lambda: registration.create_tournament(actor=td_user, name="Cup"))
    assert Tournament.objects.get().name == "Cup"


def test_an_unbound_form_gets_a_fresh_key_each_time():
    assert OnceForm().initial["submission_key"] != OnceForm().initial["submission_key"]


def posted(td_user, path="/td/1/players/", **data):
    request = RequestFactory().post(path, {"csrfmiddlewaretoken": uuid.uuid4().hex, **data})
    request.user = td_user
    return request


def creating(td_user, name):
    return lambda: registration.create_tournament(actor=td_user, name=name)


def test_a_key_kept_for_another_change_is_refused_and_nothing_is_changed(td_user):
    key = uuid.uuid4()
    submit_once(posted(td_user, name="Cup"), key, creating(td_user, "Cup"))
    # The same fields again (another CSRF token: another tab): the same submission.
    assert submit_once(posted(td_user, name="Cup"), key, creating(td_user, "Cup")) is ALREADY_DONE
    for other in (
        posted(td_user, name="Spring Cup"),
        posted(td_user, "/td/2/players/", name="Cup"),
    ):
        with pytest.raises(KeyInUse) as refused:
            submit_once(other, key, creating(td_user, "Spring Cup"))
        assert refused.value.message == (
            "This form's key was already used for another change, which was made: nothing "
            "was changed now. Reload the page and send it again."
        )
    assert list(Tournament.objects.values_list("name", flat=True)) == ["Cup"]
    assert FormSubmission.objects.count() == 1


def test_a_key_kept_before_fingerprints_counts_as_the_same_submission(td_user):
    """Kept by the version before (no fingerprint): a double click then is still one."""
    key = uuid.uuid4()
    FormSubmission.objects.create(key=key, user=td_user)
    assert submit_once(posted(td_user, name="Cup"), key, creating(td_user, "Cup")) is ALREADY_DONE
    assert not Tournament.objects.exists()
