"""The audit log kept as data: `params` holds what happened, the sentence is written when shown.

(And the entry mode's help speaks about the rules, not about the software.)

Existing entries stored an English sentence (`summary`); they are read back into params
(tournament/audit_legacy.py knows every form the services wrote) and keep their stored
text, which is shown as it is where it could not be read back.
"""

from django.db import migrations, models


def _level_finder(Level, tournament_id):
    """A function: the number of the tournament's level open at a moment (None if none)."""
    levels = list(
        Level.objects.filter(tournament_id=tournament_id)
        .order_by("number")
        .values_list("number", "created_at", "closed_at")
    )

    def level_at(at):
        open_then = [n for n, made, closed in levels if made <= at and (closed is None or at <= closed)]
        return max(open_then) if open_then else None

    return level_at


def read_back_params(apps, schema_editor):
    from tournament.audit.legacy import read_back

    AuditEntry = apps.get_model("tournament", "AuditEntry")
    Level = apps.get_model("tournament", "Level")
    finders = {}
    entries = AuditEntry.objects.filter(params__isnull=True).order_by("id")
    for entry in entries.iterator(chunk_size=2000):
        if entry.tournament_id not in finders:
            finders[entry.tournament_id] = _level_finder(Level, entry.tournament_id)
        level_at = finders[entry.tournament_id]
        params = read_back(
            action=entry.action,
            summary=entry.summary,
            before=entry.before,
            after=entry.after,
            level_at=lambda at=entry.at: level_at(at),
        )
        if params is not None:
            # AuditEntry.save refuses changes; the stored sentence stays as it was.
            AuditEntry.objects.filter(pk=entry.pk).update(params=params)


def write_sentences_back(apps, schema_editor):
    """Going back: entries made since have no stored sentence; give them their English one."""
    from django.utils import translation

    from tournament.audit.sentences import sentence

    AuditEntry = apps.get_model("tournament", "AuditEntry")
    with translation.override("en"):
        for entry in AuditEntry.objects.filter(summary="").order_by("id").iterator():
            text = sentence(entry) or entry.action
            AuditEntry.objects.filter(pk=entry.pk).update(summary=text[:300])


class Migration(migrations.Migration):
    dependencies = [("tournament", "0007_tournament_table_confirms_points")]

    operations = [
        migrations.AddField(
            model_name="auditentry",
            name="params",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="auditentry",
            name="summary",
            field=models.CharField(blank=True, max_length=300),
        ),
        migrations.RunPython(read_back_params, write_sentences_back, elidable=False),
        # Help that speaks about the rules, not about the software (issue 17).
        migrations.AlterField(
            model_name="tournament",
            name="entry_mode",
            field=models.CharField(
                choices=[("points", "Points"), ("cards", "Cards"), ("either", "Points or cards")],
                default="either",
                help_text="How the revisor records a hand: each player's points (summing to "
                "zero), or the players' cards, from which the hand is scored by this "
                "tournament's royalty table and scoring method, fouls and Fantasyland included.",
                max_length=10,
                verbose_name="hand entry",
            ),
        ),
    ]
