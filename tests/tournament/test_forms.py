"""The TD's and revisor's forms: same limits as the models, every problem reported in place.

Every expected value below is worked out by hand from the rules, not read back.
"""

import datetime
import json
import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation

from tests.tournament.conftest import single_table
from tournament.forms.fields import MAX_BACKUP_BYTES, OnceForm
from tournament.forms.hands import (
    CorrectCardsForm,
    CorrectPointsForm,
    HandCardsForm,
    HandPointsForm,
    split_cards,
)
from tournament.forms.td import (
    AdvanceForm,
    AnnouncementForm,
    DrawForm,
    ImportBackupForm,
    ImportForm,
    PenaltyForm,
    PlayerForm,
    PlayerListForm,
    RedrawForm,
    RenamePlayerForm,
    RescindForm,
    TablePenaltyForm,
    TieForm,
    TournamentSettingsForm,
)
from tournament.models import Player, Seat, Tournament
from tournament.services import hands, penalties, registration

SEATS = [(0, "Anna"), (1, "Bo"), (2, "Cia")]
KEY = "1b4e28ba-2fa1-11d2-883f-0016d3cca427"
LONG_NAME = "x" * 81  # Player.name holds 80


def errors(form, field="__all__"):
    return [str(message) for message in form.errors.get(field, [])]


def points_data(*values, hand=1, key=KEY, **extra):
    data = {f"points_{position}": str(value) for position, value in enumerate(values)}
    return {**data, "hand_number": str(hand), "idempotency_key": key, **extra}


# Anna: QQ front, kings middle, trips back. Bo and Cia: the other cards, no card twice.
BOARDS = {
    0: {"front": "Q♠Q♥2♣", "middle": "K♠ K♥ 9♦ 8♣ 7♠", "back": "AsAdAc3c3s"},
    1: {"front": "4s 4h 2d", "middle": "Js Jh 5d 4c 3d", "back": "9s 10h Jd Qc Kc"},
    2: {"front": "5s,6h,7d", "middle": "tc 9H 2S 3h 4d", "back": "8♤ 8♡ 8♢ 7♧ 6♣️"},
}


def cards_data(boards=BOARDS, hand=1, key=KEY, **extra):
    data = {
        f"{row}_{position}": text
        for position, board in boards.items()
        for row, text in board.items()
    }
    return {**data, "hand_number": str(hand), "idempotency_key": key, **extra}


# ---------------------------------------------------------------- settings


SETTINGS = {
    "name": "  SM   2026 ",
    "min_hands": "20",
    "entry_mode": "either",
    "royalties": "us",
    "scoring_method": "1-6",
    "fantasyland_repeat": "unlimited",
}


@pytest.mark.django_db
def test_settings_form_cleans_the_name_and_gives_the_service_values(td_user):
    form = TournamentSettingsForm({**SETTINGS, "button_stays_in_fantasyland": "on"})
    assert form.is_valid(), form.errors
    assert form.values() == {
        "name": "SM 2026",
        "min_hands": 20,
        "entry_mode": "either",
        "royalties": "us",
        "scoring_method": "1-6",
        "fantasyland_repeat": "unlimited",
        "button_stays_in_fantasyland": True,
        "table_confirms_points": False,
        "release_draws_at_once": False,  # an unticked box, as the form sends it
    }
    tournament = registration.create_tournament(actor=td_user, **form.values())
    assert (tournament.name, tournament.button_stays_in_fantasyland) == ("SM 2026", True)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("min_hands", "0", "Minimum hands per table must be from 1 to 200, not 0."),
        ("min_hands", "201", "Minimum hands per table must be from 1 to 200, not 201."),
        ("min_hands", "twenty", "Minimum hands per table must be a whole number."),
        ("name", "   ", "Name must not be empty."),
        ("name", "x" * 121, "Name can have at most 120 characters (it has 121)."),
        ("entry_mode", "dice", "Hand entry: choose one of the options."),
        ("royalties", "", "Royalty table: choose one of the options."),
    ],
)
def test_settings_form_refuses_out_of_limits(field, value, message):
    form = TournamentSettingsForm({**SETTINGS, field: value})
    assert not form.is_valid()
    assert errors(form, field) == [message]


@pytest.mark.django_db
def test_settings_form_refuses_a_control_character_in_the_name():
    form = TournamentSettingsForm({**SETTINGS, "name": "SM\x072026"})
    assert not form.is_valid()
    assert "U+0007" in errors(form, "name")[0]


def test_settings_form_takes_help_texts_and_labels_from_the_model():
    form = TournamentSettingsForm()
    for name in ("min_hands", "entry_mode", "fantasyland_repeat", "button_stays_in_fantasyland"):
        assert form.fields[name].help_text == Tournament._meta.get_field(name).help_text
    assert str(form.fields["min_hands"].label) == "Minimum hands per table"
    assert form.fields["min_hands"].widget.attrs["inputmode"] == "numeric"


