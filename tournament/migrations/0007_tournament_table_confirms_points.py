from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournament", "0006_revisor_throttle")]

    operations = []
