"""The Rules settings object."""

import pytest

from scoring import RULE_CHOICES, RULE_HELP, RUSSIAN, SM, InvalidHand, Rules


def test_defaults_are_sm():
    assert Rules() == SM
    assert SM.to_dict() == {"royalties": "us", "method": "1-6", "fantasyland_repeat": "unlimited"}


def test_russian():
    assert RUSSIAN.to_dict() == {
        "royalties": "russian",
        "method": "1-6",
        "fantasyland_repeat": "unlimited",
    }


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(royalties="russian", method="2-4", fantasyland_repeat="once"),
        Rules(fantasyland_repeat="never"),
    ],
)
def test_round_trip(rules):
    assert Rules.from_dict(rules.to_dict()) == rules


def test_from_dict_fills_defaults():
    assert Rules.from_dict({}) == SM
    assert Rules.from_dict({"royalties": "russian"}) == RUSSIAN


def test_values_are_normalised():
    assert Rules(royalties=" Russian ", fantasyland_repeat="ONCE") == Rules(
        royalties="russian", fantasyland_repeat="once"
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"royalties": "uk"}, "Rules royalties must be one of 'us', 'russian', got 'uk'"),
        ({"method": "1-5"}, "Rules method must be one of '1-6', '2-4', got '1-5'"),
        (
            {"fantasyland_repeat": "twice"},
            "Rules fantasyland_repeat must be one of 'unlimited', 'once', 'never', got 'twice'",
        ),
        ({"royalties": None}, "Rules royalties must be one of 'us', 'russian', got None"),
        ({"method": ["1-6"]}, "Rules method must be one of '1-6', '2-4', got ['1-6']"),
    ],
)
def test_invalid_values(kwargs, message):
    with pytest.raises(InvalidHand) as info:
        Rules(**kwargs)
    assert str(info.value) == message


def test_from_dict_rejects_junk():
    with pytest.raises(InvalidHand, match="Unknown rules setting 'speed'"):
        Rules.from_dict({"speed": "fast"})
    with pytest.raises(InvalidHand, match="Rules must be given as a mapping, got list"):
        Rules.from_dict(["us"])


def test_frozen():
    with pytest.raises(AttributeError):
        SM.method = "2-4"  # type: ignore[misc]


def test_choices_and_help_cover_every_value():
    assert RULE_CHOICES == {
        "royalties": ("us", "russian"),
        "method": ("1-6", "2-4"),
        "fantasyland_repeat": ("unlimited", "once", "never"),
    }
    for name, choices in RULE_CHOICES.items():
        assert set(RULE_HELP[name]) == set(choices)
    assert len(SM.describe()) == 3
