"""The server's log in the TD's terminal: a request with a foreign Host header (a stranger's
browser, a scanner on the venue Wi-Fi) is one line there, never a traceback."""

import io
import logging
import sys
from contextlib import contextmanager

import pytest

from config.log_format import OneLineRefusals


@contextmanager
def terminal():
    """What the app's console handler (settings.LOGGING) writes, as the terminal shows it."""
    (console,) = [
        h for h in logging.getLogger().handlers if isinstance(h.formatter, OneLineRefusals)
    ]
    shown = io.StringIO()
    before = console.setStream(shown)
    try:
        yield shown
    finally:
        console.setStream(before)


@pytest.mark.django_db
def test_a_foreign_host_is_one_line_in_the_terminal(client):
    with terminal() as shown:
        answer = client.get("/", HTTP_HOST="evil.example")
    assert answer.status_code == 400
    assert shown.getvalue().splitlines() == [
        "Invalid HTTP_HOST header: 'evil.example'. You may need to add 'evil.example' to "
        "ALLOWED_HOSTS."
    ]


def test_any_other_error_keeps_its_traceback():
    with terminal() as shown:
        try:
            raise ValueError("a bug")
        except ValueError:
            logging.getLogger("django.request").error("Internal Server Error: /", exc_info=True)
    lines = shown.getvalue().splitlines()
    assert lines[0] == "Internal Server Error: /"
    assert lines[1] == "Traceback (most recent call last):"
    assert lines[-1] == "ValueError: a bug"


def test_the_record_other_handlers_see_keeps_its_traceback():
    """Only the line is shortened: the record itself (an error tracker's) is left whole."""
    try:
        raise ValueError("refused")
    except ValueError:
        caught = sys.exc_info()
    record = logging.makeLogRecord(
        {"name": "django.security.DisallowedHost", "msg": "refused", "exc_info": caught}
    )
    assert OneLineRefusals().format(record) == "refused"
    assert record.exc_info == caught
