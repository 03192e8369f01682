"""The backups' tests' shared fixtures."""

import pytest


@pytest.fixture
def backup_dir(settings, tmp_path):
    """Automatic backups on, into a folder of the test's own (the suite runs with none)."""
    settings.BACKUP_DIR = str(tmp_path / "backups")
    settings.BACKUP_MINUTES = 5
    settings.BACKUP_KEEP = 3
    return tmp_path / "backups"
