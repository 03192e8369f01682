"""A kept form key keeps what its submission asked for (views/once.py), so that the key sent
again for another change is refused instead of answered "already done". Keys kept before
have none: each still counts as its own submission sent again."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0015_handversion_has_audit_entry"),
    ]

    operations = [
        migrations.AddField(
            model_name="formsubmission",
            name="fingerprint",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
    ]
