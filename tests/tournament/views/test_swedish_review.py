"""A Swedish-speaking TD's review: what a page said that read wrong, in Swedish and in English.

- "för 0 min sedan" / "0 min ago": under a minute is "nyss" / "just now";
- an error summary said a field's label twice ("Poäng för Bo: Poäng för Bo saknas.");
- the audit log's details were raw JSON with English keys;
- "tävling" beside "turnering", and "Behöver en blick först".
"""

import gettext
import html as htmllib
import os
import re
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation

from tests.tournament.conftest import play, play_named
from tournament.audit.sentences import details
from tournament.backups import automatic
from tournament.models import AuditEntry, Hand
from tournament.services import draws, hands, penalties, registration
from tournament.templatetags.form_errors import after_label

pytestmark = pytest.mark.django_db


def get(client, url, language):
    client.cookies["django_language"] = language
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def in_minutes(minutes):
    """The clock `minutes` (and a few seconds) ahead while a page is read."""
    later = timezone.now() + timedelta(minutes=minutes, seconds=5)
    return mock.patch("django.utils.timezone.now", return_value=later)


# ---------------------------------------------------------------- "nyss", not "för 0 min sedan"


def test_the_dashboard_says_just_now_under_a_minute(td_client, three):
    tournament, table = three
    url = reverse("td:tournament", args=[tournament.pk])
    html = get(td_client, url, "en")
    assert "No hand yet (drawn just now)" in html and "0 min ago" not in html
    sv = get(td_client, url, "sv")
    assert "Ingen hand än (lottat nyss)" in sv and "för 0 min sedan" not in sv
    play(table, 3, -1, -2)
    html = get(td_client, url, "en")
    assert re.search(r"<time datetime=\"[^\"]+\">just now</time>", html)
    sv = get(td_client, url, "sv")
    assert re.search(r"<time datetime=\"[^\"]+\">nyss</time>", sv)
    with in_minutes(3):
        assert re.search(r"<time datetime=\"[^\"]+\">3 min ago</time>", get(td_client, url, "en"))
        assert re.search(
            r"<time datetime=\"[^\"]+\">för 3 min sedan</time>", get(td_client, url, "sv")
        )


def test_a_seating_released_under_a_minute_ago_is_released_just_now(
    td_client, make_tournament, td_user
):
    tournament = make_tournament(3, release_draws_at_once=False)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="held")
    url = reverse("td:tournament", args=[tournament.pk])
    with in_minutes(2):
        draws.release_draw(level=level, actor=td_user)
        assert "No hand yet (released just now)" in get(td_client, url, "en")
        assert "Ingen hand än (släppt nyss)" in get(td_client, url, "sv")
    with in_minutes(4):
        assert "No hand yet (released 2 min ago)" in get(td_client, url, "en")
        assert "Ingen hand än (släppt för 2 min sedan)" in get(td_client, url, "sv")


def test_a_backup_written_under_a_minute_ago(td_client, make_tournament, settings, tmp_path):
    settings.BACKUP_DIR = str(tmp_path / "backups")
    settings.BACKUP_MINUTES = 5
    settings.BACKUP_KEEP = 3
    tournament = make_tournament(3, name="Cup")
    url = reverse("td:players", args=[tournament.pk])
    path = automatic.write_backup(tournament)
    written = timezone.localtime(automatic.latest(tournament).written_at)
    html = get(td_client, url, "en")
    assert f"Last automatic backup: {written:%H:%M} (less than a minute ago)" in html
    assert "0\xa0minutes" not in html
    sv = get(td_client, url, "sv")
    assert f"Senaste automatiska säkerhetskopia: {written:%H:%M} (nyss)" in sv
    assert "0\xa0minuter" not in sv
    then = time.time() - 3 * 60
    os.utime(path, (then, then))
    written = timezone.localtime(datetime.fromtimestamp(then, UTC))
    html = get(td_client, url, "en")
    assert f"Last automatic backup: {written:%H:%M} (3\xa0minutes ago)" in html


# ---------------------------------------------------------------- the label once in a summary


def summary(html):
    found = re.search(r'<div class="error-summary" role="alert"[^>]*>(.*?)</div>', html, re.S)
    assert found, "no error summary"
    return found.group(1)


def items(html):
    return [" ".join(item.split()) for item in re.findall(r"<li>(.*?)</li>", summary(html), re.S)]


def points_post(by_position, hand_number=1):
    data = {"hand_number": str(hand_number), "idempotency_key": str(uuid.uuid4())}
    data.update({f"points_{position}": value for position, value in by_position.items()})
    return data


