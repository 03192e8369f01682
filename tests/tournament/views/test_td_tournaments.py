"""TD pages: the tournament list, a new tournament, and its settings (locked at the first draw)."""

import re
import uuid

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from django.utils.html import escape

from tests.tournament.conftest import play
from tournament.models import AuditEntry, FormSubmission, Tournament
from tournament.rules.decisions import DECISIONS
from tournament.services import draws

pytestmark = pytest.mark.django_db

SM_SETTINGS = {
    "name": "SM 2026",
    "min_hands": "20",
    "entry_mode": "either",
    "royalties": "us",
    "scoring_method": "1-6",
    "fantasyland_repeat": "unlimited",
}


def form_data(key=None, **changes):
    data = {**SM_SETTINGS, "submission_key": str(key or uuid.uuid4()), **changes}
    return {name: value for name, value in data.items() if value is not None}


def text(response):
    return response.content.decode()


def input_value(html, name):
    match = re.search(rf'<input[^>]*name="{name}"[^>]*>', html)
    assert match, f"no input {name}"
    value = re.search(r'value="([^"]*)"', match.group(0))
    return value.group(1) if value else None


def selected(html, name):
    select = re.search(rf'<select[^>]*name="{name}".*?</select>', html, re.S).group(0)
    return re.search(r'<option value="([^"]*)"[^>]*selected', select).group(1)


# ---------------------------------------------------------------- access


@pytest.mark.parametrize(
    "url",
    [reverse("td:dashboard"), reverse("td:tournament_create"), "/td/1/settings/"],
)
def test_anonymous_goes_to_login_and_non_staff_is_refused(client, outsider, url):
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login") + "?next=")
    assert client.post(url, form_data()).status_code == 302
    client.force_login(outsider)
    assert client.get(url).status_code == 403
    assert client.post(url, form_data()).status_code == 403
    assert not Tournament.objects.exists()


def test_settings_of_an_unknown_tournament_is_404(td_client):
    assert td_client.get(reverse("td:settings", args=[999])).status_code == 404
    assert td_client.post(reverse("td:settings", args=[999]), form_data()).status_code == 404


# ---------------------------------------------------------------- the list


def test_an_empty_list_offers_a_new_tournament_and_an_import(td_client):
    response = td_client.get(reverse("td:dashboard"))
    html = text(response)
    assert response.status_code == 200
    assert "Logged in as director." in html
    assert f'href="{reverse("td:tournament_create")}"' in html
    assert ">New tournament<" in html
    assert f'href="{reverse("td:import")}"' in html and ">Import a backup<" in html
    assert "No tournaments yet" in html


def test_running_first_then_not_started_then_finished_newest_first_in_each(
    td_client, td_user, make_tournament
):
    from tournament.demo.autoplay import simulate

    finished = simulate(players=3, seed="list", actor=td_user, name="Finished Cup").tournament
    old_running = make_tournament(players=6, name="Old running")
    draws.draw_first_level(tournament=old_running, actor=td_user, seed="s1")
    registration = make_tournament(players=4, name="Open registration")
    new_running = make_tournament(players=3, name="New running")
    table = draws.draw_first_level(tournament=new_running, actor=td_user, seed="s2").tables.get()
    # Old running: play one of its two tables to the end (20 hands, its first seat leads).
    first = old_running.levels.get().tables.order_by("number").first()
    for _ in range(20):
        play(first, 2, -1, -1)
    play(table, 1, -1, 0)

    response = td_client.get(reverse("td:dashboard"))
    html = text(response)
    assert response.status_code == 200
    order = [html.index(name) for name in ("New running", "Old running", "Open registration")]
    order.append(html.index("Finished Cup"))
    assert order == sorted(order)
    assert html.index(">Running<") < html.index(">Not started<") < html.index(">Finished<")
    assert "Level 1 in play: 1 of 2 tables over" in html  # old running
    assert "Level 1 in play: 0 of 1 table over" in html  # new running
    assert "Registration: 4 registered" in html
    finished.refresh_from_db()
    assert f"Finished: champion {finished.champion.name}" in html
    # Each links to where a TD goes next: the live page, the players, the standings.
    assert f'href="{reverse("td:tournament", args=[new_running.pk])}"' in html
    assert f'href="{reverse("td:players", args=[registration.pk])}"' in html
    assert f'href="{reverse("td:standings", args=[finished.pk])}"' in html
    assert f'href="{reverse("td:settings", args=[registration.pk])}"' in html


