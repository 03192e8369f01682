"""Collect the static files only when they changed since they were last collected.

`make venue` runs at every start, and collectstatic with whitenoise's compressed manifest
storage hashes and compresses every file each time (seconds of CPU) even when nothing
changed. So what the collection depends on (every static file found, by path and content,
and the storage and library versions that collect it) is summed up in a stamp, written
once the collection is made; a start that finds the same stamp, and the manifest's files
still in STATIC_ROOT, collects nothing.
"""

import hashlib
import json
from importlib.metadata import version
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.staticfiles.finders import get_finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser


def sources_digest() -> str:
    """A digest of what collecting the static files depends on: each file the finders
    list (as collectstatic lists them), and how they are collected."""
    digest = hashlib.sha256()
    how = [
        settings.STORAGES["staticfiles"]["BACKEND"],
        str(settings.STATIC_ROOT),
        settings.STATIC_URL,
        version("django"),
        version("whitenoise"),
    ]
    digest.update(json.dumps(how).encode())
    # StaticFilesConfig's own patterns, as collectstatic takes them
    ignore = apps.get_app_config("staticfiles").ignore_patterns  # type: ignore[attr-defined]
    found: dict[str, str] = {}
    for finder in get_finders():
        for path, storage in finder.list(ignore):
            prefix = getattr(storage, "prefix", None) or ""
            found.setdefault(str(Path(prefix, path)), storage.path(path))  # the first wins
    for name in sorted(found):
        digest.update(b"\0" + name.encode() + b"\0")
        digest.update(Path(found[name]).read_bytes())
    return digest.hexdigest()


def collected_whole() -> bool:
    """Whether STATIC_ROOT holds its manifest and every file the manifest names."""
    manifest = getattr(staticfiles_storage, "manifest_name", None)
    if manifest is None:  # a storage without a manifest: nothing to check it by
        return Path(settings.STATIC_ROOT).is_dir()
    try:
        # A manifest storage (it has a manifest_name, above) reads its manifest.
        manifest_text = staticfiles_storage.read_manifest()  # type: ignore[attr-defined]
        paths = json.loads(manifest_text or "null")["paths"]
    except (OSError, ValueError, TypeError, KeyError):
        return False
    return all(staticfiles_storage.exists(name) for name in paths.values())


class Command(BaseCommand):
    help = "Run collectstatic unless the static files are unchanged since the last run."
    # `make venue` runs it right after migrate, which ran Django's checks.
    requires_system_checks = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--stamp", required=True, help="The file the stamp is kept in.")

    def handle(self, *args: Any, stamp: str, **options: Any) -> None:
        stamp_file = Path(stamp)
        digest = sources_digest()
        kept = stamp_file.read_text(encoding="utf-8").strip() if stamp_file.exists() else ""
        said = options["verbosity"] >= 1
        if kept == digest and collected_whole():
            if said:
                self.stdout.write("Static files unchanged: nothing collected.")
            return
        # Said whatever the verbosity, before the seconds it takes: the wait is understood.
        self.stderr.write("Collecting the static files (changed since they were last collected)...")
        stamp_file.unlink(missing_ok=True)  # a collection cut short is never taken for a whole one
        call_command("collectstatic", interactive=False, verbosity=0)
        stamp_file.parent.mkdir(parents=True, exist_ok=True)
        stamp_file.write_text(digest + "\n", encoding="utf-8")
        if said:
            self.stdout.write("Static files collected.")
