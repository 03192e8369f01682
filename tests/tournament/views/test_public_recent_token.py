"""A process answers the players' polls with the token it read last for up to
`PUBLIC_TOKEN_SECONDS` (1 s; 0 in tests elsewhere): a room polling one page reads its token
once a second per process, not once a poll, and a phone is sent the fresh region at its
first poll after that second."""

from unittest import mock

import pytest
from django.urls import reverse

from tests.tournament.conftest import play
from tests.tournament.views.conftest import page_and_calls
from tournament.live import kept, tokens
from tournament.models import Seat, Table
from tournament.selectors.public import player_record
from tournament.selectors.tokens import revision_token, room_tokens
from tournament.services import announcements, draws

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def memo(settings, clock):
    settings.PUBLIC_TOKEN_SECONDS = 1
    kept.forget_kept()
    yield clock
    kept.forget_kept()


def poll(client, url, rev):
    return client.get(f"{url}?rev={rev}&lang=en", headers=HTMX)


def rev_of(response):
    return rev_of_page(response.content.decode())


def rev_of_page(page):
    return page.split('data-poll-rev="', 1)[1].split('"', 1)[0]


def test_one_read_a_second_for_every_page_of_the_tournament(
    client, two_tables, memo, django_assert_num_queries
):
    tournament, first, _ = two_tables
    token = revision_token(tournament.pk)
    pages = [
        reverse("public:tournament", args=[tournament.pk]),
        reverse("public:standings", args=[tournament.pk]),
        reverse("public:tables_projector", args=[tournament.pk]),
    ]
    with django_assert_num_queries(1):  # the first poll reads the token
        assert poll(client, pages[0], token).status_code == 204
    for url in pages:  # every other poll of the second: nothing read
        with django_assert_num_queries(0):
            assert poll(client, url, token).status_code == 204
    memo.now += 1
    with django_assert_num_queries(1):
        assert poll(client, pages[1], token).status_code == 204


def test_a_hand_reaches_the_phone_at_its_first_poll_after_the_second(client, two_tables, memo):
    tournament, first, _ = two_tables
    url = reverse("public:table", args=[tournament.pk, first.pk])
    before = revision_token(tournament.pk, first.pk)
    assert poll(client, url, before).status_code == 204  # read at 0 s
    play(first, 5, -2, -3)
    memo.now += 0.9
    assert poll(client, url, before).status_code == 204  # the token read 0.9 s ago
    memo.now += 0.1
    fresh = poll(client, url, before)
    assert fresh.status_code == 200
    assert rev_of(fresh) == revision_token(tournament.pk, first.pk) != before
    assert "+5" in fresh.content.decode()


def test_the_tables_tokens_are_read_together_each_its_own(
    client, two_tables, memo, django_assert_num_queries
):
    """A process reads every table's token at once with the tournament's, a second at a
    time: after the tournament page, neither table's poll reads anything; each is its
    table's own (not the tournament's), and a hand at one table reaches its phones at their
    first poll after the second."""
    tournament, first, second = two_tables
    tournament_page = reverse("public:tournament", args=[tournament.pk])
    assert poll(client, tournament_page, "x").status_code == 200
    urls = [reverse("public:table", args=[tournament.pk, t.pk]) for t in (first, second)]
    tokens = [revision_token(tournament.pk, t.pk) for t in (first, second)]
    for url, token in zip(urls, tokens, strict=True):
        with django_assert_num_queries(0):  # read with the tournament's, for its page
            assert poll(client, url, token).status_code == 204

    play(first, 5, -2, -3)
    assert poll(client, urls[0], tokens[0]).status_code == 204  # read before the hand
    memo.now += 1
    with django_assert_num_queries(1):  # both tables' tokens again, in one query
        assert poll(client, urls[1], tokens[1]).status_code == 204
    fresh = poll(client, urls[0], tokens[0])
    assert fresh.status_code == 200
    assert rev_of(fresh) == revision_token(tournament.pk, first.pk) != tokens[0]


def test_a_table_the_tokens_lack_is_read_alone(client, two_tables, memo, make_tournament):
    """A table of another tournament is not among this one's tokens: read alone, not
    found."""
    tournament, first, _ = two_tables
    other = make_tournament(3, name="Other")
    draws.draw_first_level(tournament=other, actor=None, seed="other")
    elsewhere = Table.objects.get(level__tournament=other)
    assert (
        poll(client, reverse("public:table", args=[tournament.pk, first.pk]), "x").status_code
        == 200
    )
    missing = reverse("public:table", args=[tournament.pk, elsewhere.pk])
    assert poll(client, missing, "x").status_code == 404
    assert (revision_token, (tournament.pk, elsewhere.pk)) not in tokens._recent_tokens


def test_never_longer_than_the_render_bound_and_an_unknown_page_is_not_kept(
    client, two_tables, settings, memo, django_assert_num_queries
):
    tournament, *_ = two_tables
    url = reverse("public:tournament", args=[tournament.pk])
    token = revision_token(tournament.pk)
    settings.PUBLIC_RENDER_SECONDS = 0  # every change at once: the token too
    for _ in range(2):
        with django_assert_num_queries(1):
            assert poll(client, url, token).status_code == 204
    settings.PUBLIC_RENDER_SECONDS = 5
    missing = reverse("public:tournament", args=[tournament.pk + 1000])
    for _ in range(2):
        response = poll(client, missing, token)
        assert response.status_code == 404
    assert (room_tokens, (tournament.pk + 1000,)) not in tokens._recent_tokens


