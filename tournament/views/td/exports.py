"""TD pages: the JSON backup as a download, import by upload, CSV of standings and of hands.

The CSV files are UTF-8 with a byte order mark, so that Excel shows Å, Ä and Ö right,
and their headers are in the TD's language. They are separated as a spreadsheet of that
language expects when it opens the file: by commas in English, by semicolons in Swedish
(where the comma is the decimal sign, and Excel splits a CSV file at semicolons). The
csv module quotes a cell that holds the separator. Every number in them is a whole
number, written plainly (-15, never 1,234 nor 1 234): it reads as a number in either
language. A text cell that a spreadsheet would read as a formula (it starts with =, +,
-, @) gets a leading apostrophe. A prize is written in the currency's units, with the
language's decimal sign when it has öre (6575,50 in Swedish, 6575.50 in English), never
grouped: a number in either language's spreadsheet.
"""

import csv
import datetime
import io
import json
import uuid
from collections.abc import Iterable, Sequence

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from tournament import backups as backup_service
from tournament.audit.sentences import actor_name
from tournament.errors import ServiceError
from tournament.forms.td import ImportBackupForm
from tournament.models import Tournament
from tournament.rules.money import amount_input
from tournament.selectors.exports import tournament_hand_results
from tournament.selectors.prizes import prized_standings
from tournament.selectors.standings import standings
from tournament.selectors.tournaments import tournament_named
from tournament.services.idempotency import AlreadyDone
from tournament.views.access import td_required
from tournament.views.refusals import add_service_error
from tournament.views.td.common import get_tournament

TEMPLATES = "tournament/td/exports/"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# The separator a spreadsheet expects in the reader's language: languages that write
# decimals with a comma (Swedish) separate a CSV file's cells with semicolons.
DELIMITERS = {"sv": ";"}


# ---------------------------------------------------------------- helpers


def file_stem(tournament: Tournament) -> str:
    """The tournament's name as a file name: its slug (or its id when nothing is left)."""
    return slugify(tournament.name) or f"tournament-{tournament.pk}"


