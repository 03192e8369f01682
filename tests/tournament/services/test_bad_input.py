"""Every service, called as a careless client would: a ServiceError with a message, nothing stored.

First the cases a hostile tester found (each raised a raw exception or stored
garbage before); then a property test that calls every service with one junk
argument among valid ones, on whichever database the suite runs on.
"""

import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournament.conftest import positions, row_counts
from tournament.errors import ServiceError
from tournament.models import (
    Hand,
    HandResult,
    Level,
    Penalty,
    Player,
    Seat,
    Table,
    Tournament,
)
from tournament.services import draws, hands, penalties, registration

pytestmark = pytest.mark.django_db


def snapshot():
    """Enough of the database to see any change: row counts and every cached number."""
    return (
        row_counts(),
        tuple(Tournament.objects.order_by("pk").values_list("revision", "name", "min_hands")),
        tuple(Table.objects.order_by("pk").values_list("revision", "hands_played", "is_over")),
        tuple(
            (seat.total, seat.penalty_points)
            for seat in Seat.objects.order_by("pk").select_related("table")
        ),
        tuple(Player.objects.order_by("pk").values_list("name", "withdrawn_at", "disqualified")),
    )


class World:
    """A tournament in play (two tables, a hand, a warning), one not yet drawn, and another."""

    def __init__(self, td_user):
        self.actor = td_user
        self.playing = registration.create_tournament(actor=td_user, name="Playing")
        for name in ("Anna", "Bo", "Cia", "Dan", "Eva", "Filip"):
            registration.register_player(tournament=self.playing, actor=td_user, name=name)
        self.level = draws.draw_first_level(tournament=self.playing, actor=td_user, seed="w")
        self.table = Table.objects.current().filter(level=self.level).order_by("number").first()
        self.positions = sorted(positions(self.table).values())
        hands.record_hand(
            table=self.table,
            hand_number=1,
            idempotency_key=uuid.uuid4(),
            points=dict(zip(self.positions, (2, -1, -1), strict=True)),
        )
        self.hand = Hand.objects.get(table=self.table, number=1)
        self.player = Seat.objects.filter(table=self.table).first().player
        self.penalty = penalties.give_penalty(
            tournament=self.playing, player=self.player, kind="slow", actor=td_user
        )
        self.waiting = registration.create_tournament(actor=td_user, name="Waiting")
        self.newcomer = registration.register_player(
            tournament=self.waiting, actor=td_user, name="Gun"
        )
        self.other = registration.create_tournament(actor=td_user, name="Other")
        self.stranger = registration.register_player(
            tournament=self.other, actor=td_user, name="Hugo"
        )

    def points(self, values=(2, -1, -1)):
        return dict(zip(self.positions, values, strict=True))


@pytest.fixture
def world(td_user):
    return World(td_user)


def refused(call, match=None):
    before = snapshot()
    with pytest.raises(ServiceError, match=match) as info:
        call()
    assert snapshot() == before
    assert str(info.value)
    return str(info.value)


# ---------------------------------------------------------------- found by hand


def test_fantasyland_given_as_a_number(world):
    refused(
        lambda: hands.record_hand(
            table=world.table,
            hand_number=2,
            idempotency_key=uuid.uuid4(),
            points=world.points(),
            fantasyland=5,
        ),
        "Fantasyland must be a list of seats",
    )


