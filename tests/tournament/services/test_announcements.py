"""The TD's announcements: one standing at a time, each change bumps the tournament's
revision (every polled page refreshes) and is kept in the audit log; an end time takes it
down without a change of state."""

import datetime

import pytest
from django.utils import timezone, translation

from tournament.audit.sentences import sentence
from tournament.errors import InvalidEntry, NotAllowed
from tournament.models import Announcement, AuditEntry, Tournament
from tournament.selectors.public import public_tournament
from tournament.services import announcements

pytestmark = pytest.mark.django_db

NOON = datetime.datetime(2026, 3, 14, 12, 0, tzinfo=datetime.UTC)


def revision(tournament):
    return Tournament.objects.get(pk=tournament.pk).revision


@pytest.fixture
def clock(monkeypatch):
    """A fake clock: `clock.now` is what timezone.now() answers; move it by hand."""

    class Clock:
        now = NOON

    fake = Clock()
    monkeypatch.setattr(timezone, "now", lambda: fake.now)
    return fake


def test_announcing_keeps_it_bumps_the_revision_and_writes_the_audit_entry(
    make_tournament, td_user
):
    tournament = make_tournament(players=2)
    before = revision(tournament)

    made = announcements.announce(
        tournament=tournament, actor=td_user, text="  Level 2   seating is up "
    )

    assert made.text == "Level 2 seating is up"  # trimmed, blanks folded
    assert made.ends_at is None and made.created_by == td_user
    assert revision(tournament) == before + 1
    entry = AuditEntry.objects.filter(action="announcement.make").get()
    assert entry.actor == td_user and entry.tournament_id == tournament.pk
    assert entry.params == {"text": "Level 2 seating is up", "ends_at": None}
    assert sentence(entry) == "Announced: Level 2 seating is up"
    with translation.override("sv"):
        assert sentence(entry) == "Meddelade: Level 2 seating is up"
    assert announcements.standing(tournament) == made


def test_an_end_time_is_kept_and_the_announcement_stands_until_then(
    make_tournament, td_user, clock
):
    tournament = make_tournament(players=2)
    ends = NOON + datetime.timedelta(minutes=10)
    made = announcements.announce(
        tournament=tournament, actor=td_user, text="10-minute break", ends_at=ends
    )

    assert made.ends_at == ends
    entry = AuditEntry.objects.get(action="announcement.make")
    assert entry.params == {"text": "10-minute break", "ends_at": ends.isoformat()}
    clock.now = NOON + datetime.timedelta(minutes=9, seconds=59)
    assert announcements.standing(tournament) == made
    # The end passing changes nothing stored: no revision, no entry; it simply stands no more.
    rev = revision(tournament)
    clock.now = ends
    assert announcements.standing(tournament) is None
    assert revision(tournament) == rev
    assert AuditEntry.objects.filter(action__startswith="announcement.").count() == 1


def test_the_public_pages_read_it_with_the_tournament_until_it_ends(make_tournament, td_user):
    tournament = make_tournament(players=2)
    assert public_tournament(tournament.pk).announcement is None
    ends = timezone.now() + datetime.timedelta(minutes=5)
    announcements.announce(tournament=tournament, actor=td_user, text="Break", ends_at=ends)

    shown = public_tournament(tournament.pk).announcement
    assert (shown.text, shown.ends_at) == ("Break", ends)
    # The database's clock passes the end (moved back here rather than waiting 5 minutes).
    Announcement.objects.update(ends_at=timezone.now() - datetime.timedelta(seconds=1))
    assert public_tournament(tournament.pk).announcement is None


def test_a_new_announcement_replaces_the_one_standing(make_tournament, td_user):
    tournament = make_tournament(players=2)
    first = announcements.announce(tournament=tournament, actor=td_user, text="Level 2 soon")
    second = announcements.announce(
        tournament=tournament, actor=td_user, text="Level 2 seating is up"
    )

    first.refresh_from_db()
    assert first.withdrawn_at is not None and first.withdrawn_by == td_user
    assert announcements.standing(tournament) == second
    assert public_tournament(tournament.pk).announcement.text == "Level 2 seating is up"
    entry = AuditEntry.objects.filter(action="announcement.make").order_by("id").last()
    assert entry.before == {"text": "Level 2 soon"}


