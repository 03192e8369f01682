import uuid

import pytest
from django.test import RequestFactory

from tournament.models import FormSubmission, Tournament
from tournament.services import InvalidEntry, registration
from tournament.views.once import ALREADY_DONE, OnceForm, submit_once

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
