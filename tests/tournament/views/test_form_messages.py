"""The forms kept beside their views speak in the app's voice, never in Django's stock words:
each message names its field (or, for a hidden field, says to reload the page), in English
and in Swedish. Every bad input is posted through the real view, and the message is read
from the page it answers with. The expected words are written out by hand."""

import re
import uuid

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from tournament.forms.fields import OnceForm
from tournament.forms.td import AdvanceForm
from tournament.models import Announcement, Penalty, Player, TableCall

pytestmark = pytest.mark.django_db

# Django's own messages, in English and in Swedish (django's catalogue): none may show.
STOCK = (
    "This field is required.",
    "Ensure this value",
    "Select a valid choice",
    "Enter a valid time.",
    "Enter a valid UUID.",
    "Enter a whole number.",
    "Detta fält måste fyllas i.",
    "Säkerställ att detta värde",
    "Kontrollera att detta värde",
    "Välj ett giltigt alternativ",
    "Fyll i en giltig tid.",
    "Fyll i ett giltigt UUID.",
    "Fyll i ett heltal.",
)

STALE = {
    "en": "This form is out of date: reload the page and send it again.",
    "sv": "Formuläret är inaktuellt: ladda om sidan och skicka det igen.",
}


def in_language(client, language):
    client.cookies["django_language"] = language
    return client


def assert_no_stock_text(html):
    for stock in STOCK:
        assert escape(stock) not in html, stock


def shown_in(html, message):
    """`message` is one item of an error list on the page, word for word."""
    return f"<li>{escape(message)}</li>" in html


# ---------------------------------------------------------------- the TD's announcement


@pytest.fixture
def tournament(make_tournament):
    return make_tournament(players=2)


def announcement_key(client, tournament):
    html = client.get(reverse("td:announcement", args=[tournament.pk])).content.decode()
    return re.search(r'name="submission_key" value="([0-9a-f-]+)"', html).group(1)


@pytest.mark.parametrize(
    ("data", "field", "label", "english", "swedish"),
    [
        (
            {"text": ""},
            "text",
            ("Message", "Meddelande"),
            "Message must not be empty.",
            "Meddelande saknas.",
        ),
        (
            {"text": "   "},
            "text",
            ("Message", "Meddelande"),
            "Message must not be empty.",
            "Meddelande saknas.",
        ),
        (
            {"text": "x" * 250},
            "text",
            ("Message", "Meddelande"),
            "Message can have at most 200 characters (it has 250).",
            "Meddelande får ha högst 200 tecken (det har 250).",
        ),
        (
            {"text": "Break", "minutes": "0"},
            "minutes",
            ("Show for (minutes)", "Visa i (minuter)"),
            "Show for (minutes) must be from 1 to 1440, not 0.",
            "Visa i (minuter) måste vara från 1 till 1440, inte 0.",
        ),
        (
            {"text": "Break", "minutes": "1441"},
            "minutes",
            ("Show for (minutes)", "Visa i (minuter)"),
            "Show for (minutes) must be from 1 to 1440, not 1441.",
            "Visa i (minuter) måste vara från 1 till 1440, inte 1441.",
        ),
        (
            {"text": "Break", "minutes": "ten"},
            "minutes",
            ("Show for (minutes)", "Visa i (minuter)"),
            "Show for (minutes) must be a whole number.",
            "Visa i (minuter) måste vara ett heltal.",
        ),
        (
            {"text": "Break", "until": "25:00"},
            "until",
            ("Or until (time of day)", "Eller till (klockslag)"),
            "Or until (time of day): type a time of day, such as 21:30.",
            "Eller till (klockslag): skriv ett klockslag, till exempel 21:30.",
        ),
    ],
)
@pytest.mark.parametrize("language", ["en", "sv"])
def test_the_announcement_form_names_its_field(
    td_client, tournament, language, data, field, label, english, swedish
):
    message = english if language == "en" else swedish
    label = label[0] if language == "en" else label[1]
    key = announcement_key(td_client, tournament)
    response = in_language(td_client, language).post(
        reverse("td:announcement", args=[tournament.pk]), {**data, "submission_key": key}
    )
    html = response.content.decode()
    assert response.status_code == 400
    # Next to its field, whole; in the summary, after the field's linked label.
    errors = re.search(rf'<ul class="errorlist" id="id_{field}_error">(.*?)</ul>', html).group(1)
    assert errors == f"<li>{escape(message)}</li>"
    rest = escape(message[len(label) :])
    assert f'<li><a href="#id_{field}">{escape(label)}</a>{rest}</li>' in html
    assert_no_stock_text(html)
    assert not Announcement.objects.exists()


# ---------------------------------------------------------------- the revisor's card


@pytest.mark.parametrize(
    ("data", "english", "swedish"),
    [
        (
            {"kind": "dispute", "note": "x" * 301},
            "Note (optional) can have at most 300 characters (it has 301).",
            "Anteckning (frivillig) får ha högst 300 tecken (det har 301).",
        ),
        ({"kind": "dispute", "submission_key": "junk"}, STALE["en"], STALE["sv"]),
    ],
)
@pytest.mark.parametrize("language", ["en", "sv"])
def test_the_call_form_says_what_is_wrong_above_it(revisor, language, data, english, swedish):
    message = english if language == "en" else swedish
    response = in_language(revisor, language).post(reverse("revisor:call"), data)
    html = response.content.decode()
    assert response.status_code == 400
    summary = re.search(r'<form class="card call-form".*?</form>', html, re.S).group(0)
    assert shown_in(summary, message)
    assert_no_stock_text(html)
    assert not TableCall.objects.exists()