# ---------------------------------------------------------------- players


def test_player_form_normalizes_the_name():
    # "A" + combining ring is "Å" once NFC-normalized; inner blanks fold into one.
    form = PlayerForm({"name": "  A\u030asa   Berg\t"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["name"] == "Åsa Berg"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "Name must not be empty."),
        (LONG_NAME, "Name can have at most 80 characters (it has 81)."),
        ("Bo\x00", "Name contains a character that cannot be kept (U+0000)."),
        ("Bo\x1b[31m", "Name contains a character that cannot be kept (U+001B)."),
        (
            "\u200b \u3164",
            "Name is made only of invisible characters (such as U+200B): it would show as nothing.",
        ),
        (
            "Bo\u2067",
            "Name contains a character that changes the direction of the text (U+2067): the "
            "name could show as something it is not.",
        ),
    ],
)
def test_player_form_refuses_bad_names(name, message):
    form = PlayerForm({"name": name})
    assert not form.is_valid()
    assert errors(form, "name") == [message]


@pytest.mark.django_db
def test_player_form_refuses_the_very_name_and_asks_about_a_case_or_accent_variant(
    make_tournament,
):
    tournament = make_tournament(["Anna", "åsa"])
    exact = PlayerForm({"name": " Anna "}, tournament=tournament)
    assert errors(exact, "name") == ["Anna is already registered (no. 1)."]
    # A near-duplicate is asked about, never refused: it may be another player.
    recased = PlayerForm({"name": "ANNA"}, tournament=tournament)
    assert not recased.is_valid()
    assert errors(recased, "name") == ["ANNA is very like Anna (no. 1). Is this another player?"]
    # Non-ASCII letters fold too (SQLite's iexact would miss this one), and accents go.
    for typed in ("Åsa", "Asa"):
        swedish = PlayerForm({"name": typed}, tournament=tournament)
        assert errors(swedish, "name") == [
            f"{typed} is very like åsa (no. 2). Is this another player?"
        ]
        confirmed = PlayerForm({"name": typed, "confirm": [typed]}, tournament=tournament)
        assert confirmed.is_valid(), confirmed.errors
        assert confirmed.service_kwargs() == {"name": typed, "lookalike_confirmed": True}
    assert PlayerForm({"name": "Bo"}, tournament=tournament).is_valid()


@pytest.mark.django_db
def test_player_form_asks_about_a_lookalike_and_gives_the_confirmation(make_tournament):
    tournament = make_tournament(["Karl-Erik Lind"])
    asked = PlayerForm({"name": "Karl Erik Lind"}, tournament=tournament)
    assert not asked.is_valid()
    assert errors(asked, "name") == [
        "Karl Erik Lind is very like Karl-Erik Lind (no. 1). Is this another player?"
    ]
    assert [(value, str(label)) for value, label in asked.fields["confirm"].choices] == [
        ("Karl Erik Lind", "Yes, another player: add Karl Erik Lind")
    ]
    confirmed = PlayerForm(
        {"name": "Karl  Erik Lind", "confirm": ["Karl Erik Lind"]}, tournament=tournament
    )
    assert confirmed.is_valid(), confirmed.errors
    assert confirmed.service_kwargs() == {"name": "Karl Erik Lind", "lookalike_confirmed": True}
    plain = PlayerForm({"name": "Karl Lind", "confirm": ["Karl Lind"]}, tournament=tournament)
    assert plain.is_valid()
    assert plain.service_kwargs() == {"name": "Karl Lind", "lookalike_confirmed": False}
    assert plain.fields["confirm"].choices == []  # nothing to ask about: no checkbox


@pytest.mark.django_db
def test_rename_form_lets_a_player_keep_his_name_but_not_take_another(make_tournament):
    tournament = make_tournament(["Anna", "Bo"])
    anna = Player.objects.get(tournament=tournament, name="Anna")
    assert RenamePlayerForm(player=anna)["name"].value() == "Anna"
    recased = RenamePlayerForm({"name": "ANNA"}, player=anna)
    assert recased.is_valid()
    assert recased.cleaned_data["name"] == "ANNA"
    clash = RenamePlayerForm({"name": "Bo"}, player=anna)
    assert not clash.is_valid()
    assert errors(clash, "name") == ["Bo is already registered (no. 2)."]
    accented = RenamePlayerForm({"name": "bö"}, player=anna)
    assert errors(accented, "name") == ["bö is very like Bo (no. 2). Is this another player?"]
    alike = RenamePlayerForm({"name": "B-O"}, player=anna)
    assert errors(alike, "name") == ["B-O is very like Bo (no. 2). Is this another player?"]
    assert str(alike.fields["confirm"].choices[0][1]) == "Yes, another player: rename to B-O"
    too_long = RenamePlayerForm({"name": LONG_NAME}, player=anna)
    assert not too_long.is_valid()


