"""Browser tests: the fixtures live in tests/conftest.py, so that any test module can use them."""

from tests.conftest import CHROMIUM, CHROMIUM_ARGS

__all__ = ["CHROMIUM", "CHROMIUM_ARGS"]
