"""The players' forms: "Where do I sit?" (a few letters of a name) and checking
themselves in at the door."""

import uuid
from collections.abc import Iterable
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.forms.fields import STALE_FORM
from tournament.models import Player


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


class SelfCheckInForm(forms.Form):
    """A player checking himself in on his phone (public check-in page): which of the
    names found is his, and the check-in code shown at the door. `players`: the players
    who may check in (registered, not withdrawn); the page lists only those found."""

    player = forms.TypedChoiceField(
        label=_("This is me"),
        coerce=int,
        error_messages={
            "required": _("Choose your name in the list."),
            "invalid_choice": _("Choose your name in the list."),
        },
    )
    code = forms.CharField(
        label=_("Check-in code (on the sign at the door)"),
        max_length=20,
        strip=True,
        error_messages={
            "required": _("Type the check-in code shown at the door."),
            "max_length": _("Type the check-in code shown at the door."),
        },
    )
    submission_key = forms.UUIDField(
        widget=forms.HiddenInput,
        error_messages={"required": STALE_FORM, "invalid": STALE_FORM},
    )

    def __init__(self, *args: Any, players: Iterable[Player] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choice = self.fields["player"]
        assert isinstance(choice, forms.TypedChoiceField)
        choice.choices = [(player.pk, player.name) for player in players]
        self.fields["code"].widget.attrs.update(
            {"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
        )
        if not self.is_bound:
            self.initial.setdefault("submission_key", uuid.uuid4())