def test_player_list_reports_every_bad_line_with_its_number():
    # Line 2 is blank (skipped), 3 and 4 are the same name (the service skips the second),
    # line 5 is too long, line 6 shows nothing, line 7 turns the text around.
    form = PlayerListForm({"names": "Anna\n\nåsa\n åsa\n" + LONG_NAME + "\n\u2800\n\u202eBo"})
    assert not form.is_valid()
    assert errors(form, "names") == [
        "Line 5 can have at most 80 characters (it has 81).",
        "Line 6 is made only of invisible characters (such as U+2800): it would show as nothing.",
        "Line 7 contains a character that changes the direction of the text (U+202E): the "
        "name could show as something it is not.",
    ]
    assert "names" not in form.cleaned_data  # nothing half-accepted


def test_player_list_gives_the_clean_names_in_order():
    form = PlayerListForm({"names": " Anna  Berg \r\n\r\n  \r\nBo\r\nA\u030asa\r\n"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["names"] == ["Anna Berg", "Bo", "Åsa"]
    assert form.service_kwargs() == {"names": ["Anna Berg", "Bo", "Åsa"], "confirmed": []}


@pytest.mark.parametrize("text", ["", "\n\n", "  \r\n \t \r\n"])
def test_player_list_refuses_an_empty_list(text):
    form = PlayerListForm({"names": text})
    assert not form.is_valid()
    assert errors(form, "names") == ["Enter at least one name."]


def test_player_list_reports_a_forbidden_character_on_its_line():
    form = PlayerListForm({"names": "Anna\nB\x07o\nCia"})
    assert not form.is_valid()
    assert errors(form, "names") == ["Line 2 contains a character that cannot be kept (U+0007)."]


@pytest.mark.django_db
def test_player_list_leaves_names_already_registered_for_the_service_to_skip(make_tournament):
    tournament = make_tournament(["Anna", "Åsa"])
    form = PlayerListForm({"names": "Dan\n Anna \nÅsa\nEva"}, tournament=tournament)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["names"] == ["Dan", "Anna", "Åsa", "Eva"]


@pytest.mark.django_db
def test_player_list_asks_about_a_case_or_accent_variant_of_a_registered_name(make_tournament):
    tournament = make_tournament(["Anna", "Åsa Öberg"])
    asked = PlayerListForm({"names": "Dan\nasa öberg\nANNA"}, tournament=tournament)
    assert not asked.is_valid()
    assert errors(asked, "names") == [
        "Line 2: asa öberg is very like Åsa Öberg (no. 2). Is this another player?",
        "Line 3: ANNA is very like Anna (no. 1). Is this another player?",
    ]
    confirmed = PlayerListForm(
        {"names": "Dan\nasa öberg\nANNA", "confirm_names": ["asa öberg", "ANNA"]},
        tournament=tournament,
    )
    assert confirmed.is_valid(), confirmed.errors
    assert confirmed.service_kwargs()["confirmed"] == ["ANNA", "asa öberg"]


@pytest.mark.django_db
def test_player_list_asks_about_each_lookalike_line(make_tournament):
    tournament = make_tournament(["Karl-Erik Lind"])
    typed = "Karl Erik Lind\nBo\n\nBo-"
    asked = PlayerListForm({"names": typed}, tournament=tournament)
    assert not asked.is_valid()
    assert errors(asked, "names") == [
        "Line 1: Karl Erik Lind is very like Karl-Erik Lind (no. 1). Is this another player?",
        "Line 4: Bo- is very like Bo on line 2. Is this another player?",
    ]
    assert [(v, str(label)) for v, label in asked.fields["confirm_names"].choices] == [
        ("Karl Erik Lind", "Line 1: yes, another player: register Karl Erik Lind"),
        ("Bo-", "Line 4: yes, another player: register Bo-"),
    ]
    # A confirmation for a name the list does not ask about is not passed on.
    both = PlayerListForm(
        {"names": typed, "confirm_names": ["Bo-", "Karl Erik Lind", "Cia"]}, tournament=tournament
    )
    assert both.is_valid(), both.errors
    assert both.service_kwargs() == {
        "names": ["Karl Erik Lind", "Bo", "Bo-"],
        "confirmed": ["Bo-", "Karl Erik Lind"],
    }


# ---------------------------------------------------------------- points


def test_points_that_add_up_to_zero_are_accepted():
    form = HandPointsForm(points_data(5, -3, -2, fantasyland_0="on"), seats=SEATS)
    assert form.is_valid(), form.errors
    assert form.points() == {0: 5, 1: -3, 2: -2}
    assert form.fantasyland() == {0}
    assert form.service_kwargs() == {
        "hand_number": 1,
        "idempotency_key": uuid.UUID(KEY),
        "points": {0: 5, 1: -3, 2: -2},
        "fantasyland": {0},
    }


def test_points_that_do_not_add_up_say_what_they_add_up_to():
    form = HandPointsForm(points_data(5, -3, -1), seats=SEATS)
    assert not form.is_valid()
    assert errors(form) == ["The points must add up to zero; they add up to +1."]
    minus = HandPointsForm(points_data(-5, 3, 1), seats=SEATS)
    assert not minus.is_valid()
    assert errors(minus) == ["The points must add up to zero; they add up to -1."]


def test_the_sum_check_speaks_swedish():
    form = HandPointsForm(points_data(5, -3, -1), seats=SEATS)
    with translation.override("sv"):
        assert not form.is_valid()
        assert errors(form) == ["Poängen måste summera till noll; de summerar till +1."]
        assert str(form["points_0"].label) == "Poäng för Anna"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("", "Points for Bo must not be empty."),
        ("three", "Points for Bo must be a whole number."),
        ("2.5", "Points for Bo must be a whole number."),
        ("1000", "Points for Bo must be from -999 to 999, not 1000."),
        ("-1000", "Points for Bo must be from -999 to 999, not -1000."),
        ("9" * 5000, "Points for Bo must be a whole number."),
    ],
)
def test_a_bad_points_entry_names_the_player(value, message):
    form = HandPointsForm(points_data(5, value, -5), seats=SEATS)
    assert not form.is_valid()
    assert errors(form, "points_1") == [message]
    assert errors(form) == []  # no sum check while a player's points are unreadable


