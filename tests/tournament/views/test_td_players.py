"""TD pages: the players of a tournament (list, add one, paste a list, rename, withdraw)."""

import re
import uuid

import pytest
from django.urls import reverse
from django.utils.html import escape

from tests.tournament.conftest import play
from tournament.errors import InvalidEntry
from tournament.models import AuditEntry, FormSubmission, Player, RegisterEntry
from tournament.services import draws, registration

pytestmark = pytest.mark.django_db


def text(response):
    return response.content.decode()


def url(name, tournament, *args):
    return reverse(f"td:{name}", args=[tournament.pk, *args])


def add(client, tournament, name, key=None):
    data = {"name": name, "add-submission_key": str(key or uuid.uuid4())}
    return client.post(url("players", tournament), data)


def paste(client, tournament, names, key=None):
    data = {"names": names, "paste-submission_key": str(key or uuid.uuid4())}
    return client.post(url("players_paste", tournament), data)


def listed(html):
    """The names in the player list, in the order shown."""
    body = html.split('class="data player-table"', 1)[1]
    return re.findall(r'<td class="player-name">(.*?)</td>', body)


def statuses(html):
    body = html.split('class="data player-table"', 1)[1]
    rows = re.findall(r'<td class="player-name">(.*?)</td>\s*<td>\s*<span[^>]*>\s*(\w+)', body)
    return dict(rows)


def names_in_db(tournament):
    return list(tournament.players.order_by("number").values_list("number", "name"))


# ---------------------------------------------------------------- access


@pytest.mark.parametrize(
    "name,extra",
    [
        ("players", ()),
        ("players_paste", ()),
        ("player_rename", (1,)),
        ("player_withdraw", (1,)),
        ("player_reinstate", (1,)),
    ],
)
def test_anonymous_goes_to_login_and_non_staff_is_refused(
    client, outsider, make_tournament, name, extra
):
    tournament = make_tournament(players=1)
    target = url(name, tournament, *extra)
    for method in (client.get, client.post):
        response = method(target)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login") + "?next=")
    client.force_login(outsider)
    assert client.get(target).status_code == 403
    assert client.post(target, {"name": "Intruder", "names": "Intruder"}).status_code == 403
    assert names_in_db(tournament) == [(1, "Anna")]
    assert Player.objects.get().withdrawn_at is None


def test_unknown_tournament_or_player_is_404(td_client, make_tournament):
    other = make_tournament(players=2, name="Other")
    tournament = make_tournament(players=1)
    stranger = other.players.get(name="Bo")
    assert td_client.get(reverse("td:players", args=[999])).status_code == 404
    assert td_client.post(reverse("td:players_paste", args=[999])).status_code == 404
    # A player of another tournament is not found through this one.
    assert td_client.get(url("player_rename", tournament, stranger.pk)).status_code == 404
    assert td_client.post(url("player_withdraw", tournament, stranger.pk)).status_code == 404
    assert td_client.get(url("player_rename", tournament, 9999)).status_code == 404
    stranger.refresh_from_db()
    assert stranger.withdrawn_at is None


# ---------------------------------------------------------------- the list


def test_the_list_is_sorted_the_swedish_way_with_start_numbers(td_client, make_tournament):
    tournament = make_tournament(players=["Östen", "Åsa", "Zara", "Ärla", "adam", "Émile"])
    response = td_client.get(url("players", tournament))
    html = text(response)
    assert response.status_code == 200
    # Worked out by hand: a-z first (É as E), then Å, Ä, Ö; case does not matter.
    assert listed(html) == ["adam", "Émile", "Zara", "Åsa", "Ärla", "Östen"]
    numbers = re.findall(r'<td class="num">(\d+)</td>\s*<td class="player-name">(.*?)</td>', html)
    assert numbers == [
        ("5", "adam"),
        ("6", "Émile"),
        ("3", "Zara"),
        ("2", "Åsa"),
        ("4", "Ärla"),
        ("1", "Östen"),
    ]
    assert "Players: 6" in html
    assert set(statuses(html).values()) == {"registered"}


def test_withdrawn_players_are_listed_and_counted_apart(td_client, td_user, make_tournament):
    tournament = make_tournament(players=4)
    registration.withdraw_player(player=tournament.players.get(name="Cia"), actor=td_user)
    html = text(td_client.get(url("players", tournament)))
    assert "Players: 3" in html and "withdrawn: 1" in html
    assert statuses(html) == {
        "Anna": "registered",
        "Bo": "registered",
        "Cia": "withdrawn",
        "Dan": "registered",
    }
    # Only a registered player can be withdrawn, only a withdrawn one brought back; anyone
    # can be renamed.
    cia, dan = tournament.players.get(name="Cia"), tournament.players.get(name="Dan")
    assert url("player_withdraw", tournament, cia.pk) not in html
    assert url("player_reinstate", tournament, cia.pk) in html
    assert url("player_withdraw", tournament, dan.pk) in html
    assert url("player_reinstate", tournament, dan.pk) not in html
    assert url("player_rename", tournament, cia.pk) in html


