"""A hand as typed, by points or by cards, and its correction: the revisor's card and the
TD's table page enter and correct hands with the same forms."""

import re
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from scoring import InvalidHand, parse_row
from scoring.boards import ROW_SIZES, ROWS
from scoring.cards import card_code, format_card
from scoring.errors import Problem
from tournament.forms.fields import MAX_HAND_NUMBER, WholeNumberField, lazy_format, reason_field
from tournament.models import HandVersion
from tournament.rules.hand_errors import invalid_hand_message
from tournament.services.hands import MAX_POINTS


@dataclass(frozen=True)
class SeatFields:
    """One seat's inputs, for a template: the player and his bound fields."""

    position: int
    name: str
    fields: tuple[forms.BoundField, ...]


class _Named(Protocol):
    @property
    def name(self) -> str: ...


class SeatLike(Protocol):
    """A Seat, or a table's history's seat: its position and its player."""

    @property
    def position(self) -> int: ...

    @property
    def player(self) -> _Named: ...


Seats = Iterable[SeatLike | tuple[int, str] | list[Any]]

# The keyword arguments of a hands service (`record_hand`, `correct_hand`), from a form.
ServiceKwargs = dict[str, Any]


def _seat_list(seats: Seats) -> list[tuple[int, str]]:
    """(position, name) pairs from Seat objects (`.position`, `.player.name`) or pairs."""
    pairs = []
    for seat in seats:
        if isinstance(seat, (tuple, list)):
            position, name = seat
        else:
            position, name = seat.position, seat.player.name
        pairs.append((int(position), str(name)))
    pairs.sort()
    if len({position for position, _name in pairs}) != len(pairs):
        raise ValueError("Two seats have the same position.")
    return pairs