def test_points_accept_a_plus_sign_and_a_typographic_minus():
    form = HandPointsForm(points_data("+3", "\u22123", "0"), seats=SEATS)
    assert form.is_valid(), form.errors
    assert form.points() == {0: 3, 1: -3, 2: 0}


def test_points_form_for_a_heads_up_table_and_its_widgets():
    form = HandPointsForm(seats=[(2, "Cia"), (0, "Anna")], hand_number=7)
    assert list(form.fields) == [
        "points_0",
        "fantasyland_0",
        "points_2",
        "fantasyland_2",
        "hand_number",
        "idempotency_key",
    ]
    points = form.fields["points_0"]
    # A number input with no inputmode: phones show a keyboard with a minus sign.
    assert points.widget.input_type == "number" and "inputmode" not in points.widget.attrs
    assert (points.min_value, points.max_value) == (-999, 999)
    assert str(form.fields["fantasyland_2"].label) == "Cia goes to Fantasyland"
    assert form["hand_number"].value() == 7
    assert uuid.UUID(str(form["idempotency_key"].value()))  # a fresh key for every form
    assert form["idempotency_key"].value() != HandPointsForm(seats=SEATS)["idempotency_key"].value()
    assert [row.name for row in form.seat_rows()] == ["Anna", "Cia"]
    assert form.is_bound is False


def test_hidden_fields_ask_for_a_reload():
    form = HandPointsForm(points_data(1, -1, 0, hand="0", key="not-a-key"), seats=SEATS)
    assert not form.is_valid()
    assert errors(form, "hand_number") == ["The hand number is missing; reload the page."]
    assert errors(form, "idempotency_key") == ["The submission has no valid key; reload the page."]


@pytest.mark.django_db
def test_points_form_built_from_seats_records_a_hand(make_tournament, td_user):
    table = single_table(make_tournament(3), td_user)
    seats = list(Seat.objects.filter(table=table).select_related("player").order_by("position"))
    form = HandPointsForm(points_data(5, -3, -2), seats=seats)
    assert [str(form[f"points_{s.position}"].label) for s in seats] == [
        f"Points for {s.player.name}" for s in seats
    ]
    assert form.is_valid(), form.errors
    recorded = hands.record_hand(table=table, actor=td_user, **form.service_kwargs())
    assert recorded.created
    table.refresh_from_db()
    assert table.hands_played == 1
    assert {s.position: s.total for s in table.seats.all()} == {0: 5, 1: -3, 2: -2}


# ---------------------------------------------------------------- cards


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("Q♠Q♥7♦", ["Q♠", "Q♥", "7♦"]),
        ("QsQh7d", ["Qs", "Qh", "7d"]),
        ("10h9h8h", ["10h", "9h", "8h"]),
        ("q♠️ 10♥️,t♦", ["q♠", "10♥", "t♦"]),
        ("  As  Kd\tQh ", ["As", "Kd", "Qh"]),
        ("QsQx7d", ["Qs", "Qx", "7d"]),
        # Words stay whole: "three" is not T♥ and "ree".
        ("three four five", ["three", "four", "five"]),
        ("AsKdQh", ["As", "Kd", "Qh"]),
        ("", []),
    ],
)
def test_split_cards(text, tokens):
    assert split_cards(text) == tokens