def test_after_the_draw_the_statuses_say_who_is_in_and_who_is_out(
    td_client, td_user, make_tournament
):
    tournament = make_tournament(players=6)
    registration.withdraw_player(player=tournament.players.get(name="Filip"), actor=td_user)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="status")
    first, second = level.tables.order_by("number")
    for _ in range(20):
        play(first, 3, -1, -2) if first.seats.count() == 3 else play(first, 1, -1)
    leader = first.seats.get(position=0).player.name
    first.refresh_from_db()
    assert first.is_over and first.winner.name == leader
    html = text(td_client.get(url("players", tournament)))
    shown = statuses(html)
    assert shown.pop("Filip") == "withdrawn"
    first_players = set(first.seats.values_list("player__name", flat=True))
    for name, status in shown.items():
        if name in first_players:
            assert status == ("in" if name == leader else "out"), name
        else:
            assert status == "in", name  # the second table still plays
    assert len(shown) == 5
    # Registration is closed: the add, paste and withdraw forms give way to a note.
    assert "Play has started: players can no longer be added or withdrawn." in html
    assert 'id="add-player"' not in html and 'id="paste-players"' not in html
    assert "/withdraw/" not in html
    assert "/rename/" in html
    assert url("draw", tournament) not in html


def test_a_finished_tournament_shows_its_champion(td_client, td_user):
    from tournament.demo.autoplay import simulate

    tournament = simulate(players=3, seed="champ", actor=td_user).tournament
    html = text(td_client.get(url("players", tournament)))
    shown = statuses(html)
    assert shown[tournament.champion.name] == "champion"
    assert sorted(shown.values()) == ["champion", "out", "out"]


def test_a_disqualified_player_is_marked(td_client, td_user, make_tournament):
    from tournament.services import penalties

    tournament = make_tournament(players=3)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="dq")
    bo = tournament.players.get(name="Bo")
    for _ in range(3):
        penalties.give_penalty(tournament=tournament, player=bo, kind="conduct", actor=td_user)
    assert statuses(text(td_client.get(url("players", tournament))))["Bo"] == "disqualified"


def test_the_draw_link_needs_two_players_and_no_draw(td_client, td_user, make_tournament):
    tournament = make_tournament(players=1)
    html = text(td_client.get(url("players", tournament)))
    assert url("draw", tournament) not in html
    assert "A draw needs at least 2 players." in html
    registration.register_player(tournament=tournament, actor=td_user, name="Bo")
    html = text(td_client.get(url("players", tournament)))
    assert f'href="{url("draw", tournament)}"' in html and "Go to the draw" in html
    registration.withdraw_player(player=tournament.players.get(name="Bo"), actor=td_user)
    assert url("draw", tournament) not in text(td_client.get(url("players", tournament)))


def test_long_and_swedish_names_are_shown_whole_and_escaped(td_client, make_tournament):
    long_name = "Å" + "ä" * 38 + " " + "Ö" * 39 + "é"  # 80 characters
    assert len(long_name) == 80
    tournament = make_tournament(players=[long_name, "<b>Bold</b> & Co"])
    html = text(td_client.get(url("players", tournament)))
    assert f'<td class="player-name">{long_name}</td>' in html
    assert escape("<b>Bold</b> & Co") in html and "<b>Bold</b>" not in html


@pytest.mark.parametrize("count", [9, 60])
def test_the_page_costs_the_same_queries_at_any_size(
    td_client, td_user, make_tournament, django_assert_num_queries, count
):
    from tournament.demo.autoplay import player_names

    tournament = make_tournament(players=player_names(count))
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="size")
    # Session, user, tournament, players, seats; the field's state (the levels, and whether
    # level 1 has a hand: until it has, players can still be added or withdrawn); the
    # alerts bar, rendered with the page: the dashboard's 7 and the revision token.
    with django_assert_num_queries(15):
        response = td_client.get(url("players", tournament))
    assert response.status_code == 200
    assert len(listed(text(response))) == count


# ---------------------------------------------------------------- add one


def test_add_one_player_takes_the_next_start_number(td_client, td_user, make_tournament):
    tournament = make_tournament(players=2)
    response = add(td_client, tournament, "  Örjan   Ek  ")
    assert response.status_code == 302
    assert response["Location"] == url("players", tournament) + "?added=1"
    assert names_in_db(tournament) == [(1, "Anna"), (2, "Bo"), (3, "Örjan Ek")]
    entry = AuditEntry.objects.filter(action="player.register").first()
    assert entry.actor == td_user and entry.after == {"number": 3, "name": "Örjan Ek"}
    page = td_client.get(response["Location"])
    html = text(page)
    assert "Örjan Ek registered with start number 3." in html
    # Ready for the next name at once.
    assert re.search(r'<input[^>]*name="name"[^>]*autofocus', html)


