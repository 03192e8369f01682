"""The forms of the TD and revisor pages: they read what a person typed.

A form parses and checks the input with the same rules as the services
(`tournament.rules.validation` for text and numbers, the scoring package for cards,
`tournament.rules.hand_errors` for the card messages), so that a mistake is reported
next to the field it is in, in the person's language. The view then calls one
service with the form's values (`service_kwargs()`); the service checks
everything again, since it also serves the admin, the commands and the import.

Every text limit is read from the model's column (`max_length`), never repeated.
"""

import re
import uuid
from dataclasses import dataclass

from django import forms
from django.core.exceptions import ValidationError
from django.db.models.functions import Lower
from django.utils.functional import lazy
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from scoring import InvalidHand, parse_row
from scoring.boards import ROW_SIZES, ROWS
from scoring.cards import card_code, format_card
from scoring.errors import Problem
from tournament.backups.schema import MAX_BYTES, parse_backup, too_large
from tournament.errors import InvalidEntry
from tournament.lib.text import swedish_sort_key
from tournament.models import Draw, HandVersion, Penalty, Player, TieSettlement, Tournament
from tournament.rules.hand_errors import invalid_hand_message
from tournament.rules.names import (
    Taken,
    alike_question,
    already_registered,
    check_shown,
    clean_name,
    compare_list,
    strip_invisible,
)
from tournament.rules.validation import MAX_SMALL_NUMBER, clean_int, clean_text
from tournament.services.hands import MAX_POINTS
from tournament.services.registration import MIN_HANDS_RANGE, taken_names

MAX_HAND_NUMBER = MAX_SMALL_NUMBER  # the Hand.number column
MAX_ID = 2**63 - 1  # a primary key (BigAutoField)
MAX_LIST_LINES = 1000  # a pasted player list longer than this is refused whole
MAX_BACKUP_BYTES = MAX_BYTES


# ---------------------------------------------------------------- helpers


def max_length(model, field):
    """The column's limit: forms never repeat it as a literal."""
    return model._meta.get_field(field).max_length


def _verbose(model, field):
    return capfirst(model._meta.get_field(field).verbose_name)


def _interpolate(message, params):
    return str(message) % params


# `message % params`, translated when shown (message is a gettext_lazy string).
_lazy_interpolate = lazy(_interpolate, str)


def lazy_format(message, **params):
    return _lazy_interpolate(message, params)


def _entry(func, *args, **kwargs):
    """Run a validation.* check; its InvalidEntry becomes the form's error, same message."""
    try:
        return func(*args, **kwargs)
    except InvalidEntry as exc:
        raise ValidationError(exc.message, code="invalid") from exc


def choice_messages(label):
    """A choice field's messages naming it (the revisor's call form uses them too)."""
    message = lazy_format(_("%(label)s: choose one of the options."), label=label)
    return {"required": message, "invalid_choice": message}


# ---------------------------------------------------------------- fields


class TextField(forms.CharField):
    """Text as the services keep it (validation.clean_text): NFC, trimmed, no control
    characters, at most `max_length` characters; single-line text has its blanks folded.
    """

    def __init__(self, *, max_length, multiline=False, **kwargs):
        self.text_max_length = max_length
        self.multiline = multiline
        if "widget" not in kwargs:
            kwargs["widget"] = forms.Textarea(attrs={"rows": 3}) if multiline else forms.TextInput
        super().__init__(strip=False, **kwargs)

    def clean(self, value):
        value = self.to_python(value)
        text = _entry(
            clean_text,
            value,
            label=str(self.label or _("This field")),
            max_length=self.text_max_length,
            required=self.required,
            multiline=self.multiline,
        )
        self.run_validators(text)
        return text


_WHOLE_NUMBER = re.compile(r"[+-]?\d+")