def test_a_withdrawn_player_is_not_counted(td_client, td_user, make_tournament):
    from tournament.services import registration

    tournament = make_tournament(players=5)
    registration.withdraw_player(player=tournament.players.get(name="Bo"), actor=td_user)
    assert "Registration: 4 registered" in text(td_client.get(reverse("td:dashboard")))


@pytest.mark.parametrize("count", [2, 8])
def test_the_list_costs_the_same_queries_for_2_or_8_tournaments(
    td_client, td_user, make_tournament, django_assert_num_queries, count
):
    for n in range(count):
        tournament = make_tournament(players=3, name=f"Cup {n}")
        if n % 2:
            draws.draw_first_level(tournament=tournament, actor=td_user, seed=f"q{n}")
    # Session and user, then the tournaments and the current levels' tables.
    with django_assert_num_queries(4):
        response = td_client.get(reverse("td:dashboard"))
    assert response.status_code == 200
    assert text(response).count('class="card tournament-row"') == count


# ---------------------------------------------------------------- create


def test_the_create_form_explains_every_variant_and_every_rules_decision(td_client):
    response = td_client.get(reverse("td:tournament_create"))
    html = text(response)
    assert response.status_code == 200
    for label in (
        "Name",
        "Minimum hands per table",
        "Hand entry",
        "Royalty table",
        "Scoring method",
        "Fantasyland repeat",
        "Dealer button stays put for a Fantasyland hand",
    ):
        assert f">{label}</label>" in html, label
    assert html.count('name="submission_key"') == 1
    # The SM defaults are chosen.
    assert input_value(html, "min_hands") == "20"
    assert selected(html, "royalties") == "us" and selected(html, "scoring_method") == "1-6"
    assert selected(html, "fantasyland_repeat") == "unlimited"
    # Each variant explained.
    for variant in (
        "Russian table: as SM / US, except back four of a kind 8",
        "2-4: against each opponent 1 point per row won, 1 more for winning two or three",
        "Repeats once: a player may stay only after his first Fantasyland hand.",
        "Never repeats: after a Fantasyland hand",
        "On: when a player plays the next hand in Fantasyland, the same dealer deals it",
        "The revisor chooses for every hand: points or cards.",
    ):
        assert variant in html, variant
    # Every rules decision is listed, and the dealer one stands with the button setting.
    assert ">Rules decisions</h2>" in html
    for title, body in DECISIONS:
        assert f"<dt>{escape(str(title))}</dt>" in html
        assert escape(str(body)) in html
    button_help = html.index('id="id_button_stays_in_fantasyland_helptext"')
    assert button_help < html.index("Rules decision: Dealer.") < html.index("Create tournament")
    hands_help = html.index('id="id_min_hands_helptext"')
    assert hands_help < html.index("Rules decision: Ties for first.") < html.index("id_entry_mode")
    # Help is tied to its input for screen readers.
    assert 'aria-describedby="id_royalties_helptext"' in html


def test_create_makes_the_tournament_and_goes_to_its_players(td_client, td_user):
    data = form_data(
        name="  Göteborg   Open  ",
        min_hands="24",
        entry_mode="cards",
        royalties="russian",
        scoring_method="2-4",
        fantasyland_repeat="once",
        button_stays_in_fantasyland="on",
    )
    response = td_client.post(reverse("td:tournament_create"), data)
    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("td:players", args=[tournament.pk])
    assert (
        tournament.name,
        tournament.min_hands,
        tournament.entry_mode,
        tournament.royalties,
        tournament.scoring_method,
        tournament.fantasyland_repeat,
        tournament.button_stays_in_fantasyland,
        tournament.created_by,
    ) == ("Göteborg Open", 24, "cards", "russian", "2-4", "once", True, td_user)
    assert AuditEntry.objects.get(action="tournament.create").actor == td_user
    page = td_client.get(response["Location"])
    assert "Tournament Göteborg Open created. Register its players." in text(page)


