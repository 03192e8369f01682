"""The shootout's data.

The hand history (hands, their versions and per-player results) and the penalties
are the truth. The few derived numbers stored here (a seat's total, a table's
required hands and winner, a penalty's point cost) are caches that
`tournament.tables.store` rewrites in the same transaction as every change
that moves them. Nothing is ever deleted: corrections add versions, redraws
supersede draws, rescinding marks a penalty.
"""

import secrets
import uuid
from typing import Any, ClassVar, Literal, NoReturn, Self, TypedDict

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from scoring import Rules


class NoDeleteQuerySet[M: models.Model](models.QuerySet[M]):
    def delete(self) -> NoReturn:
        raise PermissionError("Tournament records are never deleted.")


class CurrentQuerySet[M: models.Model](NoDeleteQuerySet[M]):
    """Rows that a newer one can supersede (draws, hand versions)."""

    def current(self) -> Self:
        return self.filter(superseded_at__isnull=True)


# What the room sees (issue 19 §5, issue 34 §2): a draw the TD has not released is his
# alone. Every read for a public page, poll, search, big screen or export goes through
# `shown()` (levels, tables, seats) or `shown_draw` (one row read), and nothing of a held
# draw (a table's number, its players, its penalties' place, its calls) reaches them.
SHOWN_DRAW = Q(draw__released_at__isnull=False)


def shown_draw(draw: "Draw") -> bool:
    """Whether the room sees this draw: the TD has released it."""
    return draw.released_at is not None


class LevelQuerySet(NoDeleteQuerySet["Level"]):
    def open(self) -> Self:
        """Levels whose results can still change (not closed by the next draw)."""
        return self.filter(closed_at__isnull=True)

    def shown(self) -> Self:
        """Levels whose current draw the room sees (see SHOWN_DRAW)."""
        return self.filter(draws__superseded_at__isnull=True, draws__released_at__isnull=False)


class TableQuerySet(NoDeleteQuerySet["Table"]):
    def current(self) -> Self:
        """Tables of their level's current draw (not of a superseded one)."""
        return self.filter(draw__superseded_at__isnull=True)

    def open(self) -> Self:
        """Current tables of an open level: the ones whose results can still change."""
        return self.current().filter(level__closed_at__isnull=True)

    def shown(self) -> Self:
        """Tables of a draw the room sees (see SHOWN_DRAW), current or redone since."""
        return self.filter(SHOWN_DRAW)


class SeatQuerySet(NoDeleteQuerySet["Seat"]):
    def current(self) -> Self:
        return self.filter(draw__superseded_at__isnull=True)

    def open(self) -> Self:
        return self.current().filter(table__level__closed_at__isnull=True)

    def shown(self) -> Self:
        """Seats of a draw the room sees (see SHOWN_DRAW)."""
        return self.filter(SHOWN_DRAW)


class PenaltyQuerySet(NoDeleteQuerySet["Penalty"]):
    def standing(self) -> Self:
        """Penalties that count: not rescinded."""
        return self.filter(rescinded_at__isnull=True)


class KeptModel(models.Model):
    """A record that is kept forever: deleting raises.

    Default orderings name foreign keys by their column (`table_id`), so that
    ordering never joins the parent tables.
    """

    objects = NoDeleteQuerySet.as_manager()

    class Meta:
        abstract = True

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise PermissionError("Tournament records are never deleted.")


