"""Amounts and shares read from what the TD types and written for the reader
(tournament/rules/money.py): whole numbers of öre and basis points, never floats."""

import re

import pytest
from django.utils import translation

from tournament.errors import InvalidEntry
from tournament.rules.money import (
    amount_input,
    check_shares,
    money,
    parse_amount,
    parse_shares,
    percent,
    shares_input,
)

NBSP = "\u00a0"


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("500", 50_000),
        (" 500 ", 50_000),
        ("12.50", 1_250),
        ("12,50", 1_250),
        ("12,5", 1_250),
        ("0,05", 5),
        ("1 000", 100_000),
        ("1\u00a0000", 100_000),
        ("0", 0),
        ("10000000", 1_000_000_000),
    ],
)
def test_amounts_typed_in_units_are_kept_in_ore(text, amount):
    assert parse_amount(text, label="Buy-in") == amount


@pytest.mark.parametrize(
    "text", ["", "abc", "-5", "1,000", "1.000,50", "12.505", "5 kr", "1e3", "10000000.01"]
)
def test_what_is_not_an_amount_is_refused_not_guessed(text):
    with pytest.raises(InvalidEntry, match="Buy-in"):
        parse_amount(text, label="Buy-in")


def test_money_in_english_and_swedish():
    with translation.override("en"):
        assert money(1_315_000, "SEK") == f"13,150{NBSP}SEK"
        assert money(657_550, "EUR") == f"6,575.50{NBSP}EUR"
    with translation.override("sv"):
        assert money(1_315_000, "SEK") == f"13{NBSP}150{NBSP}SEK"
        assert money(657_550, "SEK") == f"6{NBSP}575,50{NBSP}SEK"
        assert money(5, "SEK") == f"0,05{NBSP}SEK"


def test_amount_shown_for_editing_reads_back_the_same():
    with translation.override("sv"):
        assert amount_input(1_250) == "12,50"
        assert parse_amount(amount_input(1_250), label="x") == 1_250
    with translation.override("en"):
        assert amount_input(50_000) == "500"
        assert amount_input(1_250) == "12.50"


@pytest.mark.parametrize(
    ("text", "shares"),
    [
        ("50 30 20", [5_000, 3_000, 2_000]),
        ("50, 30, 20", [5_000, 3_000, 2_000]),
        ("50; 30; 20", [5_000, 3_000, 2_000]),
        ("50%\n30%\n20%", [5_000, 3_000, 2_000]),
        ("42,5 27,5 17 13", [4_250, 2_750, 1_700, 1_300]),
        ("100", [10_000]),
        ("", []),
        ("   ", []),
    ],
)
def test_shares_typed_as_percents_are_kept_in_basis_points(text, shares):
    assert parse_shares(text, label="Shares") == shares


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("50 30", "add up to 80%"),
        ("50 30 30", "add up to 110%"),
        ("30 50 20", "place 2 (50%) would be paid more than place 1 (30%)"),
        ("50,30,20", "is not a percent"),
        ("fifty", "is not a percent"),
        ("100 0", "place 2's share must be more than 0"),
    ],
)
def test_shares_that_cannot_be_paid_are_refused(text, message):
    with translation.override("en"), pytest.raises(InvalidEntry, match=re.escape(message)):
        parse_shares(text, label="Shares")


def test_kept_shares_are_checked_as_typed_ones():
    assert check_shares([5_000, 3_000, 2_000], label="Shares") == [5_000, 3_000, 2_000]
    with pytest.raises(InvalidEntry):
        check_shares([5_000.0, 5_000], label="Shares")
    with pytest.raises(InvalidEntry):
        check_shares("50 50", label="Shares")


def test_percents_in_english_and_swedish():
    with translation.override("en"):
        assert percent(650) == "6.5%"
        assert percent(104) == "1.04%"
        assert shares_input([4_250, 2_750, 3_000]) == "42.5 27.5 30"
    with translation.override("sv"):
        assert percent(650) == f"6,5{NBSP}%"
        assert shares_input([4_250, 2_750, 3_000]) == "42,5 27,5 30"