def test_add_the_same_submission_twice_registers_once(td_client, make_tournament):
    tournament = make_tournament(players=0)
    key = uuid.uuid4()
    assert add(td_client, tournament, "Anna", key).status_code == 302
    second = add(td_client, tournament, "Anna", key)
    assert second.status_code == 302 and second["Location"] == url("players", tournament)
    assert names_in_db(tournament) == [(1, "Anna")]
    assert "nothing was changed again" in text(td_client.get(second["Location"]))


@pytest.mark.parametrize(
    "typed,message",
    [
        ("Anna", "Anna is already registered (no. 1)."),
        ("Anna\u200b", "Anna is already registered (no. 1)."),  # invisible at the end
        ("\ufeffAnna\u2060", "Anna is already registered (no. 1)."),
        ("ÄNNA", "ÄNNA is very like Anna (no. 1). Is this another player?"),
        ("   ", "Name must not be empty."),
        ("x" * 81, "Name can have at most 80 characters (it has 81)."),
        (
            "\u200b\u2060",
            "Name is made only of invisible characters (such as U+200B): it would show as nothing.",
        ),
        (
            "\u202eAnna",
            "Name contains a character that changes the direction of the text (U+202E): the "
            "name could show as something it is not.",
        ),
    ],
)
def test_a_refused_name_is_shown_in_place_with_what_was_typed(
    td_client, make_tournament, typed, message
):
    tournament = make_tournament(players=1)
    response = add(td_client, tournament, typed)
    html = text(response)
    assert response.status_code == 400
    assert 'role="alert"' in html and message in html
    assert re.search(rf'<input[^>]*name="name"[^>]*value="{re.escape(typed)}"', html) or (
        typed.strip() == "" and 'name="name"' in html
    )
    assert names_in_db(tournament) == [(1, "Anna")]
    assert not FormSubmission.objects.exists()


def test_invisible_characters_at_the_ends_of_a_name_are_dropped(td_client, make_tournament):
    tournament = make_tournament(players=1)
    assert add(td_client, tournament, "\u200bBo\u200d ").status_code == 302
    assert paste(td_client, tournament, "Cia\u200c\n\u2060Dan\nAnna\ufeff").status_code == 302
    assert names_in_db(tournament) == [(1, "Anna"), (2, "Bo"), (3, "Cia"), (4, "Dan")]


def test_add_once_play_started_is_refused(td_client, td_user, make_tournament):
    tournament = make_tournament(players=2)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="late")
    play(level.tables.get(), 1, -1)
    response = add(td_client, tournament, "Late Larry")
    assert response.status_code == 400
    assert 'role="alert"' in text(response)
    assert "players can no longer be added or withdrawn" in text(response)
    assert names_in_db(tournament) == [(1, "Anna"), (2, "Bo")]


def test_add_without_a_key_is_refused_and_keeps_the_name(td_client, make_tournament):
    tournament = make_tournament(players=0)
    response = td_client.post(url("players", tournament), {"name": "Keyless"})
    assert response.status_code == 400
    assert "This form is out of date" in text(response)
    assert 'value="Keyless"' in text(response)
    assert names_in_db(tournament) == []


# ---------------------------------------------------------------- paste a list


def test_a_pasted_list_registers_every_name_in_order(td_client, make_tournament):
    tournament = make_tournament(players=["Anna"])
    response = paste(td_client, tournament, "Östen\r\n\r\n  Åsa  \r\nÉmile Zola\r\n")
    assert response.status_code == 302 and response["Location"] == url("players", tournament)
    assert names_in_db(tournament) == [(1, "Anna"), (2, "Östen"), (3, "Åsa"), (4, "Émile Zola")]
    html = text(td_client.get(response["Location"]))
    assert "Registered from the list: 3 (start numbers 2 to 4)." in html
    assert listed(html) == ["Anna", "Émile Zola", "Åsa", "Östen"]


