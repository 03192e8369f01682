"""Read-only admin: for looking, never for writing.

Every change goes through tournament.services (which validates, recomputes and
audits); the admin would bypass all of that, so it offers no add, change or
delete.
"""

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from tournament import models
from tournament.audit import sentences


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(models.Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = ("name", "min_hands", "entry_mode", "royalties", "scoring_method", "champion")
    search_fields = ("name",)


@admin.register(models.Player)
class PlayerAdmin(ReadOnlyAdmin):
    list_display = ("number", "name", "tournament", "withdrawn_at", "disqualified")
    list_filter = ("tournament", "disqualified")
    search_fields = ("name",)


@admin.register(models.RegisterEntry)
class RegisterEntryAdmin(ReadOnlyAdmin):
    list_display = ("name", "uuid", "created_at", "merged_into", "merged_at", "merged_by")
    search_fields = ("name", "folded", "uuid")


@admin.register(models.Level)
class LevelAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "number", "created_at", "closed_at")


@admin.register(models.Draw)
class DrawAdmin(ReadOnlyAdmin):
    list_display = ("level", "number", "seed", "created_by", "created_at", "superseded_at")


@admin.register(models.Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ("level", "number", "hands_played", "required_hands", "is_over", "winner")
    list_filter = ("level__tournament", "is_over")


@admin.register(models.Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("table", "position", "player", "hand_points", "penalty_points", "total")


@admin.register(models.Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ("table", "number", "created_at")


@admin.register(models.HandVersion)
class HandVersionAdmin(ReadOnlyAdmin):
    list_display = ("hand", "version", "mode", "created_by", "created_at", "superseded_at")


@admin.register(models.HandResult)
class HandResultAdmin(ReadOnlyAdmin):
    list_display = ("version", "seat", "points", "fouled", "royalties", "fantasyland_next")


@admin.register(models.Penalty)
class PenaltyAdmin(ReadOnlyAdmin):
    list_display = ("player", "kind", "warning_number", "points", "table", "rescinded_at")
    list_filter = ("tournament", "kind")


@admin.register(models.TieSettlement)
class TieSettlementAdmin(ReadOnlyAdmin):
    list_display = ("table", "winner", "reason", "created_by", "created_at")


@admin.register(models.AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ("at", "actor_label", "action", "sentence")
    list_filter = ("tournament", "action")
    search_fields = ("action", "params", "summary")

    @admin.display(description=_("What happened"))
    def sentence(self, entry: models.AuditEntry) -> str:
        return sentences.sentence(entry)
