"""`manage.py collectstatic_changed` (what `make venue` runs at every start): the static
files are collected, hashed and compressed only when they changed since the last time;
a start with the same files collects nothing."""

import io
import json

import pytest
from django.core.management import call_command

WHITENOISE = "whitenoise.storage.CompressedManifestStaticFilesStorage"
# Long enough for whitenoise to find compressing it worth it.
CSS = "".join(f".row-{n} {{ color: black; }}\n" for n in range(100))


@pytest.fixture
def static(tmp_path, settings):
    """The production storage over a folder of static files of the test's own."""
    source = tmp_path / "source"
    (source / "css").mkdir(parents=True)
    (source / "css" / "app.css").write_text(CSS, encoding="utf-8")
    (source / "js").mkdir()
    (source / "js" / "app.js").write_text("console.log('one');\n", encoding="utf-8")
    settings.STATICFILES_DIRS = [source]
    settings.STATICFILES_FINDERS = ["django.contrib.staticfiles.finders.FileSystemFinder"]
    settings.STATIC_ROOT = tmp_path / "collected"
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": WHITENOISE}}
    return source, tmp_path / "collected", tmp_path / "static.stamp"


def collect(stamp):
    out, err = io.StringIO(), io.StringIO()
    call_command("collectstatic_changed", "--stamp", str(stamp), stdout=out, stderr=err)
    return out.getvalue().strip(), err.getvalue().strip()


def manifest(root):
    """The manifest's paths, and the manifest file's identity (a new file when written)."""
    path = root / "staticfiles.json"
    status = path.stat()
    return json.loads(path.read_text())["paths"], (status.st_ino, status.st_mtime_ns)


def test_the_first_start_collects_and_the_next_one_with_the_same_files_does_not(static):
    source, root, stamp = static
    said, told = collect(stamp)
    assert said == "Static files collected."
    assert told == "Collecting the static files (changed since they were last collected)..."
    paths, written = manifest(root)
    hashed = paths["css/app.css"]
    assert hashed != "css/app.css" and (root / hashed).read_text() == CSS
    assert (root / (hashed + ".gz")).exists()  # compressed, as whitenoise serves it

    said, told = collect(stamp)
    assert said == "Static files unchanged: nothing collected."
    assert told == ""
    assert manifest(root) == (paths, written)  # the manifest was not even written again


def test_a_changed_file_is_collected_again(static):
    source, root, stamp = static
    collect(stamp)
    before, _ = manifest(root)
    (source / "css" / "app.css").write_text("body { color: navy; }\n", encoding="utf-8")
    said, _ = collect(stamp)
    assert said == "Static files collected."
    after, _ = manifest(root)
    assert after["css/app.css"] != before["css/app.css"]
    assert (root / after["css/app.css"]).read_text() == "body { color: navy; }\n"
    assert after["js/app.js"] == before["js/app.js"]


def test_a_new_file_is_collected(static):
    source, root, stamp = static
    collect(stamp)
    (source / "js" / "new.js").write_text("console.log('two');\n", encoding="utf-8")
    assert collect(stamp)[0] == "Static files collected."
    assert "js/new.js" in manifest(root)[0]


def test_collected_files_gone_are_collected_again_though_the_sources_are_the_same(static):
    """The TD emptied var/static (or a copy lost a file): the stamp alone is not trusted."""
    source, root, stamp = static
    collect(stamp)
    paths, _ = manifest(root)
    (root / paths["js/app.js"]).unlink()
    assert collect(stamp)[0] == "Static files collected."
    assert (root / paths["js/app.js"]).exists()
    (root / "staticfiles.json").unlink()
    assert collect(stamp)[0] == "Static files collected."
    assert collect(stamp)[0] == "Static files unchanged: nothing collected."