def test_a_list_with_errors_saves_nothing_and_keeps_the_text(td_client, make_tournament):
    tournament = make_tournament(players=["Anna"])
    long_name = "L" * 81
    typed = f"Bo\n\nCia\nBo\n{long_name}\nAnna\n\u200b\nDan"
    key = uuid.uuid4()
    response = paste(td_client, tournament, typed, key)
    html = text(response)
    assert response.status_code == 400
    assert 'role="alert"' in html
    # Each problem once, with its line number (blank lines count, and are skipped); the
    # summary counts them. A name already registered or higher up in the list is no problem.
    problems = [
        "Line 5 can have at most 80 characters (it has 81).",
        "Line 7 is made only of invisible characters (such as U+200B): it would show as nothing.",
    ]
    assert [html.count(problem) for problem in problems] == [1, 1]
    assert "2 lines to check, each named by the list." in html
    assert "is already" not in html
    # The text is kept as typed, in the textarea, and nothing is saved.
    textarea = re.search(r'<textarea[^>]*name="names"[^>]*>(.*?)</textarea>', html, re.S).group(1)
    assert textarea.strip("\n") == typed
    assert names_in_db(tournament) == [(1, "Anna")]
    assert not FormSubmission.objects.exists()
    # Corrected and sent again with the same key: registered, the repeats skipped.
    fixed = paste(td_client, tournament, "Bo\n\nCia\nBo\n Anna\nDan", key)
    assert fixed.status_code == 302
    assert names_in_db(tournament) == [(1, "Anna"), (2, "Bo"), (3, "Cia"), (4, "Dan")]
    html = text(td_client.get(fixed["Location"]))
    assert "Registered from the list: 3 (start numbers 2 to 4)." in html
    assert "Skipped 1 name already registered: Anna (no. 1)." in html
    assert "Skipped 1 name that was already higher up in the list: Bo." in html


def test_a_list_pasted_again_with_two_latecomers_registers_the_two(td_client, make_tournament):
    """Issue 17: an updated sign-up list pasted again was refused with 11 "already
    registered" errors, each shown twice. Names already registered are skipped."""
    signed_up = ["Anna", "Bo", "Cia", "Dan", "Eva", "Filip", "Gun", "Hugo", "Ida", "Jon", "Kim"]
    tournament = make_tournament(players=0)
    assert paste(td_client, tournament, "\n".join(signed_up)).status_code == 302
    updated = [*signed_up[:5], "Lo", *signed_up[5:], "Maja"]
    response = paste(td_client, tournament, "\r\n".join(updated))
    assert response.status_code == 302 and response["Location"] == url("players", tournament)
    assert names_in_db(tournament)[11:] == [(12, "Lo"), (13, "Maja")]
    html = text(td_client.get(response["Location"]))
    assert "Registered from the list: 2 (start numbers 12 to 13)." in html
    skipped = ", ".join(f"{name} (no. {number})" for number, name in enumerate(signed_up, 1))
    assert f"Skipped 11 names already registered: {skipped}." in html
    assert "error-summary" not in html


def test_a_list_with_a_withdrawn_players_name_says_he_has_withdrawn(
    td_client, td_user, make_tournament
):
    """The list skips him as registered, and says he withdrew: it does not bring him back."""
    tournament = make_tournament(players=["Anna", "Bo"])
    registration.withdraw_player(player=tournament.players.get(name="Bo"), actor=td_user)
    response = paste(td_client, tournament, "Anna\nBo\nCia")
    assert response.status_code == 302
    assert names_in_db(tournament) == [(1, "Anna"), (2, "Bo"), (3, "Cia")]
    assert tournament.players.get(name="Bo").withdrawn_at is not None
    html = text(td_client.get(response["Location"]))
    assert "Skipped 2 names already registered: Anna (no. 1), Bo (no. 2, withdrawn)." in html


def test_a_list_of_names_all_registered_says_nothing_was_new(td_client, make_tournament):
    tournament = make_tournament(players=["Anna", "Bo"])
    response = paste(td_client, tournament, "Bo\nAnna")
    assert response.status_code == 302
    html = text(td_client.get(response["Location"]))
    assert "Nothing new in the list: every name is already registered." in html
    assert "Skipped 2 names already registered: Bo (no. 2), Anna (no. 1)." in html
    assert names_in_db(tournament) == [(1, "Anna"), (2, "Bo")]


def test_a_service_refusal_mid_list_keeps_none_of_it(td_client, make_tournament, monkeypatch):
    tournament = make_tournament(players=["Anna"])
    real = registration._create
    calls = []

    def refuse_the_third(tournament, actor, name, number, *rest):
        calls.append(name)
        if len(calls) == 3:
            raise InvalidEntry(f"{name} is already registered.")
        return real(tournament, actor, name, number, *rest)

    monkeypatch.setattr(registration, "_create", refuse_the_third)
    typed = "Bo\nCia\nDan\nEva"
    response = paste(td_client, tournament, typed)
    html = text(response)
    assert response.status_code == 400
    assert calls == ["Bo", "Cia", "Dan"]
    assert "Dan is already registered." in html
    assert "Nothing from the list was registered." in html
    assert typed in html
    assert names_in_db(tournament) == [(1, "Anna")]
    assert not AuditEntry.objects.filter(action="player.register", after__name="Bo")
    assert not FormSubmission.objects.exists()
    # The register entries made for Bo and Cia went with them: only Anna's is left.
    assert list(RegisterEntry.objects.values_list("name", flat=True)) == ["Anna"]


def test_an_empty_list_is_refused(td_client, make_tournament):
    tournament = make_tournament(players=0)
    response = paste(td_client, tournament, "\n  \n")
    assert response.status_code == 400
    assert "Enter at least one name." in text(response)


