from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournament", "0006_revisor_throttle")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="table_confirms_points",
            field=models.BooleanField(
                default=False,
                help_text=(
                    "On: when the revisor enters a hand as points, the card first shows the "
                    "points for the revisor to read out to the table (\u201cAnna +8, Bo \u22125, "
                    "Cia \u22123\u201d); the hand is recorded only when the revisor confirms them, "
                    "as with a hand entered by cards. Off: the points are recorded when the "
                    "revisor records the hand."
                ),
                verbose_name="the table confirms points",
            ),
        ),
    ]
