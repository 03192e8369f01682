from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournament", "0011_timeout_call_player")]

    operations = []
