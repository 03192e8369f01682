"""A tournament as one JSON document, and back: the TD's backup (docs/export-format.md).

The work is split in four modules; this one names what callers use:

- `backup_export`: `export_tournament(tournament)`, the whole history as JSON data;
- `backup_schema`: the file itself, no database: `parse_backup(raw)` (size,
  encoding, nesting depth, then JSON) and `check_backup(data)` (every field
  against its model column, and the file against itself);
- `backup_verify`: every cached number checked against the history it follows from;
- `backup_import`: `import_tournament(data, actor=...)` for parsed data (the
  `import_tournament` command, which parses the file before it opens the database) and
  `import_backup(raw, actor=...)` for a file's bytes (the page's upload), all or nothing.
"""

from tournament.services.backup_export import FORMAT, VERSION, export_tournament
from tournament.services.backup_import import import_backup, import_tournament
from tournament.services.backup_schema import MAX_BYTES, MAX_DEPTH, check_backup, parse_backup

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