def test_rows_given_as_lists_are_kept_as_card_text(world, make_tournament):
    tournament = make_tournament(["Ana", "Ben"], name="Cards")
    table = draws.draw_first_level(tournament=tournament, actor=None, seed="c").tables.get()
    boards = {
        0: {"front": ["As", "Ad", "5c"], "middle": "2h 3h 4h 5h 7h", "back": "Ks Kd Kc 9s 9d"},
        1: {
            "front": "2c 3c 4c",
            "middle": "6s 6d 7c 8c 9c",
            "back": ["Qs", "Qh", "Qd", "Qc", "Jh"],
        },
    }
    hands.record_hand(table=table, hand_number=1, idempotency_key=uuid.uuid4(), boards=boards)
    rows = HandResult.objects.filter(version__hand__table=table).order_by("seat__position")
    assert [(r.front, r.back) for r in rows] == [
        ("As Ad 5c", "Ks Kd Kc 9s 9d"),
        ("2c 3c 4c", "Qs Qh Qd Qc Jh"),
    ]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Anna\x00Berg", "character that cannot be kept"),
        ("Anna \ud800", "character that cannot be kept"),
        ("x" * 10_000, "at most 80 characters"),
        (42, "must be text"),
        (None, "must be text"),
        ("   ", "needs a name"),
    ],
)
def test_bad_player_names(world, name, message):
    refused(
        lambda: registration.register_player(
            tournament=world.waiting, actor=world.actor, name=name
        ),
        message,
    )


def test_names_are_trimmed_and_normalized(world):
    # "Bjo\u0308rk" is Björk written with a combining diaeresis: kept as one character.
    player = registration.register_player(
        tournament=world.waiting, actor=world.actor, name="  Lo   Bjo\u0308rk "
    )
    assert player.name == "Lo Bj\u00f6rk"


@pytest.mark.parametrize("value", ["yes", None, 1, "True"], ids=["yes", "None", "one", "text True"])
def test_boolean_setting_must_be_a_boolean(world, value):
    refused(
        lambda: registration.update_settings(
            tournament=world.waiting, actor=world.actor, button_stays_in_fantasyland=value
        ),
        "must be yes or no",
    )


def test_reason_none_is_a_missing_reason(world):
    refused(
        lambda: penalties.rescind_penalty(penalty=world.penalty, actor=world.actor, reason=None),
        "must be text",
    )


def test_settle_tie_without_a_winner(world):
    refused(
        lambda: hands.settle_tie(table=world.table, actor=world.actor, winner=None, reason="x"),
        "winner is missing or unknown",
    )


def test_penalty_for_a_player_of_another_tournament(world):
    refused(
        lambda: penalties.give_penalty(
            tournament=world.playing, player=world.stranger, kind="slow", actor=world.actor
        ),
        "player is missing or unknown",
    )


def test_penalty_for_a_player_that_does_not_exist(world):
    ghost = Player(pk=999_999, tournament=world.playing, number=99, name="Ghost")
    refused(
        lambda: penalties.give_penalty(
            tournament=world.playing, player=ghost, kind="slow", actor=world.actor
        ),
        "player is missing or unknown",
    )


# ---------------------------------------------------------------- any junk at all

TEXT_JUNK = st.one_of(
    st.none(),
    st.integers(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.binary(max_size=5),
    st.lists(st.text(max_size=3), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=1),
    st.sampled_from(["", "   ", "\t\n"]),
    st.text(max_size=5).map(lambda t: t + "\x00"),
    st.text(max_size=5).map(lambda t: t + "\ud800"),
    st.just("x" * 10_000),
)
# Optional texts (notes, labels): empty is fine, anything else above is not.
OPTIONAL_TEXT_JUNK = TEXT_JUNK.filter(lambda v: v not in (None, "", "   ", "\t\n"))
INT_JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.text(max_size=4),
    st.floats(),
    st.integers(min_value=10**5),
    st.integers(max_value=-(10**5)),
    st.lists(st.integers(), max_size=2),
)
CHOICE_JUNK = st.one_of(
    st.none(), st.integers(), st.booleans(), st.text(max_size=8), st.lists(st.text(), max_size=1)
)
BOOL_JUNK = st.one_of(st.none(), st.integers(), st.text(max_size=5), st.floats())
KEY_JUNK = st.one_of(st.none(), st.integers(), st.text(max_size=10), st.booleans())
POINTS_JUNK = st.one_of(
    st.none(),
    st.integers(),
    st.text(max_size=5),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.integers(0, 5), INT_JUNK, min_size=1, max_size=3),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=3),
)
BOARDS_JUNK = st.one_of(
    st.none(),
    st.integers(),
    st.text(max_size=5),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.integers(0, 3), TEXT_JUNK, max_size=3),
    st.dictionaries(
        st.integers(0, 2),
        st.fixed_dictionaries({"front": TEXT_JUNK, "middle": TEXT_JUNK, "back": TEXT_JUNK}),
        max_size=3,
    ),
)
FANTASYLAND_JUNK = st.one_of(
    st.integers(),
    st.text(min_size=1, max_size=3),
    st.lists(st.one_of(st.none(), st.text(max_size=2), st.integers(3, 99)), min_size=1),
    st.dictionaries(st.integers(0, 2), st.integers(), min_size=1, max_size=2),
    st.floats(),
)


