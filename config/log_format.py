"""How the server's log lines read in the terminal (`make venue`) or a container's log.

A request the app refuses as suspicious (Django's `django.security.*` loggers: a Host
header that is none of this server's names, a request too large) is a stranger's or a
broken client's doing, and nothing in the app to fix: one line says what was refused,
never the traceback Django logs with it.
"""

import logging


class OneLineRefusals(logging.Formatter):
    """The standard format; a `django.security.*` record without its traceback."""

    def format(self, record: logging.LogRecord) -> str:
        if record.name.startswith("django.security.") and (record.exc_info or record.exc_text):
            record = logging.makeLogRecord({**record.__dict__, "exc_info": None, "exc_text": None})
        return super().format(record)
