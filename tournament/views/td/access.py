"""TD pages: a table's revisor access (link, QR code, short code, regenerate) and table cards."""

from collections.abc import Sequence

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.errors import ServiceError
from tournament.forms.fields import OnceForm
from tournament.models import Table, Tournament
from tournament.selectors.draws import level_with_held
from tournament.selectors.tables import (
    dealer_order,
    level_tables,
    table_seats,
    tables_without_links,
)
from tournament.services import revisor_access
from tournament.services.idempotency import AlreadyDone
from tournament.views.access import post_only, td_required
from tournament.views.td.common import get_level, get_table, get_tournament
from tournament.views.td.draws import held_print
from tournament.web.public_address import address_warning, public_link
from tournament.web.qr import qr_svg

# Blank rows on the paper score card after the minimum hands: one per Fantasyland
# extension (or tie hand); six cover all but the rarest tables.
EXTRA_ROWS = 6

# How tall the printed score card's rows are, by how many there are, so that a card stays
# one A4 page: 5.8 mm rows fit 26 (20 hands and the extra six) below the card's head;
# shorter rows fit up to 37 (31 hands). A longer card goes on over a second page, its
# column heads repeated (td-cards.css).
ROW_HEIGHTS = ((26, "rows-normal"), (31, "rows-dense"))
SHORTEST_ROWS = "rows-denser"


def row_height_class(rows: int) -> str:
    """The score grid's class for `rows` blank rows (see ROW_HEIGHTS)."""
    return next((name for most, name in ROW_HEIGHTS if rows <= most), SHORTEST_ROWS)


def access_details(request: HttpRequest, table: Table) -> dict[str, str] | None:
    """What a revisor needs to reach `table`: link, QR code, short code and where to type it.

    None while the table has no access (a table restored from a backup gets one when
    the TD creates it).
    """
    if not table.revisor_key or not table.revisor_code:
        return None
    link = public_link(request, reverse("revisor:link", args=[table.revisor_key]))
    return {
        "link": link,
        "code": table.revisor_code,
        "code_address": public_link(request, reverse("revisor:code")),
        "qr": qr_svg(
            link,
            title=_("QR code of the revisor link for table %(number)s") % {"number": table.number},
        ),
    }


def _access_page(
    request: HttpRequest,
    tournament: Tournament,
    table: Table,
    form: OnceForm,
    errors: Sequence[str] = (),
    status: int = 200,
) -> HttpResponse:
    return render(
        request,
        "tournament/td/access/table_access.html",
        {
            "tournament": tournament,
            "table": table,
            "seats": table_seats(table),
            "access": access_details(request, table),
            "current": table.draw.superseded_at is None,
            "form": form,
            "errors": errors,
            **address_warning(request),
        },
        status=status,
    )


@td_required
def table_access(request: HttpRequest, tournament_id: int, table_id: int) -> HttpResponse:
    tournament = get_tournament(tournament_id)
    table = get_table(tournament, table_id)
    return _access_page(request, tournament, table, OnceForm())


def _access_url(tournament_id: int, table_id: int) -> str:
    table = get_table(get_tournament(tournament_id), table_id)
    return reverse("td:table_access", args=[tournament_id, table.pk])


@td_required
@post_only(_access_url)
def table_access_regenerate(
    request: HttpRequest, tournament_id: int, table_id: int
) -> HttpResponse:
    tournament = get_tournament(tournament_id)
    table = get_table(tournament, table_id)
    form = OnceForm(request.POST)
    if not form.is_valid():
        stale = _("The form was out of date: nothing was changed. Try again.")
        return _access_page(request, tournament, table, OnceForm(), errors=[stale], status=400)
    had_access = bool(table.revisor_key)
    try:
        revisor_access.regenerate_revisor_access(
            table=table, actor=request.user, key=form.cleaned_data["submission_key"]
        )
    except AlreadyDone:
        pass
    except ServiceError as error:
        return _access_page(request, tournament, table, form, errors=[str(error)], status=400)
    else:
        if had_access:
            message = _(
                "Table %(number)s has a new revisor link and code: devices holding the old "
                "ones are cut off."
            )
        else:
            message = _("Table %(number)s has a revisor link and code.")
        messages.success(request, message % {"number": table.number})
    return redirect("td:table_access", tournament.pk, table.pk)


def _table_card(request: HttpRequest, tournament: Tournament, table: Table) -> dict[str, object]:
    """One table's printed card: its seats, the deal's order, its access and blank rows."""
    return {
        "table": table,
        "seats": list(table.seats.all()),
        "dealers": dealer_order(table),
        "access": access_details(request, table),
        "rows": range(1, tournament.min_hands + 1),
        "extra_rows": range(EXTRA_ROWS),
        "row_height": row_height_class(tournament.min_hands + EXTRA_ROWS),
    }


@td_required
def table_cards(request: HttpRequest, tournament_id: int, level: int) -> HttpResponse:
    tournament = get_tournament(tournament_id)
    level_obj = level_with_held(tournament, level)
    if level_obj is None:
        raise Http404("No such level in this tournament.")
    # The cards name the seated players: not before the release (§5). `held` is annotated
    # by level_with_held's query, which the model's type does not know.
    if level_obj.held:  # type: ignore[attr-defined]
        return held_print(request, tournament, level_obj, "cards")
    tables = level_tables(level_obj)
    cards = [_table_card(request, tournament, table) for table in tables]
    return render(
        request,
        "tournament/td/access/table_cards.html",
        {
            "tournament": tournament,
            "level": level_obj,
            # Tables with no revisor link: one button gives them all one.
            "missing_links": tables_without_links(level_obj, tables),
            "links_form": OnceForm(),
            "cards": cards,
            **address_warning(request),
        },
    )


def _cards_url(tournament_id: int, level: int) -> str:
    tournament = get_tournament(tournament_id)
    return reverse("td:table_cards", args=[tournament.pk, get_level(tournament, level).number])


@td_required
@post_only(_cards_url)
def give_missing_links(request: HttpRequest, tournament_id: int, level: int) -> HttpResponse:
    """A revisor link and code for every table of the level that has none (a restore)."""
    tournament = get_tournament(tournament_id)
    level_obj = get_level(tournament, level)
    form = OnceForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The form was out of date: nothing was changed. Try again."))
        return redirect("td:table_cards", tournament.pk, level)
    try:
        given = revisor_access.give_missing_revisor_access(
            level=level_obj, actor=request.user, key=form.cleaned_data["submission_key"]
        )
    except AlreadyDone:
        given = None
    except ServiceError as error:
        messages.error(request, str(error))
        return redirect("td:table_cards", tournament.pk, level)
    if given:
        messages.success(
            request,
            ngettext(
                "Table %(tables)s has a revisor link and code: print its card again.",
                "Tables %(tables)s have a revisor link and code: print their cards again.",
                len(given),
            )
            % {"tables": ", ".join(map(str, given))},
        )
    return redirect("td:table_cards", tournament.pk, level)
