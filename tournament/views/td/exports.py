"""TD pages: the JSON backup as a download, import by upload, CSV of standings and of hands.

The CSV files are UTF-8 with a byte order mark, so that Excel shows Å, Ä and Ö right,
and their headers are in the TD's language. They are separated as a spreadsheet of that
language expects when it opens the file: by commas in English, by semicolons in Swedish
(where the comma is the decimal sign, and Excel splits a CSV file at semicolons). The
csv module quotes a cell that holds the separator. Their cells (whole numbers written
plainly, no text read as a formula, prizes in the currency's units) are the selector's:
selectors/exports.py.
"""

import csv
import io
import json

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from tournament import backups as backup_service
from tournament.forms.td import ImportBackupForm
from tournament.models import Tournament
from tournament.selectors.exports import Sheet, hands_sheet, standings_sheet
from tournament.selectors.tournaments import tournament_named
from tournament.services.idempotency import AlreadyDone
from tournament.views.access import td_required
from tournament.views.td.common import get_tournament
from tournament.views.td.submit import carry_out

TEMPLATES = "tournament/td/exports/"
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


def delimiter() -> str:
    """The cells' separator for the language the request is answered in."""
    language = (get_language() or "").split("-")[0]
    return DELIMITERS.get(language, ",")


def csv_download(sheet: Sheet, *, filename: str) -> HttpResponse:
    buffer = io.StringIO()
    buffer.write("\ufeff")  # the byte order mark: Excel then reads the file as UTF-8
    writer = csv.writer(buffer, delimiter=delimiter())
    writer.writerow(sheet.header)
    writer.writerows(sheet.rows)
    return download(
        buffer.getvalue().encode("utf-8"),
        filename=filename,
        content_type="text/csv; charset=utf-8",
    )


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


@td_required
@require_http_methods(["GET", "POST"])
def import_backup(request: HttpRequest) -> HttpResponse:
    """Upload a backup: the import's own checks, each refusal shown on this page."""
    if request.method != "POST":
        return _import_page(request, ImportBackupForm())
    form = ImportBackupForm(request.POST, request.FILES)
    if not form.is_valid():
        form.renew_damaged_key()  # a damaged form: the next try gets a fresh key
        return _import_page(request, form, status=400)
    done = carry_out(
        request,
        form,
        lambda: backup_service.import_tournament(
            form.data_from_file(), actor=request.user, key=form.cleaned_data["submission_key"]
        ),
    )
    if done is None:
        return _import_page(request, form, status=400)
    tournament = _imported(request, form, done)
    if tournament is None:
        return redirect("td:dashboard")
    return redirect("td:tournament", tournament.pk)


def _imported(
    request: HttpRequest, form: ImportBackupForm, done: Tournament | AlreadyDone
) -> Tournament | None:
    """The tournament imported, said in a message; for the same file sent again, the one
    its first import made (for a key kept before 0018, found by its name), or None."""
    if isinstance(done, AlreadyDone):
        messages.info(request, _("This backup was imported already: nothing was imported again."))
        first = done.first
        if isinstance(first, Tournament):
            return first
        name = form.tournament_name()
        return tournament_named(name) if name is not None else None
    messages.success(request, _("Imported “%(name)s”.") % {"name": done.name})
    # Set by import_tournament on the tournament it made (not a field).
    note = done.accounts_note  # type: ignore[attr-defined]
    if note:
        messages.info(request, note)
    return done


# ---------------------------------------------------------------- CSV


@td_required
@require_GET
def standings_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The standings (rules.md section 6) as on the standings page."""
    tournament = get_tournament(tournament_id)
    return csv_download(
        standings_sheet(tournament), filename=f"{file_stem(tournament)}-standings.csv"
    )


@td_required
@require_GET
def hands_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Every current hand version, one line per player, in the order played."""
    tournament = get_tournament(tournament_id)
    return csv_download(hands_sheet(tournament), filename=f"{file_stem(tournament)}-hands.csv")