class Tournament(KeptModel):
    class EntryMode(models.TextChoices):
        POINTS = "points", _("Points")
        CARDS = "cards", _("Cards")
        EITHER = "either", _("Points or cards")

    class Royalties(models.TextChoices):
        US = "us", _("SM / US table")
        RUSSIAN = "russian", _("Russian table")

    class Method(models.TextChoices):
        ONE_SIX = "1-6", _("1-6 (SM)")
        TWO_FOUR = "2-4", _("2-4")

    class FantasylandRepeat(models.TextChoices):
        UNLIMITED = "unlimited", _("Repeats while qualified (SM)")
        ONCE = "once", _("Repeats once")
        NEVER = "never", _("Never repeats")

    class Currency(models.TextChoices):
        # Each has 100 smallest units to the unit (tournament/rules/money.py).
        SEK = "SEK", "SEK"
        NOK = "NOK", "NOK"
        DKK = "DKK", "DKK"
        EUR = "EUR", "EUR"
        USD = "USD", "USD"
        GBP = "GBP", "GBP"

    # Units a prize can be rounded down to, in smallest units (öre): 0.01 to 1,000.
    PRIZE_ROUNDING = [
        (1, "0.01"),
        (100, "1"),
        (500, "5"),
        (1_000, "10"),
        (5_000, "50"),
        (10_000, "100"),
        (50_000, "500"),
        (100_000, "1000"),
    ]

    name = models.CharField(_("name"), max_length=120)
    min_hands = models.PositiveSmallIntegerField(
        _("minimum hands per table"),
        default=20,
        help_text=_(
            "SM: 20. One more hand is added for every hand after which one or more players "
            "go to Fantasyland."
        ),
    )
    entry_mode = models.CharField(
        _("hand entry"),
        max_length=10,
        choices=EntryMode,
        default=EntryMode.EITHER,
        help_text=_(
            "How the revisor records a hand: each player's points (summing to zero), or the "
            "players' cards, from which the hand is scored by this tournament's royalty table "
            "and scoring method, fouls and Fantasyland included."
        ),
    )
    royalties = models.CharField(
        _("royalty table"), max_length=10, choices=Royalties, default=Royalties.US
    )
    scoring_method = models.CharField(
        _("scoring method"), max_length=5, choices=Method, default=Method.ONE_SIX
    )
    fantasyland_repeat = models.CharField(
        _("Fantasyland repeat"),
        max_length=10,
        choices=FantasylandRepeat,
        default=FantasylandRepeat.UNLIMITED,
        help_text=_(
            "SM: a player stays in Fantasyland with trips in front, a full house or better in "
            "the middle, or quads or better in the back, as many times as he qualifies."
        ),
    )
    button_stays_in_fantasyland = models.BooleanField(
        _("dealer button stays put for a Fantasyland hand"),
        default=False,
        help_text=_("SM: off, the deal passes to the next seat after every hand."),
    )
    table_confirms_points = models.BooleanField(
        _("the table confirms points"),
        default=False,
        help_text=_(
            "On: when the revisor enters a hand as points, the card first shows the points "
            "for the revisor to read out to the table (“Anna +8, Bo −5, Cia −3”); "
            "the hand is recorded only when the revisor confirms them, as with a hand "
            "entered by cards. Off: the points are recorded when the revisor records the hand."
        ),
    )
    release_draws_at_once = models.BooleanField(
        _("release each draw at once"),
        default=True,
        help_text=_(
            "On: the players, the big screen and the revisors see a new draw's seating as "
            "soon as it is made. Off: a new draw is yours until you press “Release the "
            "seating” on the level's page; you can check it, or redo it, first."
        ),
    )
    # Buy-ins and prizes (tournament/rules/payouts.py, docs/prizes.md): amounts in the
    # currency's smallest unit (öre, cents), whole numbers, never floats. A buy-in and
    # added money of 0 (the default): the tournament has no prizes.
    currency = models.CharField(_("currency"), max_length=3, choices=Currency, default=Currency.SEK)
    buy_in = models.PositiveIntegerField(
        _("buy-in"),
        default=0,
        help_text=_(
            "What each player pays, the organiser's fee included. Not refunded to a "
            "disqualified player."
        ),
    )
    fee = models.PositiveIntegerField(
        _("fee kept by the organiser"),
        default=0,
        help_text=_("The part of each buy-in that does not go to the prize pool."),
    )
    added_money = models.PositiveIntegerField(
        _("added money"),
        default=0,
        help_text=_("Money the organiser adds to the prize pool."),
    )
    # Basis points of the pool (50 % = 5000) for 1st, 2nd, 3rd...; empty: the standard
    # structure for the field's size, which follows late registrations and withdrawals.
    payout_shares = models.JSONField(_("payout shares"), default=list, blank=True)
    prize_rounding = models.PositiveIntegerField(
        _("round each prize down to"), choices=PRIZE_ROUNDING, default=100
    )
    earlier_results_public = models.BooleanField(
        _("show players' earlier results on their public pages"),
        default=False,
        help_text=_(
            "On: a player's public page lists his results in earlier tournaments on this "
            "server. Off: only your pages show them."
        ),
    )
    prizes_public = models.BooleanField(
        _("show the prizes on the public standings"),
        default=False,
        help_text=_(
            "On: the players' standings page shows the prize pool, what each place pays "
            "and, once the standings are final, each winner's prize. Off: only your pages, "
            "the CSV and the backup show them."
        ),
    )
    # Players checking themselves in on their phones before the first draw, with the code
    # shown at the door (services/checkin.py, docs/check-in.md): opened and closed by the
    # TD. Neither is in a backup: a copy restored elsewhere opens no check-in.
    self_check_in_open = models.BooleanField(default=False)
    check_in_code = models.CharField(max_length=4, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    champion = models.ForeignKey(
        "Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # Bumped by every change that spans the tournament (draws, penalties, settings);
    # a table's own changes bump Table.revision, so that tables never wait for each other.
    revision = models.PositiveIntegerField(default=0)

    # What the TD sets on the settings page, as the services change them and the backup
    # keeps them ("settings", docs/export-format.md).
    SETTINGS = (
        "name",
        "min_hands",
        "entry_mode",
        "royalties",
        "scoring_method",
        "fantasyland_repeat",
        "button_stays_in_fantasyland",
        "table_confirms_points",
        "release_draws_at_once",
    )
    # Buy-ins and prizes: changed by their own service (services/prizes.py) at any time,
    # and kept in the backup's "prizes" (docs/export-format.md).
    PRIZE_SETTINGS = (
        "currency",
        "buy_in",
        "fee",
        "added_money",
        "payout_shares",
        "prize_rounding",
        "prizes_public",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(min_hands__gte=1) & Q(min_hands__lte=200), name="min_hands_in_range"
            ),
            # Amounts are never negative, and at most MAX_AMOUNT (rules/money.py).
            models.CheckConstraint(
                condition=Q(buy_in__gte=0) & Q(buy_in__lte=1_000_000_000),
                name="buy_in_in_range",
            ),
            models.CheckConstraint(
                condition=Q(fee__gte=0) & Q(fee__lte=F("buy_in")), name="fee_within_buy_in"
            ),
            models.CheckConstraint(
                condition=Q(added_money__gte=0) & Q(added_money__lte=1_000_000_000),
                name="added_money_in_range",
            ),
            models.CheckConstraint(
                condition=Q(prize_rounding__gte=1), name="prize_rounding_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def rules(self) -> Rules:
        return Rules(
            royalties=self.royalties,
            method=self.scoring_method,
            fantasyland_repeat=self.fantasyland_repeat,
        )


class RegisterEntry(KeptModel):
    """One person in the register of players across this server's tournaments (docs/register.md).

    Each tournament's `Player` links to the entry of the person he is, so a regular of SM is
    picked when he is added again, and his earlier results follow him. `folded` is his name
    as names are compared (`rules/names.same_key`: case, accents and blanks aside). Two
    entries of the same person are merged by a pointer (`merged_into`, with who and when):
    nothing is deleted, and reads follow the pointer to the entry that stands.
    """

    uuid = models.UUIDField(unique=True, default=uuid.uuid4, editable=False)
    name = models.CharField(_("name"), max_length=80)
    folded = models.CharField(max_length=200, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="merged_entries"
    )
    merged_at = models.DateTimeField(null=True, blank=True)
    merged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["folded", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(merged_into=F("id")), name="register_entry_not_merged_into_itself"
            ),
            # Merged exactly when it says when: a pointer without its moment is refused.
            models.CheckConstraint(
                condition=Q(merged_into__isnull=True, merged_at__isnull=True)
                | Q(merged_into__isnull=False, merged_at__isnull=False),
                name="register_entry_merged_with_its_moment",
            ),
            models.CheckConstraint(condition=~Q(folded=""), name="register_entry_folded_name"),
        ]

    def __str__(self) -> str:
        return self.name


class Player(KeptModel):
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="players")
    # The person in the register (docs/register.md); None only for rows made outside the
    # services (the services, the import and migration 0021 link every player).
    register_entry = models.ForeignKey(
        RegisterEntry, null=True, blank=True, on_delete=models.PROTECT, related_name="players"
    )
    number = models.PositiveIntegerField(_("start number"))
    name = models.CharField(_("name"), max_length=80)
    registered_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    # Cache of "3 warnings not rescinded"; rewritten with every penalty change.
    disqualified = models.BooleanField(default=False)
    # The TD confirmed that this player is another than the one his name is very like
    # (tournament/rules/names.py): set only then, on registration or rename.
    alike_confirmed = models.BooleanField(
        _("confirmed as another player"),
        default=False,
        help_text=_(
            "The TD confirmed that this is another player than the one with a very similar name."
        ),
    )

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_start_number"),
            models.UniqueConstraint(fields=["tournament", "name"], name="unique_player_name"),
            # A person plays a tournament once: two of its players are two entries.
            models.UniqueConstraint(
                fields=["tournament", "register_entry"], name="one_player_per_register_entry"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class CheckIn(KeptModel):
    """A player seen at the door before the first draw (services/checkin.py).

    Nothing is deleted: an undo (ticked by mistake) sets `undone_at` and `undone_by`, and a
    later check-in is a new row. A player has at most one check-in not undone.
    """

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="check_ins")
    checked_in_at = models.DateTimeField()
    # The TD (or his helper at the door) who ticked him; None when the player checked
    # himself in on his phone.
    checked_in_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    by_player = models.BooleanField(default=False)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["player_id", "checked_in_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(undone_at__isnull=True),
                name="one_check_in_per_player",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} checked in"


class Level(KeptModel):
    """One round of the shootout: a draw of the players still in into tables."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="levels")
    number = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    objects: ClassVar = LevelQuerySet.as_manager()

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_level_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="level_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} level {self.number}"


class Draw(KeptModel):
    """A random seating of a level; a redraw supersedes it, and it is kept as evidence."""

    level = models.ForeignKey(Level, on_delete=models.PROTECT, related_name="draws")
    number = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    superseded_at = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(max_length=300, blank=True)
    # None while the TD keeps the seating to himself: no public page, poll or revisor
    # link shows an unreleased draw, and no hand is recorded at its tables.
    released_at = models.DateTimeField(null=True, blank=True)

    objects: ClassVar = CurrentQuerySet.as_manager()

    class Meta:
        ordering = ["level_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["level", "number"], name="unique_draw_number"),
            models.UniqueConstraint(
                fields=["level"],
                condition=Q(superseded_at__isnull=True),
                name="one_current_draw_per_level",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.level} draw {self.number}"


# Short codes a revisor can type: no 0/O, 1/I/L look-alikes.
REVISOR_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
REVISOR_CODE_LENGTH = 6


def new_revisor_key() -> str:
    """The secret in a table's private revisor link: 256 random bits."""
    return secrets.token_urlsafe(32)


CHECK_IN_CODE_LENGTH = 4


def new_check_in_code() -> str:
    """The tournament's check-in code for the door sign: 4 letters and digits that cannot be
    mistaken for one another (no O, 0, I, L or 1)."""
    return "".join(secrets.choice(REVISOR_CODE_ALPHABET) for _ in range(CHECK_IN_CODE_LENGTH))


def new_revisor_code() -> str:
    """A short code for the same table, typed instead of scanning the QR code."""
    return "".join(secrets.choice(REVISOR_CODE_ALPHABET) for _ in range(REVISOR_CODE_LENGTH))


# A seat's standing at its table, kept in the table's row (`Table.seat_caches`), and what
# it is before the table's first hand or penalty.
class SeatCache(TypedDict):
    hand_points: int
    penalty_points: int
    total: int
    place: int | None
    in_fantasyland: bool
    fantasyland_streak: int


SEAT_CACHE_DEFAULTS: SeatCache = {
    "hand_points": 0,
    "penalty_points": 0,
    "total": 0,  # hand_points less penalty_points
    "place": None,
    # Plays the next hand in Fantasyland, and how many Fantasyland hands in a row that makes.
    "in_fantasyland": False,
    "fantasyland_streak": 0,
}


def seat_standing(seat_caches: dict[str, SeatCache], position: int) -> SeatCache:
    """The standing of the seat at `position` from its table's `seat_caches` (as read by
    `values_list("table__seat_caches")`)."""
    return seat_caches.get(str(position)) or SEAT_CACHE_DEFAULTS


class Table(KeptModel):
    level = models.ForeignKey(Level, on_delete=models.PROTECT, related_name="tables")
    draw = models.ForeignKey(Draw, on_delete=models.PROTECT, related_name="tables")
    number = models.PositiveSmallIntegerField()
    first_dealer_position = models.PositiveSmallIntegerField()
    # Caches derived from the hand history (see tournament.rules.table_fold): what the
    # next hand needs, so that recording it never re-reads the hands before it.
    hands_played = models.PositiveSmallIntegerField(default=0)
    fantasyland_hands = models.PositiveSmallIntegerField(default=0)
    last_dealer_position = models.PositiveSmallIntegerField(null=True, blank=True)
    next_dealer_position = models.PositiveSmallIntegerField(null=True, blank=True)
    required_hands = models.PositiveSmallIntegerField(default=0)
    is_over = models.BooleanField(default=False)
    winner = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="tables_won"
    )
    # Each seat's standing here by its position ("0", "1", "2"), as SEAT_CACHE_DEFAULTS
    # names it (a Seat reads its own as attributes: `seat.total`). Kept in this row, not in
    # the seats' rows, so that a hand writes one row where it wrote four: three UPDATEs
    # fewer, about 1.1 ms of a 5-6 ms hand on PostgreSQL (docs/performance-log.md).
    seat_caches = models.JSONField(default=dict, blank=True)
    # Bumped by every change at this table: pages poll it (with Tournament.revision).
    revision = models.PositiveIntegerField(default=0)
    # The revisor's access: a private link's secret and a short code; regenerating
    # both cuts off every device bound with the old ones.
    revisor_key = models.CharField(max_length=64, unique=True, null=True, blank=True)
    revisor_code = models.CharField(max_length=12, unique=True, null=True, blank=True)
    # When a revisor's card at this table last polled (written at most once a minute,
    # services/held_hands.card_seen): the dashboard says "card offline since" after 3.
    card_seen_at = models.DateTimeField(null=True, blank=True)

    objects: ClassVar = TableQuerySet.as_manager()

    class Meta:
        ordering = ["draw_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["draw", "number"], name="unique_table_number"),
            models.CheckConstraint(
                condition=Q(first_dealer_position__lte=2), name="first_dealer_is_a_seat"
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.number}"

    def seat_cache(self, position: int) -> SeatCache:
        """The standing of the seat at `position` (SEAT_CACHE_DEFAULTS before any hand)."""
        return seat_standing(self.seat_caches, position)


SeatCacheName = Literal[
    "hand_points", "penalty_points", "total", "place", "in_fantasyland", "fantasyland_streak"
]


def _seat_cache(name: SeatCacheName) -> property:
    def read(seat: "Seat") -> object:
        return seat.table.seat_cache(seat.position).get(name, SEAT_CACHE_DEFAULTS[name])

    read.__name__ = name
    return property(read, doc=f"The seat's {name}, from its table's seat_caches.")


class Seat(KeptModel):
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="seats")
    draw = models.ForeignKey(Draw, on_delete=models.PROTECT, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    # Cache: the hand after which a third warning took the player off this table.
    left_after_hand = models.PositiveSmallIntegerField(null=True, blank=True)
    # The seat's standing, from hands and penalties, kept in its table's row: read from
    # `seat.table` (load it with the seat: select_related("table")).
    hand_points = _seat_cache("hand_points")
    penalty_points = _seat_cache("penalty_points")
    total = _seat_cache("total")
    place = _seat_cache("place")
    in_fantasyland = _seat_cache("in_fantasyland")
    fantasyland_streak = _seat_cache("fantasyland_streak")

    objects: ClassVar = SeatQuerySet.as_manager()

    class Meta:
        ordering = ["table_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["draw", "player"], name="one_seat_per_player_per_draw"),
            models.UniqueConstraint(fields=["table", "position"], name="unique_seat_position"),
            models.CheckConstraint(condition=Q(position__lte=2), name="at_most_three_seats"),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.table}"


class Hand(KeptModel):
    """One hand at a table. Its content lives in versions; corrections add one."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    # Cache: who dealt this hand (follows from the hands before it).
    dealer_position = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["table_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="unique_hand_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Hand {self.number} at {self.table}"


class HandVersion(KeptModel):
    class Mode(models.TextChoices):
        POINTS = "points", _("Points")
        CARDS = "cards", _("Cards")

    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="versions")
    version = models.PositiveSmallIntegerField()
    mode = models.CharField(max_length=6, choices=Mode)
    idempotency_key = models.UUIDField(unique=True, default=uuid.uuid4)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    entered_by_label = models.CharField(max_length=120, blank=True)
    reason = models.CharField(max_length=500, blank=True)
    superseded_at = models.DateTimeField(null=True, blank=True)
    # A hand's first version is its line in the audit log ("hand recorded": who, when, what
    # it says; `audit/reading.py`), with no AuditEntry of its own: one INSERT a hand fewer.
    # True where an AuditEntry says it instead: hands recorded before migration 0015, and
    # those of a backup written before it.
    has_audit_entry = models.BooleanField(default=False)

    objects: ClassVar = CurrentQuerySet.as_manager()

    class Meta:
        ordering = ["hand_id", "version"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "version"], name="unique_hand_version"),
            models.UniqueConstraint(
                fields=["hand"],
                condition=Q(superseded_at__isnull=True),
                name="one_current_version_per_hand",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hand} v{self.version}"


class HandResult(KeptModel):
    """One player's line of one hand version: points, and cards when entered as cards."""

    version = models.ForeignKey(HandVersion, on_delete=models.PROTECT, related_name="results")
    seat = models.ForeignKey(Seat, on_delete=models.PROTECT, related_name="results")
    points = models.IntegerField()
    in_fantasyland = models.BooleanField(default=False)
    fantasyland_next = models.BooleanField(default=False)
    fouled = models.BooleanField(null=True, blank=True)
    royalties = models.IntegerField(null=True, blank=True)
    front = models.CharField(max_length=20, blank=True)
    middle = models.CharField(max_length=30, blank=True)
    back = models.CharField(max_length=30, blank=True)
    detail = models.JSONField(default=dict, blank=True)

    class Meta:
        # No default ordering: it would join seats on every load of a hand's results.
        constraints = [
            models.UniqueConstraint(fields=["version", "seat"], name="one_result_per_seat"),
            models.CheckConstraint(
                condition=Q(points__gte=-9999) & Q(points__lte=9999), name="points_in_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.seat}: {self.points:+d}"


class TableCall(KeptModel):
    """A revisor calls the TD to a table (timeout, dispute, misdeal); open until cleared."""

    class Kind(models.TextChoices):
        TIMEOUT = "timeout", _("Timeout (count a player)")
        DISPUTE = "dispute", _("Dispute")
        MISDEAL = "misdeal", _("Misdeal")
        OTHER = "other", _("Other")

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="calls")
    kind = models.CharField(max_length=10, choices=Kind)
    note = models.CharField(max_length=300, blank=True)
    called_at = models.DateTimeField(auto_now_add=True)
    called_by_label = models.CharField(max_length=120, blank=True)
    # The player a call names: the one timed out, or the one to warn (None: the table's call).
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    cleared_at = models.DateTimeField(null=True, blank=True)
    cleared_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["table_id", "called_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(cleared_at__isnull=True),
                name="one_open_call_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.get_kind_display()}"

    @property
    def penalty_key(self) -> uuid.UUID:
        """The one-time key of the penalty the TD gives from this call: one per call."""
        return uuid.uuid5(uuid.NAMESPACE_URL, f"ofc-table-call-penalty-{self.pk}")


class HeldHand(KeptModel):
    """A hand a revisor's card recorded offline that the server refused when it was sent
    (the TD corrected a hand meanwhile, the level closed, the number was taken): kept,
    with why, until the TD records it after all or discards it (docs/offline.md)."""

    class Decision(models.TextChoices):
        RECORDED = "recorded", _("Recorded after all")
        DISCARDED = "discarded", _("Discarded")

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="held_hands")
    # The hand number the card gave it, and what was typed: {"mode": "points", "points":
    # {"0": 5, ...}, "fantasyland": [1]} or {"mode": "cards", "boards": {"0": {...}}}.
    number = models.PositiveSmallIntegerField()
    entry = models.JSONField(default=dict)
    # The hand form's own key: the card sends it again until it is answered, and a
    # hand recorded from it after all is recorded with it (exactly once).
    idempotency_key = models.UUIDField(unique=True)
    # Why, as the card was told (in its language), and as data (rules/held_reasons: a
    # code and its numbers, put into words in the reader's language; {}: only the words).
    reason = models.CharField(max_length=500)
    why = models.JSONField(default=dict, blank=True)
    held_at = models.DateTimeField(auto_now_add=True)
    held_by_label = models.CharField(max_length=120, blank=True)
    decision = models.CharField(max_length=10, choices=Decision, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decision_reason = models.CharField(max_length=500, blank=True)
    recorded_hand = models.ForeignKey(
        Hand, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["table_id", "held_at", "id"]

    def __str__(self) -> str:
        return f"{self.table}: held hand {self.number}"


class Penalty(KeptModel):
    """A warning given by the TD; a timeout also costs 10 points, a 2nd warning 25 more."""

    class Kind(models.TextChoices):
        TIMEOUT = "timeout", _("Timeout (10 points and a warning)")
        SLOW = "slow", _("Slow play (warning)")
        EXPOSED_MUCK = "exposed_muck", _("Exposed the muck (warning)")
        DIGGING_MUCK = "digging_muck", _("Dug in the muck (warning)")
        CONDUCT = "conduct", _("Unsporting behaviour (warning)")
        OTHER = "other", _("Other (warning)")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="penalties")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="penalties")
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.PROTECT, related_name="penalties"
    )
    kind = models.CharField(max_length=20, choices=Kind)
    note = models.CharField(max_length=500, blank=True)
    # Hands already played at the table when it was given: a disqualified player
    # leaves the table after that hand.
    after_hand = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    rescinded_at = models.DateTimeField(null=True, blank=True)
    rescinded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    rescind_reason = models.CharField(max_length=500, blank=True)
    # Caches derived from the player's warnings in order (see services.recompute).
    warning_number = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.PositiveSmallIntegerField(default=0)

    objects: ClassVar = PenaltyQuerySet.as_manager()

    class Meta:
        ordering = ["tournament_id", "created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(rescinded_at__isnull=True) | ~Q(rescind_reason=""),
                name="rescind_needs_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.get_kind_display()}"


class TieSettlement(KeptModel):
    """The TD settles a tie for first at a finished table by hand (e.g. a card draw).

    The latest one counts, and only while its winner is among the tied leaders.
    """

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="tie_settlements")
    winner = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="tie_settlement_needs_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.winner}"


class AuditEntry(KeptModel):
    """Every change of state: who, when, what, before and after. Never deleted."""

    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.PROTECT, related_name="audit_entries"
    )
    at = models.DateTimeField(auto_now_add=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    actor_label = models.CharField(max_length=120, blank=True)
    action = models.CharField(max_length=40)
    # What happened as data (numbers, names, codes); tournament/audit/sentences.py writes
    # the sentence in the reader's language when the entry is shown.
    params = models.JSONField(null=True, blank=True)
    # The English sentence entries stored before 0008, kept as written; shown as it is
    # only when it could not be read back into params. Empty since.
    summary = models.CharField(max_length=300, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["tournament", "at"])]

    def __str__(self) -> str:
        # The action's code: its sentence is written where the log is read (the admin's
        # "What happened", the TD's log page), in the reader's language.
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor_label}: {self.action}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise PermissionError("Audit entries are never changed.")
        super().save(*args, **kwargs)