def test_cards_are_parsed_and_given_as_plain_codes():
    form = HandCardsForm(cards_data(), seats=SEATS)
    assert form.is_valid(), form.errors
    assert form.boards() == {
        0: {"front": "Qs Qh 2c", "middle": "Ks Kh 9d 8c 7s", "back": "As Ad Ac 3c 3s"},
        1: {"front": "4s 4h 2d", "middle": "Js Jh 5d 4c 3d", "back": "9s Th Jd Qc Kc"},
        2: {"front": "5s 6h 7d", "middle": "Tc 9h 2s 3h 4d", "back": "8s 8h 8d 7c 6c"},
    }
    assert set(form.service_kwargs()) == {"hand_number", "idempotency_key", "boards"}


def test_symbols_without_spaces():
    boards = {**BOARDS, 0: {**BOARDS[0], "front": "Q♠Q♥7♦"}}
    boards[2] = {**BOARDS[2], "front": "5s 6h 2c"}  # 7♦ moved to Anna's front
    form = HandCardsForm(cards_data(boards), seats=SEATS)
    assert form.is_valid(), form.errors
    assert form.boards()[0]["front"] == "Qs Qh 7d"


@pytest.mark.parametrize(
    ("field", "text", "message"),
    [
        ("front_1", "4s 4h", "Bo's front has 2 cards; it needs 3"),
        ("middle_1", "Js Jh 5d 4c 3d 2h", "Bo's middle has 6 cards; it needs 5"),
        ("middle_1", "JsJx5d4c3d", 'Unknown card "Jx" in Bo\'s middle'),
        ("back_1", "", "Bo's back is missing"),
        ("front_1", "4s 4h 1d", 'Unknown card "1d" in Bo\'s front'),
        ("front_1", "three four five", 'Unknown card "three" in Bo\'s front'),
    ],
)
def test_a_bad_row_is_reported_on_its_field(field, text, message):
    form = HandCardsForm(cards_data(**{field: text}), seats=SEATS)
    assert not form.is_valid()
    assert errors(form, field) == [message]
    assert [name for name in form.errors] == [field]


def test_a_card_entered_twice_names_the_card_and_both_places():
    # Bo's front 4♠ 4♥ 2♦ becomes 4♠ 4♥ Q♠: Q♠ is already in Anna's front.
    form = HandCardsForm(cards_data(front_1="4s 4h Qs"), seats=SEATS)
    assert not form.is_valid()
    assert errors(form) == ["Card Q♠ appears twice: Anna's front and Bo's front"]


def test_every_duplicate_is_reported_while_other_rows_are_wrong_too():
    form = HandCardsForm(
        cards_data(front_1="4s 4h Qs", back_2="As 8h 8d 7c 6c", middle_0="Ks"), seats=SEATS
    )
    assert not form.is_valid()
    assert errors(form, "middle_0") == ["Anna's middle has 1 card; it needs 5"]
    assert errors(form) == [
        "Card Q♠ appears twice: Anna's front and Bo's front",
        "Card A♠ appears twice: Anna's back and Cia's back",
    ]


def test_cards_labels_name_the_player_and_row():
    form = HandCardsForm(seats=[(0, "Anna"), (1, "Lars")])
    assert str(form["front_0"].label) == "Anna: front (3 cards)"
    with translation.override("sv"):
        assert str(form["back_1"].label) == "Lars: botten (5 kort)"
    assert [len(row.fields) for row in form.seat_rows()] == [3, 3]


@pytest.mark.django_db
def test_cards_form_records_a_hand(make_tournament, td_user):
    table = single_table(make_tournament(3), td_user)
    seats = list(Seat.objects.filter(table=table).select_related("player"))
    form = HandCardsForm(cards_data(), seats=seats)
    assert form.is_valid(), form.errors
    hands.record_hand(table=table, actor=td_user, **form.service_kwargs())
    table.refresh_from_db()
    assert table.hands_played == 1
    # Positions 0/1/2 hold the boards above: 36, -9 and -27 (see the hand service tests).
    assert {s.position: s.total for s in table.seats.all()} == {0: 36, 1: -9, 2: -27}


# ---------------------------------------------------------------- corrections


def test_a_points_correction_needs_a_reason_and_the_version_it_was_made_from():
    form = CorrectPointsForm(points_data(5, -3, -2), seats=SEATS)
    assert not form.is_valid()
    assert errors(form, "reason") == ["Reason must not be empty."]
    assert errors(form, "version") == ["The hand's version is missing; reload the page."]
    assert list(form.fields)[-4:] == ["reason", "version", "hand_number", "idempotency_key"]
    assert form["version"].field.widget.is_hidden


def test_a_points_correction_gives_the_service_its_arguments():
    form = CorrectPointsForm(
        points_data(
            4, -4, 0, fantasyland_2="on", reason="  Revisor swapped\r\nBo and Anna ", version="3"
        ),
        seats=SEATS,
    )
    assert form.is_valid(), form.errors
    assert form.service_kwargs() == {
        "idempotency_key": uuid.UUID(KEY),
        "points": {0: 4, 1: -4, 2: 0},
        "fantasyland": {2},
        "reason": "Revisor swapped\nBo and Anna",
        "based_on_version": 3,
    }


