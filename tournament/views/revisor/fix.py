"""The revisor fixes the last hand, until the next hand is recorded (then only the TD can)."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournament.forms import CorrectCardsForm, CorrectPointsForm
from tournament.models import Hand, HandVersion
from tournament.services import ServiceError, hands
from tournament.views.revisor.binding import revisor_required
from tournament.views.revisor.card import label
from tournament.views.td.common import add_service_error

TEMPLATE = "tournament/revisor/fix.html"


def _last_hand(table):
    """The table's last hand with its current version and results, or None."""
    hand = Hand.objects.filter(table=table, number=table.hands_played).first()
    if hand is None:
        return None, None, []
    version = HandVersion.objects.current().get(hand=hand)
    results = list(version.results.select_related("seat__player").order_by("seat__position"))
    return hand, version, results


def _initial(version, results):
    initial = {"hand_number": version.hand.number}
    for result in results:
        position = result.seat.position
        if version.mode == HandVersion.Mode.CARDS:
            for row in ("front", "middle", "back"):
                initial[f"{row}_{position}"] = getattr(result, row)
        else:
            initial[f"points_{position}"] = result.points
            initial[f"fantasyland_{position}"] = result.fantasyland_next
    return initial


@revisor_required
def fix(request):
    table = request.revisor_table
    hand, version, results = _last_hand(table)
    if hand is None:
        messages.info(request, _("No hand is recorded yet at this table."))
        return redirect("revisor:card")
    if table.is_over:
        # The score card has gone to the TD: a change now could change who advances.
        messages.error(request, _("The table is over: only the TD can correct its hands now."))
        return redirect("revisor:card")
    form_class = CorrectCardsForm if version.mode == HandVersion.Mode.CARDS else CorrectPointsForm
    seats = [result.seat for result in results]
    status = 200
    if request.method == "POST":
        form = form_class(request.POST, seats=seats)
        if form.is_valid() and form.cleaned_data["hand_number"] != hand.number:
            form.add_error(
                None,
                _("Hand %(hand)d is no longer the last hand: only the TD can correct it now.")
                % {"hand": form.cleaned_data["hand_number"]},
            )
        elif form.is_valid():
            try:
                hands.correct_hand(
                    hand=hand,
                    actor=None,
                    actor_label=label(table),
                    only_if_last=True,
                    **form.service_kwargs(),
                )
            except ServiceError as error:
                add_service_error(form, error)
            else:
                messages.success(request, _("Hand %(hand)d corrected.") % {"hand": hand.number})
                return redirect("revisor:card")
        status = 400
    else:
        form = form_class(initial=_initial(version, results), seats=seats)
    return render(
        request,
        TEMPLATE,
        {"form": form, "hand": hand, "version": version, "table": table},
        status=status,
    )
