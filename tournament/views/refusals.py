"""A refused change shown in the form it came from: what every role's views share."""


def add_service_error(form, error):
    """A refused change shown in the form it came from (errors in place, nothing lost)."""
    form.add_error(None, str(error))
