"""A hand's first version is its line in the audit log; no AuditEntry is written for it.

Every hand recorded before this migration has its "hand.record" AuditEntry: its versions
are marked so, and the log keeps showing that entry. Migrating back writes the entries
the hands recorded since lack, so that the older code's log is whole.
"""

from django.db import migrations, models

RESULT_FIELDS = ("points", "fantasyland_next", "fouled", "royalties", "front", "middle", "back")


def mark_entries_kept(apps, schema_editor):
    apps.get_model("tournament", "HandVersion").objects.update(has_audit_entry=True)


def write_missing_entries(apps, schema_editor):
    HandVersion = apps.get_model("tournament", "HandVersion")
    HandResult = apps.get_model("tournament", "HandResult")
    AuditEntry = apps.get_model("tournament", "AuditEntry")
    versions = HandVersion.objects.filter(version=1, has_audit_entry=False).select_related(
        "hand__table__level", "created_by"
    )
    for version in versions.iterator():
        table = version.hand.table
        results = HandResult.objects.filter(version=version).select_related("seat__player")
        described = {
            result.seat.player.name: {
                name: getattr(result, name)
                for name in RESULT_FIELDS[: 2 if version.mode == "points" else None]
            }
            for result in sorted(results, key=lambda result: result.seat.position)
        }
        user = version.created_by
        entry = AuditEntry.objects.create(
            tournament_id=table.level.tournament_id,
            actor=user,
            actor_label=version.entered_by_label or (user.username if user else "system"),
            action="hand.record",
            params={
                "level": table.level.number,
                "table": table.number,
                "hand": version.hand.number,
                "mode": version.mode,
            },
            after={"hand": version.hand.number, "mode": version.mode, "results": described},
        )
        AuditEntry.objects.filter(pk=entry.pk).update(at=version.created_at)


class Migration(migrations.Migration):
    dependencies = [("tournament", "0014_seat_caches_in_table")]

    operations = [
        migrations.AddField(
            model_name="handversion",
            name="has_audit_entry",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(mark_entries_kept, write_missing_entries),
    ]