def model_junk(world, valid_model):
    """Anything but a saved row of `valid_model` that the call may use."""
    other_model = Hand if valid_model is not Hand else Penalty
    return st.one_of(
        st.none(),
        st.integers(),
        st.text(max_size=4),
        st.just(object()),
        st.just(valid_model()),  # unsaved
        st.sampled_from([world.hand if other_model is Hand else world.penalty]),
    )


def calls(world):
    """Each service: its valid arguments, and a junk strategy for each of them."""
    actor = world.actor
    level_of_other = None  # redraws use the playing level (started: refused either way)
    return {
        "create_tournament": (
            registration.create_tournament,
            {"actor": actor, "name": "New cup", "min_hands": 20, "entry_mode": "points"},
            {
                "name": TEXT_JUNK,
                "min_hands": st.one_of(INT_JUNK, st.integers(max_value=0), st.integers(201)),
                "entry_mode": CHOICE_JUNK.filter(lambda v: v not in ("points", "cards", "either")),
            },
        ),
        "update_settings": (
            registration.update_settings,
            {"tournament": world.waiting, "actor": actor, "royalties": "us"},
            {
                "tournament": model_junk(world, Tournament),
                "royalties": CHOICE_JUNK.filter(lambda v: v not in ("us", "russian")),
            },
        ),
        "register_player": (
            registration.register_player,
            {"tournament": world.waiting, "actor": actor, "name": "Ida"},
            {
                "tournament": model_junk(world, Tournament),
                "name": TEXT_JUNK,
                "lookalike_confirmed": BOOL_JUNK,
            },
        ),
        "register_players": (
            registration.register_players,
            {"tournament": world.waiting, "actor": actor, "names": ["Ida", "Jon"]},
            {
                "tournament": model_junk(world, Tournament),
                # Never a list of clean names: text, a number, or a list holding junk.
                "names": st.one_of(
                    st.none(), st.integers(), st.text(max_size=5), st.lists(TEXT_JUNK, min_size=1)
                ),
                "confirmed": st.one_of(
                    st.none(),
                    st.integers(),
                    st.text(max_size=3),
                    st.lists(st.integers(), min_size=1, max_size=2),
                ),
            },
        ),
        "rename_player": (
            registration.rename_player,
            {"player": world.newcomer, "actor": actor, "name": "Gunnel"},
            {
                "player": model_junk(world, Player),
                "name": TEXT_JUNK,
                "lookalike_confirmed": BOOL_JUNK,
            },
        ),
        "withdraw_player": (
            registration.withdraw_player,
            {"player": world.newcomer, "actor": actor},
            {"player": model_junk(world, Player)},
        ),
        "draw_first_level": (
            draws.draw_first_level,
            {"tournament": world.other, "actor": actor, "seed": None},
            {
                "tournament": model_junk(world, Tournament),
                "seed": TEXT_JUNK.filter(lambda v: v is not None),
            },
        ),
        "redraw_level": (
            draws.redraw_level,
            {"level": world.level, "actor": actor, "reason": "x", "seed": level_of_other},
            {"level": model_junk(world, Level), "reason": TEXT_JUNK},
        ),
        "advance": (
            draws.advance,
            {"tournament": world.playing, "actor": actor},
            {"tournament": model_junk(world, Tournament)},
        ),
        "record_hand": (
            hands.record_hand,
            {
                "table": world.table,
                "hand_number": 2,
                "idempotency_key": uuid.uuid4(),
                "points": world.points(),
                "fantasyland": (),
                "actor_label": "",
            },
            {
                "table": model_junk(world, Table),
                "hand_number": st.one_of(
                    st.none(), st.text(max_size=3), st.floats(), st.booleans(), st.integers(-5, 1)
                ),
                "idempotency_key": KEY_JUNK,
                "points": POINTS_JUNK,
                "fantasyland": FANTASYLAND_JUNK,
                "actor_label": OPTIONAL_TEXT_JUNK,
            },
        ),
        "record_cards": (
            hands.record_hand,
            {
                "table": world.table,
                "hand_number": 2,
                "idempotency_key": uuid.uuid4(),
                "boards": None,
            },
            {"boards": BOARDS_JUNK.filter(lambda v: v is not None)},
        ),
        "correct_hand": (
            hands.correct_hand,
            {
                "hand": world.hand,
                "actor": actor,
                "reason": "typo",
                "based_on_version": 1,
                "points": world.points((1, 0, -1)),
                "fantasyland": (),
            },
            {
                "hand": model_junk(world, Hand),
                "reason": TEXT_JUNK,
                "based_on_version": st.one_of(
                    st.none(),
                    st.text(max_size=3),
                    st.floats(),
                    st.booleans(),
                    st.integers().filter(lambda v: v != 1),  # hand 1 is at version 1
                ),
                "points": POINTS_JUNK,
                "fantasyland": FANTASYLAND_JUNK,
                "idempotency_key": KEY_JUNK.filter(lambda v: v is not None),
            },
        ),
        "settle_tie": (
            hands.settle_tie,
            {"table": world.table, "actor": actor, "winner": world.player, "reason": "draw"},
            {
                "table": model_junk(world, Table),
                "winner": st.one_of(model_junk(world, Player), st.just(world.stranger)),
                "reason": TEXT_JUNK,
            },
        ),
        "give_penalty": (
            penalties.give_penalty,
            {
                "tournament": world.playing,
                "player": world.player,
                "kind": "slow",
                "actor": actor,
                "note": "",
            },
            {
                "tournament": model_junk(world, Tournament),
                "player": st.one_of(model_junk(world, Player), st.just(world.stranger)),
                "kind": CHOICE_JUNK.filter(lambda v: v not in Penalty.Kind.values),
                "note": OPTIONAL_TEXT_JUNK,
            },
        ),
        "rescind_penalty": (
            penalties.rescind_penalty,
            {"penalty": world.penalty, "actor": actor, "reason": "mistake"},
            {"penalty": model_junk(world, Penalty), "reason": TEXT_JUNK},
        ),
    }


SERVICES = [
    "create_tournament",
    "update_settings",
    "register_player",
    "register_players",
    "rename_player",
    "withdraw_player",
    "draw_first_level",
    "redraw_level",
    "advance",
    "record_hand",
    "record_cards",
    "correct_hand",
    "settle_tie",
    "give_penalty",
    "rescind_penalty",
]


@pytest.mark.parametrize("service", SERVICES)
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_any_junk_argument_is_refused_with_a_message(world, service, data):
    function, valid, junk = calls(world)[service]
    argument = data.draw(st.sampled_from(sorted(junk)), label="argument")
    value = data.draw(junk[argument], label="value")
    kwargs = {**valid, argument: value}
    if "idempotency_key" in valid:
        kwargs.setdefault("idempotency_key", uuid.uuid4())
    if argument != "idempotency_key" and "idempotency_key" in kwargs:
        kwargs["idempotency_key"] = uuid.uuid4()
    refused(lambda: function(**kwargs))
