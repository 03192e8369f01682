"""A revisor's device bound to a station follows its table number from level to level
(issue 19 §7); the TD prints station cards once and can give a station a new link."""

import re
import uuid
from html import unescape

import pytest
from django.urls import reverse

from tests.tournament.conftest import play, positions
from tournament.models import AuditEntry, Hand, RevisorStation, Table
from tournament.services import draws
from tournament.services.revisor_stations import create_stations, regenerate_station_access

pytestmark = pytest.mark.django_db

CARD = reverse("revisor:card")
CODE = reverse("revisor:code")
HAND = reverse("revisor:hand")
SUMMARY = reverse("revisor:summary")
WAITING = reverse("revisor:station_waiting")
HTMX = {"HX-Request": "true"}


def text(response):
    return unescape(response.content.decode())


def finish_level(level):
    """One hand at every table (min_hands=1): seat 0 wins."""
    points = {3: (4, -1, -3), 2: (2, -2)}
    for table in level.tables.filter(draw__superseded_at__isnull=True).order_by("number"):
        play(table, *points[table.seats.count()])


@pytest.fixture
def seven(make_tournament, td_user):
    """7 players, one hand a table: level 1 has tables 1-3, level 2 has table 1 only."""
    tournament = make_tournament(7, min_hands=1)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="st")
    create_stations(tournament=tournament, actor=td_user)
    return tournament, level


def station(number):
    return RevisorStation.objects.get(number=number)


def on_station(client, number):
    response = client.get(reverse("revisor:station_link", args=[station(number).key]))
    assert response.status_code == 302 and response["Location"] == CARD
    return client


def test_the_station_link_opens_its_table_of_the_level_in_play(client, seven):
    _tournament, level = seven
    on_station(client, 2)
    page = text(client.get(CARD))
    assert "Table 2 · level 1" in page
    table = level.tables.get(number=2)
    assert client.session["revisor_binding"] == {
        "station": station(2).pk,
        "key": station(2).key,
        "table": table.pk,
    }


def test_the_station_code_typed_at_r_binds_the_device(client, seven):
    response = client.post(CODE, {"code": station(3).code.lower()})
    assert response.status_code == 302 and response["Location"] == CARD
    assert "Table 3 · level 1" in text(client.get(CARD))


def test_an_unknown_station_link_binds_nothing(client, seven):
    response = client.get(reverse("revisor:station_link", args=["not-a-key"]), follow=True)
    assert "This station link is not valid (any more)" in text(response)
    assert "revisor_binding" not in client.session


def test_after_advance_the_device_opens_the_next_level_table_with_its_number(
    client, seven, td_user
):
    tournament, level = seven
    on_station(client, 1)
    client.get(CARD)
    finish_level(level)
    level2 = draws.advance(tournament=tournament, actor=td_user, seed="st2")
    new_table = level2.tables.get(number=1)
    # The card's poll of the old table's page: the page is loaded afresh, at the card.
    response = client.get(SUMMARY + "?rev=old", headers=HTMX)
    assert response.status_code == 200 and response["HX-Redirect"] == CARD
    page = text(client.get(CARD))
    assert "Level 2: this device now keeps table 1." in page
    assert "Table 1 · level 2" in page
    assert client.session["revisor_binding"]["table"] == new_table.pk


