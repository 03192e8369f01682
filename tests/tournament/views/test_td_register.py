"""TD pages of the register of players: the earlier players offered on the players page,
a player's page, the register and the merge; the public page's earlier results."""

import re
import uuid

import pytest
from django.urls import reverse

from tests.tournament.conftest import play_named, single_table
from tournament.models import Player, RegisterEntry
from tournament.services import draws, register

pytestmark = pytest.mark.django_db


def text(response):
    return response.content.decode()


def add(client, tournament, name, **extra):
    data = {"name": name, "add-submission_key": str(uuid.uuid4()), **extra}
    return client.post(reverse("td:players", args=[tournament.pk]), data)


@pytest.fixture
def sm24(make_tournament, td_user):
    """SM 2024, finished: Åsa Öberg +6 champion, Bo −2 second, Cia −4 third."""
    tournament = make_tournament(["Åsa Öberg", "Bo", "Cia"], name="SM 2024", min_hands=1)
    play_named(single_table(tournament, td_user), {"Åsa Öberg": 6, "Bo": -2, "Cia": -4})
    draws.advance(tournament=tournament, actor=td_user)
    return tournament


def test_typing_asa_oberg_offers_the_earlier_asa_oberg(td_client, sm24, make_tournament):
    sm25 = make_tournament([], name="SM 2025")
    url = reverse("td:earlier_players", args=[sm25.pk])
    html = text(td_client.get(url, {"name": "asa oberg"}, HTTP_HX_REQUEST="true"))
    entry = Player.objects.get(tournament=sm24, name="Åsa Öberg").register_entry
    assert f'value="{entry.pk}"' in html and "Åsa Öberg" in html and "SM 2024" in html
    assert 'value="new"' in html and "A new player: asa oberg" in html
    assert text(td_client.get(url, {"name": "Zed"})).strip() == ""


def test_the_players_name_field_asks_for_the_offer_as_the_td_types(td_client, make_tournament):
    sm25 = make_tournament([], name="SM 2025")
    html = text(td_client.get(reverse("td:players", args=[sm25.pk])))
    assert f'hx-get="{reverse("td:earlier_players", args=[sm25.pk])}"' in html
    assert 'id="earlier-players"' in html
    # CSP: htmx attributes only, no inline handler.
    assert "hx-on" not in html and "onclick" not in html and "oninput" not in html


def test_picking_links_the_earlier_person_under_the_registers_name(
    td_client, sm24, make_tournament
):
    sm25 = make_tournament([], name="SM 2025")
    entry = Player.objects.get(tournament=sm24, name="Åsa Öberg").register_entry
    response = add(td_client, sm25, "asa ob", earlier=str(entry.pk))
    assert response.status_code == 302
    player = sm25.players.get()
    assert (player.name, player.register_entry_id) == ("Åsa Öberg", entry.pk)


def test_a_name_like_an_earlier_players_is_asked_about_then_made_new(
    td_client, sm24, make_tournament
):
    sm25 = make_tournament([], name="SM 2025")
    asked = add(td_client, sm25, "Åsa Öberg")
    assert asked.status_code == 400
    assert "Players of earlier tournaments have a name like this" in text(asked)
    assert 'name="earlier"' in text(asked)
    assert not sm25.players.exists()

    made = add(td_client, sm25, "Åsa Öberg", earlier="new")
    assert made.status_code == 302
    new = sm25.players.get()
    old = Player.objects.get(tournament=sm24, name="Åsa Öberg")
    assert new.register_entry_id != old.register_entry_id
    assert RegisterEntry.objects.count() == 4


def test_a_name_the_register_has_nothing_like_is_added_at_once(td_client, sm24, make_tournament):
    sm25 = make_tournament([], name="SM 2025")
    assert add(td_client, sm25, "Dan").status_code == 302
    assert sm25.players.get().register_entry.name == "Dan"


