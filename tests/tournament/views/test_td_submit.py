"""views/td/submit.py's `carry_out`: a keyed change done, sent again, or refused in its form."""

import uuid

import pytest
from django import forms
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.test import RequestFactory

from tournament.errors import NotAllowed
from tournament.services.idempotency import AlreadyDone
from tournament.views.td.submit import carry_out, once_key


def request():
    made = RequestFactory().post("/")
    made.session = {}
    made._messages = FallbackStorage(made)
    return made


def said(made):
    return [(m.level_tag, str(m)) for m in get_messages(made)]


def bound_form():
    form = forms.Form({})
    form.is_valid()
    return form


def test_done_returns_what_the_service_made_and_says_nothing():
    made, form = request(), bound_form()
    assert carry_out(made, form, lambda: 42, repeated="Sent before.") == 42
    assert said(made) == [] and form.errors == {}


def test_done_is_said_when_there_are_words_for_it():
    made, form = request(), bound_form()
    assert carry_out(made, form, lambda: 42, repeated="Sent before.", said="Saved.") == 42
    assert said(made) == [("success", "Saved.")]


def test_sent_again_returns_the_repeat_and_says_so():
    made, form = request(), bound_form()
    repeat = AlreadyDone()

    def change():
        raise repeat

    assert carry_out(made, form, change, repeated="Sent before.", said="Saved.") is repeat
    assert said(made) == [("info", "Sent before.")]
    quiet = request()
    assert carry_out(quiet, form, change) is repeat  # nothing to say: nothing said
    assert said(quiet) == []


def test_refused_returns_none_with_the_reason_on_the_form():
    made, form = request(), bound_form()

    def change():
        raise NotAllowed("The level is closed.")

    assert carry_out(made, form, change, repeated="Sent before.", said="Saved.") is None
    assert form.non_field_errors() == ["The level is closed."]
    assert said(made) == []


def posted(data):
    made = RequestFactory().post("/", data)
    made.session = {}
    return made


def test_once_key_reads_the_posted_key():
    key = uuid.uuid4()
    form = forms.Form({})
    once, found = once_key(posted({"submission_key": str(key)}), form)
    assert found == key and once.is_bound and form.errors == {}


@pytest.mark.parametrize("data", [{}, {"submission_key": "not-a-key"}])
def test_once_key_reports_a_missing_or_broken_key_and_offers_a_fresh_one(data):
    form = forms.Form({})
    once, found = once_key(posted(data), form, prefix="prizes")
    assert found is None
    assert form.non_field_errors() == [
        "This form is out of date (its key is missing). Check the values and send it again."
    ]
    assert not once.is_bound and once.prefix == "prizes"
    assert uuid.UUID(str(once["submission_key"].value()))  # a fresh key in the form