def test_the_cards_own_poll_after_advance_goes_the_whole_way(client, seven, td_user):
    """The card's poll names the old table; its token moved with the level's close and the
    new draw, so the poll is not answered before the session: the new table opens."""
    tournament, level = seven
    on_station(client, 1)
    page = client.get(CARD).content.decode()
    url = page.split('data-poll-url="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    rev = page.split('data-poll-rev="', 1)[1].split('"', 1)[0]
    assert client.get(f"{url}&rev={rev}", headers=HTMX).status_code == 204
    finish_level(level)
    draws.advance(tournament=tournament, actor=td_user, seed="st2")
    response = client.get(f"{url}&rev={rev}", headers=HTMX)
    assert response.status_code == 200 and response["HX-Redirect"] == CARD
    assert "Table 1 · level 2" in text(client.get(CARD))


def test_a_hand_typed_for_the_old_table_is_not_recorded_at_the_new_one(client, seven, td_user):
    tournament, level = seven
    on_station(client, 1)
    client.get(CARD)
    finish_level(level)
    level2 = draws.advance(tournament=tournament, actor=td_user, seed="st2")
    new_table = level2.tables.get(number=1)
    pos = sorted(positions(new_table).values())
    data = {f"points_{p}": v for p, v in zip(pos, ("4", "-1", "-3"), strict=True)}
    data.update({"hand_number": "1", "idempotency_key": str(uuid.uuid4())})
    response = client.post(HAND, data)
    assert response.status_code == 302 and response["Location"] == CARD
    assert not Hand.objects.filter(table=new_table).exists()


def test_a_station_not_in_use_this_level_says_so_and_waits(client, seven, td_user):
    tournament, level = seven
    on_station(client, 2)
    client.get(CARD)
    finish_level(level)
    draws.advance(tournament=tournament, actor=td_user, seed="st2")
    response = client.get(CARD)
    assert response.status_code == 302 and response["Location"] == WAITING
    assert client.get(CARD, headers=HTMX)["HX-Redirect"] == WAITING
    page = text(client.get(WAITING))
    assert "Table 2 is not in use this level" in page
    assert f'data-poll-url="{WAITING}"' in page
    token = f"station-{station(2).pk}-waiting"
    assert f'data-poll-rev="{token}"' in page
    # An unchanged poll changes nothing.
    assert client.get(f"{WAITING}?rev={token}", headers=HTMX).status_code == 204
    # The device stays bound to its station, whatever it asks.
    assert client.session["revisor_binding"]["station"] == station(2).pk


def test_the_waiting_page_opens_the_card_when_a_draw_seats_the_table(client, seven, td_user):
    tournament, level = seven
    on_station(client, 3)
    client.get(CARD)
    # Level 1 redone: table 3 is seated again, in a new draw.
    draws.redraw_level(level=level, actor=td_user, reason="Wrong list", seed="again")
    new_table = Table.objects.current().get(level=level, number=3)
    response = client.get(SUMMARY + "?rev=old", headers=HTMX)
    assert response["HX-Redirect"] == CARD
    assert "Table 3 · level 1" in text(client.get(CARD))
    assert client.session["revisor_binding"]["table"] == new_table.pk


def test_the_waiting_poll_opens_the_card_once_the_table_is_in_play(client, seven, td_user):
    tournament, _level = seven
    on_station(client, 2)
    # While the station is in use the waiting page sends the device to its card.
    assert client.get(WAITING)["Location"] == CARD
    assert client.get(f"{WAITING}?rev=x", headers=HTMX)["HX-Redirect"] == CARD


def test_the_waiting_page_without_a_station_goes_to_the_code_page(client, seven):
    assert client.get(WAITING)["Location"] == CODE


def test_the_waiting_page_in_swedish(client, seven, td_user):
    tournament, level = seven
    on_station(client, 2)
    finish_level(level)
    draws.advance(tournament=tournament, actor=td_user, seed="st2")
    client.cookies["django_language"] = "sv"
    page = text(client.get(WAITING))
    assert "Bord 2 används inte på den här nivån" in page


def test_regenerating_the_station_cuts_its_device_off(client, seven, td_user):
    on_station(client, 2)
    assert client.get(CARD).status_code == 200
    regenerate_station_access(station=station(2), actor=td_user)
    response = client.get(SUMMARY, headers=HTMX)
    assert response["HX-Redirect"] == CODE
    page = text(client.get(CODE))
    assert (
        "This device's access to station 2 was replaced by the TD: type the station's new "
        "code, or scan its new QR code."
    ) in page
    assert "revisor_binding" not in client.session
    client.cookies["django_language"] = "sv"
    on_station(client, 2)  # the new link binds again
    assert "Bord 2 · nivå 1" in text(client.get(CARD))


def test_a_table_link_still_binds_to_its_one_table(client, seven, td_user):
    _tournament, level = seven
    table = level.tables.get(number=2)
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    assert client.session["revisor_binding"] == {"table": table.pk, "key": table.revisor_key}
    assert "Table 2 · level 1" in text(client.get(CARD))


# ---------------------------------------------------------------- the TD's pages


def cards_url(tournament):
    return reverse("td:station_cards", args=[tournament.pk])


def test_the_td_makes_station_cards_once_for_the_event(td_client, make_tournament, td_user):
    tournament = make_tournament(7, min_hands=1)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="st")
    page = text(td_client.get(cards_url(tournament)))
    assert "Make station cards for tables 1–3" in page
    response = td_client.post(
        reverse("td:stations_create", args=[tournament.pk]), {"submission_key": uuid.uuid4()}
    )
    assert response.status_code == 302 and response["Location"] == cards_url(tournament)
    page = text(td_client.get(cards_url(tournament)))
    assert "The station cards are ready to print." in page
    assert "Make station cards" not in page
    for number in (1, 2, 3):
        s = station(number)
        assert s.code in page
        assert reverse("revisor:station_link", args=[s.key]) in page
    # A station card carries no seating.
    assert "Seat 1" not in page and "Anna" not in page


def test_station_cards_before_the_draw_say_what_to_do(td_client, make_tournament):
    tournament = make_tournament(4)
    page = text(td_client.get(cards_url(tournament)))
    assert "Make the first draw first: stations follow its table numbers." in page
    response = td_client.post(
        reverse("td:stations_create", args=[tournament.pk]), {"submission_key": uuid.uuid4()}
    )
    assert response.status_code == 400
    assert "Make the first draw first" in text(response)
    assert not RevisorStation.objects.exists()


