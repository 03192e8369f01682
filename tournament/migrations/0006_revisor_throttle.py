from django.db import migrations, models


class Migration(migrations.Migration):
    """Wrong revisor codes counted per device (a random id in its session) and per code typed,
    besides per client address: a venue's phones share one address behind its NAT."""

    dependencies = [("tournament", "0005_revisor_code_attempts")]

    operations = [
        migrations.AddField(
            model_name="revisorcodeattempt",
            name="device",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
        migrations.AddField(
            model_name="revisorcodeattempt",
            name="code",
            field=models.CharField(blank=True, default="", max_length=20),
        ),
        migrations.AddIndex(
            model_name="revisorcodeattempt",
            index=models.Index(fields=["device", "at"], name="revisor_attempt_device_at"),
        ),
    ]
