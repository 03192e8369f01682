"""The connection to the database lost in the middle of a request (a restart, a failover, a
pooler restarted): a read is answered as if nothing happened, or with a clear page; a
change says whether it was recorded, and sent again with its key is recorded once.

A real gunicorn with two workers on PostgreSQL. The test stops the request at a chosen
moment with a lock of its own, taken from a second connection, and ends the request's
backend while it waits there (`pg_terminate_backend`, what a restart does to it): the
request meets `AdminShutdown` ("terminating connection due to administrator command"),
as in play. No test hook in the app: the request waits where any request would wait.

- A read whose backend is ended once is answered on a fresh connection; ended again, on
  the fresh connection too, it is a 503 in the reader's language (a poll's: its region's
  "trying again").
- A hand ended before its commit (the test holds the table's row, which the hand's
  transaction writes last) is not recorded; one ended after it (the test holds the table
  of the TD's calls, which the card reads to answer) is. The 503 says which, and the same
  entry sent again (as the page does by itself) is recorded once.
"""

import re
import threading

import pytest
import requests

from tests.faults.servers import (
    TIMEOUT,
    allow_connections,
    connect,
    end_backend,
    field_value,
    lock_waiter,
    log_in_td,
    recorded_hands,
    set_read_only,
    start_workers,
    terminate_backends,
    text,
    wait_until,
)
from tests.production.servers import stop

pytestmark = pytest.mark.postgres
HTMX = {"HX-Request": "true"}
RESENT = {**HTMX, "X-Resent-After-Fault": "lost"}
POINTS = {"Anna": 4, "Bo": -1, "Cia": -3}
# Read by every page of a table after the rest (the card, the TD's table page and
# dashboard), and not written by a hand.
CALLS = "LOCK TABLE tournament_tablecall IN ACCESS EXCLUSIVE MODE"
# Read by a poll's token and by every revisor request's binding.
TABLES = "LOCK TABLE tournament_table IN ACCESS EXCLUSIVE MODE"
LOST_HEADING = "The connection to the database was lost"
TRYING_AGAIN = "The server lost its connection to the database: trying again…"


def table_row(ids):
    """The table's row, which a hand's transaction writes last (after its inserts)."""
    return ("SELECT id FROM tournament_table WHERE id = %s FOR UPDATE", [ids["table"]])


@pytest.fixture(scope="module")
def server(pg_deployment):
    """gunicorn with two workers; each poll reads its token (none kept for a second), so
    that a poll meets the database when the test says."""
    process, url = start_workers(pg_deployment, env={"DJANGO_PUBLIC_TOKEN_SECONDS": "0"})
    try:
        yield url
    finally:
        stop(process)


def held(blocker, locks):
    for lock in locks:
        blocker.execute(*lock) if isinstance(lock, tuple) else blocker.execute(lock)


def cut(deployment, send, *locks, ends=1, meanwhile=None):
    """`send()`, in a thread, while a connection of the test's holds `locks`: each time
    the request waits for them, its backend is ended, `ends` times; then `meanwhile(that
    connection)` and the locks are let go. The answer."""
    answers = []
    sender = threading.Thread(target=lambda: answers.append(send()))
    with connect(deployment) as blocker, blocker.transaction():
        held(blocker, locks)
        sender.start()
        for attempt in range(max(ends, 1)):
            pid, _port = wait_until(lambda: lock_waiter(deployment), "the request waits")
            if attempt < ends:
                end_backend(deployment, pid)
        if meanwhile is not None:
            meanwhile(blocker)
    sender.join(TIMEOUT)
    assert answers, "no answer"
    return answers[0]


class Revisor:
    """A tablet bound to the table by its link, in `language`."""

    def __init__(self, url, ids, language="en"):
        self.url, self.ids = url, ids
        self.session = requests.Session()
        self.session.cookies.set("django_language", language)
        self.card = self.get("/r/{key}/".format(**ids))
        assert self.card.status_code == 200, self.card.text

    def get(self, path, headers=None):
        return self.session.get(self.url + path, headers=headers, timeout=TIMEOUT)

    def post(self, path, data, headers=None):
        return self.session.post(self.url + path, data=data, headers=headers, timeout=TIMEOUT)

    def form(self, page=None, **fields):
        """The fields of the page's form (the card's by default), with `fields`."""
        page = (page or self.card).text
        return {
            "idempotency_key": field_value(page, "idempotency_key"),
            "csrfmiddlewaretoken": field_value(page, "csrfmiddlewaretoken"),
            "hand_number": "1",
            **fields,
        }

    def hand(self):
        seats = self.ids["seats"]
        return self.form(**{f"points_{seats[name]}": str(p) for name, p in POINTS.items()})


