"""Released draws (issue 19 §5): a held draw leaks nowhere public, release shows it, the
revisors' links, codes and stations wait for it, and "release each draw at once" keeps
today's behaviour."""

import html
import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.tournament.conftest import play
from tournament.models import Player, RevisorStation, Table
from tournament.selectors.tokens import revision_token
from tournament.selectors.tournaments import td_tournament_list
from tournament.services import calls, draws, penalties
from tournament.services.revisor_stations import create_stations

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Bo", "Cia", "Dan"]
HTMX = {"HX-Request": "true"}
CARD = reverse("revisor:card")
CODE = reverse("revisor:code")
WAITING = reverse("revisor:station_waiting")


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def text(response):
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def second_level(make_tournament, td_user, at_once):
    """4 players, 1 hand a table: level 1 (released) seats 2 tables of 2; seat 0 wins each
    (+2), so level 2 is one table of the two winners, drawn by advance."""
    tournament = make_tournament(NAMES, min_hands=1, release_draws_at_once=at_once)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="rel")
    if not at_once:
        draws.release_draw(level=level, actor=td_user)
    create_stations(tournament=tournament, actor=td_user)
    for table in Table.objects.current().filter(level=level):
        play(table, 2, -2)
    winners = [
        t.seats.get(position=0).player.name for t in Table.objects.current().filter(level=level)
    ]
    level2 = draws.advance(tournament=tournament, actor=td_user)
    (final,) = Table.objects.current().filter(level=level2)
    return tournament, level2, final, winners


def public_urls(tournament):
    """Every public page of the tournament (phones and big screen), one per player."""
    t = tournament.pk
    urls = [
        reverse("public:home"),
        reverse("public:tournament", args=[t]),
        reverse("public:tournament", args=[t]) + "?level=2",
        reverse("public:standings", args=[t]),
        reverse("public:tables_projector", args=[t]),
        reverse("public:standings_projector", args=[t]),
    ]
    for player in Player.objects.filter(tournament=tournament):
        urls.append(reverse("public:player", args=[t, player.pk]))
        urls.append(reverse("public:find", args=[t]) + f"?q={player.name}")
    return urls


def poll(url, language="en"):
    return f"{url}{'&' if '?' in url else '?'}rev=0.0&lang={language}"


# What would show level 2's seating: the levels' choice, a seat, a penalty's place, the news
# of a new seat, the big screen's heading ("SM 2026 · Level 2"). (The winners read "the draw
# of level 2" before and after the close, and a warning given meanwhile "level 2, before the
# first hand": that is no seating.)
SEATING_WORDS = {
    "en": (
        "level 1 level 2",
        "level 2: table",
        "level 2, table",
        "new seat: level 2",
        "2026 · level 2",
    ),
    "sv": ("nivå 1 nivå 2", "nivå 2: bord", "nivå 2, bord", "ny plats: nivå 2", "2026 · nivå 2"),
}


def assert_nothing_of(client, tournament, final, language):
    table_url = reverse("public:table", args=[tournament.pk, final.pk])
    for url in public_urls(tournament):
        for answer in (client.get(url), client.get(poll(url, language), headers=HTMX)):
            assert answer.status_code == 200, url
            page = answer.content.decode()
            assert table_url not in page, url
            shown = text(answer).lower()
            assert not [words for words in SEATING_WORDS[language] if words in shown], url
    assert client.get(table_url).status_code == 404
    assert client.get(poll(table_url), headers=HTMX).status_code == 404


def at_the_held_table(tournament, final, td_user):
    """A warning and a call at the held table (issue 34 §2: the warning's place showed it)."""
    player = final.seats.select_related("player").first().player
    penalties.give_penalty(tournament=tournament, player=player, kind="slow", actor=td_user)
    calls.call_td(table=final, kind="dispute", actor=td_user)


def test_a_held_draw_is_in_no_public_page_or_poll(client, make_tournament, td_user):
    tournament, _level2, final, _winners = second_level(make_tournament, td_user, at_once=False)
    at_the_held_table(tournament, final, td_user)
    assert_nothing_of(client, tournament, final, "en")


