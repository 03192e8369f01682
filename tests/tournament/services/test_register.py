"""The register of players (services/register.py): linking new players, merging entries."""

import pytest

from tournament.errors import InvalidEntry, NotAllowed
from tournament.models import AuditEntry, Player, RegisterEntry
from tournament.services import register, registration

pytestmark = pytest.mark.django_db


def player(tournament, name):
    return Player.objects.get(tournament=tournament, name=name)


def test_a_typed_player_is_a_new_entry_and_a_picked_one_is_the_earlier_person(
    make_tournament, td_user
):
    sm24 = make_tournament(["Åsa Öberg", "Bo"], name="SM 2024")
    sm25 = make_tournament([], name="SM 2025")
    earlier = player(sm24, "Åsa Öberg").register_entry
    assert (earlier.name, earlier.folded) == ("Åsa Öberg", "asa oberg")

    picked = registration.register_player(
        tournament=sm25, actor=td_user, name="", register_entry=earlier
    )
    typed = registration.register_player(tournament=sm25, actor=td_user, name="Bo")

    # Picked: that person, under her name as the register has it (not re-typed).
    assert (picked.name, picked.register_entry_id) == ("Åsa Öberg", earlier.pk)
    # Typed without picking: a new person, even with a name the register has.
    assert typed.register_entry_id != player(sm24, "Bo").register_entry_id
    assert RegisterEntry.objects.count() == 3


def test_a_person_already_in_the_tournament_cannot_be_picked_again(make_tournament, td_user):
    sm24 = make_tournament(["Åsa Öberg"], name="SM 2024")
    sm25 = make_tournament([], name="SM 2025")
    earlier = player(sm24, "Åsa Öberg").register_entry
    registration.register_player(tournament=sm25, actor=td_user, register_entry=earlier)
    with pytest.raises(InvalidEntry, match="already registered"):
        registration.register_player(tournament=sm25, actor=td_user, register_entry=earlier)
    assert sm25.players.count() == 1


def test_a_pasted_list_links_names_the_register_has_once(make_tournament, td_user):
    sm24 = make_tournament(["Åsa Öberg", "Bo"], name="SM 2024")
    make_tournament(["Bo"], name="SM 2023")  # a second Bo: the name alone cannot tell which
    sm25 = make_tournament([], name="SM 2025")
    registration.register_players(tournament=sm25, actor=td_user, names=["asa oberg", "Bo", "Cia"])
    asa = player(sm25, "asa oberg")
    assert asa.register_entry_id == player(sm24, "Åsa Öberg").register_entry_id
    bo_entries = set(Player.objects.filter(name="Bo").values_list("register_entry_id", flat=True))
    assert len(bo_entries) == 3  # two Bos before, so the new one is a third person
    assert player(sm25, "Cia").register_entry.name == "Cia"


def test_merging_points_one_entry_at_the_other_and_changes_no_tournament(make_tournament, td_user):
    sm24 = make_tournament(["Åsa Öberg", "Bo"], name="SM 2024")
    sm25 = make_tournament(["Asa Oberg-Lind", "Cia"], name="SM 2025")
    old = player(sm24, "Åsa Öberg").register_entry
    new = player(sm25, "Asa Oberg-Lind").register_entry
    rows = list(Player.objects.order_by("pk").values_list("pk", "tournament_id", "name", "number"))

    merged = register.merge_entries(entry=new, into=old, actor=td_user)

    assert (merged.merged_into_id, merged.merged_by) == (old.pk, td_user)
    assert merged.merged_at is not None
    assert register.standing_entry(merged) == old
    assert register.same_person(old) == sorted([old.pk, new.pk])
    assert register.same_person(new) == sorted([old.pk, new.pk])
    # Both tournaments' players as they were: the pointer is the whole change.
    assert rows == list(
        Player.objects.order_by("pk").values_list("pk", "tournament_id", "name", "number")
    )
    assert RegisterEntry.objects.count() == 4
    entry = AuditEntry.objects.get(action="register.merge")
    assert entry.params == {"name": "Asa Oberg-Lind", "into": "Åsa Öberg"}
    assert entry.tournament is None


def test_a_merge_follows_earlier_merges(make_tournament, td_user):
    a = player(make_tournament(["Anna"], name="SM 2023"), "Anna").register_entry
    b = player(make_tournament(["Anna B"], name="SM 2024"), "Anna B").register_entry
    c = player(make_tournament(["Anna C"], name="SM 2025"), "Anna C").register_entry
    register.merge_entries(entry=a, into=b, actor=td_user)
    register.merge_entries(entry=b, into=c, actor=td_user)
    a.refresh_from_db()
    assert register.standing_entry(a) == c
    assert register.same_person(a) == sorted([a.pk, b.pk, c.pk])


def test_refused_merges(make_tournament, td_user):
    sm24 = make_tournament(["Anna", "Ana"], name="SM 2024")
    anna = player(sm24, "Anna").register_entry
    ana = player(sm24, "Ana").register_entry
    other = player(make_tournament(["Bo"], name="SM 2025"), "Bo").register_entry
    with pytest.raises(InvalidEntry, match="itself"):
        register.merge_entries(entry=anna, into=anna, actor=td_user)
    with pytest.raises(NotAllowed, match="both played SM 2024"):
        register.merge_entries(entry=anna, into=ana, actor=td_user)
    register.merge_entries(entry=other, into=anna, actor=td_user)
    with pytest.raises(NotAllowed, match="already merged"):
        register.merge_entries(entry=ana, into=other, actor=td_user)
    with pytest.raises(NotAllowed, match="already merged"):
        register.merge_entries(entry=other, into=ana, actor=td_user)
    assert AuditEntry.objects.filter(action="register.merge").count() == 1


def test_the_database_refuses_an_entry_merged_into_itself_or_without_its_moment():
    from django.db import IntegrityError, transaction
    from django.utils import timezone

    entry = register.new_entry("Anna")
    with pytest.raises(IntegrityError), transaction.atomic():
        RegisterEntry.objects.filter(pk=entry.pk).update(
            merged_into=entry, merged_at=timezone.now()
        )
    other = register.new_entry("Bo")
    with pytest.raises(IntegrityError), transaction.atomic():
        RegisterEntry.objects.filter(pk=entry.pk).update(merged_into=other)
    with pytest.raises(IntegrityError), transaction.atomic():
        RegisterEntry.objects.create(name="\u200b", folded="")


def test_the_setting_for_earlier_results_is_audited(make_tournament, td_user):
    tournament = make_tournament(2)
    assert tournament.earlier_results_public is False
    register.set_earlier_results_public(tournament=tournament, actor=td_user, public=True)
    tournament.refresh_from_db()
    assert tournament.earlier_results_public is True
    entry = AuditEntry.objects.get(action="tournament.earlier_results")
    assert entry.params == {"public": True}
