"""The order pytest-xdist hands test files to its workers (`--dist loadfile`): the longest
files first. xdist hands out the files with the most tests first, and the suite's longest
ones (a walk over every page, every URL, the venue's servers) have one to three tests: they
came last, and one worker ran the last of them alone while the other had finished.

LONGEST is measured (`pytest --durations=0`, summed by file), longest first; then the other
browser files, then the rest, each by its number of tests. A file's tests keep their order."""

from collections import Counter

from xdist.scheduler import LoadFileScheduling

LONGEST = (
    "tests/test_urls_junk.py",
    "tests/browser/test_axe_every_page_en_browser.py",
    "tests/browser/test_axe_every_page_browser.py",
    "tests/browser/test_axe_every_page_sv_browser.py",
    "tests/browser/test_announcements_everywhere_browser.py",
    "tests/test_venue.py",
    "tests/browser/test_public_phone_browser.py",
    "tests/browser/test_td_screens_browser.py",
    "tests/browser/test_guide_browser.py",
    "tests/browser/test_td_alerts_browser.py",
    "tests/browser/test_revisor_screens_browser.py",
    "tests/browser/test_public_tap_targets_browser.py",
    "tests/browser/test_revisor_card_phone_browser.py",
    "tests/browser/test_announcements_browser.py",
    "tests/browser/test_final_big_screen_browser.py",
    "tests/test_readme.py",
    "tests/tournament/test_audit_migration.py",
)


def file_of(nodeid):
    return nodeid.split("::", 1)[0]


def order(collection):
    """The collection's test ids, their files in the order they are handed out."""
    tests = Counter(file_of(nodeid) for nodeid in collection)

    def rank(nodeid):
        path = file_of(nodeid)
        if path in LONGEST:
            return (0, LONGEST.index(path), "")
        return (1 if path.endswith("_browser.py") else 2, -tests[path], path)

    return sorted(collection, key=rank)  # stable: a file's tests keep their order


class LongestFilesFirst(LoadFileScheduling):
    def schedule(self):
        if self.collection is None and self.collection_is_completed:
            # Every worker's collection in the same order (xdist checks they are the same).
            for node, collection in self.registered_collections.items():
                self.registered_collections[node] = order(collection)
            self.config.option.loadscopereorder = False  # this order, not xdist's
        super().schedule()
