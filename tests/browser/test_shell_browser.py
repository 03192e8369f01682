import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_phone_layout_fits_360px_and_switches_language(phone_page, live_server):
    page = phone_page
    page.goto(live_server.url + "/")
    assert page.locator("h1").inner_text() == "Pineapple OFC tournaments"
    # Nothing wider than the phone: no sideways scrolling.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.evaluate("typeof window.htmx") == "object"
    page.get_by_role("button", name="Svenska").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "sv"
    assert page.locator("h1").inner_text() == "Pineapple OFC-turneringar"


def test_td_logs_in_on_a_phone(phone_page, live_server, django_user_model):
    django_user_model.objects.create_user("tdphone", password="secret-td-9", is_staff=True)
    page = phone_page
    page.goto(live_server.url + "/td/")
    page.fill("#id_username", "tdphone")
    page.fill("#id_password", "secret-td-9")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(live_server.url + "/td/")
    assert "Logged in as tdphone." in page.content()
