"""The TD's announcement to the room: write one (with an optional end), see the one standing,
withdraw it. The players' pages and the projectors show it at their next poll."""

import datetime

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.errors import ServiceError
from tournament.forms import TextField, WholeNumberField, lazy_format
from tournament.rules.names import check_shown
from tournament.services import announcements
from tournament.views.access import post_only, td_required
from tournament.views.once import ALREADY_DONE, OnceForm, already_submitted, submit_once
from tournament.views.refusals import add_service_error
from tournament.views.td.common import get_tournament
from tournament.views.td.tournaments import already_done, stale_form_message

TEMPLATE = "tournament/td/announcements/announcement.html"
MAX_MINUTES = 24 * 60
UNTIL_LABEL = gettext_lazy("Or until (time of day)")


class AnnouncementForm(forms.Form):
    """The message and, at most one of, how many minutes it shows or until what time today.

    Kept beside its view: the one page that uses it."""

    # The app's own fields and messages, each naming its field ("Message must not be
    # empty.", "Show for (minutes) must be from 1 to 1440, not 0."), not Django's stock ones.
    text = TextField(
        label=gettext_lazy("Message"),
        max_length=announcements.TEXT_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2, "maxlength": announcements.TEXT_LENGTH}),
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

    def __init__(self, *args, now=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.now = now or timezone.now()
        for name, field in self.fields.items():
            if field.help_text:
                field.widget.attrs["aria-describedby"] = f"{self[name].auto_id}_helptext"

    def clean_text(self):
        # The field has cleaned the text as the service keeps it (validation.clean_text).
        try:
            return check_shown(self.cleaned_data["text"], label=_("The message"))
        except ServiceError as error:
            raise forms.ValidationError(str(error)) from None

    def clean(self):
        data = super().clean()
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


def _page(request, tournament, form, once, *, status=200):
    context = {
        "tournament": tournament,
        "form": form,
        "once": once,
        "withdraw_once": OnceForm(prefix="withdraw"),
    }
    return render(request, TEMPLATE, context, status=status)


def _back(tournament):
    return reverse("td:announcement", args=[tournament.pk])


@td_required
def announcement(request, tournament_id):
    """The standing announcement and the form to make a new one (which replaces it)."""
    tournament = get_tournament(tournament_id)
    if request.method != "POST":
        return _page(request, tournament, AnnouncementForm(), OnceForm())
    form = AnnouncementForm(request.POST)
    once = OnceForm(request.POST)
    if not once.is_valid():
        form.is_valid()
        form.add_error(None, stale_form_message())
        return _page(request, tournament, form, OnceForm(), status=400)
    key = once.cleaned_data["submission_key"]
    if already_submitted(request, key):
        already_done(request)
        return redirect(_back(tournament))
    if not form.is_valid():
        return _page(request, tournament, form, once, status=400)
    try:
        submit_once(
            request,
            key,
            lambda: announcements.announce(
                tournament=tournament,
                actor=request.user,
                text=form.cleaned_data["text"],
                ends_at=form.cleaned_data["ends_at"],
            ),
        )
    except ServiceError as error:
        add_service_error(form, error)
        return _page(request, tournament, form, once, status=400)
    messages.success(request, _("The announcement is up: the room sees it at its next poll."))
    return redirect(_back(tournament))


@td_required
@post_only(lambda tournament_id: _back(get_tournament(tournament_id)))
def announcement_withdraw(request, tournament_id):
    """Take the standing announcement down."""
    tournament = get_tournament(tournament_id)
    once = OnceForm(request.POST, prefix="withdraw")
    if not once.is_valid():
        messages.error(request, stale_form_message())
        return redirect(_back(tournament))
    try:
        result = submit_once(
            request,
            once.cleaned_data["submission_key"],
            lambda: announcements.withdraw_announcement(tournament=tournament, actor=request.user),
        )
    except ServiceError as error:
        messages.error(request, str(error))
        return redirect(_back(tournament))
    if result is ALREADY_DONE:
        already_done(request)
    else:
        messages.success(request, _("The announcement is withdrawn."))
    return redirect(_back(tournament))