def test_a_held_draw_is_in_no_swedish_page_either(client, make_tournament, td_user):
    tournament, _level2, final, _winners = second_level(make_tournament, td_user, at_once=False)
    at_the_held_table(tournament, final, td_user)
    client.cookies["django_language"] = "sv"
    page = client.get(reverse("public:tournament", args=[tournament.pk]))
    assert "Nivå" in text(page)  # the page is in Swedish
    assert_nothing_of(client, tournament, final, "sv")


def test_release_shows_the_seating_everywhere(client, make_tournament, td_user):
    tournament, level2, final, winners = second_level(make_tournament, td_user, at_once=False)
    token = revision_token(tournament.pk)
    draws.release_draw(level=level2, actor=td_user)
    table_url = reverse("public:table", args=[tournament.pk, final.pk])
    page = client.get(reverse("public:tournament", args=[tournament.pk]))
    assert table_url in page.content.decode() and "Level 2" in text(page)
    # A phone that showed the held page gets the new region at its next poll.
    url = reverse("public:tournament", args=[tournament.pk])
    fresh = client.get(f"{url}?rev={token}&lang=en", headers=HTMX)
    assert fresh.status_code == 200 and table_url in fresh.content.decode()
    for name in winners:
        found = client.get(reverse("public:find", args=[tournament.pk]) + f"?q={name}")
        assert table_url in found.content.decode()
    assert client.get(table_url).status_code == 200


def test_at_once_shows_a_new_draw_as_today(client, make_tournament, td_user):
    tournament, _level2, final, _winners = second_level(make_tournament, td_user, at_once=True)
    table_url = reverse("public:table", args=[tournament.pk, final.pk])
    page = client.get(reverse("public:tables_projector", args=[tournament.pk]))
    assert "Level 2" in text(page)
    assert (
        table_url in client.get(reverse("public:tournament", args=[tournament.pk])).content.decode()
    )
    assert client.get(table_url).status_code == 200


def test_revisor_link_and_code_wait_for_the_release(client, make_tournament, td_user):
    tournament, level2, final, _winners = second_level(make_tournament, td_user, at_once=False)
    wait = (
        "The seating of level 2 is not released yet: table 1's card opens once the TD "
        "releases it. Try again then."
    )
    link = client.get(reverse("revisor:link", args=[final.revisor_key]), follow=True)
    assert wait in text(link) and link.redirect_chain[-1][0] == CODE
    assert client.get(CARD).status_code == 302  # not bound
    typed = client.post(CODE, {"code": final.revisor_code})
    assert typed.status_code == 400 and wait in text(typed)
    draws.release_draw(level=level2, actor=td_user)
    assert client.get(reverse("revisor:link", args=[final.revisor_key]))["Location"] == CARD
    assert client.get(CARD).status_code == 200


def test_revisor_code_says_so_in_swedish(client, make_tournament, td_user):
    _tournament, _level2, final, _winners = second_level(make_tournament, td_user, at_once=False)
    client.cookies["django_language"] = "sv"
    typed = client.post(CODE, {"code": final.revisor_code})
    assert typed.status_code == 400
    assert (
        "Bordsplaceringen för nivå 2 är inte släppt än: bord 1:s protokoll öppnas när TL "
        "släpper den. Försök igen då."
    ) in text(typed)


def test_a_station_waits_for_the_release(client, make_tournament, td_user):
    tournament = make_tournament(NAMES, min_hands=1, release_draws_at_once=False)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="rel")
    create_stations(tournament=tournament, actor=td_user)
    station = RevisorStation.objects.get(tournament=tournament, number=1)
    client.get(reverse("revisor:station_link", args=[station.key]))
    card = client.get(CARD)
    assert card.status_code == 302 and card["Location"] == WAITING
    waiting = client.get(WAITING)
    assert "Table 1's seating is not released yet" in text(waiting)
    assert "Anna" not in text(waiting) and "Bo" not in text(waiting)
    draws.release_draw(level=level, actor=td_user)
    assert client.get(WAITING)["Location"] == CARD
    assert client.get(CARD).status_code == 200


