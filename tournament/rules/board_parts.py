"""What a hand entered by cards may hold for a player besides his three rows.

A player in Fantasyland is dealt 14 cards and places 13 (rules.md): his board may name the
one he discarded, under "discard". Nobody else has a discard, and a board has no other
part: either is refused with the player's name, never dropped without a word. A discard is
checked (one card, placed nowhere in the hand) but not kept: nothing is scored from it.
"""

from collections.abc import Collection, Iterable, Mapping

from django.utils.translation import gettext as _

from scoring.cards import card_code, parse_card
from tournament.errors import InvalidEntry
from tournament.models import Seat

ROWS = ("front", "middle", "back")
DISCARD = "discard"


def _given(value: object) -> bool:
    return value not in (None, "", [], ())


def refuse_stray_parts(
    seats: Iterable[Seat],
    boards: Mapping[int, Mapping[str, object]],
    in_fantasyland: Mapping[int, bool],
) -> None:
    """Refuse a part of a board that is no row, and a discard of a player not in
    Fantasyland this hand (`in_fantasyland`: seat id -> bool). Before scoring, so that
    the message is about what was wrongly given."""
    for seat in seats:
        board = boards[seat.position]
        name = seat.player.name
        for part in board:
            if part not in (*ROWS, DISCARD):
                raise InvalidEntry(
                    _(
                        "%(name)s's cards have a part “%(part)s”: enter the front, middle "
                        "and back rows."
                    )
                    % {"name": name, "part": str(part)[:20]}
                )
        if _given(board.get(DISCARD)) and not in_fantasyland.get(seat.id):
            raise InvalidEntry(
                _(
                    "%(name)s does not play this hand in Fantasyland, so has no discarded "
                    "card: enter %(name)s's 13 cards in the three rows, and no discard."
                )
                % {"name": name}
            )


def refuse_wrong_discards(
    seats: Iterable[Seat], boards: Mapping[int, Mapping[str, object]], placed: Collection[str]
) -> None:
    """Refuse a Fantasyland player's discard that is not one card, or is a card placed in
    the hand (`placed`: every placed card's code, after scoring)."""
    for seat in seats:
        value = boards[seat.position].get(DISCARD)
        if not _given(value):
            continue
        card = parse_card(value)
        name = seat.player.name
        if card is None:
            raise InvalidEntry(
                _("%(name)s's discarded card must be one card, such as 2c.") % {"name": name}
            )
        if card_code(card) in placed:
            raise InvalidEntry(
                _("%(name)s's discarded card %(card)s is also placed in this hand.")
                % {"name": name, "card": card_code(card)}
            )
