"""Every UI string has a Swedish translation, and the compiled catalogue is current."""

import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "locale" / "sv" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")


@dataclass
class Message:
    """One entry of a catalogue: its msgid, plural msgid and context if any, and its forms
    (the msgstr, or msgstr[0], msgstr[1], ... of a plural entry)."""

    msgid: str
    plural: str | None = None
    context: str | None = None
    forms: list = field(default_factory=list)
    fuzzy: bool = False

    def translated(self):
        """Every form there (two for Swedish where the msgid has a plural) and not fuzzy."""
        wanted = 2 if self.plural is not None else 1
        return not self.fuzzy and len(self.forms) == wanted and all(self.forms)


def parse_po(text):
    """key -> Message; the key is the msgid, after its context and a \\x04 where it has one
    (as gettext keys them), so a msgid in two contexts is two entries."""
    entries = {}
    message, target = None, None

    def unquote(line):
        return line[1:-1].encode().decode("unicode_escape").encode("latin-1").decode()

    def flush():
        if message is not None and message.msgid:
            key = message.msgid
            if message.context is not None:
                key = f"{message.context}\x04{key}"
            entries[key] = message

    fuzzy = False
    for raw in text.splitlines() + [""]:
        line = raw.strip()
        if not line:
            flush()
            message, target, fuzzy = None, None, False
        elif line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith("#"):
            continue
        elif line.startswith("msgctxt "):
            message = Message(msgid="", context=unquote(line[8:]), fuzzy=fuzzy)
            target = "context"
        elif line.startswith("msgid_plural "):
            message.plural, target = unquote(line[13:]), "plural"
        elif line.startswith("msgid "):
            if message is None:
                message = Message(msgid="", fuzzy=fuzzy)
            message.msgid, target = unquote(line[6:]), "id"
        elif line.startswith("msgstr"):
            # msgstr "..." or msgstr[n] "..."
            message.forms.append(unquote(line[line.index(" ") + 1 :]))
            target = "str"
        elif line.startswith('"'):
            if target == "context":
                message.context += unquote(line)
            elif target == "id":
                message.msgid += unquote(line)
            elif target == "plural":
                message.plural += unquote(line)
            else:
                message.forms[-1] += unquote(line)
    return entries


EXAMPLE = r"""
msgid ""
msgstr ""
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

msgid "Level"
msgstr "Nivå"

#, python-format
msgid "%(count)s table finished"
msgid_plural ""
"%(count)s tables "
"finished"
msgstr[0] "%(count)s bord klart"
msgstr[1] "%(count)s bord "
"klara"

msgctxt "a hand entered as"
msgid "points"
msgstr "poäng"

#, fuzzy
msgid "hand"
msgid_plural "hands"
msgstr[0] "hand"
msgstr[1] ""
"""


def test_parse_po_reads_plural_forms_and_contexts():
    entries = parse_po(EXAMPLE)
    assert list(entries) == [
        "Level",
        "%(count)s table finished",
        "a hand entered as\x04points",
        "hand",
    ]
    plural = entries["%(count)s table finished"]
    assert plural.plural == "%(count)s tables finished"
    assert plural.forms == ["%(count)s bord klart", "%(count)s bord klara"]
    assert plural.translated()
    assert entries["Level"].forms == ["Nivå"] and entries["Level"].translated()
    assert entries["a hand entered as\x04points"].context == "a hand entered as"
    hand = entries["hand"]
    assert hand.fuzzy and hand.forms == ["hand", ""] and not hand.translated()


def test_every_message_is_translated_and_not_fuzzy():
    entries = parse_po(PO.read_text(encoding="utf-8"))
    assert len(entries) > 10
    assert any(m.plural for m in entries.values())
    untranslated = [key for key, message in entries.items() if not message.translated()]
    assert untranslated == []


def test_compiled_catalogue_matches_the_po_file():
    from django.utils.translation import gettext, ngettext, npgettext, override, pgettext

    entries = parse_po(PO.read_text(encoding="utf-8"))
    assert MO.exists()
    mismatched = []
    with override("sv"):
        for key, m in entries.items():
            if m.plural is not None:
                # Swedish: the first form for 1, the second for every other count.
                if m.context is not None:
                    found = [npgettext(m.context, m.msgid, m.plural, n) for n in (1, 0, 2)]
                else:
                    found = [ngettext(m.msgid, m.plural, n) for n in (1, 0, 2)]
                expected = [m.forms[0], m.forms[1], m.forms[1]]
            elif m.context is not None:
                found, expected = pgettext(m.context, m.msgid), m.forms[0]
            elif "%" in m.msgid:
                continue
            else:
                found, expected = gettext(m.msgid), m.forms[0]
            if found != expected:
                mismatched.append(key)
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