def test_a_double_post_with_the_same_key_creates_one_tournament(td_client):
    key = uuid.uuid4()
    first = td_client.post(reverse("td:tournament_create"), form_data(key, name="Once"))
    second = td_client.post(reverse("td:tournament_create"), form_data(key, name="Once"))
    assert first.status_code == 302 and second.status_code == 302
    assert second["Location"] == reverse("td:dashboard")
    assert Tournament.objects.count() == 1
    assert FormSubmission.objects.filter(key=key).count() == 1
    follow = td_client.get(second["Location"])
    assert "This form was already sent; nothing was changed again." in text(follow)


def test_a_bad_form_is_shown_again_with_what_was_typed_and_nothing_is_created(td_client):
    key = uuid.uuid4()
    data = form_data(key, name="   ", min_hands="0", royalties="russian", fantasyland_repeat="x")
    response = td_client.post(reverse("td:tournament_create"), data)
    html = text(response)
    assert response.status_code == 400
    assert not Tournament.objects.exists() and not FormSubmission.objects.exists()
    assert 'role="alert"' in html
    assert "Name must not be empty." in html
    assert "Minimum hands per table must be from 1 to 200, not 0." in html
    assert "Fantasyland repeat: choose one of the options." in html
    # What was typed is still there, and the same key is kept for the corrected form.
    assert input_value(html, "min_hands") == "0"
    assert selected(html, "royalties") == "russian"
    assert input_value(html, "submission_key") == str(key)
    fixed = form_data(key, name="Fixed", min_hands="18", royalties="russian")
    assert td_client.post(reverse("td:tournament_create"), fixed).status_code == 302
    assert Tournament.objects.get().min_hands == 18


def test_a_form_without_its_key_is_refused_in_place(td_client):
    data = form_data(name="No key")
    del data["submission_key"]
    response = td_client.post(reverse("td:tournament_create"), data)
    assert response.status_code == 400
    assert "This form is out of date" in text(response)
    assert input_value(text(response), "name") == "No key"
    assert input_value(text(response), "submission_key")  # a fresh one to send again
    assert not Tournament.objects.exists()


def test_errors_are_in_the_tds_language(td_client):
    td_client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "sv"
    response = td_client.post(reverse("td:tournament_create"), form_data(min_hands="500"))
    html = text(response)
    assert response.status_code == 400
    assert "Minsta antal händer per bord måste vara från 1 till 200, inte 500." in html
    assert "Ny turnering" in html  # the page too


# ---------------------------------------------------------------- settings


def test_settings_before_the_draw_show_the_form_with_the_current_values(td_client, make_tournament):
    tournament = make_tournament(players=3, royalties="russian", min_hands=22)
    response = td_client.get(reverse("td:settings", args=[tournament.pk]))
    html = text(response)
    assert response.status_code == 200
    assert input_value(html, "name") == "SM 2026"
    assert input_value(html, "min_hands") == "22"
    assert selected(html, "royalties") == "russian"
    assert "Save settings" in html and ">Rules decisions</h2>" in html
    assert "Rules decision: Dealer." in html


def test_settings_are_saved_once_per_submission(td_client, make_tournament):
    tournament = make_tournament(players=3)
    tournament.refresh_from_db()
    revision = tournament.revision
    key = uuid.uuid4()
    data = form_data(key, name="SM 2026 final", scoring_method="2-4", min_hands="21")
    url = reverse("td:settings", args=[tournament.pk])
    first = td_client.post(url, data)
    second = td_client.post(url, data)
    assert first.status_code == 302 and first["Location"] == url
    assert second.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.scoring_method, tournament.min_hands) == (
        "SM 2026 final",
        "2-4",
        21,
    )
    assert tournament.revision == revision + 1
    assert AuditEntry.objects.filter(action="tournament.settings").count() == 1
    assert "This form was already sent" in text(td_client.get(url))


def test_an_unchecked_box_turns_the_setting_off(td_client, make_tournament):
    tournament = make_tournament(players=3, button_stays_in_fantasyland=True)
    url = reverse("td:settings", args=[tournament.pk])
    assert td_client.post(url, form_data()).status_code == 302
    tournament.refresh_from_db()
    assert tournament.button_stays_in_fantasyland is False
    assert td_client.get(reverse("td:settings", args=[tournament.pk])).status_code == 200