def hand_one(ids):
    return [(1, 1, {ids["seats"][name]: points for name, points in POINTS.items()})]


# ---------------------------------------------------------------- reads


@pytest.mark.parametrize(
    "page", ["the revisor's card", "the TD's table page", "the TD's live dashboard"]
)
def test_a_read_whose_connection_dies_is_answered_on_a_fresh_one(
    pg_deployment, server, new_tournament, page
):
    ids = new_tournament()
    revisor = Revisor(server, ids)
    td = log_in_td(server)
    send, expected = {
        "the revisor's card": (lambda: revisor.get("/r/card/"), "Hand 1 of 3"),
        "the TD's table page": (
            lambda: td.get(f"{server}/td/{ids['tournament']}/tables/{ids['table']}/"),
            "Hand 1 of 3",
        ),
        # A poll whose region is out of date (any other revision): the fresh region.
        "the TD's live dashboard": (
            lambda: td.get(f"{server}/td/{ids['tournament']}/live/?rev=0", headers=HTMX),
            "Level 1: live 0 of 1 table finished",
        ),
    }[page]
    answer = cut(pg_deployment, send, CALLS)
    assert answer.status_code == 200, answer.text
    assert expected in text(answer.text)
    log = pg_deployment.log_of(server)
    assert "The database connection was lost at /" in log
    assert "answered again on a fresh one." in log


def test_a_poll_answered_early_whose_connection_dies_is_answered_by_its_view(
    pg_deployment, server, new_tournament
):
    # The card's unchanged poll, answered before the session and the rest
    # (tournament/live/middleware.py), reads its token first: the connection dies there, and
    # the view answers it (its binding waits for the same lock, which is let go).
    ids = new_tournament()
    revisor = Revisor(server, ids)
    rev = re.search(r'id="card-summary"[^>]*data-poll-rev="([^"]+)"', revisor.card.text)[1]
    poll = "/r/card/summary/?t={tournament}&table={table}&hand=1".format(**ids) + f"&rev={rev}"
    answer = cut(pg_deployment, lambda: revisor.get(poll, HTMX), TABLES)
    assert answer.status_code == 204, answer.text
    log = pg_deployment.log_of(server)
    assert "The database connection was lost at /r/card/summary/: answered again" in log


def test_a_read_lost_twice_is_a_clear_page_in_the_readers_language(
    pg_deployment, server, new_tournament
):
    ids = new_tournament()
    revisor = Revisor(server, ids, language="sv")
    page = cut(pg_deployment, lambda: revisor.get("/r/card/"), CALLS, ends=2)
    assert page.status_code == 503
    assert page.headers["Retry-After"] == "5"
    shown = text(page.text)
    assert "Anslutningen till databasen bröts" in shown
    assert (
        "Sidan gick inte att läsa: servern tappade anslutningen till databasen, och den är "
        "inte tillbaka än."
    ) in shown
    assert "Sidan försöker igen av sig själv om 5 sekunder." in shown
    assert "Säg till TL om det fortsätter." in shown
    # It reloads itself: the card comes back without anyone touching the tablet.
    assert '<meta http-equiv="refresh" content="5">' in page.text
    assert LOST_HEADING not in shown

    td = log_in_td(server)
    table_page = f"{server}/td/{ids['tournament']}/tables/{ids['table']}/"
    page = cut(pg_deployment, lambda: td.get(table_page), CALLS, ends=2)
    assert page.status_code == 503
    shown = text(page.text)
    assert LOST_HEADING in shown
    assert (
        "If it happens again, check that the database server is running and that the app "
        "can reach it (docs/faults.md)."
    ) in shown
    assert "tell the TD" not in shown
    # And once the database answers, the same page is the page.
    assert "Hand 1 of 3" in text(td.get(table_page).text)


