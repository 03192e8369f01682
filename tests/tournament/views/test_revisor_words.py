"""What the revisor's card says, in English and Swedish: "Call the TD" asks why (a timeout
is "Time a player"'s) and the dashboard says what was chosen; the open call without nested
parentheses; tied names joined by "and"; one "Hand N recorded ✓" by points and by cards;
the table over without "hand this card to the TD" (the revisor keeps the device)."""

import html as htmllib
import re
import uuid

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournament.conftest import play, positions, single_table
from tournament.models import Player, TableCall, Tournament
from tournament.services import calls

pytestmark = pytest.mark.django_db

CARD = reverse("revisor:card")
CALL = reverse("revisor:call")


def text(response):
    page = response if isinstance(response, str) else response.content.decode()
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def in_swedish(client):
    client.cookies["django_language"] = "sv"
    return client


def local_time(call):
    return timezone.localtime(call.called_at).strftime("%H:%M")


# ---------------------------------------------------------------- "Call the TD"


def test_the_general_call_asks_why_and_offers_no_timeout(revisor):
    page = revisor.get(CARD).content.decode()
    form = page[page.index('<form class="card call-form"') :]
    form = form[: form.index("</form>")]
    assert "Why do you call the TD?" in form
    reasons = re.findall(r'<input type="radio" name="kind" value="(\w+)"[^>]*>', form)
    assert reasons == ["dispute", "misdeal", "other"]
    assert "checked" not in form  # nothing chosen for the revisor
    assert "Timeout" not in form


def test_a_call_without_a_reason_is_refused_in_place_and_calls_nobody(revisor):
    response = revisor.post(CALL, {"note": "Who won the back?", "submission_key": uuid.uuid4()})
    assert response.status_code == 400
    assert "Choose why you call the TD." in text(response)
    assert 'value="Who won the back?"' in response.content.decode()  # the note is kept
    assert not TableCall.objects.exists()


def test_a_timeout_without_a_player_is_not_a_general_call(revisor):
    response = revisor.post(CALL, {"kind": "timeout", "note": ""})
    assert response.status_code == 400
    assert "Choose why you call the TD." in text(response)
    assert not TableCall.objects.exists()


def test_the_dashboard_says_the_reason_the_revisor_chose(revisor, table, td_client):
    key = uuid.uuid4()
    data = {"kind": "misdeal", "note": "Five cards dealt to Bo", "submission_key": key}
    assert revisor.post(CALL, data).status_code == 302
    assert revisor.post(CALL, data).status_code == 302  # a double tap: one call
    call = TableCall.objects.get()
    assert (call.kind, call.note, call.player) == ("misdeal", "Five cards dealt to Bo", None)
    tournament = table.level.tournament
    dashboard = text(td_client.get(reverse("td:tournament", args=[tournament.pk])))
    assert "Call: Misdeal Five cards dealt to Bo" in dashboard
    assert "Timeout" not in dashboard


# ---------------------------------------------------------------- the open call


def test_the_open_call_is_said_without_parentheses_in_parentheses(revisor, table):
    bo = Player.objects.get(name="Bo")
    call = calls.call_td(table=table, kind="timeout", player=bo, actor_label="Revisor")
    page = text(revisor.get(CARD))
    assert f"The TD was called at {local_time(call)} about a timeout. The call names Bo." in page
    assert "(Timeout (count a player)" not in page
    swedish = text(in_swedish(revisor).get(CARD))
    assert f"TL tillkallades kl. {local_time(call)} om en timeout. Tillkallningen gäller Bo." in (
        swedish
    )


@pytest.mark.parametrize(
    ("kind", "english", "swedish"),
    [
        ("dispute", "about a dispute.", "om en tvist."),
        ("misdeal", "about a misdeal.", "om ett felgiv."),
        ("other", "about something else.", "om något annat."),
    ],
)
def test_each_reason_reads_as_a_sentence(revisor, table, kind, english, swedish):
    call = calls.call_td(table=table, kind=kind)
    assert f"The TD was called at {local_time(call)} {english}" in text(revisor.get(CARD))
    page = text(in_swedish(revisor).get(CARD))
    assert f"TL tillkallades kl. {local_time(call)} {swedish}" in page


