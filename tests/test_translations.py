"""Every UI string has a Swedish translation, and the compiled catalogue is current."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "locale" / "sv" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")


def parse_po(text):
    """msgid -> (msgstr, fuzzy) for a catalogue without plural forms."""
    entries, fuzzy = {}, False
    msgid = msgstr = None
    field = None

    def unquote(line):
        return line[1:-1].encode().decode("unicode_escape").encode("latin-1").decode()

    def flush():
        if msgid:
            entries[msgid] = (msgstr, fuzzy)

    for raw in text.splitlines() + [""]:
        line = raw.strip()
        if not line:
            flush()
            msgid = msgstr = None
            fuzzy = False
        elif line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith("msgid "):
            msgid, field = unquote(line[6:]), "id"
        elif line.startswith("msgstr "):
            msgstr, field = unquote(line[7:]), "str"
        elif line.startswith('"'):
            if field == "id":
                msgid += unquote(line)
            else:
                msgstr += unquote(line)
    return entries


def test_every_message_is_translated_and_not_fuzzy():
    entries = parse_po(PO.read_text(encoding="utf-8"))
    assert len(entries) > 10
    untranslated = [mid for mid, (mstr, fuzzy) in entries.items() if not mstr or fuzzy]
    assert untranslated == []


def test_compiled_catalogue_matches_the_po_file():
    from django.utils.translation import gettext, override

    entries = parse_po(PO.read_text(encoding="utf-8"))
    assert MO.exists()
    with override("sv"):
        mismatched = [
            mid for mid, (mstr, _) in entries.items() if "%" not in mid and gettext(mid) != mstr
        ]
    assert mismatched == []


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext is not installed")
def test_no_source_string_is_missing_from_the_catalogue(tmp_path):
    for name in ("config", "tournament", "templates", "scoring", "manage.py", "pyproject.toml"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif source.exists():
            shutil.copy(source, tmp_path / name)
    (tmp_path / "locale").mkdir()
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "sv", "--no-location", "-v", "0"],
        cwd=tmp_path,
        check=True,
        env={"DJANGO_DEBUG": "1", "PATH": "/usr/bin:/bin"},
    )
    fresh = parse_po((tmp_path / "locale/sv/LC_MESSAGES/django.po").read_text(encoding="utf-8"))
    committed = parse_po(PO.read_text(encoding="utf-8"))
    assert sorted(set(fresh) - set(committed)) == []
