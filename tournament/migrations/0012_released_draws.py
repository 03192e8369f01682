from django.db import migrations, models
from django.db.models import F


def release_existing_draws(apps, schema_editor):
    """Every draw made before this step was shown at once: it counts as released then."""
    Draw = apps.get_model("tournament", "Draw")
    Draw.objects.filter(released_at__isnull=True).update(released_at=F("created_at"))


class Migration(migrations.Migration):
    dependencies = [("tournament", "0011_timeout_call_player")]

    operations = [
        migrations.AddField(
            model_name="draw",
            name="released_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="tournament",
            name="release_draws_at_once",
            field=models.BooleanField(
                default=True,
                help_text=(
                    "On: the players, the big screen and the revisors see a new draw's seating "
                    "as soon as it is made. Off: a new draw is yours until you press “Release "
                    "the seating” on the level's page; you can check it, or redo it, first."
                ),
                verbose_name="release each draw at once",
            ),
        ),
        migrations.RunPython(release_existing_draws, migrations.RunPython.noop),
    ]
