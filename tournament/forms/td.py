"""The TD's forms: tournaments, players, draws, penalties, ties, backups, the audit log's
filter and announcements.
"""

import datetime
import uuid
from collections.abc import Iterable
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from tournament.backups.schema import parse_backup, too_large
from tournament.errors import InvalidEntry, ServiceError
from tournament.forms.fields import (
    MAX_BACKUP_BYTES,
    MAX_ID,
    MAX_LIST_LINES,
    STALE_FORM,
    NameField,
    OnceForm,
    TextField,
    WholeNumberField,
    checked,
    choice_field,
    choice_messages,
    lazy_format,
    max_length,
    model_choice_field,
    reason_field,
    verbose_label,
)
from tournament.lib.text import swedish_sort_key
from tournament.models import (
    Announcement,
    Draw,
    Penalty,
    Player,
    RegisterEntry,
    Seat,
    Table,
    TieSettlement,
    Tournament,
)
from tournament.rules.names import (
    Known,
    Line,
    Taken,
    alike_question,
    already_registered,
    check_shown,
    clean_name,
    compare_list,
)
from tournament.rules.validation import MAX_SMALL_NUMBER
from tournament.selectors.register import Person, standing_register_entry, suggestions
from tournament.services.registration import MIN_HANDS_RANGE, taken_names

# ---------------------------------------------------------------- helpers


# ---------------------------------------------------------------- fields


# ---------------------------------------------------------------- tournament and players


def _tournament_name_field() -> NameField:
    return NameField(
        max_length=max_length(Tournament, "name"), label=verbose_label(Tournament, "name")
    )


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
        label=verbose_label(Tournament, "min_hands"),
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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("entry_mode", "royalties", "scoring_method", "fantasyland_repeat"):
            field = self.fields[name]
            field.error_messages.update(choice_messages(field.label))

    def values(self) -> dict[str, Any]:
        """The settings as the registration services take them (after is_valid())."""
        return {name: self.cleaned_data[name] for name in self.Meta.fields}


class ConfirmNamesField(forms.MultipleChoiceField):
    """A checkbox for each lookalike name a form asks about: ticked, "they are two players".

    The names asked about are known only once what was typed is read, so any name sent
    is taken here; the form sets the choices it shows (one per question).
    """

    widget = forms.CheckboxSelectMultiple

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, choices=(), **kwargs)

    def valid_value(self, value: object) -> bool:
        return True


