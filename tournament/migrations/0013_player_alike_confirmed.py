from django.db import migrations, models


class Migration(migrations.Migration):
    """The TD's confirmation that a player with a near-duplicate name is another player.

    Players registered before this step keep False (a lookalike confirmed then is in the
    audit log only): none of them is a case or accent variant of another, such names were
    refused then, so the import's check of such names holds for every backup.
    """

    dependencies = [("tournament", "0012_released_draws")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="alike_confirmed",
            field=models.BooleanField(
                default=False,
                help_text=(
                    "The TD confirmed that this is another player than the one with a very similar name."
                ),
                verbose_name="confirmed as another player",
            ),
        ),
    ]
