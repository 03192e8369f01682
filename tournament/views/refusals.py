"""A refused change shown in the form it came from: what every role's views share."""

from django import forms

from tournament.errors import ServiceError


def add_service_error(form: forms.BaseForm, error: ServiceError | str) -> None:
    """A refused change shown in the form it came from (errors in place, nothing lost)."""
    form.add_error(None, str(error))