def _name_field() -> NameField:
    return NameField(
        max_length=max_length(Player, "name"),
        label=verbose_label(Player, "name"),
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

    def __init__(self, *args: Any, tournament: Tournament | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.alike: Known | None = None  # the registered name the one typed looks like

    def taken(self) -> Taken:
        return taken_names(self.tournament) if self.tournament is not None else Taken()

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        taken = self.taken()
        same = taken.same(name)
        if same is not None:
            raise ValidationError(already_registered(name, same), code="taken")
        self.alike = taken.alike(name)
        return name

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if self.alike is not None:
            name = cleaned["name"]
            choice_field(self, "confirm").choices = [
                (name, lazy_format(self.confirm_label, name=name))
            ]
            if not self.confirmed():
                self.add_error(
                    "name", ValidationError(alike_question(name, self.alike), code="lookalike")
                )
        return cleaned

    def confirmed(self) -> bool:
        """The TD ticked "another player" for the lookalike name typed."""
        name = self.cleaned_data.get("name")
        return self.alike is not None and name in self.cleaned_data.get("confirm", ())

    def service_kwargs(self) -> dict[str, Any]:
        return {"name": self.cleaned_data["name"], "lookalike_confirmed": self.confirmed()}


class AddPlayerForm(PlayerForm):
    """A new player: a name, and who he is in the register of players (docs/register.md).

    The players of earlier tournaments whose name is like the one typed (`suggested`) are
    offered as choices of `earlier`: one of them (his entry's id: the new player is that
    person, under the name the register has), or NEW_PERSON. The same offer is shown while
    the TD types (htmx, `td:register_suggestions`); a name the register has players like,
    sent without a choice, is asked about, so a regular is picked, not made twice.
    """

    NEW_PERSON = "new"
    earlier = forms.CharField(required=False, label=_("Played here before?"))

    def __init__(self, *args: Any, suggestions_url: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.suggested: list[Person] = []
        self.picked: RegisterEntry | None = None
        if suggestions_url:
            # As the TD types, the earlier players like the name replace the offer.
            self.fields["name"].widget.attrs.update(
                {
                    "hx-get": suggestions_url,
                    "hx-trigger": "input changed delay:300ms, search",
                    "hx-target": "#earlier-players",
                    "hx-swap": "innerHTML",
                    "aria-controls": "earlier-players",
                }
            )

    def _picked_entry(self) -> RegisterEntry | None:
        chosen = str(self.data.get(self.add_prefix("earlier"), "")).strip()
        if not chosen.isdigit() or len(chosen) > 18:
            return None
        return standing_register_entry(int(chosen))

    def clean_name(self) -> str:
        self.picked = self._picked_entry()
        if self.picked is not None:
            # Picked from the register: registered under the name the register has.
            self.cleaned_data["name"] = self.picked.name
        return super().clean_name()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        chosen = str(cleaned.get("earlier") or "")
        name = cleaned.get("name")
        if self.tournament is not None and name and self.picked is None:
            self.suggested = suggestions(self.tournament, name)
        if chosen and chosen != self.NEW_PERSON and self.picked is None:
            self.add_error(
                "earlier",
                ValidationError(
                    _("That earlier player is no longer in the register: choose again."),
                    code="gone",
                ),
            )
        elif not chosen and self.suggested:
            self.add_error(
                "earlier",
                ValidationError(
                    _(
                        "Players of earlier tournaments have a name like this: choose the "
                        "one this is, or “A new player”."
                    ),
                    code="choose",
                ),
            )
        return cleaned

    def service_kwargs(self) -> dict[str, Any]:
        return {**super().service_kwargs(), "register_entry": self.picked}


class RenamePlayerForm(PlayerForm):
    """A new name for `player`: the same rules, and no other player of his may have it."""

    confirm_label = _("Yes, another player: rename to %(name)s")

    def __init__(self, *args: Any, player: Player, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {"name": player.name})
        super().__init__(*args, tournament=player.tournament, **kwargs)
        self.player = player

    def taken(self) -> Taken:
        assert self.tournament is not None  # the player's own
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

    def __init__(self, *args: Any, tournament: Tournament | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.asked: list[Line] = []  # names.Line of each lookalike asked about
        self.lines_to_check = 0

    def _confirmations(self) -> set[str]:
        # Read before the checkboxes' own cleaning: the lines' questions depend on them.
        return set(self["confirm_names"].value() or ())

    def clean_names(self) -> list[str]:
        raw = self.cleaned_data.get("names") or ""
        lines = raw.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        if len(lines) > MAX_LIST_LINES:
            raise ValidationError(
                _("The list has %(count)d lines; at most %(max)d can be entered at once."),
                code="too_long",
                params={"count": len(lines), "max": MAX_LIST_LINES},
            )
        limit = max_length(Player, "name")
        errors: list[tuple[int | None, ValidationError]] = []
        entries: list[tuple[str, int | None]] = []
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                label = str(lazy_format(_("Line %(line)d"), line=number))
                entries.append((checked(clean_name, line, label=label, max_length=limit), number))
            except ValidationError as error:
                errors.append((number, error))
        taken = taken_names(self.tournament) if self.tournament is not None else Taken()
        confirmed = self._confirmations()
        self.asked = [line for line in compare_list(entries, taken) if line.alike is not None]
        choice_field(self, "confirm_names").choices = [
            (line.name, lazy_format(_CONFIRM_LINE, line=line.line, name=line.name))
            for line in self.asked
        ]
        for line in self.asked:
            if line.name not in confirmed and line.alike is not None:  # all asked are alike
                question = alike_question(line.name, line.alike)
                message = lazy_format(
                    _("Line %(line)d: %(question)s"), line=line.line, question=question
                )
                errors.append((line.line, ValidationError(message, code="lookalike")))
        if errors:
            self.lines_to_check = len(errors)  # the summary counts them; each is shown once
            raise ValidationError(
                [error for _line, error in sorted(errors, key=lambda e: e[0] or 0)]
            )
        if not entries:
            raise ValidationError(_("Enter at least one name."), code="required")
        return [name for name, _line in entries]

    def service_kwargs(self) -> dict[str, Any]:
        asked = {line.name for line in self.asked}
        return {
            "names": self.cleaned_data["names"],
            "confirmed": sorted(asked & set(self.cleaned_data["confirm_names"])),
        }


# ---------------------------------------------------------------- hands


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

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        model_choice_field(self, "player").queryset = Player.objects.filter(
            tournament=tournament, withdrawn_at__isnull=True, disqualified=False
        ).order_by(Lower("name"), "number")

    def service_kwargs(self) -> dict[str, Any]:
        return {
            "tournament": self.tournament,
            **{name: self.cleaned_data[name] for name in ("player", "kind", "note")},
        }


class RescindForm(forms.Form):
    """`penalties.rescind_penalty(penalty=..., actor=..., **form.service_kwargs())`."""

    reason = reason_field(Penalty, "rescind_reason")

    def service_kwargs(self) -> dict[str, Any]:
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
    reason = reason_field(TieSettlement)
    settlement = WholeNumberField(
        required=False,
        min_value=1,
        max_value=MAX_ID,
        label=_("Decision on the tie"),
        widget=forms.HiddenInput,
        message=_("This form is out of date: reload the page and send it again."),
    )

    def __init__(
        self,
        *args: Any,
        leaders: Iterable[Player | Seat],
        settlement: TieSettlement | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        players = [leader.player if isinstance(leader, Seat) else leader for leader in leaders]
        self.leaders = {str(player.pk): player for player in players}
        self.decided = settlement.winner if settlement is not None else None
        if not self.is_bound:
            self.initial.setdefault("settlement", settlement.pk if settlement else None)
        choice_field(self, "winner").choices = [(key, p.name) for key, p in self.leaders.items()]

    def clean_winner(self) -> Player:
        winner = self.leaders[self.cleaned_data["winner"]]
        if self.decided is not None and winner.pk == self.decided.pk:
            raise forms.ValidationError(
                _("The tie is already settled for %(name)s: choose another player to change it."),
                params={"name": winner.name},
            )
        return winner

    def service_kwargs(self) -> dict[str, Any]:
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

    reason = reason_field(Draw)
    draw = WholeNumberField(
        min_value=1,
        max_value=MAX_ID,
        label=_("Draw"),
        widget=forms.HiddenInput,
        message=_("This form is out of date: reload the page and send it again."),
    )

    def service_kwargs(self) -> dict[str, Any]:
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

    def clean_backup(self) -> UploadedFile:
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

    def data_from_file(self) -> Any:
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

    def __init__(
        self,
        *args: Any,
        tournament: Tournament,
        tables: Iterable[tuple[int, int]],
        **kwargs: Any,
    ) -> None:
        """`tables`: (level number, table number) pairs, e.g. `audit_tables()`."""
        super().__init__(*args, **kwargs)
        choice_field(self, "table").choices = [
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
        choice_field(self, "player").choices = [
            ("", _("Every player")),
            *((key, p.name) for key, p in self.players.items()),
        ]

    def clean_table(self) -> tuple[int, int] | None:
        value = self.cleaned_data["table"]
        if not value:
            return None
        level, number = value.split("-")
        return int(level), int(number)

    def clean_player(self) -> Player | None:
        value = self.cleaned_data["player"]
        return self.players[value] if value else None

    def selector_kwargs(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] or None for name in ("table", "player", "kind")}


MAX_MINUTES = 24 * 60
UNTIL_LABEL = gettext_lazy("Or until (time of day)")


class AnnouncementForm(forms.Form):
    """The message and, at most one of, how many minutes it shows or until what time today.

    Kept beside its view: the one page that uses it."""

    # The app's own fields and messages, each naming its field ("Message must not be
    # empty.", "Show for (minutes) must be from 1 to 1440, not 0."), not Django's stock ones.
    text = TextField(
        label=gettext_lazy("Message"),
        max_length=max_length(Announcement, "text"),
        widget=forms.Textarea(attrs={"rows": 2, "maxlength": max_length(Announcement, "text")}),
        help_text=gettext_lazy("At most 200 characters, in any language."),
    )
    minutes = WholeNumberField(
        label=gettext_lazy("Show for (minutes)"),
        required=False,
        min_value=1,
        max_value=MAX_MINUTES,
        help_text=gettext_lazy("Leave both end fields empty to show it until you withdraw it."),
    )
    until = forms.TimeField(
        label=UNTIL_LABEL,
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        error_messages={
            "invalid": lazy_format(
                gettext_lazy("%(label)s: type a time of day, such as 21:30."), label=UNTIL_LABEL
            )
        },
    )

    def __init__(self, *args: Any, now: datetime.datetime | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.now = now or timezone.now()
        for name, field in self.fields.items():
            if field.help_text:
                field.widget.attrs["aria-describedby"] = f"{self[name].auto_id}_helptext"

    def clean_text(self) -> str:
        # The field has cleaned the text as the service keeps it (validation.clean_text).
        try:
            return check_shown(self.cleaned_data["text"], label=_("The message"))
        except ServiceError as error:
            raise forms.ValidationError(str(error)) from None

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        minutes, until = data.get("minutes"), data.get("until")
        if minutes is not None and until is not None:
            self.add_error("until", _("Give either the minutes or the time of day, not both."))
        elif minutes is not None:
            data["ends_at"] = self.now + datetime.timedelta(minutes=minutes)
        elif until is not None:
            today = timezone.localtime(self.now).date()
            ends_at = timezone.make_aware(datetime.datetime.combine(today, until))
            if ends_at <= self.now:
                self.add_error(
                    "until",
                    _("%(time)s has passed already today: give a later time.")
                    % {"time": until.strftime("%H:%M")},
                )
            data["ends_at"] = ends_at
        else:
            data["ends_at"] = None
        return data

    def service_kwargs(self) -> dict[str, Any]:
        """`announcements.announce(tournament=..., actor=..., **form.service_kwargs())`."""
        return {"text": self.cleaned_data["text"], "ends_at": self.cleaned_data["ends_at"]}


class DrawForm(OnceForm):
    """Draw the first level: the one-time key, and whether to withdraw the players not
    checked in (the TD's answer to the draw's question, services/checkin.py)."""

    withdraw_absent = forms.BooleanField(required=False)

    def service_kwargs(self) -> dict[str, Any]:
        """`draws.draw_first_level(tournament=..., actor=..., **form.service_kwargs())`."""
        return {
            "withdraw_absent": self.cleaned_data["withdraw_absent"],
            "key": self.cleaned_data["submission_key"],
        }


class RedrawLevelForm(RedrawForm, OnceForm):
    """Redo a level's draw, with a reason: `draws.redraw_level(**form.service_kwargs())`."""


class ReleaseForm(OnceForm):
    """Show a held draw to the room: nothing to type, only the one-time key."""


class AdvanceForm(OnceForm):
    """Close the current level and draw the next: the one-time key, and the level the
    confirmation page showed (so that a page left open never closes the next level)."""

    level = WholeNumberField(
        widget=forms.HiddenInput,
        min_value=1,
        max_value=MAX_SMALL_NUMBER,
        message=STALE_FORM,
    )
    # Only on a page that shows the room's announcement: the TD's answer to whether closing
    # takes it down. Not asked (no announcement then), the service's own rule stands.
    announcement_asked = forms.BooleanField(widget=forms.HiddenInput, required=False)
    withdraw_announcement = forms.BooleanField(required=False)

    @classmethod
    def to_close(cls, level: int, *, finishes: bool, announced: bool) -> "AdvanceForm":
        """The confirmation's form for closing level `level`. Whether closing takes the
        room's announcement down is asked only when one is shown (`announced`): at the end
        (`finishes`) it goes by default (a finished tournament's pages keep no "until
        withdrawn"), at a level change it stays."""
        return cls(
            initial={
                "level": level,
                "announcement_asked": announced,
                "withdraw_announcement": announced and finishes,
            }
        )

    def announcement_choice(self) -> bool | None:
        """True or False as the TD answered; None when the page did not ask."""
        if not self.cleaned_data.get("announcement_asked"):
            return None
        return self.cleaned_data["withdraw_announcement"]

    def service_kwargs(self) -> dict[str, Any]:
        """`draws.advance(tournament=..., actor=..., **form.service_kwargs())`."""
        return {
            "level_number": self.cleaned_data["level"],
            "withdraw_announcement": self.announcement_choice(),
            "key": self.cleaned_data["submission_key"],
        }


class ImportBackupForm(OnceForm, ImportForm):
    """The import page: a backup file, imported once however often the form is sent."""

    def renew_damaged_key(self) -> None:
        """A form refused for its key (missing or damaged) is shown again with a fresh one:
        the next try can be imported."""
        if "submission_key" in self.errors:
            self.data = {**self.data, "submission_key": str(uuid.uuid4())}

    def tournament_name(self) -> str | None:
        """The name of the tournament in the backup's settings (after is_valid()), if any."""
        data = self.data_from_file()
        settings = data.get("settings") if isinstance(data, dict) else None
        name = settings.get("name") if isinstance(settings, dict) else None
        return name if isinstance(name, str) else None


class TablePenaltyForm(OnceForm, PenaltyForm):
    """A penalty for one of this table's players still in, listed in seat order."""

    def __init__(self, *args: Any, table: Table, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "penalty_%s")  # unique ids beside the page's other forms
        super().__init__(*args, **kwargs)
        model_choice_field(self, "player").queryset = Player.objects.filter(
            tournament=self.tournament,
            seats__table=table,
            seats__left_after_hand__isnull=True,
            withdrawn_at__isnull=True,
            disqualified=False,
        ).order_by("seats__position")

    def call_id(self) -> int | None:
        """The revisor's call the penalty is given from (the dashboard's timeout call), or
        None (sent by the confirmation page, `call`; anything but an id is none)."""
        value = self.data.get("call", "")
        if isinstance(value, str) and value.isdigit() and len(value) <= 18:
            return int(value)
        return None


class TieOnceForm(OnceForm, TieForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "tie_%s")
        super().__init__(*args, **kwargs)


class RescindOnceForm(OnceForm, RescindForm):
    pass


class SelfCheckInForm(OnceForm):
    """The players page's self check-in buttons: open, close, or a new code."""

    change = forms.ChoiceField(choices=[("open", "open"), ("close", "close"), ("renew", "renew")])
