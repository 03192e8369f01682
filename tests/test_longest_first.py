"""The suite's own scheduling (tests/longest_first.py): the longest files go first."""

from pathlib import Path

from tests.longest_first import LONGEST, order

ROOT = Path(__file__).resolve().parent.parent


def test_the_longest_files_go_first_then_browser_files_then_the_rest_by_their_tests():
    collection = [
        "tests/test_small.py::test_a",
        "tests/test_big.py::test_a",
        "tests/test_big.py::test_b",
        "tests/browser/test_x_browser.py::test_a",
        "tests/test_venue.py::test_a",
        "tests/test_urls_junk.py::test_b",
        "tests/test_urls_junk.py::test_a",
    ]
    assert order(collection) == [
        "tests/test_urls_junk.py::test_b",  # a file's tests keep their order
        "tests/test_urls_junk.py::test_a",
        "tests/test_venue.py::test_a",
        "tests/browser/test_x_browser.py::test_a",
        "tests/test_big.py::test_a",
        "tests/test_big.py::test_b",
        "tests/test_small.py::test_a",
    ]


def test_every_longest_file_is_there():
    """A file renamed or split must be named again here, or it goes back to the end."""
    assert [path for path in LONGEST if not (ROOT / path).is_file()] == []