def test_a_poll_lost_twice_gets_its_regions_trying_again_and_polls_on(
    pg_deployment, server, new_tournament
):
    ids = new_tournament()
    revisor = Revisor(server, ids)
    poll = "/r/card/summary/?t={tournament}&table={table}&hand=1&rev=old".format(**ids)
    answer = cut(pg_deployment, lambda: revisor.get(poll, HTMX), CALLS, ends=2)
    assert answer.status_code == 503
    assert answer.headers["Retry-After"] == "5"
    assert answer.headers["X-Database-Fault"] == "lost"
    assert "X-Database-Resend" not in answer.headers  # a poll goes on by itself
    assert "HX-Retarget" not in answer.headers  # its region shows it (static/js/faults.js)
    assert "<html" not in answer.text
    assert text(answer.text) == TRYING_AGAIN
    # The next poll is answered.
    assert revisor.get(poll, HTMX).status_code == 200


def test_a_read_while_the_database_takes_no_connections_is_a_clear_page_then_the_page(
    pg_deployment, server, new_tournament
):
    # The database restarting (or failing over): every connection ended, no new one taken.
    ids = new_tournament()
    revisor = Revisor(server, ids)
    terminate_backends(pg_deployment)
    allow_connections(pg_deployment, False)
    try:
        page = revisor.get("/r/card/")
        assert page.status_code == 503
        assert page.headers["Retry-After"] == "5"
        assert LOST_HEADING in text(page.text)
    finally:
        allow_connections(pg_deployment, True)
    assert "Hand 1 of 3" in text(revisor.get("/r/card/").text)


def test_the_revisors_check_of_a_hand_by_cards_is_answered_on_a_fresh_connection(
    pg_deployment, server, new_tournament
):
    # "Check the hand" is a POST that records nothing: answered again, as a read is.
    ids = new_tournament(entry_mode="cards")
    revisor = Revisor(server, ids)
    cards = revisor.get("/r/card/cards/")
    data = revisor.form(cards, **CARDS_OF(ids))
    answer = cut(pg_deployment, lambda: revisor.post("/r/card/cards/check/", data, HTMX), CALLS)
    assert answer.status_code == 200, answer.text
    assert "Hand 1: announce it, then confirm" in text(answer.text)
    assert recorded_hands(pg_deployment, ids["table"]) == []


def CARDS_OF(ids):  # noqa: N802 (a table of the test's, named as one)
    """Hand 1 by cards, none fouled (39 cards, none twice)."""
    seats = ids["seats"]
    boards = {
        "Anna": ("As 2c 3s", "Ks Kd Kh 3c 4d", "Qs Qd Qh Qc 5s"),
        "Bo": ("Js Jd 2d", "Ts Td Th 3d 4s", "8s 8d 8h 8c 5d"),
        "Cia": ("6s 6d 2h", "9c 9h 5c 3h 4c", "7s 7d 7h 9d Tc"),
    }
    fields = {}
    for name, rows in boards.items():
        for row, cards in zip(("front", "middle", "back"), rows, strict=True):
            fields[f"{row}_{seats[name]}"] = cards
    return fields


def test_a_session_whose_save_loses_its_connection_is_saved_on_a_fresh_one(
    pg_deployment, server, new_tournament
):
    # The TD gives the table a new code: the tablet's next request is sent to the code page,
    # with why kept in its session, saved after the view answered. The save waits for the
    # session's row (held by the test) and its connection dies there.
    ids = new_tournament()
    revisor = Revisor(server, ids)
    pg_deployment.python(
        "from django.contrib.auth import get_user_model\n"
        "from tournament.models import Table\n"
        "from tournament.services import revisor_access\n"
        "revisor_access.regenerate_revisor_access(\n"
        f"    table=Table.objects.get(pk={ids['table']}),\n"
        "    actor=get_user_model().objects.get(username='director'),\n"
        ")\n"
    )
    session_row = (
        "SELECT session_key FROM django_session WHERE session_key = %s FOR UPDATE",
        [revisor.session.cookies["sessionid"]],
    )

    def send():
        return revisor.session.get(f"{server}/r/card/", allow_redirects=False, timeout=TIMEOUT)

    answer = cut(pg_deployment, send, session_row)
    assert answer.status_code == 302, answer.text
    assert answer.headers["Location"] == "/r/"
    code_page = text(revisor.get("/r/").text)
    assert "This device's access to table 1 was replaced by the TD" in code_page


