import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournament", "0010_revisor_stations")]

    operations = [
        migrations.AddField(
            model_name="tablecall",
            name="player",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="tournament.player",
            ),
        ),
    ]
