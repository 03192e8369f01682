import pytest


@pytest.fixture
def td_user(django_user_model):
    """The tournament director: a staff user."""
    return django_user_model.objects.create_user("director", password="td-pass-123", is_staff=True)


@pytest.fixture
def outsider(django_user_model):
    """Logged in, but no staff rights."""
    return django_user_model.objects.create_user("outsider", password="out-pass-123")


@pytest.fixture
def td_client(client, td_user):
    client.force_login(td_user)
    return client
