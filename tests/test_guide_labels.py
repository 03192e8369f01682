"""The guide (docs/guide/) names only what the pages show: every label it sets in **bold** (a
button, a heading, a link, a field, a message) is on the page its section pictures, in that
language, or this fails naming the label, the section and the pages looked at.

The pages are those of the guide's scripted tournament (tournament/demo/guide.py), the very
story `make guide` photographs, rendered here by Django's test client step by step: the TD
logged in, the revisor's device bound by its table's link, the players anonymous. A section's
pages are those of the pictures it shows (docs/guide/img/<lang>/<name>.png); a section
without a picture is checked against every picture of its file."""

import html
import re
from pathlib import Path

import pytest
from django.test import Client

from tournament.demo.guide import story

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "guide"
LANGUAGES = ("en", "sv")

BOLD = re.compile(r"\*\*(.+?)\*\*", re.S)
PICTURE = re.compile(r"!\[[^\]]*\]\(\.\./img/(?:en|sv)/([\w-]+)\.png\)")


def words(text):
    """Text as read: tags out, entities read, every run of blanks one space."""
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", text)
    return " ".join(html.unescape(text).split())


def sections(path):
    """A guide file's sections (split at its `##` headings): (title, text) pairs."""
    found, title, lines = [], path.stem, []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            found.append((title, "\n".join(lines)))
            title, lines = line[3:].strip(), []
        else:
            lines.append(line)
    found.append((title, "\n".join(lines)))
    return found


def rendered(actor, language):
    """Every picture of the story, by name: the words of its page as served in `language`."""
    clients = {}

    def client(role, enter):
        key = (role, enter)
        if key not in clients:
            clients[key] = Client()
            clients[key].cookies["django_language"] = language
            if role == "td":
                clients[key].force_login(actor)
            if enter:
                clients[key].get(enter)
        return clients[key]

    pages = {}
    for shots in story(actor):
        for shot in shots:
            # A revisor's device is bound anew at each step: the link may change with the draw.
            response = client(shot.role, shot.enter).get(shot.path, follow=True)
            assert response.status_code == 200, f"{shot.name}: {shot.path} answered {response}"
            pages[shot.name] = words(response.content.decode())
    return pages


def unshown(pages, language):
    """Each bold label of `language`'s guide that its section's pages do not show."""
    missing = []
    for path in sorted((GUIDE / language).glob("*.md")):
        pictured = PICTURE.findall(path.read_text(encoding="utf-8"))
        for title, text in sections(path):
            names = PICTURE.findall(text) or pictured
            shown = " ".join(pages[name] for name in names)
            for label in BOLD.findall(text):
                if " ".join(label.split()) not in shown:
                    missing.append(f"{path.name} · {title} · **{label}** (pages: {names})")
    return missing


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_label_of_the_guide_is_on_its_page(td_user, language, settings, tmp_path):
    settings.BACKUP_DIR = str(tmp_path)  # the backups' line of the TD's pages, as at the venue
    pages = rendered(td_user, language)
    missing = unshown(pages, language)
    assert not missing, "Labels the pages no longer show:\n" + "\n".join(missing)


@pytest.mark.django_db
def test_a_label_the_page_no_longer_shows_fails(td_user):
    """The check can fail: a label the page does not show is named (the test above would)."""
    pages = rendered(td_user, "en")
    assert "Release the seating" in pages["td-level-held"]
    pages["td-level-held"] = pages["td-level-held"].replace("Release the seating", "Publish")
    assert any("**Release the seating**" in line for line in unshown(pages, "en"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_picture_of_the_guide_is_made_by_make_guide(language):
    """A picture the guide shows is one `make guide` takes (and has taken: it is committed)."""
    named = {
        name
        for path in (GUIDE / language).glob("*.md")
        for name in PICTURE.findall(path.read_text(encoding="utf-8"))
    }
    missing = [
        name for name in sorted(named) if not (GUIDE / "img" / language / f"{name}.png").exists()
    ]
    assert named and missing == []
