import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournament", "0009_announcements")]

    operations = [
        migrations.CreateModel(
            name="RevisorStation",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveSmallIntegerField()),
                ("key", models.CharField(max_length=64, unique=True)),
                ("code", models.CharField(max_length=12, unique=True)),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="revisor_stations",
                        to="tournament.tournament",
                    ),
                ),
            ],
            options={
                "ordering": ["tournament_id", "number"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("tournament", "number"), name="unique_station_number"
                    )
                ],
            },
        ),
    ]