def tournament_reads(client, url):
    """The page at `url`, and how many times it read the tournament."""
    return page_and_calls(client, url, kept, "public_tournament")


def test_the_tournament_is_read_once_a_second_for_the_token_its_pages_show(
    client, two_tables, memo
):
    """Every page rendered at one token in the same second reads the tournament once: a hand
    somewhere renders the room's regions again, and each needs it."""
    tournament, first, _ = two_tables
    pages = [
        reverse(name, args=[tournament.pk])
        for name in ("public:tournament", "public:standings", "public:tables_projector")
    ]
    assert [tournament_reads(client, url)[1] for url in pages] == [1, 0, 0]

    memo.now += 1  # a second later: read again, for the token read again
    page = reverse("public:standings_projector", args=[tournament.pk])
    assert tournament_reads(client, page)[1] == 1
    play(first, 5, -2, -3)  # the token moves: after the render bound, the page renders
    memo.now += 5  # again and reads the tournament for its new token
    page, reads = tournament_reads(client, pages[0])
    assert reads == 1 and rev_of_page(page) == revision_token(tournament.pk)


def test_a_page_never_shows_a_token_newer_than_the_tournament_it_holds(
    client, two_tables, memo, td_user
):
    """The tournament is kept under the token its page read before it: a table of a new
    draw, which the room's tokens read before it lack, reads its own token and then the
    tournament again within the second, so it never shows the new token with the old
    tournament (its draw, its announcement)."""
    tournament, first, _ = two_tables
    page, reads = tournament_reads(client, reverse("public:tournament", args=[tournament.pk]))
    assert reads == 1 and "Coffee break" not in page

    announcements.announce(tournament=tournament, actor=td_user, text="Coffee break")
    draws.redraw_level(level=first.level, actor=td_user, reason="A seat was wrong", seed="re")
    new = Table.objects.current().filter(level=first.level).order_by("number").first()
    assert new.pk not in tokens.room(tournament.pk).tables
    page, reads = tournament_reads(client, reverse("public:table", args=[tournament.pk, new.pk]))
    assert reads == 1
    assert rev_of_page(page) == revision_token(tournament.pk, new.pk)
    assert "Coffee break" in page


def test_a_read_that_ends_after_a_newer_one_never_replaces_it(memo):
    """Where a server runs threads, a token read before another can be kept after it: the
    newer stays, so a page never checks what it shows against an older token than its own."""
    reads = iter(["older", "newer"])

    def token_of(subject):
        token = next(reads)
        if token == "older":  # another thread reads and keeps while this one waits
            memo.now += 0.5
            assert tokens.recent_token(token_of, (subject,)) == "newer"
        return token

    assert tokens.recent_token(token_of, (7,)) == "older"
    assert tokens.recent_token(token_of, (7,)) == "newer"


@pytest.fixture
def anna(two_tables):
    """Anna's seat, her table, the other table and her page."""
    tournament, first, second = two_tables
    seat = Seat.objects.select_related("table").get(player__name="Anna", table__in=[first, second])
    other = second if seat.table_id == first.pk else first
    return tournament, seat, other, reverse("public:player", args=[tournament.pk, seat.player_id])


def her_hand(seat, anna_wins):
    """A hand at Anna's table: she wins `anna_wins`, the two others lose half each."""
    table = Table.objects.get(pk=seat.table_id)
    seats = table.seats.order_by("position")
    play(table, *(anna_wins if s.pk == seat.pk else -anna_wins // 2 for s in seats))


def test_a_players_record_is_checked_against_the_rooms_tokens(client, anna, memo):
    """A hand elsewhere moves the room's token: after the render bound his page is built
    again, and his record is found unchanged from the tokens read for the page itself,
    with no query of its own; a hand at his table is read at the first visit after it."""
    tournament, seat, other, url = anna
    assert page_and_calls(client, url, kept, "player_record")[1] == 1

    play(other, 4, -2, -2)
    memo.now += 5
    with (
        mock.patch.object(tokens, "revision_token", wraps=revision_token) as own,
        mock.patch.object(kept, "player_record", wraps=player_record) as records,
    ):
        response = client.get(url)
    assert (own.call_count, records.call_count) == (0, 0)
    assert rev_of(response) == revision_token(tournament.pk)

    her_hand(seat, 6)
    memo.now += 5
    page, reads = page_and_calls(client, url, kept, "player_record")
    assert reads == 1
    assert "place 1 · 6 points" in page
    assert rev_of_page(page) == revision_token(tournament.pk)


def test_a_searchs_seats_are_kept_while_their_tables_stand(client, anna, memo):
    """The seats of the players a search finds are read again only when one of their
    tables or the tournament has moved: a hand elsewhere leaves them; Anna's table over
    (she won its 3 hands) shows her waiting for the next draw."""
    tournament, seat, other, _ = anna
    url = reverse("public:find", args=[tournament.pk]) + "?q=anna"
    table = seat.table
    where = f"Level 1: table {table.number}, seat {seat.position + 1}"
    page, reads = page_and_calls(client, url, kept, "latest_seats")
    assert reads == 1 and where in page

    play(other, 4, -2, -2)
    memo.now += 5
    page, reads = page_and_calls(client, url, kept, "latest_seats")
    assert reads == 0 and where in page
    assert rev_of_page(page) == revision_token(tournament.pk)

    for _ in range(3):
        her_hand(seat, 6)
    memo.now += 5
    page, reads = page_and_calls(client, url, kept, "latest_seats")
    assert reads == 1
    assert where not in page and f"Won table {table.number} at level 1." in page
