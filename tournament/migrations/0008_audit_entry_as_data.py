from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournament", "0007_tournament_table_confirms_points")]

    operations = []
