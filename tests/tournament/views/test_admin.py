import pytest

from tests.tournament.conftest import play, single_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser_client(client, django_user_model):
    user = django_user_model.objects.create_superuser("root", password="root-pass-1")
    client.force_login(user)
    return client


def test_admin_lists_and_shows_but_never_changes(superuser_client, make_tournament, td_user):
    tournament = make_tournament(3)
    table = single_table(tournament, td_user)
    play(table, 2, -1, -1)
    for model in ("tournament", "player", "table", "seat", "hand", "handresult", "auditentry"):
        assert superuser_client.get(f"/admin/tournament/{model}/").status_code == 200
    detail = superuser_client.get(f"/admin/tournament/table/{table.pk}/change/")
    assert detail.status_code == 200
    assert b'type="submit"' not in detail.content.split(b"<main")[1]  # no save button
    assert superuser_client.get("/admin/tournament/tournament/add/").status_code == 403
    response = superuser_client.post(f"/admin/tournament/tournament/{tournament.pk}/delete/")
    assert response.status_code == 403
    tournament.refresh_from_db()
    assert tournament.name == "SM 2026"
