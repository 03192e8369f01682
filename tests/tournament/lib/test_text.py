"""Names sorted the Swedish way: a-z, then Å, Ä, Ö; case and accents only break ties. Where
a line may break a name."""

import pytest

from tournament.lib.text import longest_unbroken, swedish_sort_key


def swedish(names):
    return sorted(names, key=swedish_sort_key)


def test_the_three_swedish_letters_come_after_z_in_their_order():
    # Worked out by hand: a..z, then å, ä, ö; É sorts as E; case does not matter.
    assert swedish(["Östen", "Åsa", "Zara", "Ärla", "adam", "Émile"]) == [
        "adam",
        "Émile",
        "Zara",
        "Åsa",
        "Ärla",
        "Östen",
    ]


def test_case_does_not_separate_names():
    assert swedish(["bo", "Anna", "Cia", "anders", "Björn"]) == [
        "anders",
        "Anna",
        "Björn",
        "bo",
        "Cia",
    ]


def test_a_swedish_letter_inside_a_name_counts_as_late_too():
    # "Ha" < "Hz" < "Hå" < "Hä" < "Hö"; "Åke" after "Zäta" (Z before Å), "Zäta" after "Zeta".
    assert swedish(["Höök", "Hägg", "Håkan", "Hz", "Hall", "Zäta", "Åke", "Zeta"]) == [
        "Hall",
        "Hz",
        "Håkan",
        "Hägg",
        "Höök",
        "Zeta",
        "Zäta",
        "Åke",
    ]


def test_foreign_letters_sort_as_their_swedish_neighbours():
    # é as e, ç as c, ü as y, æ as ä, ø as ö.
    assert swedish(["Zoe", "Ærø", "Øst", "Yvonne", "Ülla", "Çelik", "Eva", "Édith", "Ärm"]) == [
        "Çelik",
        "Édith",
        "Eva",
        "Ülla",
        "Yvonne",
        "Zoe",
        "Ärm",
        "Ærø",  # ä r ö after ä r m
        "Øst",
    ]


def test_equal_letters_give_a_fixed_order_so_lists_do_not_jump():
    assert swedish(["eva", "Éva", "Eva"]) == swedish(["Eva", "eva", "Éva"])
    assert swedish_sort_key("Eva") != swedish_sort_key("eva")


@pytest.mark.parametrize("name", ["Åsa", "A\u030asa"])  # composed and decomposed Å
def test_decomposed_letters_sort_like_composed_ones(name):
    assert swedish([name, "Zara", "Ärla"]) == ["Zara", name, "Ärla"]


@pytest.mark.parametrize(
    ("name", "longest"),
    [
        ("Anna Fredriksson-Lindqvist", 12),  # "Fredriksson-": a line may break after it
        ("Lars-Göran Öhman-Vesterlundqvist", 15),  # "Vesterlundqvist"
        ("Eva-Lotta Fredriksdotter Sjöholm", 14),  # "Fredriksdotter"
        ("Maximiliansströmåkerblomqvists", 30),  # one word: nowhere to break
        ("Bo  Ek", 2),
        ("", 0),
    ],
)
def test_the_longest_piece_of_a_name_no_line_breaks(name, longest):
    assert longest_unbroken(name) == longest
