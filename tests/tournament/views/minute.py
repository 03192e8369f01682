"""The TD's live pages (the dashboard, the alerts bar) put the current minute in their poll
token (`live_revision`), so that "minutes since the last hand" stays fresh: a test that reads
a page and then expects its poll to answer 204 must read both in one minute, however long a
loaded machine takes between them."""

from unittest import mock

from django.utils import timezone


def one_minute():
    """Hold the clock still: everything inside reads the same `timezone.now()`."""
    return mock.patch("django.utils.timezone.now", return_value=timezone.now())