def test_withdrawing_takes_it_down_with_a_revision_and_an_audit_entry(make_tournament, td_user):
    tournament = make_tournament(players=2)
    made = announcements.announce(tournament=tournament, actor=td_user, text="Break")
    rev = revision(tournament)

    announcements.withdraw_announcement(tournament=tournament, actor=td_user)

    made.refresh_from_db()
    assert made.withdrawn_at is not None and made.withdrawn_by == td_user
    assert revision(tournament) == rev + 1
    assert announcements.standing(tournament) is None
    assert public_tournament(tournament.pk).announcement is None
    entry = AuditEntry.objects.get(action="announcement.withdraw")
    assert entry.params == {"text": "Break"} and entry.actor == td_user
    assert sentence(entry) == "Withdrew the announcement: Break"
    with translation.override("sv"):
        assert sentence(entry) == "Tog bort meddelandet: Break"


def test_withdrawing_when_nothing_stands_is_refused_and_changes_nothing(
    make_tournament, td_user, clock
):
    tournament = make_tournament(players=2)
    with pytest.raises(NotAllowed):
        announcements.withdraw_announcement(tournament=tournament, actor=td_user)
    announcements.announce(
        tournament=tournament,
        actor=td_user,
        text="Break",
        ends_at=NOON + datetime.timedelta(minutes=1),
    )
    clock.now = NOON + datetime.timedelta(minutes=2)  # ended by itself
    rev = revision(tournament)
    with pytest.raises(NotAllowed):
        announcements.withdraw_announcement(tournament=tournament, actor=td_user)
    assert revision(tournament) == rev
    assert not AuditEntry.objects.filter(action="announcement.withdraw").exists()


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "x" * 201,
        "\u202eevil",  # turns the direction of what follows
        "\u200b\u200b",  # only invisible characters
        "bell\x07",  # a control character
    ],
)
def test_bad_text_is_refused_and_nothing_is_kept(make_tournament, td_user, text):
    tournament = make_tournament(players=2)
    rev = revision(tournament)
    entries = AuditEntry.objects.count()
    with pytest.raises(InvalidEntry):
        announcements.announce(tournament=tournament, actor=td_user, text=text)
    assert not Announcement.objects.exists()
    assert revision(tournament) == rev and AuditEntry.objects.count() == entries


def test_200_characters_are_kept_whole(make_tournament, td_user):
    tournament = make_tournament(players=2)
    made = announcements.announce(tournament=tournament, actor=td_user, text="å" * 200)
    assert made.text == "å" * 200


@pytest.mark.parametrize(
    "ends_at",
    [
        NOON,  # now: already over
        NOON - datetime.timedelta(minutes=1),
        datetime.datetime(2026, 3, 14, 13, 0),  # no time zone
    ],
)
def test_an_end_time_that_is_not_in_the_future_is_refused(make_tournament, td_user, clock, ends_at):
    tournament = make_tournament(players=2)
    with pytest.raises(InvalidEntry):
        announcements.announce(tournament=tournament, actor=td_user, text="Break", ends_at=ends_at)
    assert not Announcement.objects.exists()


def test_a_finished_tournament_takes_no_announcement(make_tournament, td_user):
    tournament = make_tournament(players=2)
    Tournament.objects.filter(pk=tournament.pk).update(finished_at=timezone.now())
    with pytest.raises(NotAllowed):
        announcements.announce(tournament=tournament, actor=td_user, text="Thanks!")
    assert not Announcement.objects.exists()


def test_announcements_are_never_deleted(make_tournament, td_user):
    tournament = make_tournament(players=2)
    made = announcements.announce(tournament=tournament, actor=td_user, text="Break")
    with pytest.raises(PermissionError):
        made.delete()


# ---------------------------------------------------------------- closing a level (issue 34 §4)
# An announcement "until withdrawn" stayed on the finished tournament's pages and projectors.
# Closing asks the TD (draws.advance's `withdraw_announcement`); not asked, one without an
# end ends with the tournament, and stays at a level change.