# ---------------------------------------------------------------- names, recorded, over


def play_by_name(table, by_name):
    pos = positions(table)
    play(table, *[by_name[name] for name in sorted(pos, key=pos.get)])


def tied_in_seat_order(table, tied):
    pos = positions(table)
    return sorted(tied, key=pos.get)


def test_two_tied_players_are_joined_by_and(revisor, table):
    play_by_name(table, {"Anna": 5, "Bo": -2, "Cia": -3})
    play_by_name(table, {"Anna": -1, "Bo": 6, "Cia": -5})
    play_by_name(table, {"Anna": 1, "Bo": 1, "Cia": -2})  # Anna 5, Bo 5 after the 3 required
    first, second = tied_in_seat_order(table, ["Anna", "Bo"])
    page = text(revisor.get(CARD))
    assert f"The required hands are played and {first} and {second} are tied for first" in page
    swedish = text(in_swedish(revisor).get(CARD))
    assert f"De händer som krävs är spelade och {first} och {second} delar förstaplatsen" in (
        swedish
    )


def test_three_tied_players_read_a_b_and_c(make_tournament, td_user, client):
    table = single_table(make_tournament(["Anna", "Bo", "Cia"], min_hands=1), td_user)
    play(table, 0, 0, 0)
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    a, b, c = tied_in_seat_order(table, ["Anna", "Bo", "Cia"])
    page = text(client.get(CARD))
    assert f"The required hands are played and {a}, {b} and {c} are tied for first" in page
    assert f"spelade och {a}, {b} och {c} delar förstaplatsen" in text(in_swedish(client).get(CARD))


def test_a_hand_is_recorded_with_the_same_words_by_points_and_by_cards(
    make_tournament, td_user, client
):
    tournament = make_tournament(["Anna", "Bo", "Cia"], entry_mode=Tournament.EntryMode.EITHER)
    table = single_table(tournament, td_user)
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    pos = positions(table)
    by_points = {f"points_{pos[n]}": p for n, p in (("Anna", "2"), ("Bo", "-1"), ("Cia", "-1"))}
    by_points.update({"hand_number": "1", "idempotency_key": str(uuid.uuid4())})
    assert "Hand 1 recorded ✓" in text(client.post(reverse("revisor:hand"), by_points, follow=True))
    boards = {
        "Anna": {"front": "Qs Jh 2c", "middle": "Ks Kh 9d 8c 7s", "back": "As Kd Qc Jc Th"},
        "Bo": {"front": "4s 4h 2d", "middle": "Js Jd 5d 4c 3d", "back": "Ad Ac Ah Qd Qh"},
        "Cia": {"front": "5s 6h 7d", "middle": "Tc 9h 2s 3h 4d", "back": "8s 8h 8d 7c 6c"},
    }
    by_cards = {f"{row}_{pos[n]}": cards for n, b in boards.items() for row, cards in b.items()}
    by_cards.update({"hand_number": "2", "idempotency_key": str(uuid.uuid4())})
    page = text(client.post(reverse("revisor:cards_confirm"), by_cards, follow=True))
    assert "Hand 2 recorded ✓" in page and "Hand 2 recorded." not in page


def test_a_table_over_asks_nobody_to_hand_the_device_over(revisor, table):
    for _ in range(3):
        play(table, 3, -1, -2)
    page = text(revisor.get(CARD))
    assert "hand this card to the TD" not in page
    assert (
        "No more hands are taken here. The TD sees this card as it stands: there is nothing to "
        "hand in." in page
    )
    swedish = text(in_swedish(revisor).get(CARD))
    assert "lämna protokollet till TL" not in swedish
    assert (
        "Inga fler händer tas emot här. TL ser protokollet som det står: det finns inget att "
        "lämna in." in swedish
    )