# ---------------------------------------------------------------- changes


def test_a_hand_whose_connection_dies_before_its_commit_is_said_not_recorded_and_sent_again_once(
    pg_deployment, server, new_tournament
):
    ids = new_tournament()
    revisor = Revisor(server, ids)
    data = revisor.hand()
    answer = cut(pg_deployment, lambda: revisor.post("/r/card/hand/", data, HTMX), table_row(ids))
    assert answer.status_code == 503, answer.text
    assert answer.headers["Retry-After"] == "5"
    assert answer.headers["X-Database-Fault"] == "lost"
    # Sent again at once: the database answered the key's lookup just now.
    assert answer.headers["X-Database-Resend"] == "1"
    assert answer.headers["HX-Retarget"] == "closest form"
    assert text(answer.text) == (
        "Hand 1 is not recorded: the connection to the database was lost before it was "
        "saved. It is sent again by itself in a moment: it is recorded once."
    )
    assert recorded_hands(pg_deployment, ids["table"]) == []

    # The page sends it again by itself (static/js/faults.js): recorded, once.
    resent = revisor.post("/r/card/hand/", data, RESENT)
    assert resent.status_code == 200
    assert text(resent.text).count("Hand 1 recorded ✓") == 1
    assert "Hand 2 of 3" in text(resent.text)
    assert recorded_hands(pg_deployment, ids["table"]) == hand_one(ids)


def test_a_hand_whose_connection_dies_after_its_commit_is_said_recorded_and_shows_recorded_once(
    pg_deployment, server, new_tournament
):
    ids = new_tournament()
    revisor = Revisor(server, ids)
    data = revisor.hand()
    answer = cut(pg_deployment, lambda: revisor.post("/r/card/hand/", data, HTMX), CALLS)
    assert answer.status_code == 503, answer.text
    assert answer.headers["X-Database-Resend"] == "1"
    assert text(answer.text) == (
        "Hand 1 is recorded: the connection to the database was lost only after it was "
        "saved. It is sent again by itself in a moment: it is recorded once."
    )
    assert recorded_hands(pg_deployment, ids["table"]) == hand_one(ids)

    # Sent again by the page: the card, with hand 1 recorded (once: the "Hand 1 recorded"
    # of the lost answer is not kept for it), and still one hand.
    resent = revisor.post("/r/card/hand/", data, RESENT)
    assert resent.status_code == 200
    shown = text(resent.text)
    assert shown.count("Hand 1 recorded ✓") == 1
    assert "arrived twice" not in shown
    assert "Hand 2 of 3" in shown
    assert recorded_hands(pg_deployment, ids["table"]) == hand_one(ids)
    # Tapped again by hand: the same entry twice, as ever.
    again = revisor.post("/r/card/hand/", data, HTMX)
    assert "Hand 1 was already recorded (the same entry arrived twice)." in text(again.text)
    assert recorded_hands(pg_deployment, ids["table"]) == hand_one(ids)


def test_a_hand_whose_key_cannot_be_looked_up_either_is_said_unknown_and_sent_again_later(
    pg_deployment, server, new_tournament
):
    # The connection dies in the hand's transaction, and the database takes no new one
    # (it restarts): whether the hand was recorded cannot be told yet.
    ids = new_tournament()
    revisor = Revisor(server, ids)
    data = revisor.hand()

    def restarting(blocker):
        pid, _port = lock_waiter(pg_deployment)
        allow_connections(pg_deployment, False)
        blocker.execute("SELECT pg_terminate_backend(%s)", [pid])

    try:
        answer = cut(
            pg_deployment,
            lambda: revisor.post("/r/card/hand/", data, HTMX),
            table_row(ids),
            ends=0,
            meanwhile=restarting,
        )
        assert answer.status_code == 503
        assert text(answer.text) == (
            "The connection to the database was lost, and it is not back yet: whether this "
            "was saved cannot be told yet. It is sent again by itself in a moment: it is "
            "recorded once."
        )
        assert answer.headers["X-Database-Resend"] == "5"  # not at once: it is away
    finally:
        allow_connections(pg_deployment, True)
    resent = revisor.post("/r/card/hand/", data, RESENT)
    assert text(resent.text).count("Hand 1 recorded ✓") == 1
    assert recorded_hands(pg_deployment, ids["table"]) == hand_one(ids)


