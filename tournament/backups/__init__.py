"""A tournament as one JSON document, and back: the TD's backup (docs/export-format.md).

The work is split in four modules, and the backups that write themselves in a fifth
(automatic.py, a receiver of tournament/events.py); this one names what callers use:

- `export`: `export_tournament(tournament)`, the whole history as JSON data;
- `schema`: the file itself, no database: `parse_backup(raw)` (size,
  encoding, nesting depth, then JSON) and `check_backup(data)` (every field
  against its model column, and the file against itself);
- `verify`: every cached number checked against the history it follows from;
- `restore`: `import_tournament(data, actor=...)` for parsed data (the
  `import_tournament` command, which parses the file before it opens the database) and
  `import_backup(raw, actor=...)` for a file's bytes (the page's upload), all or nothing.
"""

from tournament.backups.export import FORMAT, VERSION, export_tournament
from tournament.backups.restore import import_backup, import_tournament
from tournament.backups.schema import MAX_BYTES, MAX_DEPTH, check_backup, parse_backup

__all__ = [
    "FORMAT",
    "MAX_BYTES",
    "MAX_DEPTH",
    "VERSION",
    "check_backup",
    "export_tournament",
    "import_backup",
    "import_tournament",
    "parse_backup",
]
