"""The revisor's card: state of play, points entry, replays, conflicts, calls."""

import uuid

import pytest
from django.urls import reverse

from tests.tournament.conftest import play, positions, seat_of, single_table, totals
from tournament.models import Hand, HandVersion, TableCall
from tournament.selectors.tokens import revision_token
from tournament.services import draws, hands, registration
from tournament.tables import store

pytestmark = pytest.mark.django_db

CARD = reverse("revisor:card")
HAND = reverse("revisor:hand")


def points_post(table, by_name, number, key=None, fantasyland=()):
    pos = positions(table)
    data = {f"points_{pos[name]}": str(value) for name, value in by_name.items()}
    data.update({f"fantasyland_{pos[name]}": "on" for name in fantasyland})
    data.update({"hand_number": str(number), "idempotency_key": str(key or uuid.uuid4())})
    return data


def test_the_card_shows_the_hand_to_play_and_who_deals(revisor, table):
    page = revisor.get(CARD).content.decode()
    assert "Table 1 · level 1" in page and "Hand 1 of 3" in page
    dealer = table.seats.get(position=table.first_dealer_position).player.name
    assert f"{dealer} deals this hand." in page
    assert 'name="points_0"' in page and "Record hand 1" in page


def test_recording_by_points_updates_the_card(revisor, table):
    response = revisor.post(HAND, points_post(table, {"Anna": 4, "Bo": -1, "Cia": -3}, 1))
    assert response.status_code == 302 and response["Location"] == CARD
    assert totals(table) == {"Anna": 4, "Bo": -1, "Cia": -3}
    version = HandVersion.objects.get()
    assert version.entered_by_label == "Revisor, table 1" and version.created_by is None
    page = revisor.get(CARD).content.decode()
    assert "Hand 1 recorded ✓" in page and "Hand 2 of 3" in page


def test_the_points_form_marks_who_plays_in_fantasyland_and_says_what_the_tick_means(
    revisor, table
):
    """A revisor ticked the player who was in Fantasyland because he was in it, and the
    table got a hand more: the tick is for next hand, and this hand's player is marked."""
    revisor.post(HAND, points_post(table, {"Anna": 4, "Bo": 0, "Cia": -4}, 1, fantasyland=["Anna"]))
    page = revisor.get(CARD).content.decode()
    badge = '<span class="badge fl-badge">in Fantasyland</span>'
    assert page.count(badge) == 1
    assert f'<span aria-hidden="true">Anna</span> {badge}' in page
    assert page.count('<span aria-hidden="true">FL next hand</span>') == 3
    # The last hands: +4 and -4, and a nought without a sign.
    assert ">+4<abbr" in page and ">0</td>" in page and ">-4</td>" in page
    assert "+0" not in page


def refused_with_points_kept(response, table, typed, message):
    """The form came back (400) saying why, each typed number in its input, nothing kept."""
    assert response.status_code == 400
    page = response.content.decode()
    assert message in page
    pos = positions(table)
    for name, points in typed.items():
        assert f'name="points_{pos[name]}" value="{points}"' in page
    assert not Hand.objects.exists()


def test_points_not_adding_up_are_refused_and_kept_in_the_inputs(revisor, table):
    typed = {"Anna": 4, "Bo": -1, "Cia": -2}
    response = revisor.post(HAND, points_post(table, typed, 1))
    refused_with_points_kept(
        response, table, typed, "The points must add up to zero; they add up to +1."
    )


def test_a_table_that_kept_moving_keeps_the_typed_hand_to_send_again(revisor, table, monkeypatch):
    """Every attempt found the table moved at its write (a TD at work on it: the PostgreSQL
    tests put real services there, tests/tournament/services/test_hand_without_lock.py):
    nothing is recorded, and the form comes back with what was typed and why."""

    def moved(*args, **kwargs):
        raise store.TableMoved

    monkeypatch.setattr(hands, "store", moved)
    typed = {"Anna": 4, "Bo": -1, "Cia": -3}
    response = revisor.post(HAND, points_post(table, typed, 1))
    refused_with_points_kept(
        response, table, typed, "The table kept changing while hand 1 was recorded: send it again."
    )
    monkeypatch.undo()
    again = revisor.post(HAND, points_post(table, typed, 1))
    assert again.status_code == 302 and totals(table) == typed