def test_a_correction_reason_is_held_to_the_column():
    long = CorrectPointsForm(points_data(1, -1, 0, reason="r" * 501, version="1"), seats=SEATS)
    assert not long.is_valid()
    assert errors(long, "reason") == ["Reason can have at most 500 characters (it has 501)."]
    fits = points_data(1, -1, 0, reason="r" * 500, version="1")
    assert CorrectPointsForm(fits, seats=SEATS).is_valid()


def test_a_cards_correction():
    form = CorrectCardsForm(cards_data(reason="Wrong back for Bo", version="2"), seats=SEATS)
    assert form.is_valid(), form.errors
    kwargs = form.service_kwargs()
    assert kwargs["reason"] == "Wrong back for Bo" and kwargs["based_on_version"] == 2
    assert kwargs["boards"][1]["back"] == "9s Th Jd Qc Kc"
    assert "hand_number" not in kwargs
    bad = CorrectCardsForm(cards_data(front_0="Qs Qh", version="x"), seats=SEATS)
    assert not bad.is_valid()
    assert set(bad.errors) == {"front_0", "reason", "version"}


# ---------------------------------------------------------------- penalties, ties, redraws


@pytest.mark.django_db
def test_penalty_form_offers_only_players_still_in(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia", "Dan"])
    other = make_tournament(["Eva"], name="Other")
    players = {p.name: p for p in Player.objects.filter(tournament=tournament)}
    registration.withdraw_player(player=players["Dan"], actor=td_user)
    for _ in range(3):  # a third warning disqualifies
        penalties.give_penalty(
            tournament=tournament, player=players["Cia"], kind="slow", actor=td_user
        )
    form = PenaltyForm(tournament=tournament)
    assert [p.name for p in form.fields["player"].queryset] == ["Anna", "Bo"]
    for name in ("Cia", "Dan"):
        refused = PenaltyForm({"player": players[name].pk, "kind": "slow"}, tournament=tournament)
        assert not refused.is_valid()
        assert errors(refused, "player") == ["Player: choose one of the options."]
    eva = Player.objects.get(tournament=other)
    assert not PenaltyForm({"player": eva.pk, "kind": "slow"}, tournament=tournament).is_valid()


@pytest.mark.django_db
def test_penalty_form_values(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo"])
    anna = Player.objects.get(tournament=tournament, name="Anna")
    form = PenaltyForm(
        {"player": anna.pk, "kind": "conduct", "note": " Argued with the dealer "},
        tournament=tournament,
    )
    assert form.is_valid(), form.errors
    assert form.service_kwargs() == {
        "tournament": tournament,
        "player": anna,
        "kind": "conduct",
        "note": "Argued with the dealer",
    }
    penalty = penalties.give_penalty(actor=td_user, **form.service_kwargs())
    assert (penalty.warning_number, penalty.note) == (1, "Argued with the dealer")
    no_note = PenaltyForm({"player": anna.pk, "kind": "slow"}, tournament=tournament)
    assert no_note.is_valid()
    assert no_note.cleaned_data["note"] == ""


@pytest.mark.django_db
def test_penalty_form_refusals(make_tournament):
    tournament = make_tournament(["Anna", "Bo"])
    anna = Player.objects.get(tournament=tournament, name="Anna")
    form = PenaltyForm(
        {"player": anna.pk, "kind": "cheating", "note": "n" * 501}, tournament=tournament
    )
    assert not form.is_valid()
    assert errors(form, "kind") == ["Kind of penalty: choose one of the options."]
    assert errors(form, "note") == ["Note can have at most 500 characters (it has 501)."]
    empty = PenaltyForm({}, tournament=tournament)
    assert not empty.is_valid()
    assert set(empty.errors) == {"player", "kind"}


def test_rescind_form():
    assert errors(RescindForm({"reason": " \n "}), "reason") == ["Reason must not be empty."]
    assert errors(RescindForm({"reason": "r" * 501}), "reason") == [
        "Reason can have at most 500 characters (it has 501)."
    ]
    form = RescindForm({"reason": " Clock was wrong "})
    assert form.is_valid()
    assert form.service_kwargs() == {"reason": "Clock was wrong"}


@pytest.mark.django_db
def test_tie_form_chooses_among_the_tied_players(make_tournament, td_user):
    tournament = make_tournament(["Anna", "Bo", "Cia"])
    players = {p.name: p for p in Player.objects.filter(tournament=tournament)}
    leaders = [players["Anna"], players["Bo"]]
    form = TieForm({"winner": str(players["Bo"].pk), "reason": "High card"}, leaders=leaders)
    assert form.is_valid(), form.errors
    # No settlement sent: the page showed the tie open.
    assert form.service_kwargs() == {
        "winner": players["Bo"],
        "reason": "High card",
        "based_on_settlement": None,
    }
    shown = TieForm(
        {"winner": str(players["Bo"].pk), "reason": "x", "settlement": "12"}, leaders=leaders
    )
    assert shown.is_valid() and shown.service_kwargs()["based_on_settlement"] == 12
    damaged = TieForm(
        {"winner": str(players["Bo"].pk), "reason": "x", "settlement": "?"}, leaders=leaders
    )
    assert errors(damaged, "settlement") == [
        "This form is out of date: reload the page and send it again."
    ]
    outsider = TieForm({"winner": str(players["Cia"].pk), "reason": "x"}, leaders=leaders)
    assert not outsider.is_valid()
    assert errors(outsider, "winner") == ["Winner: choose one of the options."]
    no_reason = TieForm({"winner": str(players["Anna"].pk)}, leaders=leaders)
    assert errors(no_reason, "reason") == ["Reason must not be empty."]
    # Seats work too: their players are offered.
    table = single_table(tournament, td_user)
    seats = list(table.seats.select_related("player").order_by("position"))
    labels = sorted(label for _key, label in TieForm(leaders=seats).fields["winner"].choices)
    assert labels == ["Anna", "Bo", "Cia"]


def test_redraw_form():
    assert errors(RedrawForm({"reason": ""}), "reason") == ["Reason must not be empty."]
    assert errors(RedrawForm({"reason": "r" * 301}), "reason") == [
        "Reason can have at most 300 characters (it has 301)."
    ]
    form = RedrawForm({"reason": "r" * 300, "draw": "7"})
    assert form.is_valid()
    assert form.service_kwargs() == {"reason": "r" * 300, "based_on_draw": 7}
    assert errors(RedrawForm({"reason": "x"}), "draw") == [
        "This form is out of date: reload the page and send it again."
    ]


# ---------------------------------------------------------------- import


def upload(content, name="backup.json"):
    return {"backup": SimpleUploadedFile(name, content, content_type="application/json")}


def test_import_form_reads_the_json():
    data = {"format": "pofc-shootout-tournament", "version": 1, "name": "Åsa"}
    form = ImportForm({}, upload(json.dumps(data, ensure_ascii=False).encode()))
    assert form.is_valid(), form.errors
    assert form.data_from_file() == data


def test_import_form_refuses_a_file_over_20_mb():
    form = ImportForm({}, upload(b" " * (MAX_BACKUP_BYTES + 1)))
    assert MAX_BACKUP_BYTES == 20 * 1024 * 1024
    assert not form.is_valid()
    assert errors(form, "backup") == [
        "The file is more than 20.0\xa0MB; a backup can be at most 20.0\xa0MB."
    ]
    form = ImportForm({}, upload(b" " * (MAX_BACKUP_BYTES + 3 * 1024 * 1024)))
    assert errors(form, "backup") == ["The file is 23.0\xa0MB; a backup can be at most 20.0\xa0MB."]


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({}, "Choose the backup file to import."),
        (upload(b""), "The backup file is empty."),
        (upload(b"\xff\xfe{}"), "The backup file is not UTF-8 text."),
        (upload(b'{"a": 1,\n  oops}'), "The backup file is not valid JSON (line 2, column 3)."),
        (
            upload(b"[" * 100_000),
            "The backup file is nested too deeply (more than 64 levels of brackets).",
        ),
    ],
)
def test_import_form_refusals(files, message):
    form = ImportForm({}, files)
    assert not form.is_valid()
    assert errors(form, "backup") == [message]