def test_the_tds_hand_form_names_each_field_once(td_client, three):
    tournament, table = three
    url = reverse("td:hand_new", args=[tournament.pk, table.pk])
    data = points_post({0: "abc", 1: "5", 2: ""})  # Cia, Anna, Bo
    for language, expected, beside_the_field in (
        (
            "en",
            [
                '<a href="#id_points_0">Points for Cia</a> must be a whole number.',
                '<a href="#id_points_2">Points for Bo</a> must not be empty.',
            ],
            "Points for Cia must be a whole number.",
        ),
        (
            "sv",
            [
                '<a href="#id_points_0">Poäng för Cia</a> måste vara ett heltal.',
                '<a href="#id_points_2">Poäng för Bo</a> saknas.',
            ],
            "Poäng för Cia måste vara ett heltal.",
        ),
    ):
        td_client.cookies["django_language"] = language
        response = td_client.post(url, data)
        assert response.status_code == 400
        html = response.content.decode()
        assert items(html) == expected
        # Next to the field, the message is whole: it says which field.
        assert f'<p class="error">{beside_the_field}</p>' in html
    assert not Hand.objects.exists()


def test_a_message_without_the_label_follows_it_after_a_colon(td_client, three):
    tournament, table = three
    url = reverse("td:penalty_new", args=[tournament.pk, table.pk])
    data = {"player": "", "kind": "slow", "note": "", "submission_key": str(uuid.uuid4())}
    td_client.cookies["django_language"] = "en"
    html = td_client.post(url, data).content.decode()
    # "Player: choose one of the options." names its field: said once, not
    # "Player: Player: choose one of the options.".
    assert items(html) == ['<a href="#penalty_player">Player</a>: choose one of the options.']
    td_client.cookies["django_language"] = "sv"
    html = td_client.post(url, data).content.decode()
    assert items(html) == ['<a href="#penalty_player">Spelare</a>: välj ett av alternativen.']


def test_the_revisors_points_form_names_each_field_once(client, three):
    tournament, table = three
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    data = points_post({0: "-5", 1: "5", 2: "5-"})  # Cia, Anna, Bo
    for language, expected in (
        ("en", '<a href="#id_points_2">Points for Bo</a> must be a whole number.'),
        ("sv", '<a href="#id_points_2">Poäng för Bo</a> måste vara ett heltal.'),
    ):
        client.cookies["django_language"] = language
        response = client.post(reverse("revisor:hand"), data)
        assert response.status_code == 400
        assert items(response.content.decode()) == [expected]


def test_after_label():
    assert after_label("Points for Bo must be a whole number.", "Points for Bo") == (
        " must be a whole number."
    )
    assert after_label("Player: choose one of the options.", "Player") == (
        ": choose one of the options."
    )
    # A message that does not start with the label, or only with the start of a word.
    assert after_label("This field is required.", "Name") == ": This field is required."
    assert after_label("Notes are kept.", "Note") == ": Notes are kept."
    assert after_label("Note", "Note") == ": Note"
    assert after_label("Anything", "") == ": Anything"


# ---------------------------------------------------------------- the audit log's details


def details_of(html):
    """The audit entries' details (before and after), newest first."""
    return re.findall(r'<details class="audit-details">(.*?)</details>', html, re.S)


def keys_of(value):
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_of(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_of(v)}
    return set()


@pytest.fixture
def logged(three, td_user):
    """After the draw: a hand (Cia +6, Anna -2, Bo -4), its correction (Cia +4, Anna 0,
    Bo -4), Bo's slow play warning, and a new name for the tournament."""
    tournament, table = three
    play_named(table, {"Cia": 6, "Anna": -2, "Bo": -4}, actor=td_user)
    hands.correct_hand(
        hand=Hand.objects.get(table=table),
        actor=td_user,
        reason="Fel på plattan",
        based_on_version=1,
        points={0: 4, 1: 0, 2: -4},
    )
    penalties.give_penalty(
        tournament=tournament, player=tournament.players.get(name="Bo"), kind="slow", actor=td_user
    )
    registration.rename_tournament(tournament=tournament, actor=td_user, name="Vårcupen")
    return tournament