class WholeNumberField(forms.IntegerField):
    """A whole number in a range, checked by validation.clean_int (same messages).

    `message` replaces every error message (for hidden fields: "reload the page").
    A typographic minus (U+2212, as some phones type it) is read as "-".
    """

    def __init__(self, *, message=None, **kwargs):
        self.message = message
        super().__init__(**kwargs)

    def clean(self, value):
        try:
            return self._clean(value)
        except ValidationError:
            if self.message is None:
                raise
            raise ValidationError(self.message, code="invalid") from None

    def _clean(self, value):
        label = str(self.label or _("This field"))
        text = "" if value is None else str(value).strip()
        if not text:
            if not self.required:
                return None
            _entry(clean_text, "", label=label, max_length=0)  # "... must not be empty."
        text = text.replace("\u2212", "-")
        try:
            number = int(text) if _WHOLE_NUMBER.fullmatch(text) else text  # text: refused below
        except ValueError:  # thousands of digits: more than int() reads from text
            number = text
        return _entry(
            clean_int, number, label=label, minimum=self.min_value, maximum=self.max_value
        )


def _reason_field(model, field="reason", **kwargs):
    return TextField(
        max_length=max_length(model, field), multiline=True, label=_("Reason"), **kwargs
    )


# ---------------------------------------------------------------- tournament and players


class NameField(TextField):
    """A name as the services keep it (`names.clean_name`): clean text that shows as
    something, without characters that turn its direction, nor invisible ones at its ends."""

    def to_python(self, value):
        return strip_invisible(super().to_python(value))

    def clean(self, value):
        text = super().clean(value)
        if text:
            _entry(check_shown, text, label=str(self.label or _("This field")))
        return text


def _tournament_name_field():
    return NameField(max_length=max_length(Tournament, "name"), label=_verbose(Tournament, "name"))


class TournamentSettingsForm(forms.ModelForm):
    """A new tournament's settings, or a change of them before the first draw.

    The view calls `registration.create_tournament(actor=..., **form.values())` or
    `registration.update_settings(tournament=..., actor=..., **form.values())`.
    A name another tournament has is refused by the service (`registration.TournamentNameTaken`,
    which the view shows next to the name): checked here, it would refuse a resent form
    that its one-time key answers "already done".
    """

    name = _tournament_name_field()
    min_hands = WholeNumberField(
        min_value=MIN_HANDS_RANGE[0],
        max_value=MIN_HANDS_RANGE[1],
        label=_verbose(Tournament, "min_hands"),
        help_text=Tournament._meta.get_field("min_hands").help_text,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    class Meta:
        model = Tournament
        fields = [
            "name",
            "min_hands",
            "entry_mode",
            "royalties",
            "scoring_method",
            "fantasyland_repeat",
            "button_stays_in_fantasyland",
            "table_confirms_points",
            "release_draws_at_once",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("entry_mode", "royalties", "scoring_method", "fantasyland_repeat"):
            field = self.fields[name]
            field.error_messages.update(choice_messages(field.label))

    def values(self):
        """The settings as the registration services take them (after is_valid())."""
        return {name: self.cleaned_data[name] for name in self.Meta.fields}


class ConfirmNamesField(forms.MultipleChoiceField):
    """A checkbox for each lookalike name a form asks about: ticked, "they are two players".

    The names asked about are known only once what was typed is read, so any name sent
    is taken here; the form sets the choices it shows (one per question).
    """

    widget = forms.CheckboxSelectMultiple

    def __init__(self, **kwargs):
        super().__init__(required=False, choices=(), **kwargs)

    def valid_value(self, value):
        return True


def _name_field():
    return NameField(
        max_length=max_length(Player, "name"),
        label=_verbose(Player, "name"),
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "words", "spellcheck": "false"}
        ),
    )


class TournamentNameForm(forms.Form):
    """The tournament's name alone, which can be corrected after the rules are fixed.

    The view calls `registration.rename_tournament(tournament=..., actor=..., name=...)`.
    """

    name = _tournament_name_field()


