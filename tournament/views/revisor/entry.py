"""Getting to the card: the private link, or the short code typed at /r/."""

from datetime import timedelta

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.security import client_ip
from tournament.models import REVISOR_CODE_ALPHABET, RevisorCodeAttempt, Table
from tournament.views.revisor.binding import bind, current_binding

# Wrong short codes per client before a pause: a guess has 1 chance in 887 million.
CODE_ATTEMPTS = 10
CODE_WINDOW = timedelta(minutes=15)


class ShortCodeForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Table code"),
        max_length=20,
        help_text=gettext_lazy("The 6 letters and digits on your table's card."),
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
        ),
    )

    def clean_code(self):
        code = "".join(self.cleaned_data["code"].split()).upper().replace("-", "")
        return code


def _table_in_play(**lookup):
    return (
        Table.objects.select_related("level", "draw")
        .filter(draw__superseded_at__isnull=True, level__closed_at__isnull=True, **lookup)
        .first()
    )


def _too_many_attempts(client):
    since = timezone.now() - CODE_WINDOW
    return RevisorCodeAttempt.objects.filter(client=client, at__gte=since).count() >= CODE_ATTEMPTS


def code(request):
    """Type the short code (or see why this device was cut off)."""
    client = client_ip(request)[:64]
    status = 200
    form = ShortCodeForm(request.POST or None)
    if request.method == "POST":
        if _too_many_attempts(client):
            form.add_error(
                None,
                _(
                    "Too many wrong codes from this device. Wait %(minutes)d minutes, or scan "
                    "the QR code on the table card."
                )
                % {"minutes": CODE_WINDOW.seconds // 60},
            )
            status = 429
        elif form.is_valid():
            table = _table_in_play(revisor_code=form.cleaned_data["code"])
            if table is not None:
                bind(request, table)
                return redirect("revisor:card")
            RevisorCodeAttempt.objects.create(client=client)
            form.add_error(
                "code", _("No table in play has this code. Check the card and try again.")
            )
            status = 400
        else:
            status = 400
    binding = current_binding(request)
    return render(
        request,
        "tournament/revisor/code.html",
        {"form": form, "bound_table": binding.table, "alphabet": REVISOR_CODE_ALPHABET},
        status=status,
    )


def link(request, key):
    """The private link from the QR code: bind this device to its table."""
    table = _table_in_play(revisor_key=key)
    if table is None:
        messages.error(
            request,
            _(
                "This link is not valid (any more): the TD may have issued a new one, or the "
                "draw was redone. Scan the QR code on your table's card."
            ),
        )
        return redirect("revisor:code")
    bind(request, table)
    return redirect("revisor:card")