def test_the_swedish_audit_log_shows_no_raw_keys(td_client, logged):
    url = reverse("td:audit", args=[logged.pk])
    html = get(td_client, url, "sv")
    found = details_of(html)
    # rename, penalty, correction, (hand,) draw, 3 players, creation: each has data.
    assert len(found) >= 8
    shown = "".join(found)
    assert "&quot;" not in shown and "{" not in shown
    keys = set()
    for entry in AuditEntry.objects.filter(tournament=logged):
        keys |= keys_of(entry.before) | keys_of(entry.after)
    keys -= {"Anna", "Bo", "Cia"}  # a hand's results are kept by player
    assert {"fantasyland_next", "warning_number", "first_dealer_position", "seed"} <= keys
    labels = set(re.findall(r"<dt>([^<]*)</dt>", shown))
    values = set(re.findall(r"<dd>([^<]*)</dd>", shown))
    assert labels and not labels & keys and not any("_" in label for label in labels)
    assert not labels & {"Name", "Start number", "Draw", "Seed", "Points", "Player", "Warning"}
    # Nor the codes a value is kept as: the kind of penalty, how the hand was entered.
    assert not values & {"slow", "points", "either", "us", "unlimited", "True", "False", "None"}
    rename, penalty, correction = found[:3]
    draw = next(details for details in found if "<dt>Bord 1</dt>" in details)
    assert "<h3>Före</h3>" in rename and "<dt>Namn</dt><dd>SM 2026</dd>" in rename
    assert "<h3>Efter</h3>" in rename and "<dt>Namn</dt><dd>Vårcupen</dd>" in rename
    assert "<dt>Spelare</dt><dd>Bo</dd>" in penalty
    assert "<dt>Typ av straff</dt><dd>Långsamt spel (varning)</dd>" in penalty
    assert "<dt>Varning</dt><dd>1</dd>" in penalty and "<dt>Utesluten</dt><dd>nej</dd>" in penalty
    assert "<dt>Registrering</dt><dd>Poäng</dd>" in correction
    assert "<dt>Cia</dt><dd>Poäng: 6 · Till Fantasyland nästa hand: nej</dd>" in correction
    assert "<dt>Cia</dt><dd>Poäng: 4 · Till Fantasyland nästa hand: nej</dd>" in correction
    assert "<dt>Bord 1</dt><dd>Cia, Anna, Bo; Cia ger först</dd>" in draw


def test_the_english_audit_log_says_the_same_in_english(td_client, logged):
    html = get(td_client, reverse("td:audit", args=[logged.pk]), "en")
    found = details_of(html)
    rename, penalty, correction = found[:3]
    draw = next(details for details in found if "<dt>Table 1</dt>" in details)
    assert "<h3>Before</h3>" in rename and "<dt>Name</dt><dd>SM 2026</dd>" in rename
    assert "<dt>Kind of penalty</dt><dd>Slow play (warning)</dd>" in penalty
    assert "<dt>Rescinded</dt><dd>no</dd>" in penalty and "<dt>Table</dt><dd>1</dd>" in penalty
    assert "<dt>Version</dt><dd>1</dd>" in correction and "<dt>Version</dt><dd>2</dd>" in correction
    assert "<dt>Bo</dt><dd>Points: -4 · To Fantasyland next: no</dd>" in correction
    assert "<dt>Table 1</dt><dd>Cia, Anna, Bo; Cia deals first</dd>" in draw


def test_every_kind_of_data_reads_as_words():
    cards = {
        "Ärla": {"points": 12, "fantasyland_next": False, "fouled": False, "royalties": 0,
                 "front": "Qs Jh 9c", "middle": "7c 7d 2s 3s 4h", "back": "Ac Ad 8c 8d 2h"},
    }  # fmt: skip
    with translation.override("sv"):
        assert details("hand.record", {"hand": 2, "mode": "cards", "results": cards}) == [
            ("Hand", "2"),
            ("Registrering", "Kort"),
            (
                "Ärla",
                "Poäng: 12 · Till Fantasyland nästa hand: nej · Bust: nej · Royalties: 0 · "
                "Toppen: Qs Jh 9c · Mitten: 7c 7d 2s 3s 4h · Botten: Ac Ad 8c 8d 2h",
            ),
        ]
        # A call keeps its player as a row id: the sentence names him, the details do not.
        assert details("table.call", {"kind": "timeout", "note": "", "player": 7}) == [
            ("Typ", "Timeout (räkna ner en spelare)"),
            ("Anteckning", "—"),
        ]
        moved = [{"player": "Åsa", "from": 2, "to": 1}, {"player": "Bo", "from": 2, "to": 3}]
        redo = {"draw": 2, "seed": "x", "tables": [], "penalties_carried": moved}
        assert details("draw.redo", redo)[-1] == (
            "Straff flyttade till de nya borden",
            "Åsa: från bord 2 till bord 1, Bo: från bord 2 till bord 3",
        )
        assert details("announcement.make", {"text": "Paus", "ends_at": None}) == [
            ("Meddelande", "Paus"),
            ("Visas till", "—"),
        ]
        assert details("table.revisor_access", {"code": None}) == [("Kortkod", "—")]
        assert details("player.withdraw", {"withdrawn": True}) == [("Struken", "ja")]
        # A key this version does not know, and data that is not a dict: shown as they are.
        assert details("tournament.import", {"levels": 2, "new_thing": [1, 2]}) == [
            ("Nivåer", "2"),
            ("New thing", "1, 2"),
        ]
        assert details("hand.record", "old text") == [("", "old text")]
        assert details("hand.record", None) == [] and details("hand.record", "") == []