@pytest.mark.parametrize("data", [{"kind": "nap"}, {"kind": ""}, {"kind": "timeout"}, {}])
@pytest.mark.parametrize(
    ("language", "message"),
    [("en", "Choose why you call the TD."), ("sv", "Välj varför du tillkallar TL.")],
)
def test_the_call_form_says_beside_the_reasons_that_one_is_missing(
    revisor, language, message, data
):
    """The reasons are radio buttons with their own place for the error (the timeout is
    "Time a player"'s, which names the player)."""
    response = in_language(revisor, language).post(reverse("revisor:call"), data)
    html = response.content.decode()
    assert response.status_code == 400
    reasons = re.search(r'<fieldset class="call-why has-error".*?</fieldset>', html, re.S)
    assert f'<p class="error" id="call-why-error">{escape(message)}</p>' in reasons.group(0)
    assert 'aria-describedby="call-why-error"' in reasons.group(0)
    assert_no_stock_text(html)
    assert not TableCall.objects.exists()


@pytest.mark.parametrize("player", ["stranger", "abc"])
@pytest.mark.parametrize(
    ("language", "label", "rest"),
    [
        ("en", "Player", ": choose one of the options."),
        ("sv", "Spelare", ": välj ett av alternativen."),
    ],
)
def test_the_timer_names_the_player_field(revisor, make_tournament, language, label, rest, player):
    if player == "stranger":
        player = Player.objects.get(tournament=make_tournament(["Ulf"], name="Cup 2")).pk
    data = {"kind": "timeout", "player": player, "submission_key": uuid.uuid4()}
    response = in_language(revisor, language).post(reverse("revisor:call"), data)
    html = response.content.decode()
    assert response.status_code == 400
    assert f'<p class="error">{label}{rest}</p>' in html  # next to the field
    assert f'<li><a href="#timer_player">{label}</a>{rest}</li>' in html  # in the summary
    assert_no_stock_text(html)
    assert not TableCall.objects.exists()


# ---------------------------------------------------------------- the short code at /r/


@pytest.mark.parametrize(
    ("code", "english", "swedish"),
    [
        ("", "Type the table's code.", "Skriv bordets kod."),
        (
            "A" * 25,
            "A table code is 6 letters and digits, without O, 0, I, L or 1. "
            "Check the card and try again.",
            "En bordskod består av 6 bokstäver och siffror, utan O, 0, I, L och 1. "
            "Kontrollera kortet och försök igen.",
        ),
    ],
)
@pytest.mark.parametrize("language", ["en", "sv"])
def test_the_short_code_form_speaks_of_the_table_code(client, language, code, english, swedish):
    message = english if language == "en" else swedish
    response = in_language(client, language).post(reverse("revisor:code"), {"code": code})
    html = response.content.decode()
    assert response.status_code == 400
    errors = re.search(r'<div class="error" role="alert">(.*?)</div>', html, re.S).group(1)
    assert shown_in(errors, message)
    assert_no_stock_text(html)


# ---------------------------------------------------------------- hidden fields


@pytest.mark.parametrize("key", [None, "", "not-a-key"])
@pytest.mark.parametrize("language", ["en", "sv"])
def test_a_once_form_without_a_valid_key_says_to_reload(td_client, table, language, key):
    """The table page's penalty form shows its hidden key's message in its summary."""
    tournament = table.level.tournament
    data = {"player": Player.objects.get(tournament=tournament, name="Bo").pk, "kind": "slow"}
    if key is not None:
        data["submission_key"] = key
    url = reverse("td:penalty_new", args=[tournament.pk, table.pk])
    response = in_language(td_client, language).post(url, data)
    html = response.content.decode()
    assert response.status_code == 400
    assert shown_in(html, STALE[language])
    assert_no_stock_text(html)
    assert not Penalty.objects.exists()
    with translation.override("en"):  # the page left its language active in this thread
        form = OnceForm({"submission_key": key or ""})
        assert form.errors == {"submission_key": [STALE["en"]]}


@pytest.mark.parametrize("level", [None, "", "0", "32768", "one"])
@pytest.mark.parametrize("language", ["en", "sv"])
def test_closing_a_level_from_an_old_page_says_to_reload(td_client, table, language, level):
    tournament = table.level.tournament
    data = {"confirm": "1", "submission_key": str(uuid.uuid4())}
    if level is not None:
        data["level"] = level
    response = in_language(td_client, language).post(
        reverse("td:advance", args=[tournament.pk]), data
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert escape(STALE[language]) in html
    assert_no_stock_text(html)
    table.level.refresh_from_db()
    assert table.level.closed_at is None
    # The form's own message for its hidden level, whichever way it is wrong.
    with translation.override("en"):
        assert AdvanceForm(data).errors == {"level": [STALE["en"]]}