# ---------------------------------------------------------------- every form


@pytest.mark.django_db
def test_every_field_has_a_label_and_it_is_translated(make_tournament):
    tournament = make_tournament(["Anna", "Bo"])
    forms = [
        TournamentSettingsForm(),
        PlayerForm(),
        PlayerListForm(),
        HandPointsForm(seats=SEATS),
        HandCardsForm(seats=SEATS),
        CorrectPointsForm(seats=SEATS),
        CorrectCardsForm(seats=SEATS),
        PenaltyForm(tournament=tournament),
        RescindForm(),
        TieForm(leaders=Player.objects.filter(tournament=tournament)),
        RedrawForm(),
        ImportForm(),
    ]
    for form in forms:
        for name, field in form.fields.items():
            assert field.label, f"{type(form).__name__}.{name} has no label"
    with translation.override("sv"):
        assert str(PlayerListForm().fields["names"].label) == "Spelare, ett namn per rad"
        assert str(PenaltyForm(tournament=tournament).fields["kind"].label) == "Typ av straff"
        assert str(RescindForm().fields["reason"].label) == "Motivering"
        assert str(TournamentSettingsForm().fields["name"].label) == "Namn"


def test_an_unbound_once_form_gets_a_fresh_key_each_time():
    assert OnceForm().initial["submission_key"] != OnceForm().initial["submission_key"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("sent", "call"),
    [
        ("42", 42),
        ("", None),
        ("4x", None),
        ("-3", None),
        ("1" * 19, None),
        ("1" * 18, 111111111111111111),
    ],
)
def test_the_penalty_form_reads_the_call_it_answers(make_tournament, td_user, sent, call):
    """The confirmation sends the revisor's call as `call`: an id, or none at all."""
    tournament = make_tournament(3)
    table = single_table(tournament, td_user)
    form = TablePenaltyForm({"call": sent}, tournament=tournament, table=table)
    assert form.call_id() == call