def test_a_plain_post_whose_connection_dies_is_a_whole_page_in_the_revisors_language(
    pg_deployment, server, new_tournament
):
    # Without JavaScript: post, redirect, get. The post's connection dies in its transaction.
    ids = new_tournament()
    revisor = Revisor(server, ids, language="sv")
    data = revisor.hand()

    def send():
        return revisor.session.post(
            f"{server}/r/card/hand/", data=data, allow_redirects=False, timeout=TIMEOUT
        )

    page = cut(pg_deployment, send, table_row(ids))
    assert page.status_code == 503
    assert page.headers["Retry-After"] == "5"
    assert "<h1>Anslutningen till databasen bröts</h1>" in page.text
    shown = text(page.text)
    assert (
        "Hand 1 är inte registrerad: anslutningen till databasen bröts innan den sparades."
    ) in shown
    assert (
        "Gå tillbaka med webbläsarens bakåtknapp och skicka det igen om en stund: det "
        "registreras en gång."
    ) in shown
    assert "http-equiv" not in page.text  # a change is never sent again by a reload
    assert recorded_hands(pg_deployment, ids["table"]) == []
    # Sent again (the page it came from keeps the entry and its key): recorded, once.
    sent = send()
    assert sent.status_code == 302
    assert "Hand 1 registrerad ✓" in text(revisor.get("/r/card/").text)
    assert recorded_hands(pg_deployment, ids["table"]) == hand_one(ids)


def test_a_hand_by_cards_whose_connection_dies_after_its_commit_is_recorded_once(
    pg_deployment, server, new_tournament
):
    ids = new_tournament(entry_mode="cards")
    revisor = Revisor(server, ids)
    checked = revisor.post(
        "/r/card/cards/check/", revisor.form(revisor.get("/r/card/cards/"), **CARDS_OF(ids)), HTMX
    )
    assert "Confirm hand 1" in text(checked.text)
    data = revisor.form(checked, **CARDS_OF(ids))

    # The confirm reads the card before it records: the test holds the table's row (the
    # hand waits inside its transaction), takes the calls' table from a second connection,
    # and lets the row go: the hand commits, and the card it answers with waits.
    answers = []
    sender = threading.Thread(
        target=lambda: answers.append(revisor.post("/r/card/cards/confirm/", data, HTMX))
    )
    with connect(pg_deployment) as calls, calls.transaction():
        with connect(pg_deployment) as row, row.transaction():
            held(row, [table_row(ids)])
            sender.start()
            wait_until(lambda: lock_waiter(pg_deployment), "the hand waits for its table")
            held(calls, [CALLS])
        wait_until(lambda: recorded_hands(pg_deployment, ids["table"]), "the hand commits")
        pid, _port = wait_until(lambda: lock_waiter(pg_deployment), "the card waits")
        end_backend(pg_deployment, pid)
    sender.join(TIMEOUT)
    (answer,) = answers
    assert answer.status_code == 503
    assert text(answer.text).startswith("Hand 1 is recorded: the connection to the database")
    assert recorded_hands(pg_deployment, ids["table"])[0][:2] == (1, 1)

    resent = revisor.post("/r/card/cards/confirm/", data, RESENT)
    assert resent.status_code == 200
    shown = text(resent.text)
    assert shown.count("Hand 1 recorded ✓") == 1 and "arrived twice" not in shown
    assert len(recorded_hands(pg_deployment, ids["table"])) == 1


def play_three_hands(deployment, ids):
    """Hands 1 to 3 of the table, Anna +4, Bo -1, Cia -3 each: the table is over."""
    deployment.python(
        "import uuid\n"
        "from tournament.models import Table\n"
        "from tournament.services import hands\n"
        f"table = Table.objects.get(pk={ids['table']})\n"
        f"points = {{{ids['seats']['Anna']}: 4, {ids['seats']['Bo']}: -1, "
        f"{ids['seats']['Cia']}: -3}}\n"
        "for number in (1, 2, 3):\n"
        "    table.refresh_from_db()\n"
        "    hands.record_hand(table=table, hand_number=number, idempotency_key=uuid.uuid4(),"
        " points=points)\n"
    )