def test_the_td_gives_a_station_a_new_link_and_code(td_client, seven, td_user):
    tournament, _level = seven
    old = station(2)
    url = reverse("td:station_regenerate", args=[tournament.pk, 2])
    # Its button is behind a second click, in a closed <details> under the station's card.
    cards = td_client.get(cards_url(tournament)).content.decode()
    behind = re.findall(r'<details class="confirm-first no-print">(.*?)</details>', cards, re.S)
    assert len(behind) == RevisorStation.objects.count()
    mine = next(part for part in behind if url in part)
    assert "<summary>A new link and code for station 2…</summary>" in mine
    key = uuid.uuid4()
    response = td_client.post(url, {"submission_key": key})
    assert response.status_code == 302
    new = station(2)
    assert new.key != old.key and new.code != old.code
    # The same form sent twice changes it once.
    td_client.post(url, {"submission_key": key})
    assert station(2).code == new.code
    assert AuditEntry.objects.filter(action="station.revisor_access").count() == 1
    page = text(td_client.get(cards_url(tournament)))
    assert "Station 2 has a new link and code" in page and old.code not in page
    assert td_client.post(url, {"submission_key": "junk"}).status_code == 400
    missing = reverse("td:station_regenerate", args=[tournament.pk, 9])
    assert td_client.post(missing, {"submission_key": uuid.uuid4()}).status_code == 404


def test_the_table_cards_page_offers_station_cards(td_client, seven):
    tournament, _level = seven
    page = text(td_client.get(reverse("td:table_cards", args=[tournament.pk, 1])))
    assert "Cards for this level" in page
    assert f'href="{cards_url(tournament)}"' in page
    assert "Station cards for the whole event" in page


def test_station_cards_in_swedish(td_client, seven):
    tournament, _level = seven
    td_client.cookies["django_language"] = "sv"
    page = text(td_client.get(cards_url(tournament)))
    assert "Stationskort för hela turneringen" in page
    assert "Ny länk och kod för station 2" in page


def test_station_pages_need_the_td(client, seven):
    tournament, _level = seven
    assert client.get(cards_url(tournament)).status_code == 302
    url = reverse("td:station_regenerate", args=[tournament.pk, 2])
    old = station(2).code
    client.post(url, {"submission_key": uuid.uuid4()})
    assert station(2).code == old


def test_a_station_card_keeps_polling_a_finished_table(client, seven):
    """A table's own link stops polling once its table is over; a station's device polls on,
    so that the next level's table opens by itself."""
    _tournament, level = seven
    table = level.tables.get(number=2)
    play(table, 2, -2)
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    assert "data-poll-stop" in text(client.get(CARD))
    on_station(client, 2)
    page = text(client.get(CARD))
    assert "Table 2 · level 1" in page and "data-poll-stop" not in page


def test_after_the_final_the_waiting_page_stops_polling(client, seven, td_user):
    tournament, level = seven
    on_station(client, 1)
    finish_level(level)
    level2 = draws.advance(tournament=tournament, actor=td_user, seed="st2")
    finish_level(level2)
    assert draws.advance(tournament=tournament, actor=td_user) is None
    page = text(client.get(CARD, follow=True))
    # Not "Table 1 is not in use this level": there is no level any more.
    assert '<h1 id="station-title">The tournament is finished</h1>' in page
    assert "not in use" not in page
    assert "No table is left to keep score at: station 1's device can be put away." in page
    assert "data-poll-stop" in page


def test_a_station_waiting_during_the_final_is_told_the_end_at_its_next_poll(
    client, seven, td_user
):
    """Station 2 has no table at the final (level 2 has table 1 only): its waiting page's
    poll brings the tournament's end, where it used to say "not in use" until reloaded."""
    tournament, level = seven
    on_station(client, 2)
    finish_level(level)
    level2 = draws.advance(tournament=tournament, actor=td_user, seed="st2")
    waiting = text(client.get(WAITING))
    assert "Table 2 is not in use this level" in waiting
    token = re.search(r'data-poll-rev="([^"]+)"', waiting).group(1)
    assert client.get(f"{WAITING}?rev={token}", headers=HTMX).status_code == 204
    finish_level(level2)
    assert draws.advance(tournament=tournament, actor=td_user) is None
    poll = client.get(f"{WAITING}?rev={token}", headers=HTMX)
    assert poll.status_code == 200
    assert "The tournament is finished" in text(poll) and "not in use" not in text(poll)
    assert "data-poll-stop" in text(poll)


def test_a_station_poll_costs_one_query_more_than_a_table_poll(
    client, seven, td_user, django_assert_num_queries
):
    """The session, the station, its table, whose token comes with it (a table's binding
    reads the session and the table)."""
    _tournament, level = seven
    on_station(client, 2)
    page = client.get(CARD)
    token = page.context["token"]
    with django_assert_num_queries(3):
        assert client.get(f"{SUMMARY}?rev={token}", headers=HTMX).status_code == 204
    finish_level(level)
    draws.advance(tournament=_tournament, actor=td_user, seed="st2")
    client.get(WAITING)
    waiting = f"{WAITING}?rev=station-{station(2).pk}-waiting"
    with django_assert_num_queries(3):  # the session, the station, no table
        assert client.get(waiting, headers=HTMX).status_code == 204
