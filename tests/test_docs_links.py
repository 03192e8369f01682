"""The docs point at what exists: their links, the paths the README's "What is where" and
docs/architecture.md name, and the sections of a doc that code and docs cite by title.

A file moved or a section renamed (the performance notebook became docs/performance-log.md)
leaves a reader at nothing; this fails instead, naming each dead pointer.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted(
    [
        ROOT / "README.md",
        ROOT / "bench" / "README.md",
        *(ROOT / "docs").glob("*.md"),
        *(ROOT / "docs" / "guide").rglob("*.md"),  # the guide's pages link to each other
    ]
)
# Where a doc is cited from: the code, its tests and benches, the docs themselves.
CITING = [
    *DOCS,
    *(p for d in ("tournament", "config", "tests", "bench") for p in (ROOT / d).rglob("*.py")),
]
# A repository path in backticks: a top folder of the project, then more of a path.
REPO_PATH = re.compile(
    r"`((?:tournament|config|scoring|templates|static|tests|bench|docs)/[^`\s]*)`"
)
# A doc's path, then a section's title in quotes: `docs/<name>.md, "Title"`, or `("Title"`.
CITED_SECTION = re.compile(r"docs/([\w-]+\.md)`?,?\s+\(?\"([^\"]+)\"")


def relative(path):
    return path.relative_to(ROOT).as_posix()


def expanded(path):
    """`a/{b,c}.py` as `a/b.py` and `a/c.py`; a `::name` or a trailing stop left out."""
    path = path.split("::")[0].rstrip(".,;:)")
    braces = re.search(r"\{([^}]*)\}", path)
    if braces is None:
        return [path]
    return [
        p
        for part in braces.group(1).split(",")
        for p in expanded(path.replace(braces.group(0), part, 1))
    ]


def headings(doc):
    # A heading's title as it reads: "### `prizes`" is cited as "prizes".
    return [
        line.lstrip("#").strip().replace("`", "")
        for line in doc.read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    ]


def test_every_relative_link_of_the_docs_reaches_a_file():
    dead = []
    for doc in DOCS:
        for target in re.findall(r"\]\(([^)\s]+)\)", doc.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            if not (doc.parent / target.split("#")[0]).exists():
                dead.append(f"{relative(doc)} → {target}")
    assert dead == []


def test_every_path_the_readme_s_what_is_where_names_exists():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    where = readme.split("## What is where", 1)[1].split("\n## ", 1)[0]
    named = {p for path in REPO_PATH.findall(where) for p in expanded(path)}
    assert len(named) > 15  # the pattern finds the paths it names
    assert sorted(p for p in named if not (ROOT / p).exists()) == []


def test_every_path_the_architecture_names_exists():
    """Its paths are the repository's, or the app's (`tables/read.py`: tournament/tables/);
    the rooms' table, whose files are its rooms', is the test below."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    architecture = re.sub(r"^\| `.*$", "", text, flags=re.M)
    paths = re.findall(r"`([\w.{},-]+/[\w./{},-]*)`", architecture)
    named = {p for path in paths for p in expanded(path)}
    assert len(named) > 40  # the pattern finds the paths it names
    missing = [
        p for p in named if not (ROOT / p).exists() and not (ROOT / "tournament" / p).exists()
    ]
    assert sorted(missing) == []


def test_every_room_and_file_of_the_architecture_table_exists():
    """The rooms' table names files relative to its room: `rules/` row, `table_fold.py`."""
    architecture = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)/` \|[^|]*\| (.*) \|$", architecture, re.M)
    assert {"rules", "tables", "audit", "services", "selectors", "live", "backups"} <= {
        r for r, _ in rows
    }
    missing = []
    for room, files in rows:
        folder = ROOT / ("scoring" if room == "scoring" else f"tournament/{room}")
        for name in re.findall(r"`([\w/]+\.py|[\w]+/)`", files):
            if not (folder / name).exists():
                missing.append(f"{room}/{name}")
    assert missing == []


def test_every_section_cited_by_title_is_a_heading_of_its_doc():
    dead, cited = [], 0
    for citing in CITING:
        text = re.sub(r"\s*\n\s*(?:#\s*)?", " ", citing.read_text(encoding="utf-8"))
        for name, title in CITED_SECTION.findall(text):
            doc = ROOT / "docs" / name
            # "Figures (29 Nov 2026, morning …)": the title as far as the ellipsis.
            start = title.split("…")[0].strip()
            if not doc.exists() or not any(h.startswith(start) for h in headings(doc)):
                dead.append(f'{relative(citing)}: docs/{name} "{title}"')
            cited += 1
    assert cited >= 8  # the pattern finds the citations
    assert dead == []
