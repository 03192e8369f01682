"""A kept form key says which change it made and the row it made (services/idempotency.py),
so that the same submission sent again is answered with its first result. Every key kept
before was kept by a view's form for the request it was sent (views/once.py): marked
"form", its fingerprint answers as before. No row is deleted."""

from django.db import migrations, models


def mark_kept_by_forms(apps, schema_editor):
    apps.get_model("tournament", "FormSubmission").objects.filter(action="").update(action="form")


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0017_tournament_prizes"),
    ]

    operations = [
        migrations.AddField(
            model_name="formsubmission",
            name="action",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.AddField(
            model_name="formsubmission",
            name="result_id",
            field=models.PositiveBigIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(mark_kept_by_forms, migrations.RunPython.noop),
    ]