class FormSubmission(models.Model):
    """A form's one-time key, kept once its change is made: a double click changes nothing.

    Written in the same transaction as the change by the service that makes it
    (services/idempotency.py), so a key is kept exactly when the change was made. Hand
    entries have their key on the hand version. `fingerprint` tells the same submission
    sent again from another change made with its key; empty in rows kept before it was.
    """

    key = models.UUIDField(unique=True)
    fingerprint = models.CharField(max_length=64, blank=True, default="")
    # The change the key made ("penalty.give"...); "form" in the rows kept before 0018,
    # whose fingerprint is of the request the view was sent.
    action = models.CharField(max_length=40, blank=True, default="")
    # The id of the row the change made (its model is the action's), given back when the
    # same submission is sent again; None when it made none.
    result_id = models.PositiveBigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    def __str__(self) -> str:
        return str(self.key)


class RevisorCodeAttempt(models.Model):
    """A wrong short code typed at /r/: counted per device and per client address to slow
    down guessing (docs/revisor-access.md).

    Kept in the database (not in a process) so that several app servers share it.
    """

    client = models.CharField(max_length=64)  # the client's address
    # A random id kept in the device's session; empty in rows from before it was counted.
    device = models.CharField(max_length=32, blank=True, default="")
    code = models.CharField(max_length=20, blank=True, default="")  # the code typed, normalized
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(fields=["client", "at"]),
            models.Index(fields=["device", "at"], name="revisor_attempt_device_at"),
        ]

    def __str__(self) -> str:
        return f"{self.client} at {self.at:%H:%M:%S}"


class RevisorStation(KeptModel):
    """A table number of a tournament (a station) with its own private link and short code,
    printed once for the whole event: a device bound to it opens, at every level, the table
    of the current draw with that number (docs/revisor-access.md)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="revisor_stations"
    )
    number = models.PositiveSmallIntegerField()
    # Regenerating both cuts off every device bound with the old ones, as for a table.
    key = models.CharField(max_length=64, unique=True)
    code = models.CharField(max_length=12, unique=True)

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_station_number")
        ]

    def __str__(self) -> str:
        return f"Station {self.number}"


class Announcement(KeptModel):
    """A short message from the TD to the room, shown as a banner on the players' pages
    and the projector views until its end time passes or the TD withdraws it. The latest
    one standing is the one shown: a new one replaces it (services.announcements)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="announcements"
    )
    text = models.CharField(max_length=200)
    ends_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["tournament_id", "created_at", "id"]
        indexes = [
            models.Index(fields=["tournament", "withdrawn_at"], name="announcement_tournament_open")
        ]

    def __str__(self) -> str:
        return self.text