def test_the_td_releases_from_the_level_page(client, make_tournament, td_user):
    tournament = make_tournament(NAMES, min_hands=1, release_draws_at_once=False)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="rel")
    client.force_login(td_user)
    page = client.get(reverse("td:level", args=[tournament.pk, 1]))
    assert "Not released yet" in text(page)
    key = re.search(r'name="submission_key" value="([^"]+)"', page.content.decode()).group(1)
    done = client.post(reverse("td:release", args=[tournament.pk, 1]), {"submission_key": key})
    assert done.status_code == 302
    after = client.get(done["Location"])
    assert "The seating of level 1 is released: the room sees it now." in text(after)
    assert "Release the seating" not in text(after)
    again = client.post(reverse("td:release", args=[tournament.pk, 1]), {"submission_key": key})
    assert again.status_code == 302  # the same key: done once, nothing more


def test_the_dashboard_says_the_seating_waits_and_links_to_its_release(
    client, make_tournament, td_user
):
    tournament = make_tournament(NAMES, min_hands=1, release_draws_at_once=False)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="rel")
    client.force_login(td_user)
    dashboard = reverse("td:tournament", args=[tournament.pk])
    held = client.get(dashboard)
    assert "The seating of level 1 is not released yet" in text(held)
    release_at = reverse("td:level", args=[tournament.pk, 1]) + "#release-title"
    assert f'href="{release_at}"' in held.content.decode()
    client.cookies["django_language"] = "sv"
    assert "Placeringen för nivå 1 är inte släppt än" in text(client.get(dashboard))
    client.cookies["django_language"] = "en"
    draws.release_draw(level=level, actor=td_user)
    assert "not released" not in text(client.get(dashboard))


def test_the_setting_is_in_the_settings_form_with_its_help(td_client, make_tournament, td_user):
    from tests.tournament.views.test_td_tournaments import form_data

    tournament = make_tournament(NAMES)
    url = reverse("td:settings", args=[tournament.pk])
    page = text(td_client.get(url))
    assert "release each draw at once" in page.lower()
    assert "Off: a new draw is yours until you press “Release the seating”" in page
    assert re.search(
        r'<input[^>]*name="release_draws_at_once"[^>]*checked', td_client.get(url).content.decode()
    )
    assert td_client.post(url, form_data()).status_code == 302  # the box left unticked
    tournament.refresh_from_db()
    assert tournament.release_draws_at_once is False
    level = draws.draw_first_level(tournament=tournament, actor=td_user)
    assert level.draws.get().released_at is None
    td_client.cookies["django_language"] = "sv"
    assert "släpp varje lottning direkt" in text(td_client.get(url)).lower()


def test_the_tds_projector_shows_the_seating_only_once_released(
    td_client, make_tournament, td_user
):
    tournament = make_tournament(NAMES, min_hands=1, release_draws_at_once=False)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="rel")
    url = reverse("td:level_projector", args=[tournament.pk, 1])
    held = text(td_client.get(url))
    assert "The seating of level 1 is being prepared." in held
    assert not any(name in held for name in NAMES) and "Seat 1" not in held
    td_client.cookies["django_language"] = "sv"
    assert "Bordsplaceringen för nivå 1 förbereds." in text(td_client.get(url))
    draws.release_draw(level=level, actor=td_user)
    td_client.cookies["django_language"] = "en"
    shown = text(td_client.get(url))
    assert all(name in shown for name in NAMES) and "4 players at 2 tables" in shown