class PlayerForm(forms.Form):
    """One player's name. With `tournament`, the very name of a registered player is
    refused, and a near-duplicate (the same letters but for case, accents, spacing or
    punctuation) is asked about: registered once `confirm` is ticked (tournament/rules/names.py).
    `registration.register_player(..., **form.service_kwargs())`.
    """

    name = _name_field()
    confirm = ConfirmNamesField(label=_("Another player?"))
    confirm_label = _("Yes, another player: add %(name)s")

    def __init__(self, *args, tournament=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.alike = None  # the registered name the one typed looks like

    def taken(self):
        return taken_names(self.tournament) if self.tournament is not None else Taken()

    def clean_name(self):
        name = self.cleaned_data["name"]
        taken = self.taken()
        same = taken.same(name)
        if same is not None:
            raise ValidationError(already_registered(name, same), code="taken")
        self.alike = taken.alike(name)
        return name

    def clean(self):
        cleaned = super().clean()
        if self.alike is not None:
            name = cleaned["name"]
            self.fields["confirm"].choices = [(name, lazy_format(self.confirm_label, name=name))]
            if not self.confirmed():
                self.add_error(
                    "name", ValidationError(alike_question(name, self.alike), code="lookalike")
                )
        return cleaned

    def confirmed(self):
        """The TD ticked "another player" for the lookalike name typed."""
        name = self.cleaned_data.get("name")
        return self.alike is not None and name in self.cleaned_data.get("confirm", ())

    def service_kwargs(self):
        return {"name": self.cleaned_data["name"], "lookalike_confirmed": self.confirmed()}


class RenamePlayerForm(PlayerForm):
    """A new name for `player`: the same rules, and no other player of his may have it."""

    confirm_label = _("Yes, another player: rename to %(name)s")

    def __init__(self, *args, player, **kwargs):
        kwargs.setdefault("initial", {"name": player.name})
        super().__init__(*args, tournament=player.tournament, **kwargs)
        self.player = player

    def taken(self):
        return taken_names(self.tournament, exclude=self.player)


_LINE_QUESTION = _("Line %(line)d: %(question)s")
_CONFIRM_LINE = _("Line %(line)d: yes, another player: register %(name)s")


class PlayerListForm(forms.Form):
    """Many players at once, one name a line: `registration.register_players(...,
    **form.service_kwargs())` registers them all or none.

    Blank lines are skipped. A name already registered or already on an earlier line (the
    very same name) is left for the service to skip (and report). Every line that must
    change is reported with its number: a name that cannot be kept, and a near-duplicate
    (tournament/rules/names.py: "asa öberg" beside "Åsa Öberg") whose checkbox in
    `confirm_names` is not ticked.
    """

    names = forms.CharField(
        label=_("Players, one name a line"),
        required=False,
        strip=False,
        widget=forms.Textarea(
            attrs={
                "rows": 12,
                "autocomplete": "off",
                "autocapitalize": "words",
                "spellcheck": "false",
            }
        ),
    )
    confirm_names = ConfirmNamesField(label=_("Names very like another"))

    def __init__(self, *args, tournament=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.asked = []  # names.Line of each lookalike asked about
        self.lines_to_check = 0

    def _confirmations(self):
        # Read before the checkboxes' own cleaning: the lines' questions depend on them.
        return set(self["confirm_names"].value() or ())

    def clean_names(self):
        raw = self.cleaned_data.get("names") or ""
        lines = raw.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        if len(lines) > MAX_LIST_LINES:
            raise ValidationError(
                _("The list has %(count)d lines; at most %(max)d can be entered at once."),
                code="too_long",
                params={"count": len(lines), "max": MAX_LIST_LINES},
            )
        limit = max_length(Player, "name")
        errors, entries = [], []
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                label = str(lazy_format(_("Line %(line)d"), line=number))
                entries.append((_entry(clean_name, line, label=label, max_length=limit), number))
            except ValidationError as error:
                errors.append((number, error))
        taken = taken_names(self.tournament) if self.tournament is not None else Taken()
        confirmed = self._confirmations()
        self.asked = [line for line in compare_list(entries, taken) if line.alike is not None]
        self.fields["confirm_names"].choices = [
            (line.name, lazy_format(_CONFIRM_LINE, line=line.line, name=line.name))
            for line in self.asked
        ]
        for line in self.asked:
            if line.name not in confirmed:
                question = alike_question(line.name, line.alike)
                message = lazy_format(
                    _("Line %(line)d: %(question)s"), line=line.line, question=question
                )
                errors.append((line.line, ValidationError(message, code="lookalike")))
        if errors:
            self.lines_to_check = len(errors)  # the summary counts them; each is shown once
            raise ValidationError([error for _line, error in sorted(errors, key=lambda e: e[0])])
        if not entries:
            raise ValidationError(_("Enter at least one name."), code="required")
        return [name for name, _line in entries]

    def service_kwargs(self):
        asked = {line.name for line in self.asked}
        return {
            "names": self.cleaned_data["names"],
            "confirmed": sorted(asked & set(self.cleaned_data["confirm_names"])),
        }


# ---------------------------------------------------------------- hands


@dataclass(frozen=True)
class SeatFields:
    """One seat's inputs, for a template: the player and his bound fields."""

    position: int
    name: str
    fields: tuple


def _seat_list(seats):
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

    def __init__(self, *args, seats, hand_number=None, **kwargs):
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

    def add_seat_fields(self, position, name):
        raise NotImplementedError

    def seat_field_names(self, position):
        raise NotImplementedError

    def seat_rows(self):
        """Per seat, the player and his bound fields, in seat order."""
        return [
            SeatFields(position, name, tuple(self[f] for f in self.seat_field_names(position)))
            for position, name in self.seats
        ]

    def entry(self):
        """The service's hand content: points or boards (after is_valid())."""
        raise NotImplementedError

    def service_kwargs(self):
        """`hands.record_hand(table=..., actor=..., **form.service_kwargs())`."""
        return {
            "hand_number": self.cleaned_data["hand_number"],
            "idempotency_key": self.cleaned_data["idempotency_key"],
            **self.entry(),
        }


class HandPointsForm(HandForm):
    """A hand as each player's points (they add up to zero) and who goes to Fantasyland."""

    def add_seat_fields(self, position, name):
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

    def seat_field_names(self, position):
        return (f"points_{position}", f"fantasyland_{position}")

    def clean(self):
        cleaned = super().clean()
        given = [cleaned.get(f"points_{position}") for position, _name in self.seats]
        if None not in given:
            total = sum(given)
            if total != 0:
                raise ValidationError(
                    _("The points must add up to zero; they add up to %(total)+d."),
                    code="sum",
                    params={"total": total},
                )
        return cleaned

    def points(self):
        """{position: points} (after is_valid())."""
        return {position: self.cleaned_data[f"points_{position}"] for position, _n in self.seats}

    def fantasyland(self):
        """The positions of the players who go to (or stay in) Fantasyland."""
        return {
            position for position, _n in self.seats if self.cleaned_data[f"fantasyland_{position}"]
        }

    def entry(self):
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


def split_cards(text):
    """The card tokens in `text`, written apart or not: "Q♠Q♥7♦" -> ["Q♠", "Q♥", "7♦"].

    A piece that is not a card stays one token (up to where a card can be read
    again), for the row's parser to report: "QsQx7d" -> ["Qs", "Qx", "7d"]. A word of
    letters only that is not all cards stays whole: "three" is not "Th" and "ree" (the
    revisor read 'Unknown card "ree"').
    """
    tokens = []
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


def parse_cards(text, name, row):
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

    def add_seat_fields(self, position, name):
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

    def seat_field_names(self, position):
        return tuple(f"{row}_{position}" for row in ROWS)

    def clean(self):
        cleaned = super().clean()
        self.cards = {}
        places = {}  # card -> [(player index, row), ...]
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

    def boards(self):
        """{position: {"front": "Qs Qh 7d", ...}} in plain ASCII codes (after is_valid())."""
        return {
            position: {
                row: " ".join(card_code(card) for card in self.cards[(position, row)])
                for row in ROWS
            }
            for position, _name in self.seats
        }

    def entry(self):
        return {"boards": self.boards()}


class CorrectionForm(forms.Form):
    """The TD's correction of a recorded hand: a hand form and a reason.

    Use CorrectPointsForm or CorrectCardsForm; the view calls
    `hands.correct_hand(hand=..., actor=..., **form.service_kwargs())`. The number of
    the version the page showed travels with it (hidden, `initial={"version": ...}`), so
    that the service refuses it when the hand was corrected meanwhile.
    """

    reason = _reason_field(HandVersion)
    version = WholeNumberField(
        min_value=1,
        max_value=MAX_HAND_NUMBER,
        label=_("Version"),
        widget=forms.HiddenInput,
        message=_("The hand's version is missing; reload the page."),
    )

    def service_kwargs(self):
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


class RevisorFixCardsForm(CorrectCardsForm):
    """The revisor's fix of the last hand by cards (entry, check, confirm).

    The version being fixed travels with the cards (CorrectionForm's `version`), so that
    a fix read out to the table as "was -14, now +36" is not saved over a correction made
    meanwhile.
    """


# ---------------------------------------------------------------- the TD's decisions


class PenaltyForm(forms.Form):
    """A warning (or a timeout) for a player still in the tournament.

    `penalties.give_penalty(actor=..., **form.service_kwargs())` (tournament included).
    """

    player = forms.ModelChoiceField(
        queryset=Player.objects.none(),
        label=_("Player"),
        empty_label=_("Choose a player"),
        error_messages=choice_messages(_("Player")),
    )
    kind = forms.ChoiceField(
        choices=[("", _("Choose the kind of penalty")), *Penalty.Kind.choices],
        label=_("Kind of penalty"),
        error_messages=choice_messages(_("Kind of penalty")),
    )
    note = TextField(
        max_length=max_length(Penalty, "note"), multiline=True, required=False, label=_("Note")
    )

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.fields["player"].queryset = Player.objects.filter(
            tournament=tournament, withdrawn_at__isnull=True, disqualified=False
        ).order_by(Lower("name"), "number")

    def service_kwargs(self):
        return {
            "tournament": self.tournament,
            **{name: self.cleaned_data[name] for name in ("player", "kind", "note")},
        }


class RescindForm(forms.Form):
    """`penalties.rescind_penalty(penalty=..., actor=..., **form.service_kwargs())`."""

    reason = _reason_field(Penalty, "rescind_reason")

    def service_kwargs(self):
        return {"reason": self.cleaned_data["reason"]}


class TieForm(forms.Form):
    """The TD settles a tie for first: the winner among the tied players, and why.

    `leaders` are Player objects (or Seats, whose `.player` is taken); `settlement`, the
    TieSettlement that decides the tie as the page shows it, or None while it is open
    (deciding it again names someone else). The page's settlement travels with the form
    (hidden, empty for none), so that the service refuses a decision made from a page
    that showed the tie otherwise: `hands.settle_tie(table=..., actor=...,
    **form.service_kwargs())`.
    """

    winner = forms.ChoiceField(
        label=_("Winner"),
        widget=forms.RadioSelect,
        error_messages=choice_messages(_("Winner")),
    )
    reason = _reason_field(TieSettlement)
    settlement = WholeNumberField(
        required=False,
        min_value=1,
        max_value=MAX_ID,
        label=_("Decision on the tie"),
        widget=forms.HiddenInput,
        message=_("This form is out of date: reload the page and send it again."),
    )

    def __init__(self, *args, leaders, settlement=None, **kwargs):
        super().__init__(*args, **kwargs)
        players = [getattr(leader, "player", leader) for leader in leaders]
        self.leaders = {str(player.pk): player for player in players}
        self.decided = settlement.winner if settlement is not None else None
        if not self.is_bound:
            self.initial.setdefault("settlement", settlement.pk if settlement else None)
        self.fields["winner"].choices = [(key, p.name) for key, p in self.leaders.items()]

    def clean_winner(self):
        winner = self.leaders[self.cleaned_data["winner"]]
        if self.decided is not None and winner.pk == self.decided.pk:
            raise forms.ValidationError(
                _("The tie is already settled for %(name)s: choose another player to change it."),
                params={"name": winner.name},
            )
        return winner

    def service_kwargs(self):
        return {
            "winner": self.cleaned_data["winner"],
            "reason": self.cleaned_data["reason"],
            "based_on_settlement": self.cleaned_data["settlement"],
        }


class RedrawForm(forms.Form):
    """`draws.redraw_level(level=..., actor=..., **form.service_kwargs())`.

    The id of the draw the page showed travels with it (hidden, `initial={"draw": ...}`),
    so that the service refuses to redo a draw that was redone meanwhile.
    """

    reason = _reason_field(Draw)
    draw = WholeNumberField(
        min_value=1,
        max_value=MAX_ID,
        label=_("Draw"),
        widget=forms.HiddenInput,
        message=_("This form is out of date: reload the page and send it again."),
    )

    def service_kwargs(self):
        return {"reason": self.cleaned_data["reason"], "based_on_draw": self.cleaned_data["draw"]}


class ImportForm(forms.Form):
    """A JSON backup to restore: at most 20 MB, UTF-8 JSON.

    `backup.import_tournament(form.data_from_file(), actor=...)`.
    """

    backup = forms.FileField(
        label=_("Backup file (JSON)"),
        widget=forms.FileInput(attrs={"accept": ".json,application/json"}),
        error_messages={
            "required": _("Choose the backup file to import."),
            "missing": _("Choose the backup file to import."),
            "invalid": _("Choose the backup file to import."),
            "empty": _("The backup file is empty."),
        },
    )

    def clean_backup(self):
        """Size, encoding, nesting and JSON checked by the import's own parser."""
        upload = self.cleaned_data["backup"]
        if upload.size > MAX_BACKUP_BYTES:  # refused before reading it into memory
            raise ValidationError(str(too_large(upload.size)), code="too_large")
        upload.seek(0)
        try:
            self.backup_data = parse_backup(upload.read())
        except InvalidEntry as exc:
            raise ValidationError(str(exc), code="backup") from None
        return upload

    def data_from_file(self):
        """The backup's content, parsed (after is_valid())."""
        return self.backup_data


class AuditFilterForm(forms.Form):
    """The audit log's filters, sent with GET: a table, a player, a kind of action.

    `audit_entries(tournament, **form.selector_kwargs())` (after is_valid()).
    """

    KINDS = (
        ("hand", _("Hands and corrections")),
        ("penalty", _("Penalties")),
        ("draw", _("Draws")),
        ("tie", _("Tie settlements")),
        ("player", _("Players")),
        ("tournament", _("Tournament")),
        ("table", _("Calls and revisor access")),
    )

    table = forms.ChoiceField(
        label=_("Table"), required=False, error_messages=choice_messages(_("Table"))
    )
    player = forms.ChoiceField(
        label=_("Player"), required=False, error_messages=choice_messages(_("Player"))
    )
    kind = forms.ChoiceField(
        label=_("Kind"),
        required=False,
        choices=[("", _("Every kind")), *KINDS],
        error_messages=choice_messages(_("Kind")),
    )

    def __init__(self, *args, tournament, tables, **kwargs):
        """`tables`: (level number, table number) pairs, e.g. `audit_tables()`."""
        super().__init__(*args, **kwargs)
        self.fields["table"].choices = [
            ("", _("Every table")),
            *(
                (
                    f"{level}-{number}",
                    lazy_format(_("Level %(level)s, table %(table)s"), level=level, table=number),
                )
                for level, number in tables
            ),
        ]
        players = sorted(
            Player.objects.filter(tournament=tournament), key=lambda p: swedish_sort_key(p.name)
        )
        self.players = {str(p.pk): p for p in players}
        self.fields["player"].choices = [
            ("", _("Every player")),
            *((key, p.name) for key, p in self.players.items()),
        ]

    def clean_table(self):
        value = self.cleaned_data["table"]
        if not value:
            return None
        level, number = value.split("-")
        return int(level), int(number)

    def clean_player(self):
        value = self.cleaned_data["player"]
        return self.players[value] if value else None

    def selector_kwargs(self):
        return {name: self.cleaned_data[name] or None for name in ("table", "player", "kind")}


class PlayerSearchForm(forms.Form):
    """The "Where do I sit?" form of the public pages, sent with GET: a few letters of a name.

    Accents are optional (`tournament.lib.search`); `public_find(tournament,
    form.cleaned_data["q"])` after is_valid().
    """

    q = forms.CharField(
        label=_("Your name, or a few letters of it"),
        max_length=Player._meta.get_field("name").max_length,
        strip=True,
        error_messages={
            "required": _("Type a few letters of your name."),
            "max_length": _("A name is at most %(limit_value)d characters."),
        },
    )