def test_a_bad_settings_form_keeps_what_was_typed_and_changes_nothing(td_client, make_tournament):
    tournament = make_tournament(players=3)
    url = reverse("td:settings", args=[tournament.pk])
    response = td_client.post(url, form_data(name="x" * 121, min_hands="many"))
    html = text(response)
    assert response.status_code == 400
    assert "Name can have at most 120 characters (it has 121)." in html
    assert "Minimum hands per table must be a whole number." in html
    assert input_value(html, "name") == "x" * 121
    assert input_value(html, "min_hands") == "many"
    tournament.refresh_from_db()
    assert (tournament.name, tournament.min_hands) == ("SM 2026", 20)


def test_settings_are_locked_after_the_first_draw(td_client, td_user, make_tournament):
    tournament = make_tournament(players=3, fantasyland_repeat="never")
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="lock")
    url = reverse("td:settings", args=[tournament.pk])
    response = td_client.get(url)
    html = text(response)
    assert response.status_code == 200
    assert "Settings are fixed once the first draw is made." in html
    assert "Save settings" not in html and 'name="min_hands"' not in html
    # The settings are shown, read-only, with what they mean.
    assert "Never repeats" in html and "Rules decision: Dealer." in html
    assert ">Rules decisions</h2>" in html

    response = td_client.post(url, form_data(name="Changed", fantasyland_repeat="unlimited"))
    assert response.status_code == 400
    assert 'role="alert"' in text(response)
    assert "Settings are fixed once the first draw is made." in text(response)
    tournament.refresh_from_db()
    assert (tournament.name, tournament.fantasyland_repeat) == ("SM 2026", "never")
    assert not FormSubmission.objects.exists()


def rename_url(tournament):
    return reverse("td:tournament_rename", args=[tournament.pk])


def test_the_name_can_be_corrected_after_the_first_draw(
    td_client, td_user, client, make_tournament
):
    """A typo in the name would stay on the projector and every page: the rules lock, not it."""
    tournament = make_tournament(players=3)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="rename")
    html = text(td_client.get(reverse("td:settings", args=[tournament.pk])))
    assert input_value(html, "name") == "SM 2026" and "Save the name" in html
    revision = tournament.revision
    data = {"name": "  SM 2026 Göteborg ", "submission_key": str(uuid.uuid4())}
    response = td_client.post(rename_url(tournament), data)
    assert response.status_code == 302
    assert response["Location"] == reverse("td:settings", args=[tournament.pk])
    tournament.refresh_from_db()
    assert tournament.name == "SM 2026 Göteborg"
    assert tournament.revision > revision  # the pages that poll see it
    entry = AuditEntry.objects.get(action="tournament.rename")
    assert entry.params == {"old_name": "SM 2026", "name": "SM 2026 Göteborg"}
    assert entry.actor == td_user
    page = td_client.get(response["Location"])
    assert "The tournament is now called SM 2026 Göteborg." in text(page)
    assert "SM 2026 Göteborg" in text(
        client.get(reverse("public:tournament", args=[tournament.pk]))
    )
    log = text(td_client.get(reverse("td:audit", args=[tournament.pk])))
    assert "Renamed the tournament from SM 2026 to SM 2026 Göteborg" in log
    # The same submission again changes nothing more.
    assert td_client.post(rename_url(tournament), data).status_code == 302
    assert AuditEntry.objects.filter(action="tournament.rename").count() == 1


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("   ", "Name must not be empty."),
        ("SM 2026", "The tournament is already called SM 2026."),
        ("x" * 121, "Name can have at most 120 characters (it has 121)."),
    ],
)
def test_a_bad_name_is_refused_in_the_page_and_nothing_changes(
    td_client, td_user, make_tournament, name, message
):
    tournament = make_tournament(players=3)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="rename")
    data = {"name": name, "submission_key": str(uuid.uuid4())}
    response = td_client.post(rename_url(tournament), data)
    assert response.status_code == 400
    html = text(response)
    assert 'role="alert"' in html and "The name was not changed:" in html
    assert escape(message) in html
    assert "Settings are fixed once the first draw is made." in html
    tournament.refresh_from_db()
    assert tournament.name == "SM 2026"
    assert not AuditEntry.objects.filter(action="tournament.rename").exists()


def test_renaming_is_for_the_td_only(client, outsider, td_user, make_tournament):
    tournament = make_tournament(players=3)
    data = {"name": "Taken over", "submission_key": str(uuid.uuid4())}
    assert client.post(rename_url(tournament), data).status_code == 302
    client.force_login(outsider)
    assert client.post(rename_url(tournament), data).status_code == 403
    tournament.refresh_from_db()
    assert tournament.name == "SM 2026"


