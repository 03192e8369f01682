"""Where the rulebook is silent, these rulings apply: shown to the TD as help.

Each entry mirrors a (decision) in rules.md, so that nothing is decided in secret.
"""

from django.utils.translation import gettext_lazy as _

DECISIONS = [
    (
        _("Heads-up tables"),
        _(
            "Tables hold 3 players. When the number of players does not divide by 3, "
            "heads-up tables take the remainder: one table of 2 when one player is left "
            "over by two, two tables of 2 when left over by one. Never a table of 1 or 4."
        ),
    ),
    (
        _("Dealer"),
        _(
            "The first dealer of each table is drawn with the seating; the deal then passes "
            "to the next seat after every hand, skipping players who have left."
        ),
    ),
    (
        _("Ties for first"),
        _(
            "When the required hands are played and two or more players share the lead, the "
            "table plays one more hand at a time until one leads. The TD can instead settle "
            "the tie by hand (e.g. a card draw), with a written reason. A tie settled for the "
            "wrong player can be decided again, with a reason, until the level is closed; the "
            "earlier decision stays in the log."
        ),
    ),
    (
        _("Warnings"),
        _(
            "Warnings count across the whole tournament. A timeout costs 10 points and a "
            "warning; the 2nd warning costs 25 points (a timeout that is the 2nd warning costs "
            "35); the 3rd disqualifies. A disqualified player leaves the table at once, his "
            "hands stay on the score card and he can never win a table. A 3-player table "
            "plays on heads-up; a player left alone wins the table. Penalty points are "
            "deducted at the player's table of the current level, even when that table is "
            "over but the next level is not drawn yet. A warning given while the player is at "
            "no table (before the first draw, or after going out) counts, but costs no points: "
            "there is no score to deduct them from, and the penalty says so."
        ),
    ),
    (
        _("Rescinding"),
        _(
            "The TD can rescind a penalty with a reason; it stays on record, marked, and the "
            "warnings are counted again without it. A penalty can no longer be rescinded once "
            "a level it counts for is closed."
        ),
    ),
    (
        _("Late players and no-shows"),
        _(
            "Players can be added, withdrawn or brought back until the first hand of level 1 "
            "is recorded. After the first draw each such change draws level 1 again at once, "
            "for the whole field, as a draw can be redone until its level's first hand; the "
            "earlier draw is kept, with what changed as its reason. Once a hand is recorded "
            "the field is closed."
        ),
    ),
    (
        _("Locked results"),
        _(
            "A draw can be redone until the first hand of its level is recorded. Hands and "
            "penalties of a level can be corrected until the next level is drawn; then the "
            "level's results are final."
        ),
    ),
    (
        _("Closing a level"),
        _(
            "The TD closes a level on a page that lists what is still open. It closes only "
            "when every table is over, every call of a revisor is cleared and every tie for "
            "first is settled (or played out); its results are then final. A call is never "
            "lost: one left at a table no longer in play stays on the live dashboard until "
            "the TD clears it."
        ),
    ),
    (
        _("Final standings"),
        _(
            "Champion first; then the other players of the last table by their points there; "
            "then, level by level backwards, the players who went out at each level, by their "
            "place at their table and then by their points. Disqualified players last."
        ),
    ),
    (
        _("Player names"),
        _(
            "A name must show as something: one made only of invisible characters, or holding "
            "a character that changes the direction of the text, is refused. The very same name "
            "is registered once: a second is refused, and a pasted list skips it. Names that "
            "differ only in case, accents, spacing or punctuation (“asa öberg” and “Åsa Öberg”, "
            "“Per Olof” and “Per-Olof”) may be two players: the TD is asked, on add, paste and "
            "rename, and ticks “another player” to register both; the player keeps that "
            "confirmation, in the backup too. An import refuses two players whose names differ "
            "only in case or accents unless the TD confirmed them so."
        ),
    ),
    (
        _("The TD's notes"),
        _(
            "Reasons and notes stay on the TD's pages: the reason for a correction, for "
            "settling a tie, for rescinding a penalty and for redoing a draw, a penalty's "
            "note and a call's note. The players' pages and the projectors show only that a "
            "hand was corrected, and its versions, never why."
        ),
    ),
    (
        _("Pace and estimated times"),
        _(
            "A table's pace is the median time between its consecutive hands: the first "
            "hand's time from the draw is left out (finding seats, learning the tablet), and "
            "so is any gap over 10 minutes (a pause, a dispute) or under 30 seconds (hands "
            "typed in one after another from the paper card). No estimate is given before a "
            "table has 3 such intervals. Its finish is a range from its last hand: the hands "
            "still required (one more while tied for first) at its quick pace (the quickest "
            "quarter of its intervals) for the earliest; for the latest, those hands plus "
            "Fantasyland extending the table as often as it has so far, at its slow pace (the "
            "slowest quarter); a table already late for its next hand starts it now. A table "
            "waiting on a call to the TD, or silent for over 10 minutes, is on hold: it ends "
            "at the earliest when its hands still required are played from now at its quick "
            "pace, and nobody can say how late, so neither the level's end nor the "
            "tournament's has a latest while it is on hold. The "
            "level ends with its slowest table, and has no estimate while a table has none. "
            "A table is behind the pace when its median hand takes more than 1.5 times the "
            "median of the other tables'. It is listed with the tables that need a look: "
            "calls, then ties, then silent tables, then those behind the pace."
        ),
    ),
    (
        _("Estimated end of the tournament"),
        _(
            "From the second level on: the levels still to come are counted from the tables "
            "now playing (their winners go 3 to a table, rounded up, until one table is left). "
            "Each takes the time seen so far from closing a level to releasing the next "
            "one's seating (a held draw's wait included), plus the minimum hands and the "
            "Fantasyland hands a table has added on average at this level, at the room's pace "
            "(every table's intervals together: the quickest quarter for the earliest, the "
            "slowest quarter for the latest), after the current level's estimated end."
        ),
    ),
    (
        _("Buy-ins and prizes"),
        _(
            "Every player registered and not withdrawn has paid the buy-in: the prize pool is "
            "their buy-ins less the organiser's fee, plus the added money; a late player adds "
            "his, a no-show withdrawn before play takes his out. A disqualified player's "
            "buy-in is not refunded (SM rules) and he wins nothing: the places below him move "
            "up. Unless the TD sets the shares, the standard structure for the field's size "
            "applies: 1 place paid up to 8 players (100 %), 3 from 9 (50, 30, 20 %), 5 from "
            "28, 9 from 46, 18 from 101. Each prize is rounded down to the TD's unit; what is "
            "left, and the share of a place nobody can take, goes to 1st place. Players tied "
            "in the final standings share the prizes of the places they take, equally."
        ),
    ),
    (
        _("Check-in at the door"),
        _(
            "Check-in is optional. While no player is checked in, the first draw seats every "
            "player registered, as before. Once one is, the draw seats no one who is not "
            "checked in without the TD saying so: it names them and asks to withdraw them "
            "(the log keeps the reason: not checked in) or to wait. A check-in can be undone "
            "and is kept in the log with who and when; check-in closes with the first draw."
        ),
    ),
]
