"""Buy-ins and prizes in the backup (docs/export-format.md, "prizes"): they come back
with the tournament, the standings in the file show each winner's prize, a backup
written before them still restores (no prizes), and a damaged one is refused."""

import json

import pytest

from tests.tournament.commands.test_backup import comparable, empty_database
from tests.tournament.services.test_prizes import finished_seven, set_prizes
from tournament.backups import export_tournament, import_tournament
from tournament.errors import InvalidEntry
from tournament.models import Tournament


def with_prizes_set(make_tournament, td_user):
    tournament = finished_seven(make_tournament, td_user)
    # 7 × (100 − 10) + 70 = 700 kr, 50/30/20: 350, 210, 140.
    set_prizes(
        tournament,
        td_user,
        currency="EUR",
        buy_in=10_000,
        fee=1_000,
        added_money=7_000,
        payout_shares=[5_000, 3_000, 2_000],
        prize_rounding=100,
        prizes_public=True,
    )
    return tournament


@pytest.mark.django_db(transaction=True)
def test_prizes_come_back_with_the_tournament(make_tournament, td_user, django_user_model):
    tournament = with_prizes_set(make_tournament, td_user)
    exported = json.loads(json.dumps(export_tournament(tournament)))  # as in a file
    assert exported["prizes"] == {
        "currency": "EUR",
        "buy_in": 10_000,
        "fee": 1_000,
        "added_money": 7_000,
        "payout_shares": [5_000, 3_000, 2_000],
        "prize_rounding": 100,
        "prizes_public": True,
    }
    assert [line["prize"] for line in exported["standings"]] == [35_000, 21_000, 14_000, 0, 0, 0, 0]

    empty_database(django_user_model)
    restored = import_tournament(exported)
    assert (restored.currency, restored.buy_in, restored.fee) == ("EUR", 10_000, 1_000)
    assert restored.payout_shares == [5_000, 3_000, 2_000] and restored.prizes_public is True
    assert comparable(export_tournament(restored)) == comparable(exported)


@pytest.mark.django_db(transaction=True)
def test_a_backup_written_before_prizes_restores_without_any(
    make_tournament, td_user, django_user_model
):
    tournament = finished_seven(make_tournament, td_user)
    exported = json.loads(json.dumps(export_tournament(tournament)))
    del exported["prizes"]
    for line in exported["standings"]:
        del line["prize"]

    empty_database(django_user_model)
    restored = Tournament.objects.get(pk=import_tournament(exported).pk)
    assert (restored.buy_in, restored.fee, restored.added_money) == (0, 0, 0)
    assert restored.payout_shares == [] and restored.prizes_public is False
    assert restored.currency == "SEK" and restored.prize_rounding == 100
    assert [line["prize"] for line in export_tournament(restored)["standings"]] == [None] * 7


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ({"fee": 20_000}, "prizes: The fee cannot be more than the buy-in."),
        ({"payout_shares": [5_000, 3_000]}, "prizes: The places' shares add up to 80%"),
        ({"payout_shares": [5_000, 0, 5_000]}, "prizes.payout_shares[1] must be a whole number"),
        ({"prize_rounding": 7}, "prizes: Round each prize down to: choose one of the options."),
        ({"buy_in": -100}, "prizes.buy_in must be a whole number from 0 to 1000000000"),
        ({"buy_in": 10.5}, "prizes.buy_in must be a whole number"),
        ({"currency": "BTC"}, "prizes.currency must be one of SEK"),
        ({"jackpot": 1}, "prizes.jackpot is not a field of this backup format."),
    ],
)
def test_damaged_prizes_are_refused_and_nothing_is_imported(
    make_tournament, td_user, damage, message
):
    tournament = with_prizes_set(make_tournament, td_user)
    exported = json.loads(json.dumps(export_tournament(tournament)))
    exported["settings"]["name"] = "Another name"
    exported["prizes"].update(damage)
    count = Tournament.objects.count()
    with pytest.raises(InvalidEntry, match=message.replace("[", r"\[").replace("]", r"\]")):
        import_tournament(exported)
    assert Tournament.objects.count() == count