def test_the_tds_advance_whose_connection_dies_says_nothing_changed_and_what_to_do(
    pg_deployment, server, new_tournament
):
    ids = new_tournament()
    play_three_hands(pg_deployment, ids)
    td = log_in_td(server)
    advance = f"{server}/td/{ids['tournament']}/advance/"
    form = td.get(advance)
    data = {
        "csrfmiddlewaretoken": field_value(form.text, "csrfmiddlewaretoken"),
        "submission_key": field_value(form.text, "submission_key"),
        "level": "1",
        "confirm": "1",
    }
    # Held: the tournament's row, which closing the level locks first.
    tournament_row = (
        "SELECT id FROM tournament_tournament WHERE id = %s FOR UPDATE",
        [ids["tournament"]],
    )

    def send():
        return td.post(advance, data=data, allow_redirects=False)

    page = cut(pg_deployment, send, tournament_row)
    assert page.status_code == 503
    shown = text(page.text)
    assert LOST_HEADING in shown
    assert (
        "Nothing was recorded: the connection to the database was lost before it was saved."
    ) in shown
    assert (
        "Go back with your browser's Back button and send it again in a moment: it is "
        "recorded once."
    ) in shown
    assert (
        "If it happens again, check that the database server is running and that the app "
        "can reach it (docs/faults.md)."
    ) in shown
    assert "Tell the TD" not in shown and "tell the TD" not in shown

    # Sent again, the same form: the tournament finishes, once.
    closed = send()
    assert closed.status_code == 302
    assert closed.headers["Location"] == f"/td/{ids['tournament']}/standings/"
    standings = td.get(server + closed.headers["Location"])
    assert "The tournament is finished. Champion: Anna." in text(standings.text)
    again = send()
    assert again.headers["Location"] == f"/td/{ids['tournament']}/standings/"


# ---------------------------------------------------------------- read-only


def test_a_database_that_goes_read_only_mid_request_is_said_and_the_hand_is_recorded_once_after(
    pg_deployment, server, new_tournament
):
    # A failover to a standby: the connection is ended, and the new ones are read-only.
    ids = new_tournament()
    revisor = Revisor(server, ids)
    td = log_in_td(server)
    data = revisor.hand()

    def fail_over(blocker):
        set_read_only(pg_deployment, True, keep=[blocker.info.backend_pid])

    try:
        answer = cut(
            pg_deployment,
            lambda: revisor.post("/r/card/hand/", data, HTMX),
            table_row(ids),
            ends=0,
            meanwhile=fail_over,
        )
        assert answer.status_code == 503
        assert text(answer.text).startswith("Hand 1 is not recorded")
        # Sent again: refused, as by a database read-only before the request began.
        refused = revisor.post("/r/card/hand/", data, RESENT)
        assert refused.status_code == 503
        assert refused.headers["X-Database-Fault"] == "refused"
        assert "X-Database-Resend" not in refused.headers  # the revisor taps it later
        assert text(refused.text).startswith(
            "The database cannot take changes right now: nothing was recorded. Tell the TD;"
        )
        # The TD's own entry is told what to do.
        td_table = f"{server}/td/{ids['tournament']}/tables/{ids['table']}/"
        td_form = td.get(td_table)
        assert td_form.status_code == 200  # reads work
        td_data = {
            **revisor.hand(),
            "idempotency_key": field_value(td_form.text, "idempotency_key"),
            "csrfmiddlewaretoken": field_value(td_form.text, "csrfmiddlewaretoken"),
        }
        td_refused = td.post(f"{td_table}hands/new/", data=td_data)
        assert td_refused.status_code == 503
        shown = text(td_refused.text)
        assert "Tell the TD" not in shown
        assert (
            "The database server is read-only (a standby after a failover, or set read-only): "
            "make it writable again, or point DATABASE_URL at the primary (docs/faults.md)."
        ) in shown
        assert recorded_hands(pg_deployment, ids["table"]) == []
    finally:
        set_read_only(pg_deployment, False)
    recorded = revisor.post("/r/card/hand/", data, HTMX)
    assert "Hand 1 recorded ✓" in text(recorded.text)
    assert recorded_hands(pg_deployment, ids["table"]) == hand_one(ids)