def test_a_replayed_submission_records_one_hand_and_says_so(revisor, table):
    data = points_post(table, {"Anna": 2, "Bo": -1, "Cia": -1}, 1)
    revisor.post(HAND, data)
    again = revisor.post(HAND, data, follow=True)
    assert "Hand 1 was already recorded (the same entry arrived twice)." in again.content.decode()
    assert Hand.objects.count() == 1 and totals(table)["Anna"] == 2


def test_another_device_recorded_the_hand_first(revisor, table):
    play(table, 1, 0, -1)  # the TD, on paper, recorded hand 1
    response = revisor.post(
        HAND, points_post(table, {"Anna": 5, "Bo": -5, "Cia": 0}, 1), follow=True
    )
    page = response.content.decode()
    # The card shows hand 1, which this revisor may still fix.
    assert (
        "Hand 1 is already recorded at table 1, from another device: the card shows it. "
        "If it is wrong, fix it until the next hand is recorded." in page
    )
    assert "Hand 2 of 3" in page
    assert Hand.objects.count() == 1


def test_a_hand_two_behind_is_left_to_the_td(revisor, table):
    play(table, 1, 0, -1)
    play(table, 0, 1, -1)  # hands 1 and 2 from another device
    response = revisor.post(
        HAND, points_post(table, {"Anna": 5, "Bo": -5, "Cia": 0}, 1), follow=True
    )
    assert (
        "Hand 1 is already recorded at table 1, from another device: the card shows it. "
        "Only the TD can correct it now." in response.content.decode()
    )
    assert Hand.objects.count() == 2