def download(content: bytes, *, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def text_cell(value: object) -> str:
    """A text for a spreadsheet cell: never read as a formula."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def number_cell(value: int | None) -> int | str:
    return "" if value is None else value


def delimiter() -> str:
    """The cells' separator for the language the request is answered in."""
    language = (get_language() or "").split("-")[0]
    return DELIMITERS.get(language, ",")


def csv_download(
    header: Sequence[object], rows: Iterable[Sequence[object]], *, filename: str
) -> HttpResponse:
    buffer = io.StringIO()
    buffer.write("\ufeff")  # the byte order mark: Excel then reads the file as UTF-8
    writer = csv.writer(buffer, delimiter=delimiter())
    writer.writerow(header)
    writer.writerows(rows)
    return download(
        buffer.getvalue().encode("utf-8"),
        filename=filename,
        content_type="text/csv; charset=utf-8",
    )


def yes_no(value: bool | None) -> str:
    if value is None:
        return ""
    return _("yes") if value else _("no")


def local_time(value: datetime.datetime | None) -> str:
    return "" if value is None else timezone.localtime(value).strftime("%Y-%m-%d %H:%M:%S")


# ---------------------------------------------------------------- backup and import


@td_required
@require_GET
def backup(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The tournament's whole history as the JSON backup (docs/export-format.md)."""
    tournament = get_tournament(tournament_id)
    text = json.dumps(backup_service.export_tournament(tournament), ensure_ascii=False, indent=2)
    return download(
        (text + "\n").encode("utf-8"),
        filename=f"{file_stem(tournament)}-backup.json",
        content_type="application/json; charset=utf-8",
    )


def _import_page(request: HttpRequest, form: ImportBackupForm, status: int = 200) -> HttpResponse:
    return render(request, TEMPLATES + "import.html", {"form": form}, status=status)


def _imported_before(form: ImportBackupForm) -> Tournament | None:
    """The tournament a repeated submission imported the first time, if it can be found."""
    data = form.data_from_file()
    settings = data.get("settings") if isinstance(data, dict) else None
    name = settings.get("name") if isinstance(settings, dict) else None
    if not isinstance(name, str):
        return None
    return tournament_named(name)


@td_required
@require_http_methods(["GET", "POST"])
def import_backup(request: HttpRequest) -> HttpResponse:
    """Upload a backup: the import's own checks, each refusal shown on this page."""
    if request.method != "POST":
        return _import_page(request, ImportBackupForm())
    form = ImportBackupForm(request.POST, request.FILES)
    if not form.is_valid():
        if "submission_key" in form.errors:  # a damaged form: the next try gets a fresh key
            data = request.POST.copy()  # the form's data
            data["submission_key"] = str(uuid.uuid4())
            form.data = data
        return _import_page(request, form, status=400)
    tournament: Tournament | None
    try:
        tournament = backup_service.import_tournament(
            form.data_from_file(), actor=request.user, key=form.cleaned_data["submission_key"]
        )
    except AlreadyDone as repeat:
        # The tournament it imported; for a key kept before 0018, found by its name.
        first = repeat.first
        tournament = first if isinstance(first, Tournament) else _imported_before(form)
        messages.info(request, _("This backup was imported already: nothing was imported again."))
        if tournament is None:
            return redirect("td:dashboard")
    except ServiceError as error:
        add_service_error(form, error)
        return _import_page(request, form, status=400)
    else:
        messages.success(request, _("Imported “%(name)s”.") % {"name": tournament.name})
        # Set by import_tournament on the tournament it made (not a field).
        note = tournament.accounts_note  # type: ignore[attr-defined]
        if note:
            messages.info(request, note)
    return redirect("td:tournament", tournament.pk)


# ---------------------------------------------------------------- CSV


@td_required
@require_GET
def standings_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The standings (rules.md section 6) as on the standings page."""
    tournament = get_tournament(tournament_id)
    labels = {
        "champion": _("Champion"),
        "in": _("Still playing"),
        "out": _("Out"),
        "disqualified": _("Disqualified"),
    }
    header = [
        _("Rank"),
        _("Start number"),
        _("Name"),
        _("Status"),
        _("Level"),
        _("Place"),
        _("Points"),
    ]
    prized = prized_standings(tournament, standings(tournament))
    rows: list[list[object]] = [
        [
            number_cell(standing.rank),
            standing.player.number,
            text_cell(standing.player.name),
            labels[standing.status],
            number_cell(standing.level),
            number_cell(standing.place),
            number_cell(standing.points),
        ]
        for standing in prized.rows
    ]
    if prized.figures.any:  # each winner's prize, once the standings are final
        header.append(_("Prize (%(currency)s)") % {"currency": prized.figures.currency})
        for row, standing in zip(rows, prized.rows, strict=True):
            row.append("" if standing.prize is None else amount_input(standing.prize))
    return csv_download(header, rows, filename=f"{file_stem(tournament)}-standings.csv")


@td_required
@require_GET
def hands_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Every current hand version, one line per player, in the order played."""
    tournament = get_tournament(tournament_id)
    header = [
        _("Level"),
        _("Table"),
        _("Hand"),
        _("Version"),
        _("Entry"),
        _("Dealer"),
        _("Player"),
        _("Seat"),
        _("Points"),
        _("In Fantasyland"),
        _("To Fantasyland next"),
        _("Fouled"),
        _("Royalties"),
        _("Front"),
        _("Middle"),
        _("Back"),
        _("Entered by"),
        _("At"),
        _("Correction reason"),
    ]
    rows: list[list[object]] = []
    for result in tournament_hand_results(tournament):
        version = result.version
        hand = version.hand
        entered_by = actor_name(version.entered_by_label) or (
            version.created_by.get_username() if version.created_by else ""
        )
        rows.append(
            [
                hand.table.level.number,
                hand.table.number,
                hand.number,
                version.version,
                version.get_mode_display(),
                # Annotated by tournament_hand_results' query (not a column).
                text_cell(result.dealer_name),  # type: ignore[attr-defined]
                text_cell(result.seat.player.name),
                result.seat.position + 1,
                result.points,
                yes_no(result.in_fantasyland),
                yes_no(result.fantasyland_next),
                yes_no(result.fouled),
                number_cell(result.royalties),
                result.front,
                result.middle,
                result.back,
                text_cell(entered_by),
                local_time(version.created_at),
                text_cell(version.reason),
            ]
        )
    return csv_download(header, rows, filename=f"{file_stem(tournament)}-hands.csv")
