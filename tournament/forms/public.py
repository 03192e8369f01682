"""The players' one form: "Where do I sit?", a few letters of a name."""

from django import forms
from django.utils.translation import gettext_lazy as _

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