def test_htmx_entry_swaps_the_fresh_card_in_place(revisor, table):
    response = revisor.post(
        HAND, points_post(table, {"Anna": 2, "Bo": -1, "Cia": -1}, 1), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and "HX-Request" in response["Vary"]
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="revisor-main"')
    assert "Hand 1 recorded ✓" in page and "Hand 2 of 3" in page


def test_a_table_over_takes_no_more_hands(revisor, table):
    for _ in range(3):
        play(table, 3, -1, -2)
    page = revisor.get(CARD).content.decode()
    # The fixture's one table is the final table: its winner is the champion.
    assert "wins the final table and is the champion" in page
    assert "Record hand" not in page
    response = revisor.post(
        HAND, points_post(table, {"Anna": 1, "Bo": 0, "Cia": -1}, 4), follow=True
    )
    assert "is over" in response.content.decode()
    assert Hand.objects.count() == 3


def test_a_table_over_can_still_call_the_td(revisor, table):
    """The revisor cannot fix the last hand of a table that is over; the TD can, if told."""
    for _ in range(3):
        play(table, 3, -1, -2)
    page = revisor.get(CARD).content.decode()
    assert 'action="/r/card/call/"' in page and "Start the 10-second count" not in page
    data = {"kind": "dispute", "note": "Hand 3 was +1, not +3", "submission_key": uuid.uuid4()}
    assert revisor.post(reverse("revisor:call"), data).status_code == 302
    call = TableCall.objects.get()
    assert (call.table_id, call.kind, call.note) == (table.pk, "dispute", "Hand 3 was +1, not +3")
    assert "The TD has been called" in revisor.get(CARD).content.decode()


def test_the_summary_poll_answers_204_until_something_changes(revisor, table):
    summary = reverse("revisor:summary")
    first = revisor.get(summary, {"rev": "nothing"})
    assert first.status_code == 200
    shown = shown_token(first)
    assert revisor.get(summary, {"rev": shown}).status_code == 204
    play(table, 1, 0, -1)
    assert revisor.get(summary, {"rev": shown}).status_code == 200


def shown_token(response):
    return response.content.decode().split('data-poll-rev="', 1)[1].split('"', 1)[0]


def test_an_unchanged_poll_reads_the_session_and_the_table_only(
    revisor, table, django_assert_num_queries
):
    """The token comes with the table the binding reads (its tournament's revision and its
    own): no query of its own."""
    summary = reverse("revisor:summary")
    shown = shown_token(revisor.get(summary, {"rev": "nothing"}))
    assert shown == revision_token(table.level.tournament_id, table.pk)
    with django_assert_num_queries(2):  # the session, the bound table
        assert revisor.get(summary, {"rev": shown}).status_code == 204


def poll_of(response):
    """The card's poll as its page makes it: its URL, with the token shown, as htmx."""
    page = response.content.decode()
    url = page.split('data-poll-url="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    return {"path": url + f"&rev={shown_token(response)}", "headers": {"HX-Request": "true"}}


def test_an_unchanged_poll_of_the_card_is_answered_before_the_session(
    revisor, table, django_assert_num_queries
):
    """The card's poll names its tournament and table: unchanged, it is the table's token
    alone (as a phone's of the table's public page), no session and no binding read."""
    page = revisor.get(CARD)
    poll = poll_of(page)
    assert f"?t={table.level.tournament_id}&table={table.pk}&hand=1&rev=" in poll["path"]
    with django_assert_num_queries(1):  # the table's token
        response = revisor.get(**poll)
    assert response.status_code == 204 and response.content == b""
    assert response["Cache-Control"] == "private" and "HX-Request" in response["Vary"]
    assert "Cookie" not in response.get("Vary", "") and not response.cookies
    play(table, 1, 0, -1)  # a hand from elsewhere: the poll goes the whole way, to the card
    response = revisor.get(**poll)
    assert response.status_code == 200
    assert "Hand 1 was recorded meanwhile" in response.content.decode()


def test_a_card_polling_with_a_newer_token_than_the_process_keeps_gets_204(
    revisor, table, settings, clock, django_assert_num_queries
):
    """Where a process keeps the room's tokens a second, the card sent back after a hand
    shows a newer token than the one kept: it shows the latest already (no query)."""
    from tournament.live.kept import forget_kept

    settings.PUBLIC_TOKEN_SECONDS = 1
    forget_kept()
    page = revisor.get(CARD)
    assert revisor.get(**poll_of(page)).status_code == 204  # the room's tokens read, kept
    after = revisor.post(
        HAND, points_post(table, {"Anna": 2, "Bo": -1, "Cia": -1}, 1), HTTP_HX_REQUEST="true"
    )
    assert "Hand 1 recorded ✓" in after.content.decode()
    assert shown_token(after) != shown_token(page)
    with django_assert_num_queries(0):  # the tokens kept, older than the card's
        assert revisor.get(**poll_of(after)).status_code == 204
    clock.now += 1  # a second on: the tokens read again, the card's own
    with django_assert_num_queries(1):
        assert revisor.get(**poll_of(after)).status_code == 204
    forget_kept()


def test_a_tablet_cut_off_is_told_at_its_next_poll(revisor, table, td_user):
    """Replacing the table's code moves its token: the poll goes the whole way, where the
    binding is found replaced and htmx is sent to the code page."""
    from tournament.services.revisor_access import regenerate_revisor_access

    poll = poll_of(revisor.get(CARD))
    regenerate_revisor_access(table=table, actor=td_user)
    response = revisor.get(**poll)
    assert response.status_code == 200 and response["HX-Redirect"] == reverse("revisor:code")


@pytest.mark.parametrize(
    "query",
    ["t=abc&table=1", "t=1&table=²", "t=1&table=" + "9" * 30, "t=&table=", "table=1", ""],
)
def test_a_card_poll_naming_no_table_goes_the_whole_way(revisor, table, query):
    """Whatever the URL says in place of the ids, the poll is answered as before: by the
    session's table (204 while unchanged), never an error."""
    page = revisor.get(CARD)
    response = revisor.get(
        f"{reverse('revisor:summary')}?{query}&rev={shown_token(page)}", HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 204
    assert "Cookie" in response["Vary"]  # the session was read: the whole way


def test_the_card_after_a_hand_polls_with_the_token_the_hand_left(revisor, table):
    """The card sent back after a hand carries the table's token as the hand wrote it: its
    next poll is a 204, and a hand recorded elsewhere after it is a 200."""
    response = revisor.post(
        HAND,
        points_post(table, {"Anna": 2, "Bo": -1, "Cia": -1}, 1),
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    shown = shown_token(response)
    assert shown == revision_token(table.level.tournament_id, table.pk)
    summary = reverse("revisor:summary")
    assert revisor.get(summary, {"rev": shown}).status_code == 204
    play(table, 1, 0, -1)
    assert revisor.get(summary, {"rev": shown}).status_code == 200


def test_the_card_polls_with_the_tables_token_and_sees_a_renamed_player(revisor, table, td_user):
    """The card's token is the table's, read as every live page reads its own: the TD's
    changes to the tournament (a player's name) reach the card at its next poll too."""
    page = revisor.get(CARD)
    tournament = table.level.tournament
    tournament.refresh_from_db()
    table.refresh_from_db()
    assert shown_token(page) == f"{tournament.revision}.{table.revision}"
    assert shown_token(page) == revision_token(tournament.pk, table.pk)
    summary = reverse("revisor:summary")
    assert revisor.get(summary, {"rev": shown_token(page)}).status_code == 204
    anna = seat_of(table, "Anna").player
    registration.rename_player(player=anna, actor=td_user, name="Annika")
    poll = revisor.get(summary, {"rev": shown_token(page)}, HTTP_HX_REQUEST="true")
    assert poll.status_code == 200
    assert "Annika" in poll.content.decode() and shown_token(poll) != shown_token(page)


def test_calling_the_td_flags_the_table(revisor, table):
    data = {"kind": "dispute", "note": "Back row?", "submission_key": uuid.uuid4()}
    response = revisor.post(reverse("revisor:call"), data)
    assert response.status_code == 302
    call = TableCall.objects.get()
    assert (call.table_id, call.kind, call.note) == (table.pk, "dispute", "Back row?")
    page = revisor.get(CARD).content.decode()
    assert "The TD has been called" in page
    # One call at a time: the timer and the call form wait for the TD, and say so.
    assert "Start the 10-second count" not in page and 'action="/r/card/call/"' not in page
    assert (
        "Timing a player and calling the TD come back once the TD has answered this call." in page
    )


def test_the_card_needs_a_bound_device(client, table):
    assert (
        client.post(HAND, points_post(table, {"Anna": 1, "Bo": 0, "Cia": -1}, 1)).status_code == 302
    )
    assert not Hand.objects.exists()


def test_a_device_bound_to_a_redrawn_table_records_nothing(make_tournament, td_user, client):
    level = draws.draw_first_level(tournament=make_tournament(3), actor=td_user, seed="r")
    table = level.tables.get()
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    draws.redraw_level(level=level, actor=td_user, reason="Wrong seats")
    data = points_post(table, dict(zip(positions(table), (1, 0, -1), strict=True)), 1)
    response = client.post(HAND, data)
    assert response.status_code == 302 and response["Location"] == reverse("revisor:code")
    assert not Hand.objects.exists()
    assert hands  # the service module is what the page calls


def test_a_device_writes_only_to_the_table_it_is_bound_to(client, make_tournament, td_user):
    level = draws.draw_first_level(tournament=make_tournament(6), actor=td_user, seed="two")
    first, second = level.tables.order_by("number")
    client.get(reverse("revisor:link", args=[first.revisor_key]))
    # Whatever the post says (another table's id among the fields), it lands at the bound table.
    data = {"points_0": "2", "points_1": "-1", "points_2": "-1", "hand_number": "1"}
    data.update({"idempotency_key": str(uuid.uuid4()), "table": str(second.pk)})
    client.post(HAND, data)
    assert Hand.objects.filter(table=first).count() == 1
    assert not Hand.objects.filter(table=second).exists()
    # The second table's card is not reachable from this device without its own link.
    page = client.get(CARD).content.decode()
    assert "Table 1 · level 1" in page and "Table 2 · level 1" not in page


def test_revisor_pages_have_no_td_login_link(revisor, client):
    login = reverse("login")
    for url in (CARD, reverse("revisor:code"), reverse("revisor:cards")):
        response = revisor.get(url)
        assert response.status_code == 200, url
        page = response.content.decode()
        assert f'href="{login}' not in page and "TD login" not in page, url
    # The other pages keep it.
    assert f'href="{login}"' in client.get(reverse("public:home")).content.decode()


# ---------------------------------------------------------------- a tie, and its end


def play_by_name(table, by_name):
    pos = positions(table)
    play(table, *[by_name[name] for name in sorted(pos, key=pos.get)])


@pytest.fixture
def tie(table):
    """Hands 1-3 played: Anna 5, Bo 5, Cia -10, tied for first after the 3 required."""
    play_by_name(table, {"Anna": 5, "Bo": -2, "Cia": -3})
    play_by_name(table, {"Anna": -1, "Bo": 3, "Cia": -2})
    play_by_name(table, {"Anna": 1, "Bo": 4, "Cia": -5})
    assert totals(table) == {"Anna": 5, "Bo": 5, "Cia": -10}
    return table


def test_a_tie_break_hand_is_not_hand_4_of_3(revisor, tie):
    page = revisor.get(CARD).content.decode()
    assert "Hand 4, tie-break after the 3 required" in page
    assert "Hand 4 of 3" not in page
    assert "Record hand 4" in page


def test_a_tie_break_hand_in_swedish(revisor, tie):
    revisor.cookies["django_language"] = "sv"
    page = revisor.get(CARD).content.decode()
    assert "Hand 4, särspel efter de krävda händerna (3)" in page
    assert "Hand 4 av 3" not in page


def test_the_td_settling_the_tie_replaces_the_whole_card_at_the_next_poll(revisor, tie, td_user):
    table = tie
    page = revisor.get(CARD).content.decode()
    poll_url = f"/r/card/summary/?t={table.level.tournament_id}&amp;table={table.pk}&amp;hand=4"
    assert f'data-poll-url="{poll_url}"' in page
    shown = shown_token(revisor.get(CARD))
    hands.settle_tie(
        table=table, actor=td_user, winner=seat_of(table, "Bo").player, reason="Card draw"
    )
    poll = revisor.get(
        reverse("revisor:summary"), {"rev": shown, "hand": "4"}, HTTP_HX_REQUEST="true"
    )
    assert poll.status_code == 200
    assert poll["HX-Retarget"] == "#revisor-main" and poll["HX-Reswap"] == "outerHTML"
    body = poll.content.decode()
    assert body.lstrip().startswith('<div id="revisor-main" data-hand="over"')
    assert (
        "the TD settled the tie for first between Anna and Bo. "
        "Bo wins the final table and is the champion." in body
    )
    assert "Record hand" not in body and 'name="points_0"' not in body
    assert "Card draw" not in body  # the TD's reason stays with the TD


def test_a_poll_replaces_the_card_when_its_hand_was_recorded_elsewhere(revisor, table):
    shown = shown_token(revisor.get(CARD))
    play(table, 0, 0, 0)  # another device records hand 1: the form for hand 1 is stale
    poll = revisor.get(
        reverse("revisor:summary"), {"rev": shown, "hand": "1"}, HTTP_HX_REQUEST="true"
    )
    assert poll["HX-Retarget"] == "#revisor-main"
    assert "Hand 1 was recorded meanwhile" in poll.content.decode()
    table.refresh_from_db()
    fresh = revisor.get(
        reverse("revisor:summary"), {"rev": shown, "hand": "2"}, HTTP_HX_REQUEST="true"
    )
    assert "HX-Retarget" not in fresh
    body = fresh.content.decode()
    assert body.lstrip().startswith('<section id="card-summary"')
    assert 'id="last-hands" class="last-hands-area" hx-swap-oob="true"' in body
    assert "Record hand" not in body


def test_a_stale_form_after_the_td_settled_says_why_it_was_not_recorded(revisor, tie, td_user):
    hands.settle_tie(
        table=tie, actor=td_user, winner=seat_of(tie, "Anna").player, reason="Card draw"
    )
    response = revisor.post(HAND, points_post(tie, {"Anna": 1, "Bo": -1, "Cia": 0}, 4), follow=True)
    page = response.content.decode()
    assert "Hand 4 was not recorded: the table is over." in page
    assert "all 3 hands are played" not in page
    assert (
        "the TD settled the tie for first between Anna and Bo. "
        "Anna wins the final table and is the champion." in page
    )
    assert "Record hand" not in page
    assert Hand.objects.filter(table=tie).count() == 3


def test_a_table_that_ends_by_points_says_who_won(revisor, table):
    for _ in range(3):
        play_by_name(table, {"Anna": 3, "Bo": -1, "Cia": -2})
    page = revisor.get(CARD).content.decode()
    assert "The table is over after 3 hands: Anna wins the final table and is the champion." in page
    assert "settled" not in page


# ---------------------------------------------------------------- what the server checks


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("5-", "Points for Bo must be a whole number."),
        ("", "Points for Bo"),
        ("100000", "Points for Bo"),
    ],
)
def test_bad_points_are_refused_in_place_with_what_was_typed(revisor, table, typed, message):
    data = points_post(table, {"Anna": 5, "Bo": 0, "Cia": -5}, 1)
    data[f"points_{positions(table)['Bo']}"] = typed
    response = revisor.post(HAND, data)
    assert response.status_code == 400
    page = response.content.decode()
    assert "The hand was not recorded:" in page and message in page
    assert f'value="{typed}"' in page or typed == ""
    assert not Hand.objects.exists()


def test_a_typographic_minus_is_read_as_minus(revisor, table):
    data = points_post(table, {"Anna": 5, "Bo": 0, "Cia": 0}, 1)
    data[f"points_{positions(table)['Cia']}"] = "\u22125"
    assert revisor.post(HAND, data).status_code == 302
    assert totals(table) == {"Anna": 5, "Bo": 0, "Cia": -5}


# ---------------------------------------------------------------- the table confirms points


@pytest.fixture
def confirming(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"], min_hands=3, table_confirms_points=True)
    return single_table(tournament, td_user)


@pytest.fixture
def confirming_revisor(client, confirming):
    client.get(reverse("revisor:link", args=[confirming.revisor_key]))
    return client


def test_with_the_table_confirming_the_button_checks_first(confirming_revisor, confirming):
    page = confirming_revisor.get(CARD).content.decode()
    assert "Check hand 1" in page and "Record hand 1" not in page


def test_checking_records_nothing_and_shows_what_to_read_out(confirming_revisor, confirming):
    key = uuid.uuid4()
    data = points_post(confirming, {"Anna": 8, "Bo": -5, "Cia": -3}, 1, key=key, fantasyland=["Bo"])
    response = confirming_revisor.post(HAND, {**data, "step": "check"})
    assert response.status_code == 200
    page = response.content.decode()
    assert not Hand.objects.exists()
    assert "Hand 1: read it out to the table" in page
    assert "Nothing is recorded yet." in page
    for name, points in (("Anna", "+8"), ("Bo", "-5"), ("Cia", "-3")):
        assert f'<span class="name">{name}</span> <strong class="points' in page
        assert f">{points}</strong>" in page
    assert "goes to Fantasyland" in page
    assert f'name="idempotency_key" value="{key}"' in page
    assert "Confirm hand 1" in page and "Change the points" in page


def test_a_post_without_a_step_is_only_checked_too(confirming_revisor, confirming):
    data = points_post(confirming, {"Anna": 8, "Bo": -5, "Cia": -3}, 1)
    response = confirming_revisor.post(HAND, data)
    assert response.status_code == 200 and "Confirm hand 1" in response.content.decode()
    assert not Hand.objects.exists()


def test_confirming_records_once_even_when_tapped_twice(confirming_revisor, confirming):
    data = {**points_post(confirming, {"Anna": 8, "Bo": -5, "Cia": -3}, 1), "step": "confirm"}
    first = confirming_revisor.post(HAND, data, follow=True)
    assert "Hand 1 recorded ✓" in first.content.decode()
    again = confirming_revisor.post(HAND, data, follow=True)
    assert "Hand 1 was already recorded (the same entry arrived twice)." in again.content.decode()
    assert Hand.objects.count() == 1
    assert totals(confirming) == {"Anna": 8, "Bo": -5, "Cia": -3}


def test_change_brings_the_form_back_with_the_points_and_the_key(confirming_revisor, confirming):
    key = uuid.uuid4()
    data = points_post(confirming, {"Anna": 8, "Bo": -5, "Cia": -3}, 1, key=key)
    response = confirming_revisor.post(HAND, {**data, "step": "change"})
    page = response.content.decode()
    assert response.status_code == 200 and "Check hand 1" in page
    assert f'name="points_{positions(confirming)["Bo"]}" value="-5"' in page
    assert f'value="{key}"' in page
    assert not Hand.objects.exists()


def test_checking_a_hand_recorded_meanwhile_says_so(confirming_revisor, confirming):
    play(confirming, 1, 0, -1)
    data = points_post(confirming, {"Anna": 8, "Bo": -5, "Cia": -3}, 1)
    page = confirming_revisor.post(HAND, {**data, "step": "check"}, follow=True).content.decode()
    assert "Hand 1 is already recorded at table 1, from another device" in page
    assert "read it out to the table" not in page
    assert Hand.objects.count() == 1


def test_bad_points_are_refused_before_the_readback(confirming_revisor, confirming):
    data = points_post(confirming, {"Anna": 8, "Bo": -5, "Cia": -2}, 1)
    response = confirming_revisor.post(HAND, {**data, "step": "check"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "The points must add up to zero; they add up to +1." in page
    assert "read it out to the table" not in page


def test_the_cards_page_of_a_tie_break_hand_says_so_too(revisor, tie):
    page = revisor.get(reverse("revisor:cards")).content.decode()
    assert "Table 1 · hand 4, tie-break after the 3 required" in page
    assert "hand 4 of 3" not in page
    revisor.cookies["django_language"] = "sv"
    page = revisor.get(reverse("revisor:cards")).content.decode()
    assert "Bord 1 · hand 4, särspel efter de krävda händerna (3)" in page


# ---------------------------------------------------------------- what a page costs


def queries(client, url, **extra):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        assert client.get(url, **extra).status_code == 200
    return len(captured)


def test_the_card_and_its_poll_cost_the_same_at_hand_1_and_hand_9(
    revisor, make_tournament, td_user
):
    long_table = single_table(make_tournament(["Dan", "Eva", "Filip"], min_hands=20), td_user)
    revisor.get(reverse("revisor:link", args=[long_table.revisor_key]))
    poll = reverse("revisor:summary")
    play(long_table, 1, 0, -1)
    revisor.get(CARD)  # the card is heard from (Table.card_seen_at) at most once a minute
    first = (queries(revisor, CARD), queries(revisor, poll, data={"rev": "x"}))
    for _ in range(8):
        play(long_table, 2, -1, -1)
    later = (queries(revisor, CARD), queries(revisor, poll, data={"rev": "x"}))
    assert first == later


@pytest.mark.parametrize("junk", ["x", "1\n2", "-1", "9" * 40, ""])
def test_a_poll_with_a_junk_hand_gets_the_summary(revisor, table, junk):
    poll = revisor.get(reverse("revisor:summary"), {"rev": "old", "hand": junk})
    assert poll.status_code == 200 and "HX-Retarget" not in poll
    assert poll.content.decode().lstrip().startswith('<section id="card-summary"')


def last_hands_rows(page):
    """The card's last hands as text: the heading row, then one row per player."""
    import re

    section = page.split('id="last-hands"', 1)[1].split("</section>", 1)[0]
    rows = re.findall(r"<tr>(.*?)</tr>", section, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in rows]


def test_the_last_hands_show_each_hands_current_points_and_who_goes_to_fantasyland(
    client, make_tournament, td_user, django_assert_num_queries
):
    """The five last hands, oldest first: a hand the TD corrected shows its new points, and
    "FL" marks who went to Fantasyland from a hand."""
    from tests.tournament.conftest import play_named

    table = single_table(make_tournament(["Anna", "Bo", "Cia"], min_hands=10), td_user)
    play_named(table, {"Anna": 2, "Bo": -1, "Cia": -1})
    play_named(table, {"Anna": -3, "Bo": 3, "Cia": 0})
    play_named(table, {"Anna": 0, "Bo": 0, "Cia": 0})
    play_named(table, {"Anna": 6, "Bo": -6, "Cia": 0}, fantasyland_names=["Anna"])
    play_named(table, {"Anna": 1, "Bo": 1, "Cia": -2})
    play_named(table, {"Anna": -4, "Bo": 2, "Cia": 2})
    pos = positions(table)
    hands.correct_hand(
        hand=Hand.objects.get(table=table, number=5),
        actor=td_user,
        reason="Bo's royalties were counted twice",
        based_on_version=1,
        points={pos["Anna"]: 5, pos["Bo"]: -2, pos["Cia"]: -3},
    )
    client.get(reverse("revisor:link", args=[table.revisor_key]))
    heading, *lines = last_hands_rows(client.get(CARD).content.decode())
    assert heading == "Hand 2 3 4 5 6"
    assert sorted(lines) == [  # in seat order on the card
        "Anna -3 0 +6 FL +5 -4",
        "Bo +3 0 -6 -2 +2",
        "Cia 0 0 0 -3 +2",
    ]
    from tournament.selectors.card import read_card
    from tournament.tables.state import load_table

    bound = load_table(table.pk)  # as the tablet's binding reads it
    with django_assert_num_queries(3):  # the seats, the last hands' results, the open call
        card = read_card(bound)
    assert card.hand_numbers == [2, 3, 4, 5, 6]


def test_the_card_after_a_hand_is_the_state_the_hand_left(revisor, table):
    """The card sent back after a hand shows the totals, the dealer and the next hand as the
    hand wrote them, from the seats it read under its lock: no read of them of its own."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.tournament.conftest import play_named

    play_named(table, {"Anna": 3, "Bo": -1, "Cia": -2})
    data = points_post(table, {"Anna": 4, "Bo": -1, "Cia": -3}, 2)
    with CaptureQueriesContext(connection) as queries:
        response = revisor.post(HAND, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Hand 2 recorded ✓" in page and "Hand 3 of 3" in page
    assert totals(table) == {"Anna": 7, "Bo": -2, "Cia": -5}
    for name, total in (("Anna", "7"), ("Bo", "-2"), ("Cia", "-5")):
        row = f'<th scope="row">{name}</th>\n            <td class="num">{total}</td>'
        assert row in page, name
    table.refresh_from_db()
    dealer = table.seats.get(position=table.next_dealer_position).player.name
    assert f"{dealer} deals this hand." in page
    seat_reads = [q for q in queries.captured_queries if 'FROM "tournament_seat"' in q["sql"]]
    # The form's seats before the hand, the hand's own under its lock; none for the card.
    assert len(seat_reads) == 2
