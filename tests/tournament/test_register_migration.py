"""Migration 0021: every player linked to a register entry, one entry per person by name.

Three tournaments made at 0019 as the code before the register stored them: "Åsa Öberg"
of SM 2024 and "asa oberg" of SM 2025 are one person (the same but for case and accents);
SM 2025 also has "ÅSA ÖBERG", confirmed by its TD as another player: a second person.
"Bo" of SM 2024 and "Bo Ek" of SM 2025 are two.
"""

import pytest

from tests.tournament.test_audit_migration import leaves, migrate
from tournament.models import Player, RegisterEntry

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tournament", "0019_check_ins")]


def make_old_rows(apps):
    Tournament = apps.get_model("tournament", "Tournament")
    Player = apps.get_model("tournament", "Player")
    players = {
        "SM 2024": ["Åsa Öberg", "Bo"],
        "SM 2025": ["asa oberg", "Bo Ek", "ÅSA ÖBERG"],
    }
    for name, names in players.items():
        tournament = Tournament.objects.create(name=name)
        for number, player in enumerate(names, start=1):
            Player.objects.create(
                tournament=tournament,
                number=number,
                name=player,
                alike_confirmed=player == "ÅSA ÖBERG",
            )


def test_players_of_the_same_folded_name_in_two_tournaments_become_one_entry():
    make_old_rows(migrate(BEFORE))
    try:
        migrate(leaves())
        entry = {
            (p.tournament.name, p.name): p.register_entry_id
            for p in Player.objects.select_related("tournament")
        }
        assert None not in entry.values()
        assert entry[("SM 2024", "Åsa Öberg")] == entry[("SM 2025", "asa oberg")]
        assert entry[("SM 2025", "ÅSA ÖBERG")] != entry[("SM 2025", "asa oberg")]
        assert entry[("SM 2024", "Bo")] != entry[("SM 2025", "Bo Ek")]
        # 5 players, 4 people: Åsa (twice), her namesake, Bo, Bo Ek.
        assert RegisterEntry.objects.count() == 4
        shared = RegisterEntry.objects.get(pk=entry[("SM 2024", "Åsa Öberg")])
        assert (shared.name, shared.folded) == ("Åsa Öberg", "asa oberg")
    finally:
        migrate(leaves())
