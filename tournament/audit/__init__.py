"""The audit log: who did what and when, kept as data and never deleted.

`record` (writing.py) is how every change of state writes its entry; the log's words are
made where it is read (sentences.py, in the reader's language); reading.py reads the log
for its page and the backup; legacy.py reads back entries kept before the log was data.
"""

from tournament.audit.writing import Actor, actor_or_none, record

__all__ = ["Actor", "actor_or_none", "record"]
