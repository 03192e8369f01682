"""Database faults answered with a clear page, never a 500 (docs/faults.md).

- The database refuses a change (read-only, its disk full): the change's transaction is
  rolled back whole, and its sender gets 503 with what to do, in their language.
- The connection to the database is lost while a request uses it (ended by the server, a
  failover, a pooler restarted): a read is answered again on a fresh connection; a change
  is never run again, and its key, looked up afresh, says whether it was recorded.

kinds.py tells the faults apart, outcome.py what a lost change did, pages.py answers,
live/middleware.py wires them in. The same entry sent again is recorded once: every entry
carries its key.
"""

from tournament.web.faults.kinds import DISK_FULL, READ_ONLY, lost_connection, refusal
from tournament.web.faults.middleware import DatabaseFaultMiddleware, SessionMiddleware, reads_only
from tournament.web.faults.pages import refused_response, resent_after_lost_connection

__all__ = [
    "DISK_FULL",
    "READ_ONLY",
    "DatabaseFaultMiddleware",
    "SessionMiddleware",
    "lost_connection",
    "reads_only",
    "refusal",
    "refused_response",
    "resent_after_lost_connection",
]