@pytest.mark.parametrize("name", ["td:level_print", "td:table_cards"])
@pytest.mark.parametrize(
    "language, says, button",
    [
        ("en", "The seating of level 1 is not released yet", "Check and release the seating"),
        ("sv", "Placeringen för nivå 1 är inte släppt än", "Kontrollera och släpp placeringen"),
    ],
)
def test_the_print_pages_print_no_held_seating(
    td_client, make_tournament, td_user, name, language, says, button
):
    """The printed seating and the table cards are the players' paper: while the draw is
    held they name nobody and no table, say why and link to the release; once released
    they print the seating."""
    tournament = make_tournament(NAMES, min_hands=1, release_draws_at_once=False)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="rel")
    url = reverse(name, args=[tournament.pk, 1])
    td_client.cookies["django_language"] = language
    held = td_client.get(url)
    assert held.status_code == 200
    page = text(held)
    assert says in page and button in page
    assert not any(re.search(rf"\b{player}\b", page) for player in NAMES)
    assert "Seat 1" not in page and "Plats 1" not in page
    release_at = reverse("td:level", args=[tournament.pk, 1]) + "#release-title"
    assert f'href="{release_at}"' in held.content.decode()
    draws.release_draw(level=level, actor=td_user)
    shown = text(td_client.get(url))
    assert all(player in shown for player in NAMES) and says not in shown


@pytest.mark.parametrize(
    "language, waits",
    [
        ("en", "The seating and the table cards print once the seating is released."),
        ("sv", "Placeringen och bordskorten skrivs ut när placeringen är släppt."),
    ],
)
def test_the_level_page_and_dashboard_offer_no_print_while_held(
    td_client, make_tournament, td_user, language, waits
):
    tournament = make_tournament(NAMES, min_hands=1, release_draws_at_once=False)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="rel")
    td_client.cookies["django_language"] = language
    pages = [
        reverse("td:level", args=[tournament.pk, 1]),
        reverse("td:tournament", args=[tournament.pk]),
    ]
    prints = [reverse(n, args=[tournament.pk, 1]) for n in ("td:level_print", "td:table_cards")]
    for url in pages:
        held = td_client.get(url)
        assert waits in text(held), url
        assert not any(f'href="{p}"' in held.content.decode() for p in prints), url
    draws.release_draw(level=level, actor=td_user)
    for url in pages:
        shown = td_client.get(url)
        assert waits not in text(shown), url
        assert all(f'href="{p}"' in shown.content.decode() for p in prints), url


@pytest.mark.parametrize(
    "language, shows, held_words",
    [
        ("en", "in play: level 1, 2 of 2 tables finished", "level 2"),
        ("sv", "pågår: nivå 1, 2 av 2 bord klara", "nivå 2"),
    ],
)
def test_the_home_page_counts_only_released_levels(
    client, make_tournament, td_user, django_assert_num_queries, language, shows, held_words
):
    """Level 2 held: the home page shows level 1 (both its tables finished), as the
    tournament page does, in the same 2 queries; released, level 2 and its one table."""
    tournament, level2, _final, _winners = second_level(make_tournament, td_user, at_once=False)
    client.cookies["django_language"] = language
    with django_assert_num_queries(2):
        page = text(client.get(reverse("public:home")))
    assert shows in page and held_words not in page.lower()
    draws.release_draw(level=level2, actor=td_user)
    with django_assert_num_queries(2):
        page = text(client.get(reverse("public:home")))
    assert held_words in page.lower()
    assert ("0 of 1 table finished" if language == "en" else "0 av 1 bord klart") in page


def test_the_tds_list_still_shows_the_held_level(td_client, make_tournament, td_user):
    tournament, _level2, _final, _winners = second_level(make_tournament, td_user, at_once=False)
    rows = {row.tournament.pk: row for row in td_tournament_list()}
    assert (rows[tournament.pk].level, rows[tournament.pk].tables_total) == (2, 1)
    public = {row.tournament.pk: row for row in td_tournament_list(released_only=True)}
    row = public[tournament.pk]
    assert (row.state, row.level, row.tables_over, row.tables_total) == ("running", 1, 2, 2)


def test_a_held_first_draw_is_not_started_on_the_home_page(client, make_tournament, td_user):
    """Before any released draw the players' home shows the tournament as not started, as
    its page says "No draw yet"."""
    tournament = make_tournament(NAMES, release_draws_at_once=False)
    draws.draw_first_level(tournament=tournament, actor=td_user, seed="rel")
    page = text(client.get(reverse("public:home")))
    assert "registration open, 4 players" in page and "level 1" not in page.lower()