def test_the_td_sees_earlier_results_whatever_the_setting(
    td_client, td_user, sm24, make_tournament
):
    sm25 = make_tournament([], name="SM 2025")
    entry = Player.objects.get(tournament=sm24, name="Bo").register_entry
    add(td_client, sm25, "Bo", earlier=str(entry.pk))
    bo = sm25.players.get()
    html = text(td_client.get(reverse("td:player", args=[sm25.pk, bo.pk])))
    assert "Earlier results on this server" in html
    assert "SM 2024" in html and "place 2" in html

    public = reverse("public:player", args=[sm25.pk, bo.pk])
    assert "Earlier results on this server" not in text(td_client.get(public))
    register.set_earlier_results_public(tournament=sm25, actor=td_user, public=True)
    shown = text(td_client.get(public))
    assert "Earlier results on this server" in shown and "place 2" in shown


def test_the_setting_is_saved_from_the_settings_page(td_client, make_tournament):
    sm25 = make_tournament(2, name="SM 2025")
    settings = text(td_client.get(reverse("td:settings", args=[sm25.pk])))
    assert "Show players' earlier results on their public pages" in settings
    url = reverse("td:earlier_results_setting", args=[sm25.pk])
    data = {"earlier-submission_key": str(uuid.uuid4()), "earlier_results_public": "on"}
    assert td_client.post(url, data).status_code == 302
    sm25.refresh_from_db()
    assert sm25.earlier_results_public is True


def test_the_register_lists_and_finds_people(td_client, sm24, make_tournament):
    html = text(td_client.get(reverse("td:register"), {"q": "oberg"}))
    assert "Åsa Öberg" in html and "Cia" not in html
    make_tournament(["Zara", "Ärla"], name="SM 2025")
    everyone = text(td_client.get(reverse("td:register")))
    # The Swedish way: a-z, then Å, Ä, Ö.
    listed = re.findall(r'<span class="player-name"><strong>(.*?)</strong>', everyone)
    assert listed == ["Bo", "Cia", "Zara", "Åsa Öberg", "Ärla"]


def test_merge_confirmation_shows_both_and_merges(td_client, td_user, sm24, make_tournament):
    sm25 = make_tournament(["Asa Oberg-Lind"], name="SM 2025")
    old = Player.objects.get(tournament=sm24, name="Åsa Öberg").register_entry
    new = sm25.players.get().register_entry
    pick = text(td_client.get(reverse("td:register_merge_pick", args=[new.pk]), {"q": "asa"}))
    confirm_url = reverse("td:register_merge", args=[new.pk, old.pk])
    assert confirm_url in pick
    confirm = text(td_client.get(confirm_url))
    assert "SM 2024" in confirm and "SM 2025" in confirm
    assert not RegisterEntry.objects.filter(merged_into__isnull=False).exists()
    done = td_client.post(confirm_url, {"submission_key": str(uuid.uuid4())})
    assert done.status_code == 302
    new.refresh_from_db()
    assert new.merged_into_id == old.pk and new.merged_by == td_user
    listed = text(td_client.get(reverse("td:register")))
    assert "Asa Oberg-Lind into Åsa Öberg" in listed


def test_a_refused_merge_is_said_on_the_confirmation(td_client, sm24):
    bo = Player.objects.get(tournament=sm24, name="Bo").register_entry
    cia = Player.objects.get(tournament=sm24, name="Cia").register_entry
    url = reverse("td:register_merge", args=[bo.pk, cia.pk])
    refused = td_client.post(url, {"submission_key": str(uuid.uuid4())})
    assert refused.status_code == 400
    assert "both played SM 2024" in text(refused)
    assert not RegisterEntry.objects.filter(merged_into__isnull=False).exists()


def test_a_pasted_list_says_who_was_linked_by_name(td_client, sm24, make_tournament):
    sm25 = make_tournament([], name="SM 2025")
    data = {"names": "asa oberg\nDan", "paste-submission_key": str(uuid.uuid4())}
    response = td_client.post(reverse("td:players_paste", args=[sm25.pk]), data, follow=True)
    assert "Played here before, linked to the register by name: asa oberg." in text(response)
    asa = sm25.players.get(name="asa oberg")
    assert (
        asa.register_entry == Player.objects.get(tournament=sm24, name="Åsa Öberg").register_entry
    )
