"""A backup carries no check-in code and does not say whether self check-in is open: a
copy restored elsewhere opens no check-in (docs/check-in.md)."""

import json

import pytest

from tests.tournament.commands.test_backup import fresh_keys as as_copy
from tournament import backups
from tournament.services import checkin

pytestmark = pytest.mark.django_db


def test_no_code_in_the_backup_and_none_restored(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo"], name="SM 2026")
    checkin.set_self_check_in(tournament=tournament, actor=td_user, open=True)
    tournament.refresh_from_db()
    code = tournament.check_in_code
    data = backups.export_tournament(tournament)
    text = json.dumps(data)
    assert "check_in_code" not in text and "self_check_in_open" not in text
    assert f'"{code}"' not in text
    restored = backups.import_tournament(as_copy(data, "SM 2026 (copy)"))
    assert (restored.self_check_in_open, restored.check_in_code) == (False, "")
    assert checkin.self_check_in_open(restored) is False