def test_the_same_list_sent_twice_registers_once(td_client, make_tournament):
    tournament = make_tournament(players=0)
    key = uuid.uuid4()
    assert paste(td_client, tournament, "Anna\nBo", key).status_code == 302
    assert paste(td_client, tournament, "Anna\nBo", key).status_code == 302
    assert names_in_db(tournament) == [(1, "Anna"), (2, "Bo")]


def test_paste_once_play_started_is_refused(td_client, td_user, make_tournament):
    tournament = make_tournament(players=2)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="late")
    play(level.tables.get(), 1, -1)
    response = paste(td_client, tournament, "Cia\nDan")
    assert response.status_code == 400
    assert "players can no longer be added or withdrawn" in text(response)
    assert names_in_db(tournament) == [(1, "Anna"), (2, "Bo")]


def test_a_get_of_the_paste_url_goes_to_the_players_page(td_client, make_tournament):
    tournament = make_tournament(players=0)
    response = td_client.get(url("players_paste", tournament))
    assert response.status_code == 302 and response["Location"] == url("players", tournament)


# ---------------------------------------------------------------- a lookalike


def confirm_box(html, name):
    """The "another player" checkbox for `name` (its input tag), or None."""
    return re.search(
        rf'<input type="checkbox" name="[a-z_]+" value="{re.escape(name)}"[^>]*>', html
    )


def test_a_lookalike_is_asked_about_then_added_when_confirmed(td_client, make_tournament):
    tournament = make_tournament(players=["Per-Olof Svensson"])
    key = uuid.uuid4()
    asked = add(td_client, tournament, "Per Olof  Svensson", key)
    html = text(asked)
    assert asked.status_code == 400
    question = "Per Olof Svensson is very like Per-Olof Svensson (no. 1). Is this another player?"
    assert question in html and 'role="alert"' in html
    assert 'value="Per Olof  Svensson"' in html  # what was typed is kept
    box = confirm_box(html, "Per Olof Svensson")
    assert box and "checked" not in box.group()
    assert "Yes, another player: add Per Olof Svensson" in html
    assert names_in_db(tournament) == [(1, "Per-Olof Svensson")]
    # Ticked and sent again (the same one-time key: nothing was done with it yet).
    confirmed = td_client.post(
        url("players", tournament),
        {"name": "Per Olof Svensson", "confirm": "Per Olof Svensson", "add-submission_key": key},
    )
    assert confirmed.status_code == 302
    assert names_in_db(tournament) == [(1, "Per-Olof Svensson"), (2, "Per Olof Svensson")]


def test_a_case_or_accent_variant_is_asked_about_on_add_paste_and_rename(
    td_client, make_tournament
):
    """Issue 17 §5: "asa öberg" beside "Åsa Öberg" gets a warning the TD confirms (it was
    refused outright); the player confirmed carries it."""
    tournament = make_tournament(players=["Åsa Öberg", "Bo"])
    question = "asa öberg is very like Åsa Öberg (no. 1). Is this another player?"
    asked = add(td_client, tournament, "asa öberg")
    assert asked.status_code == 400 and question in text(asked)
    assert confirm_box(text(asked), "asa öberg")
    assert "is already registered" not in text(asked)
    pasted = paste(td_client, tournament, "Cia\nasa öberg")
    assert pasted.status_code == 400
    assert f"Line 2: {question}" in text(pasted)
    assert "Line 2: yes, another player: register asa öberg" in text(pasted)
    bo = tournament.players.get(name="Bo")
    renamed = td_client.post(
        url("player_rename", tournament, bo.pk),
        {"name": "asa öberg", "submission_key": str(uuid.uuid4())},
    )
    assert renamed.status_code == 400 and question in text(renamed)
    assert names_in_db(tournament) == [(1, "Åsa Öberg"), (2, "Bo")]
    done = td_client.post(
        url("players_paste", tournament),
        {
            "names": "Cia\nasa öberg",
            "confirm_names": "asa öberg",
            "paste-submission_key": str(uuid.uuid4()),
        },
    )
    assert done.status_code == 302
    assert list(
        tournament.players.order_by("number").values_list("number", "name", "alike_confirmed")
    ) == [(1, "Åsa Öberg", False), (2, "Bo", False), (3, "Cia", False), (4, "asa öberg", True)]


def test_a_case_or_accent_variant_is_asked_about_in_swedish(td_client, make_tournament):
    tournament = make_tournament(players=["Åsa Öberg"])
    td_client.cookies["django_language"] = "sv"
    html = text(add(td_client, tournament, "ASA OBERG"))
    assert "ASA OBERG är nästan samma namn som Åsa Öberg (nr 1). Är det en annan spelare?" in html
    assert "Ja, en annan spelare: lägg till ASA OBERG" in html