def test_a_draw_made_between_the_page_and_the_post_is_refused_by_the_service(
    td_client, td_user, make_tournament, monkeypatch
):
    tournament = make_tournament(players=3)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="race")
    # The page still believes no draw is made; the service knows better.
    monkeypatch.setattr(
        "tournament.services.registration.first_draw_made", lambda tournament: False
    )
    key = uuid.uuid4()
    response = td_client.post(
        reverse("td:settings", args=[tournament.pk]), form_data(key, name="Late")
    )
    assert response.status_code == 400
    assert "Settings are fixed once the first draw is made." in text(response)
    assert input_value(text(response), "name") == "Late"
    tournament.refresh_from_db()
    assert tournament.name == "SM 2026"
    assert not FormSubmission.objects.filter(key=key).exists()


# ---------------------------------------------------------------- a name another tournament has


def taken_message(name):
    return escape(
        f"A tournament named “{name}” already exists: choose another name (add the year or "
        "the city)."
    )


def name_error(html):
    """The errors shown next to the name field."""
    match = re.search(r'<ul class="errorlist" id="id_name_error">(.*?)</ul>', html, re.S)
    return match.group(1) if match else ""


def test_a_new_tournament_with_another_ones_name_is_refused_next_to_the_name(
    td_client, make_tournament
):
    make_tournament(players=3, name="Malmö Open")
    key = uuid.uuid4()
    response = td_client.post(
        reverse("td:tournament_create"), form_data(key, name="MALMO open", min_hands="18")
    )
    html = text(response)
    assert response.status_code == 400
    assert taken_message("Malmö Open") in name_error(html)
    assert 'role="alert"' in html and taken_message("Malmö Open") in html  # the summary
    assert input_value(html, "name") == "MALMO open" and input_value(html, "min_hands") == "18"
    assert list(Tournament.objects.values_list("name", flat=True)) == ["Malmö Open"]
    assert not FormSubmission.objects.filter(key=key).exists()
    # The same form, another name: created, with the key it kept.
    again = td_client.post(
        reverse("td:tournament_create"), form_data(key, name="Malmö Open 2026", min_hands="18")
    )
    assert again.status_code == 302
    assert Tournament.objects.filter(name="Malmö Open 2026").exists()


def test_the_settings_may_not_take_another_tournaments_name(td_client, make_tournament):
    make_tournament(players=3, name="Cup")
    tournament = make_tournament(players=3, name="Other")
    response = td_client.post(reverse("td:settings", args=[tournament.pk]), form_data(name="cup"))
    assert response.status_code == 400
    assert taken_message("Cup") in name_error(text(response))
    tournament.refresh_from_db()
    assert tournament.name == "Other"


def test_renaming_into_another_tournaments_name_is_refused_in_the_page(
    td_client, td_user, make_tournament
):
    make_tournament(players=3, name="Malmö Open")
    tournament = make_tournament(players=3, name="Lund Open")
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="rename")
    data = {"name": "malmö open", "submission_key": str(uuid.uuid4())}
    response = td_client.post(rename_url(tournament), data)
    html = text(response)
    assert response.status_code == 400
    assert "The name was not changed:" in html and taken_message("Malmö Open") in html
    assert input_value(html, "name") == "malmö open"
    tournament.refresh_from_db()
    assert tournament.name == "Lund Open"
    assert not AuditEntry.objects.filter(action="tournament.rename").exists()


def test_the_list_never_shows_two_tournaments_of_the_same_name(td_client):
    for name in ("SM 2026", "sm 2026", "SM 2026\u200b"):
        td_client.post(reverse("td:tournament_create"), form_data(name=name))
    assert list(Tournament.objects.values_list("name", flat=True)) == ["SM 2026"]
    assert text(td_client.get(reverse("td:dashboard"))).count(">SM 2026<") == 1


def test_invisible_characters_at_the_ends_of_the_name_are_dropped_in_the_page(td_client):
    response = td_client.post(reverse("td:tournament_create"), form_data(name="\ufeffCup\u200b"))
    assert response.status_code == 302
    assert Tournament.objects.get().name == "Cup"