# ---------------------------------------------------------------- words


def swedish_catalog():
    mo = Path(settings.BASE_DIR) / "locale" / "sv" / "LC_MESSAGES" / "django.mo"
    with mo.open("rb") as file:
        return gettext.GNUTranslations(file)._catalog


def test_a_tournament_is_a_turnering_in_every_swedish_text():
    texts = [text for key, text in swedish_catalog().items() if key]
    assert sum("turnering" in text.lower() for text in texts) > 40
    assert [text for text in texts if "tävling" in text.lower()] == []


def test_the_dashboards_order_reads_naturally_in_swedish(td_client, three):
    tournament, _table = three
    url = reverse("td:tournament", args=[tournament.pk])
    sv = htmllib.unescape(get(td_client, url, "sv"))
    assert '<strong aria-current="true">Bord som behöver dig först</strong>' in sv
    assert "blick" not in sv
    sv = htmllib.unescape(get(td_client, url + "?order=number", "sv"))
    assert '<a href="?order=attention">Bord som behöver dig först</a>' in sv
    html = get(td_client, url, "en")
    assert '<strong aria-current="true">Needs a look first</strong>' in html


# ---------------------------------------------------------------- issue 34 §4: three more


def audit_who(html):
    return re.findall(r'<span class="audit-who">([^<]*)</span>', html)


def test_the_revisor_in_the_audit_log_reads_in_the_readers_language(td_client, three):
    """The log said "Revisor, table 1" to a Swedish TD: the label was kept in the language
    of the revisor's tablet. It is kept in none now, and read in the reader's language; a
    label an older version kept in Swedish reads in English too."""
    from django.test import Client

    from tests.tournament.conftest import positions
    from tournament.models import HandVersion
    from tournament.services import calls

    tournament, table = three
    tablet = Client()
    tablet.cookies["django_language"] = "sv"  # the revisor's tablet speaks Swedish
    tablet.get(reverse("revisor:link", args=[table.revisor_key]))
    pos = positions(table)
    points = {
        f"points_{pos['Anna']}": "4",
        f"points_{pos['Bo']}": "-1",
        f"points_{pos['Cia']}": "-3",
    }
    points.update({"hand_number": "1", "idempotency_key": str(uuid.uuid4())})
    assert tablet.post(reverse("revisor:hand"), points).status_code == 302
    assert HandVersion.objects.get().entered_by_label == "Revisor, table 1"
    calls.call_td(table=table, kind="dispute", actor_label="Revisor, bord 1")  # kept in Swedish
    url = reverse("td:audit", args=[tournament.pk])
    sv = audit_who(get(td_client, url, "sv"))
    assert sv.count("Revisor, bord 1") == 2 and "Revisor, table 1" not in sv
    en = audit_who(get(td_client, url, "en"))
    assert en.count("Revisor, table 1") == 2 and "Revisor, bord 1" not in en
    assert "director" in en  # a TD's user name stays as it is


def test_the_score_cards_penalty_line_and_the_tie_filter_read_naturally(td_client, three):
    tournament, table = three
    play(table, 3, -1, -2)
    card = htmllib.unescape(
        get(td_client, reverse("td:table", args=[tournament.pk, table.pk]), "sv")
    )
    assert "Straffen är avdragna i summorna, vart och ett på en egen rad där det gavs." in card
    assert "dragna efter den hand de gavs efter" not in card
    html = get(td_client, reverse("td:table", args=[tournament.pk, table.pk]), "en")
    assert "Totals include penalties: each is deducted on its own line, where it was given." in html
    log = htmllib.unescape(get(td_client, reverse("td:audit", args=[tournament.pk]), "sv"))
    assert '<option value="tie">Avgöranden vid delad förstaplats</option>' in log
    assert "delade ledningar" not in log