class HandForm(forms.Form):
    """What every hand entry carries: which hand, and the submission's key."""

    hand_number = WholeNumberField(
        min_value=1,
        max_value=MAX_HAND_NUMBER,
        label=_("Hand number"),
        widget=forms.HiddenInput,
        message=_("The hand number is missing; reload the page."),
    )
    idempotency_key = forms.UUIDField(
        label=_("Submission key"),
        widget=forms.HiddenInput,
        initial=uuid.uuid4,
        error_messages={
            "required": _("The submission has no valid key; reload the page."),
            "invalid": _("The submission has no valid key; reload the page."),
        },
    )

    def __init__(
        self, *args: Any, seats: Seats, hand_number: int | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.seats = _seat_list(seats)
        if hand_number is not None:
            self.fields["hand_number"].initial = hand_number
        for position, name in self.seats:
            self.add_seat_fields(position, name)
        # The seats' inputs first, then anything a subclass declares (a reason), then hidden.
        self.order_fields(
            [name for name in self.fields if name not in self.declared_fields]
            + [name for name in self.declared_fields if name not in HandForm.declared_fields]
        )

    def add_seat_fields(self, position: int, name: str) -> None:
        raise NotImplementedError

    def seat_field_names(self, position: int) -> tuple[str, ...]:
        raise NotImplementedError

    def seat_rows(self) -> list[SeatFields]:
        """Per seat, the player and his bound fields, in seat order."""
        return [
            SeatFields(position, name, tuple(self[f] for f in self.seat_field_names(position)))
            for position, name in self.seats
        ]

    def entry(self) -> ServiceKwargs:
        """The service's hand content: points or boards (after is_valid())."""
        raise NotImplementedError

    def service_kwargs(self) -> ServiceKwargs:
        """`hands.record_hand(table=..., actor=..., **form.service_kwargs())`."""
        return {
            "hand_number": self.cleaned_data["hand_number"],
            "idempotency_key": self.cleaned_data["idempotency_key"],
            **self.entry(),
        }


class HandPointsForm(HandForm):
    """A hand as each player's points (they add up to zero) and who goes to Fantasyland."""

    def add_seat_fields(self, position: int, name: str) -> None:
        self.fields[f"points_{position}"] = WholeNumberField(
            min_value=-MAX_POINTS,
            max_value=MAX_POINTS,
            label=lazy_format(_("Points for %(name)s"), name=name),
            # No inputmode: phones then show a keyboard with a minus sign for a number
            # input (the digits keypad of inputmode="numeric" has none on an iPhone). The
            # revisor's card turns it into digits plus its own +/- keys (static/js/revisor.js).
            widget=forms.NumberInput(),
        )
        self.fields[f"fantasyland_{position}"] = forms.BooleanField(
            required=False, label=lazy_format(_("%(name)s goes to Fantasyland"), name=name)
        )

    def seat_field_names(self, position: int) -> tuple[str, ...]:
        return (f"points_{position}", f"fantasyland_{position}")

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        given: list[int | None] = [cleaned.get(f"points_{p}") for p, _name in self.seats]
        points = [value for value in given if value is not None]
        if len(points) == len(given):
            total = sum(points)
            if total != 0:
                raise ValidationError(
                    _("The points must add up to zero; they add up to %(total)+d."),
                    code="sum",
                    params={"total": total},
                )
        return cleaned

    def points(self) -> dict[int, int]:
        """{position: points} (after is_valid())."""
        return {position: self.cleaned_data[f"points_{position}"] for position, _n in self.seats}

    def fantasyland(self) -> set[int]:
        """The positions of the players who go to (or stay in) Fantasyland."""
        return {
            position for position, _n in self.seats if self.cleaned_data[f"fantasyland_{position}"]
        }

    def entry(self) -> ServiceKwargs:
        return {"points": self.points(), "fantasyland": self.fantasyland()}


# A card: rank 2-9, T or 10, J, Q, K, A (either case), then a suit letter or symbol.
_CARD = re.compile(r"(?:10|[2-9TtJjQqKkAa])[SsHhDdCc♠♥♦♣♤♡♢♧]")


_CARDS_ONLY = re.compile(f"(?:{_CARD.pattern})+")


_SEPARATORS = re.compile(r"[\s,;]+")


_ROW_LABELS = {
    "front": _("%(name)s: front (%(count)d cards)"),
    "middle": _("%(name)s: middle (%(count)d cards)"),
    "back": _("%(name)s: back (%(count)d cards)"),
}


def split_cards(text: str) -> list[str]:
    """The card tokens in `text`, written apart or not: "Q♠Q♥7♦" -> ["Q♠", "Q♥", "7♦"].

    A piece that is not a card stays one token (up to where a card can be read
    again), for the row's parser to report: "QsQx7d" -> ["Qs", "Qx", "7d"]. A word of
    letters only that is not all cards stays whole: "three" is not "Th" and "ree" (the
    revisor read 'Unknown card "ree"').
    """
    tokens: list[str] = []
    for chunk in _SEPARATORS.split(text.replace("\ufe0f", "")):
        if chunk.isalpha() and _CARDS_ONLY.fullmatch(chunk) is None:
            tokens.append(chunk)
            continue
        position = 0
        while position < len(chunk):
            match = _CARD.match(chunk, position)
            if match is not None:
                tokens.append(match.group())
                position = match.end()
                continue
            end = position + 1
            while end < len(chunk) and _CARD.match(chunk, end) is None:
                end += 1
            tokens.append(chunk[position:end])
            position = end
    return tokens


def parse_cards(text: str, name: str, row: str) -> tuple[int, ...]:
    """The cards of one row as ints, or ValidationError with the scoring package's
    translated message naming the player and row ("Unknown card "Qx" in Anna's front").
    """
    tokens = split_cards(text)
    try:
        if not tokens:
            raise InvalidHand(f"player 1 {row} is missing", code="missing_row", player=1, row=row)
        cards = parse_row(tokens, 1, row)
    except InvalidHand as exc:
        raise ValidationError(invalid_hand_message(exc, [name]), code=exc.code) from exc
    return cards


class HandCardsForm(HandForm):
    """A hand as each player's three rows of cards; the service scores it."""

    def add_seat_fields(self, position: int, name: str) -> None:
        for row in ROWS:
            self.fields[f"{row}_{position}"] = forms.CharField(
                required=False,
                strip=False,
                label=lazy_format(_ROW_LABELS[row], name=name, count=ROW_SIZES[row]),
                widget=forms.TextInput(
                    attrs={
                        "autocomplete": "off",
                        "autocapitalize": "off",
                        "autocorrect": "off",
                        "spellcheck": "false",
                    }
                ),
            )

    def seat_field_names(self, position: int) -> tuple[str, ...]:
        return tuple(f"{row}_{position}" for row in ROWS)

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        self.cards: dict[tuple[int, str], tuple[int, ...]] = {}
        places: dict[int, list[tuple[int, str]]] = {}  # card -> [(player index, row), ...]
        names = [name for _position, name in self.seats]
        for index, (position, name) in enumerate(self.seats, start=1):
            for row in ROWS:
                field = f"{row}_{position}"
                if field not in cleaned:
                    continue
                try:
                    cards = parse_cards(cleaned[field], name, row)
                except ValidationError as error:
                    self.add_error(field, error)
                    continue
                self.cards[(position, row)] = cards
                for card in cards:
                    places.setdefault(card, []).append((index, row))
        duplicates = [
            Problem(
                "duplicate_card",
                player=where[0][0],
                row=where[0][1],
                card=format_card(card),
                params={"places": tuple(where), "count": len(where)},
            )
            for card, where in places.items()
            if len(where) > 1
        ]
        for problem in duplicates:
            message = invalid_hand_message(InvalidHand("", problems=(problem,)), names)
            self.add_error(None, ValidationError(message, code="duplicate_card"))
        return cleaned

    def boards(self) -> dict[int, dict[str, str]]:
        """{position: {"front": "Qs Qh 7d", ...}} in plain ASCII codes (after is_valid())."""
        return {
            position: {
                row: " ".join(card_code(card) for card in self.cards[(position, row)])
                for row in ROWS
            }
            for position, _name in self.seats
        }

    def entry(self) -> ServiceKwargs:
        return {"boards": self.boards()}


class CorrectionForm(HandForm):
    """The TD's correction of a recorded hand: a hand form and a reason.

    Use CorrectPointsForm or CorrectCardsForm; the view calls
    `hands.correct_hand(hand=..., actor=..., **form.service_kwargs())`. The number of
    the version the page showed travels with it (hidden, `initial={"version": ...}`), so
    that the service refuses it when the hand was corrected meanwhile.
    """

    reason = reason_field(HandVersion)
    version = WholeNumberField(
        min_value=1,
        max_value=MAX_HAND_NUMBER,
        label=_("Version"),
        widget=forms.HiddenInput,
        message=_("The hand's version is missing; reload the page."),
    )

    def service_kwargs(self) -> ServiceKwargs:
        kwargs = super().service_kwargs()
        del kwargs["hand_number"]  # the hand is the page's; the view checks they match
        return {
            **kwargs,
            "reason": self.cleaned_data["reason"],
            "based_on_version": self.cleaned_data["version"],
        }


class CorrectPointsForm(CorrectionForm, HandPointsForm):
    pass


class CorrectCardsForm(CorrectionForm, HandCardsForm):
    pass