def final_table(make_tournament, td_user, players=("Anna", "Bo", "Cia")):
    """One table, one hand required, played: closing level 1 names the champion."""
    from tests.tournament.conftest import play, single_table

    tournament = make_tournament(list(players), min_hands=1)
    play(single_table(tournament, td_user), 4, -1, -3)
    return tournament


def withdrawals(tournament):
    return [
        sentence(entry)
        for entry in AuditEntry.objects.filter(
            tournament=tournament, action="announcement.withdraw"
        )
    ]


def test_an_announcement_without_an_end_ends_with_the_tournament(make_tournament, td_user):
    from tournament.services import draws

    tournament = final_table(make_tournament, td_user)
    made = announcements.announce(tournament=tournament, actor=td_user, text="Final at 18:00")
    assert draws.advance(tournament=tournament, actor=td_user) is None  # the champion
    made.refresh_from_db()
    assert made.withdrawn_at is not None and made.withdrawn_by == td_user
    assert announcements.standing(tournament) is None
    assert public_tournament(tournament.pk).announcement is None  # every page reads this
    assert withdrawals(tournament) == [
        "Withdrew the announcement on closing level 1: Final at 18:00"
    ]
    with translation.override("sv"):
        assert withdrawals(tournament) == [
            "Tog bort meddelandet när nivå 1 stängdes: Final at 18:00"
        ]


def test_the_td_may_keep_it_past_the_end(make_tournament, td_user):
    from tournament.services import draws

    tournament = final_table(make_tournament, td_user)
    made = announcements.announce(tournament=tournament, actor=td_user, text="Prizes at the bar")
    draws.advance(tournament=tournament, actor=td_user, withdraw_announcement=False)
    assert announcements.standing(tournament) == made
    assert public_tournament(tournament.pk).announcement.text == "Prizes at the bar"
    assert withdrawals(tournament) == []


def test_one_with_an_end_time_ends_by_itself_after_the_final(make_tournament, td_user):
    from tournament.services import draws

    tournament = final_table(make_tournament, td_user)
    ends_at = timezone.now() + datetime.timedelta(minutes=30)
    made = announcements.announce(
        tournament=tournament, actor=td_user, text="Prizes at 18:30", ends_at=ends_at
    )
    draws.advance(tournament=tournament, actor=td_user)
    assert announcements.standing(tournament) == made and withdrawals(tournament) == []


def test_at_a_level_change_it_stays_unless_the_td_takes_it_down(make_tournament, td_user):
    from tests.tournament.conftest import play
    from tournament.models import Table
    from tournament.services import draws

    for withdraw, stays in ((None, True), (False, True), (True, False)):
        tournament = make_tournament(6, min_hands=1)
        level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="change")
        for table in Table.objects.current().filter(level=level):
            play(table, 2, -1, -1)
        made = announcements.announce(tournament=tournament, actor=td_user, text="Lunch at 12")
        assert (
            draws.advance(
                tournament=tournament, actor=td_user, withdraw_announcement=withdraw
            ).number
            == 2
        )
        assert (announcements.standing(tournament) == made) is stays, withdraw
        expected = [] if stays else ["Withdrew the announcement on closing level 1: Lunch at 12"]
        assert withdrawals(tournament) == expected


def test_a_refused_close_takes_nothing_down(make_tournament, td_user):
    from tests.tournament.conftest import play, single_table
    from tournament.services import calls, draws

    tournament = make_tournament(["Anna", "Bo", "Cia"], min_hands=1)
    table = single_table(tournament, td_user)
    play(table, 4, -1, -3)
    calls.call_td(table=table, kind="dispute")  # an open call blocks closing
    made = announcements.announce(tournament=tournament, actor=td_user, text="Final at 18:00")
    with pytest.raises(NotAllowed):
        draws.advance(tournament=tournament, actor=td_user, withdraw_announcement=True)
    assert announcements.standing(tournament) == made and withdrawals(tournament) == []