def test_a_confirmation_holds_only_for_the_name_it_was_given_for(td_client, make_tournament):
    tournament = make_tournament(players=["Per-Olof Svensson", "Anna-Lena Berg"])
    response = td_client.post(
        url("players", tournament),
        {
            "name": "Anna Lena Berg",
            "confirm": "Per Olof Svensson",
            "add-submission_key": str(uuid.uuid4()),
        },
    )
    assert response.status_code == 400
    assert "Anna Lena Berg is very like Anna-Lena Berg (no. 2)." in text(response)
    assert tournament.players.count() == 2


def test_no_question_for_a_name_unlike_every_other(td_client, make_tournament):
    tournament = make_tournament(players=["Per-Olof Svensson"])
    assert add(td_client, tournament, "Per Svensson").status_code == 302
    assert 'type="checkbox"' not in text(td_client.get(url("players", tournament)))


def test_a_lookalike_is_asked_about_in_swedish(td_client, make_tournament):
    tournament = make_tournament(players=["Per-Olof Svensson"])
    td_client.cookies["django_language"] = "sv"
    html = text(add(td_client, tournament, "Per Olof Svensson"))
    assert (
        "Per Olof Svensson är nästan samma namn som Per-Olof Svensson (nr 1). "
        "Är det en annan spelare?"
    ) in html
    assert "Ja, en annan spelare: lägg till Per Olof Svensson" in html
    html = text(add(td_client, tournament, "per-olof svensson"))
    assert (
        "per-olof svensson är nästan samma namn som Per-Olof Svensson (nr 1). "
        "Är det en annan spelare?"
    ) in html
    assert "Ja, en annan spelare: lägg till per-olof svensson" in html
    html = text(add(td_client, tournament, "Per-Olof Svensson"))
    assert "Per-Olof Svensson är redan anmäld (nr 1)." in html


def test_each_lookalike_line_of_a_list_is_asked_about(td_client, make_tournament):
    tournament = make_tournament(players=["Per-Olof Svensson"])
    typed = "Anna\nPer Olof Svensson\n\nBo Ek\nBo-Ek\nBo Ek"
    key = uuid.uuid4()
    asked = paste(td_client, tournament, typed, key)
    html = text(asked)
    assert asked.status_code == 400
    lines = [
        "Line 2: Per Olof Svensson is very like Per-Olof Svensson (no. 1). Is this another player?",
        "Line 5: Bo-Ek is very like Bo Ek on line 4. Is this another player?",
    ]
    assert [html.count(line) for line in lines] == [1, 1]
    assert "Line 2: yes, another player: register Per Olof Svensson" in html
    assert "Line 5: yes, another player: register Bo-Ek" in html
    assert names_in_db(tournament) == [(1, "Per-Olof Svensson")]
    # One ticked: the other is still asked about, the tick is kept.
    half = td_client.post(
        url("players_paste", tournament),
        {"names": typed, "confirm_names": "Bo-Ek", "paste-submission_key": key},
    )
    html = text(half)
    assert half.status_code == 400
    assert "checked" in confirm_box(html, "Bo-Ek").group()
    assert "checked" not in confirm_box(html, "Per Olof Svensson").group()
    assert lines[0] in html and lines[1] not in html
    both = td_client.post(
        url("players_paste", tournament),
        {
            "names": typed,
            "confirm_names": ["Bo-Ek", "Per Olof Svensson"],
            "paste-submission_key": key,
        },
    )
    assert both.status_code == 302
    assert names_in_db(tournament) == [
        (1, "Per-Olof Svensson"),
        (2, "Anna"),
        (3, "Per Olof Svensson"),
        (4, "Bo Ek"),
        (5, "Bo-Ek"),
    ]
    html = text(td_client.get(both["Location"]))
    assert "Skipped 1 name that was already higher up in the list: Bo Ek." in html


def test_a_rename_into_a_lookalike_is_asked_about(td_client, make_tournament):
    tournament = make_tournament(players=["Per-Olof Svensson", "P. Svensson"])
    other = tournament.players.get(name="P. Svensson")
    target = url("player_rename", tournament, other.pk)
    key = str(uuid.uuid4())
    asked = td_client.post(target, {"name": "PerOlof Svensson", "submission_key": key})
    html = text(asked)
    assert asked.status_code == 400
    assert (
        "PerOlof Svensson is very like Per-Olof Svensson (no. 1). Is this another player?" in html
    )
    assert "Yes, another player: rename to PerOlof Svensson" in html
    other.refresh_from_db()
    assert other.name == "P. Svensson"
    done = td_client.post(
        target,
        {"name": "PerOlof Svensson", "confirm": "PerOlof Svensson", "submission_key": key},
    )
    assert done.status_code == 302
    other.refresh_from_db()
    assert other.name == "PerOlof Svensson"


# ---------------------------------------------------------------- rename