@pytest.mark.django_db
def test_the_penalty_form_without_a_call(make_tournament, td_user):
    tournament = make_tournament(3)
    form = TablePenaltyForm({}, tournament=tournament, table=single_table(tournament, td_user))
    assert form.call_id() is None


@pytest.mark.parametrize(
    ("settings", "name"),
    [({"name": "Åre Öppna"}, "Åre Öppna"), ({"name": 7}, None), ({}, None), ("SM", None)],
)
def test_the_import_form_reads_the_backup_s_tournament_name(settings, name):
    data = {"format": "x", "settings": settings}
    form = ImportBackupForm(
        {"submission_key": str(uuid.uuid4())}, upload(json.dumps(data).encode())
    )
    assert form.is_valid(), form.errors
    assert form.tournament_name() == name


def test_a_damaged_import_form_gets_a_fresh_key_and_a_sound_one_keeps_its_own():
    damaged = ImportBackupForm({"submission_key": "not-a-key"}, upload(b"{}"))
    assert not damaged.is_valid()
    damaged.renew_damaged_key()
    fresh = damaged.data["submission_key"]
    assert fresh != "not-a-key" and str(uuid.UUID(fresh)) == fresh
    key = str(uuid.uuid4())
    sound = ImportBackupForm({"submission_key": key}, upload(b"[]"))
    sound.is_valid()
    sound.renew_damaged_key()
    assert sound.data["submission_key"] == key


def test_the_announcement_form_gives_the_service_its_text_and_end():
    now = datetime.datetime(2026, 3, 7, 18, 0, tzinfo=datetime.UTC)
    form = AnnouncementForm({"text": "Break until 19:00", "minutes": "45"}, now=now)
    assert form.is_valid(), form.errors
    # 18:00 and 45 minutes: it shows until 18:45.
    assert form.service_kwargs() == {
        "text": "Break until 19:00",
        "ends_at": datetime.datetime(2026, 3, 7, 18, 45, tzinfo=datetime.UTC),
    }
    lasting = AnnouncementForm({"text": "Welcome"}, now=now)
    assert lasting.is_valid() and lasting.service_kwargs() == {"text": "Welcome", "ends_at": None}


@pytest.mark.parametrize(("sent", "withdraw"), [({"withdraw_absent": "on"}, True), ({}, False)])
def test_the_draw_form_gives_the_service_its_answer_and_key(sent, withdraw):
    key = uuid.uuid4()
    form = DrawForm({"submission_key": str(key), **sent})
    assert form.is_valid(), form.errors
    assert form.service_kwargs() == {"withdraw_absent": withdraw, "key": key}


@pytest.mark.parametrize(
    ("finishes", "announced", "asked", "withdraw"),
    [
        (True, True, True, True),  # the final close: the announcement goes by default
        (False, True, True, False),  # a level change: it stays by default
        (True, False, False, False),  # none shown: nothing asked
        (False, False, False, False),
    ],
)
def test_the_close_form_asks_about_the_announcement_only_when_one_is_shown(
    finishes, announced, asked, withdraw
):
    form = AdvanceForm.to_close(3, finishes=finishes, announced=announced)
    assert not form.is_bound
    initial = {name: value for name, value in form.initial.items() if name != "submission_key"}
    assert initial == {
        "level": 3,
        "announcement_asked": asked,
        "withdraw_announcement": withdraw,
    }


@pytest.mark.parametrize(
    ("sent", "withdraw"),
    [
        ({"announcement_asked": "on", "withdraw_announcement": "on"}, True),
        ({"announcement_asked": "on"}, False),  # asked, and the box left empty: it stays
        ({"withdraw_announcement": "on"}, None),  # not asked: the service's own rule
    ],
)
def test_the_close_form_gives_the_service_the_level_the_answer_and_the_key(sent, withdraw):
    key = uuid.uuid4()
    form = AdvanceForm({"submission_key": str(key), "level": "2", **sent})
    assert form.is_valid(), form.errors
    assert form.service_kwargs() == {
        "level_number": 2,
        "withdraw_announcement": withdraw,
        "key": key,
    }
