from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournament", "0010_revisor_stations")]

    operations = []