def test_rename_shows_the_current_name_and_saves_the_new_one(td_client, td_user, make_tournament):
    tournament = make_tournament(players=["Anna", "Bo"])
    bo = tournament.players.get(name="Bo")
    target = url("player_rename", tournament, bo.pk)
    page = text(td_client.get(target))
    assert 'value="Bo"' in page and "Rename Bo (no. 2)" in page and "Save the name" in page
    key = str(uuid.uuid4())
    response = td_client.post(target, {"name": "Björn Borg", "submission_key": key})
    assert response.status_code == 302 and response["Location"] == url("players", tournament)
    bo.refresh_from_db()
    assert bo.name == "Björn Borg" and bo.number == 2
    entry = AuditEntry.objects.get(action="player.rename")
    assert entry.before == {"name": "Bo"} and entry.after == {"name": "Björn Borg"}
    assert "Start number 2 is now called Björn Borg." in text(td_client.get(response["Location"]))
    # The same submission again changes nothing more.
    again = td_client.post(target, {"name": "Björn Borg", "submission_key": key})
    assert again.status_code == 302
    assert AuditEntry.objects.filter(action="player.rename").count() == 1


def test_rename_to_a_taken_name_is_refused_in_place(td_client, make_tournament):
    tournament = make_tournament(players=["Anna", "Bo"])
    bo = tournament.players.get(name="Bo")
    response = td_client.post(
        url("player_rename", tournament, bo.pk),
        {"name": "Anna", "submission_key": str(uuid.uuid4())},
    )
    assert response.status_code == 400
    assert "Anna is already registered (no. 1)." in text(response)
    assert 'value="Anna"' in text(response)
    bo.refresh_from_db()
    assert bo.name == "Bo"


def test_rename_is_allowed_after_the_draw(td_client, td_user, make_tournament):
    tournament = make_tournament(players=["Anna", "Bo"])
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="typo")
    bo = tournament.players.get(name="Bo")
    response = td_client.post(
        url("player_rename", tournament, bo.pk),
        {"name": "Boo", "submission_key": str(uuid.uuid4())},
    )
    assert response.status_code == 302
    bo.refresh_from_db()
    assert bo.name == "Boo"


# ---------------------------------------------------------------- withdraw


def test_withdraw_asks_first_naming_the_player(td_client, make_tournament):
    tournament = make_tournament(players=["Anna", "Åke Öberg"])
    ake = tournament.players.get(name="Åke Öberg")
    response = td_client.get(url("player_withdraw", tournament, ake.pk))
    html = text(response)
    assert response.status_code == 200
    assert "Withdraw Åke Öberg (no. 2)?" in html
    assert ">Withdraw Åke Öberg</button>" in html
    ake.refresh_from_db()
    assert ake.withdrawn_at is None  # asking changes nothing


def test_withdraw_confirmed_once(td_client, td_user, make_tournament):
    tournament = make_tournament(players=["Anna", "Bo"])
    bo = tournament.players.get(name="Bo")
    target = url("player_withdraw", tournament, bo.pk)
    key = str(uuid.uuid4())
    response = td_client.post(target, {"submission_key": key})
    assert response.status_code == 302 and response["Location"] == url("players", tournament)
    bo.refresh_from_db()
    assert bo.withdrawn_at is not None
    assert "Bo has withdrawn." in text(td_client.get(response["Location"]))
    again = td_client.post(target, {"submission_key": key})
    assert again.status_code == 302
    assert AuditEntry.objects.filter(action="player.withdraw").count() == 1
    # A new submission for an already withdrawn player is refused by the service.
    third = td_client.post(target, {"submission_key": str(uuid.uuid4())})
    assert third.status_code == 400 and "Bo has already withdrawn." in text(third)
    assert "Bo has already withdrawn." in text(td_client.get(target))


def test_withdraw_without_a_key_is_refused(td_client, make_tournament):
    tournament = make_tournament(players=["Anna", "Bo"])
    bo = tournament.players.get(name="Bo")
    response = td_client.post(url("player_withdraw", tournament, bo.pk), {})
    assert response.status_code == 400
    bo.refresh_from_db()
    assert bo.withdrawn_at is None


def refused_once_play_started(td_client, target):
    """The confirmation page says why and offers no button; a POST is refused in place."""
    page = td_client.get(target)
    assert page.status_code == 200
    assert "players can no longer be added or withdrawn" in text(page)
    assert "<button" not in text(page).split("<main", 1)[1].split("</main>")[0]
    response = td_client.post(target, {"submission_key": str(uuid.uuid4())})
    assert response.status_code == 400 and 'role="alert"' in text(response)


def test_withdraw_once_play_started_is_refused(td_client, td_user, make_tournament):
    tournament = make_tournament(players=["Anna", "Bo"])
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="late")
    play(level.tables.get(), 1, -1)
    bo = tournament.players.get(name="Bo")
    target = url("player_withdraw", tournament, bo.pk)
    refused_once_play_started(td_client, target)
    bo.refresh_from_db()
    assert bo.withdrawn_at is None


# ---------------------------------------------------------------- undo a withdrawal


def withdrawn(tournament, name, td_user):
    return registration.withdraw_player(player=tournament.players.get(name=name), actor=td_user)


def test_undoing_a_withdrawal_asks_first_naming_the_player(td_client, td_user, make_tournament):
    tournament = make_tournament(players=["Anna", "Åke Öberg"])
    ake = withdrawn(tournament, "Åke Öberg", td_user)
    response = td_client.get(url("player_reinstate", tournament, ake.pk))
    html = text(response)
    assert response.status_code == 200
    assert "Put Åke Öberg (no. 2) back in the draw?" in html
    assert "Åke Öberg will be in the draw again, with start number 2." in html
    assert ">Put Åke Öberg back in the draw</button>" in html
    ake.refresh_from_db()
    assert ake.withdrawn_at is not None  # asking changes nothing


def test_undoing_a_withdrawal_confirmed_once(td_client, td_user, make_tournament):
    tournament = make_tournament(players=["Anna", "Bo"])
    bo = withdrawn(tournament, "Bo", td_user)
    target = url("player_reinstate", tournament, bo.pk)
    key = str(uuid.uuid4())
    response = td_client.post(target, {"submission_key": key})
    assert response.status_code == 302 and response["Location"] == url("players", tournament)
    bo.refresh_from_db()
    assert bo.withdrawn_at is None
    html = text(td_client.get(response["Location"]))
    assert "Bo is back in the draw." in html
    assert statuses(html) == {"Anna": "registered", "Bo": "registered"}
    again = td_client.post(target, {"submission_key": key})
    assert again.status_code == 302
    assert AuditEntry.objects.filter(action="player.reinstate").count() == 1
    # A new submission for a player in the draw is refused, in the page.
    third = td_client.post(target, {"submission_key": str(uuid.uuid4())})
    assert third.status_code == 400 and "Bo has not withdrawn." in text(third)
    assert "Bo has not withdrawn." in text(td_client.get(target))
    bo.refresh_from_db()
    assert bo.withdrawn_at is None


def test_undoing_a_withdrawal_without_a_key_changes_nothing(td_client, td_user, make_tournament):
    tournament = make_tournament(players=["Anna", "Bo"])
    bo = withdrawn(tournament, "Bo", td_user)
    response = td_client.post(url("player_reinstate", tournament, bo.pk), {})
    assert response.status_code == 400 and 'role="alert"' in text(response)
    bo.refresh_from_db()
    assert bo.withdrawn_at is not None


def test_undoing_a_withdrawal_once_play_started_is_refused(td_client, td_user, make_tournament):
    tournament = make_tournament(players=["Anna", "Bo", "Cia"])
    cia = withdrawn(tournament, "Cia", td_user)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="late")
    play(level.tables.get(), 1, -1)
    html = text(td_client.get(url("players", tournament)))
    assert url("player_reinstate", tournament, cia.pk) not in html
    target = url("player_reinstate", tournament, cia.pk)
    refused_once_play_started(td_client, target)
    cia.refresh_from_db()
    assert cia.withdrawn_at is not None


def test_adding_a_withdrawn_players_name_says_how_to_bring_him_back(
    td_client, td_user, make_tournament
):
    tournament = make_tournament(players=["Anna", "Bo"])
    withdrawn(tournament, "Bo", td_user)
    response = add(td_client, tournament, "Bo")
    assert response.status_code == 400
    assert (
        "Bo (no. 2) has withdrawn. To put this player back in the draw, choose Undo withdrawal "
        "in the player list."
    ) in text(response)
    assert names_in_db(tournament) == [(1, "Anna"), (2, "Bo")]


def test_undoing_a_withdrawal_in_swedish(td_client, td_user, make_tournament):
    tournament = make_tournament(players=["Anna", "Åke Öberg"])
    ake = withdrawn(tournament, "Åke Öberg", td_user)
    td_client.cookies["django_language"] = "sv"
    assert "Ångra strykningen" in text(td_client.get(url("players", tournament)))
    html = text(add(td_client, tournament, "Åke Öberg"))
    assert (
        "Åke Öberg (nr 2) har dragit sig ur. Välj Ångra strykningen i spelarlistan för att "
        "ta med spelaren i lottningen igen."
    ) in html
    target = url("player_reinstate", tournament, ake.pk)
    html = text(td_client.get(target))
    assert "Ta med Åke Öberg (nr 2) i lottningen igen?" in html
    assert ">Ta med Åke Öberg igen</button>" in html
    response = td_client.post(target, {"submission_key": str(uuid.uuid4())}, follow=True)
    assert "Åke Öberg är med i lottningen igen." in text(response)
